package io.anteroom.bench.micro;

import static io.anteroom.bench.micro.MicroGateway.complete;

import io.anteroom.gateway.filter.WaitingRoomGatewayFilterFactory;
import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * What the gateway does for an admitted visitor before the origin is called: the path guard, and
 * the room's filter deciding on a request that carries a valid pass, next to the same request
 * through a filter that does nothing. The gateway runs in this JVM with Redis unreachable and the
 * downstream chain does nothing, so each benchmark measures the decision alone and fails if it
 * waited on Redis. Each operation builds a fresh exchange (the filter registers a callback on the
 * response), the same in every benchmark, so the differences are the filters' own cost.
 */
public class FilterBenchmarks extends MicroDefaults {

  private static final GatewayFilterChain FORWARD = exchange -> Mono.empty();
  private static final WebFilterChain NEXT = exchange -> Mono.empty();
  static final GatewayFilter NO_OP = (exchange, chain) -> chain.filter(exchange);

  private MicroGateway gateway;
  private GatewayFilter waitingRoom;
  private WebFilter pathGuard;

  @Setup(Level.Trial)
  public void start() throws IOException {
    gateway = MicroGateway.start();
    waitingRoom = waitingRoom(gateway);
    pathGuard = gateway.bean("pathGuard", WebFilter.class);
    require(
        forwards((e, c) -> waitingRoom.filter(e, c::filter)), "a pass holder must be forwarded");
    require(forwards(pathGuard), "the path guard must let the path through");
  }

  @TearDown(Level.Trial)
  public void stop() {
    gateway.close();
  }

  /** The {@code WaitingRoom=shop} filter as the gateway's factory makes it. */
  static GatewayFilter waitingRoom(MicroGateway gateway) {
    WaitingRoomGatewayFilterFactory.Config config = new WaitingRoomGatewayFilterFactory.Config();
    config.setRoom(ROOM);
    return gateway.bean(WaitingRoomGatewayFilterFactory.class).apply(config);
  }

  @Benchmark
  public void waitingRoomPassHolder() {
    complete(waitingRoom.filter(gateway.passHolder(), FORWARD));
  }

  @Benchmark
  public void noOpFilterReference() {
    complete(NO_OP.filter(gateway.passHolder(), FORWARD));
  }

  @Benchmark
  public void pathGuard() {
    complete(pathGuard.filter(gateway.passHolder(), NEXT));
  }

  /** Whether {@code filter} passes a pass holder's request on, unanswered, to the chain. */
  private boolean forwards(WebFilter filter) {
    boolean[] forwarded = {false};
    complete(
        filter.filter(
            gateway.passHolder(),
            exchange -> {
              forwarded[0] = exchange.getResponse().getStatusCode() == null;
              return Mono.empty();
            }));
    return forwarded[0];
  }
}

package io.anteroom.bench.micro;

import static io.anteroom.bench.micro.MicroGateway.complete;

import io.anteroom.gateway.origin.OriginMeters;
import io.anteroom.gateway.origin.OriginWatch;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * What timing the origin's answer costs a pass holder's request. The gateway times every request it
 * forwards ({@link OriginMeters#timed}, the timer {@value OriginMeters#NAME}) and records a pass
 * holder's answer a second time for the room's auto-pilot ({@link OriginWatch}). Here the origin
 * answers at once: the chain sets 200 and commits the response, so the timing's callbacks run as
 * when real headers arrive. The shipped filter always records a pass holder into both, so the
 * watch's share is measured one level down, on the same request: {@code timed(…, holder=true)} less
 * {@code timed(…, holder=false)}, each wrapped in a filter that does nothing else.
 */
public class OriginBenchmarks extends MicroDefaults {

  /** An origin that answers 200 at once: the response commits and its callbacks run. */
  private static final GatewayFilterChain ANSWER =
      exchange ->
          Mono.defer(
              () -> {
                exchange.getResponse().setStatusCode(HttpStatus.OK);
                return exchange.getResponse().setComplete();
              });

  private MicroGateway gateway;
  private GatewayFilter waitingRoom;
  private GatewayFilter timedHolder;
  private GatewayFilter timedOther;

  @Setup(Level.Trial)
  public void start() throws IOException {
    gateway = MicroGateway.start();
    waitingRoom = FilterBenchmarks.waitingRoom(gateway);
    OriginMeters origin = gateway.bean(OriginMeters.class);
    timedHolder =
        (exchange, chain) -> origin.timed(ROOM, exchange, chain::filter, "vQx3n0kq7S2mB8yZfL1aPg");
    timedOther = (exchange, chain) -> origin.timed(ROOM, exchange, chain::filter, null);
    Timer answers = origin.timer(ROOM, OriginMeters.Outcome.SUCCESS);
    require(times(answers, FilterBenchmarks.NO_OP) == 0, "the reference must not be timed");
    require(times(answers, waitingRoom) == 1, "the filter must time a pass holder's answer");
    require(times(answers, timedHolder) == 1, "timed(holder) must time the answer");
    require(times(answers, timedOther) == 1, "timed(not holder) must time the answer");
  }

  @TearDown(Level.Trial)
  public void stop() {
    gateway.close();
  }

  @Benchmark
  public void answeredNoOpReference() {
    complete(FilterBenchmarks.NO_OP.filter(gateway.passHolder(), ANSWER));
  }

  @Benchmark
  public void answeredWaitingRoomPassHolder() {
    complete(waitingRoom.filter(gateway.passHolder(), ANSWER));
  }

  @Benchmark
  public void originTimedHolder() {
    complete(timedHolder.filter(gateway.passHolder(), ANSWER));
  }

  @Benchmark
  public void originTimedOther() {
    complete(timedOther.filter(gateway.passHolder(), ANSWER));
  }

  /**
   * How many answers {@code filter} adds to {@code timer} for one committed pass holder's request.
   */
  private long times(Timer timer, GatewayFilter filter) {
    long before = timer.count();
    ServerWebExchange exchange = gateway.passHolder();
    complete(filter.filter(exchange, ANSWER));
    require(exchange.getResponse().isCommitted(), "the answer must commit the response");
    return timer.count() - before;
  }
}

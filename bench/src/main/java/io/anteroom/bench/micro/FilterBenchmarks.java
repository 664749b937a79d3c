package io.anteroom.bench.micro;

import io.anteroom.gateway.GatewayApplication;
import io.anteroom.gateway.filter.WaitingRoomGatewayFilterFactory;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.testing.FreePorts;
import java.io.IOException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpCookie;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.server.adapter.DefaultServerWebExchange;
import org.springframework.web.server.i18n.AcceptHeaderLocaleContextResolver;
import org.springframework.web.server.i18n.LocaleContextResolver;
import org.springframework.web.server.session.DefaultWebSessionManager;
import org.springframework.web.server.session.WebSessionManager;
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

  private static final String PATH = "/products/42";
  private static final Map<String, String> PATH_VARIABLES = Map.of("id", "42");
  private static final GatewayFilterChain FORWARD = exchange -> Mono.empty();
  private static final WebFilterChain NEXT = exchange -> Mono.empty();
  // Built once, as a server builds them once: MockServerWebExchange makes new codecs per exchange.
  private static final ServerCodecConfigurer CODECS = ServerCodecConfigurer.create();
  private static final WebSessionManager SESSIONS = new DefaultWebSessionManager();
  private static final LocaleContextResolver LOCALES = new AcceptHeaderLocaleContextResolver();
  private static final GatewayFilter NO_OP = (exchange, chain) -> chain.filter(exchange);

  private ConfigurableApplicationContext gateway;
  private GatewayFilter waitingRoom;
  private WebFilter pathGuard;
  private HttpCookie passCookie;

  @Setup(Level.Trial)
  public void start() throws IOException {
    // The gateway as it ships (config/anteroom.yml, every bean wired by its own configuration),
    // with Redis where nothing listens: what needs Redis cannot finish at once (see complete).
    System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
    gateway =
        new SpringApplicationBuilder(GatewayApplication.class)
            .run(
                "--ANTEROOM_CONFIG=" + System.getProperty("bench.micro.config"),
                "--anteroom.tokens.keys.main=" + Base64.getEncoder().encodeToString(KEY),
                "--anteroom.redis.uri=redis://127.0.0.1:" + FreePorts.pick(),
                "--anteroom.gateway.cookie-secure=false",
                "--server.port=0",
                "--management.server.port=" + FreePorts.pick());
    WaitingRoomGatewayFilterFactory factory =
        gateway.getBean(WaitingRoomGatewayFilterFactory.class);
    WaitingRoomGatewayFilterFactory.Config config = new WaitingRoomGatewayFilterFactory.Config();
    config.setRoom(ROOM);
    waitingRoom = factory.apply(config);
    pathGuard = gateway.getBean("pathGuard", WebFilter.class);
    // An hour-long pass: well before half its life, so no renewal (which would call Redis).
    String pass =
        gateway
            .getBean(TokenCodec.class)
            .issuePass(VisitorIds.newVisitorId(), ROOM, List.of("42"), Duration.ofHours(1));
    passCookie = new HttpCookie("anteroom_pass_" + ROOM, pass);
    require(
        forwards((e, c) -> waitingRoom.filter(e, c::filter)), "a pass holder must be forwarded");
    require(forwards(pathGuard), "the path guard must let the path through");
  }

  @TearDown(Level.Trial)
  public void stop() {
    gateway.close();
  }

  /** A browser's GET of a protected page with its pass and a cookie of the shop's own. */
  private ServerWebExchange passHolder() {
    ServerWebExchange exchange =
        new DefaultServerWebExchange(
            MockServerHttpRequest.get(PATH)
                .header("Accept", "text/html")
                .header("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) micro-benchmark")
                .cookie(passCookie, new HttpCookie("shop_session", "c2Vzc2lvbi0xMjM0NTY3ODk"))
                .build(),
            new BareResponse(),
            SESSIONS,
            CODECS,
            LOCALES);
    // What the route's Path predicate leaves for the filter.
    exchange
        .getAttributes()
        .put(ServerWebExchangeUtils.URI_TEMPLATE_VARIABLES_ATTRIBUTE, PATH_VARIABLES);
    return exchange;
  }

  @Benchmark
  public void waitingRoomPassHolder() {
    complete(waitingRoom.filter(passHolder(), FORWARD));
  }

  @Benchmark
  public void noOpFilterReference() {
    complete(NO_OP.filter(passHolder(), FORWARD));
  }

  @Benchmark
  public void pathGuard() {
    complete(pathGuard.filter(passHolder(), NEXT));
  }

  /**
   * Requires the filter's answer to have finished by the time {@code subscribe} returns: with a
   * no-op downstream chain, an answer still pending waited on something such as Redis.
   */
  private static void complete(Mono<Void> answer) {
    CompletableFuture<Void> done = answer.toFuture();
    require(done.isDone(), "the filter must decide at once, not wait on Redis");
    done.join();
  }

  /** Whether {@code filter} passes a pass holder's request on, unanswered, to the chain. */
  private boolean forwards(WebFilter filter) {
    boolean[] forwarded = {false};
    complete(
        filter.filter(
            passHolder(),
            exchange -> {
              forwarded[0] = exchange.getResponse().getStatusCode() == null;
              return Mono.empty();
            }));
    return forwarded[0];
  }
}

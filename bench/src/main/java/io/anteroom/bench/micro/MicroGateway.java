package io.anteroom.bench.micro;

import io.anteroom.gateway.GatewayApplication;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.testing.FreePorts;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpCookie;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.adapter.DefaultServerWebExchange;
import org.springframework.web.server.i18n.AcceptHeaderLocaleContextResolver;
import org.springframework.web.server.i18n.LocaleContextResolver;
import org.springframework.web.server.session.DefaultWebSessionManager;
import org.springframework.web.server.session.WebSessionManager;
import reactor.core.publisher.Mono;

/**
 * The gateway as it ships (config/anteroom.yml, every bean wired by its own configuration), started
 * in the benchmark JVM with Redis where nothing listens, and the requests the benchmarks send it:
 * what needs Redis cannot finish at once (see {@link #complete}).
 */
final class MicroGateway implements AutoCloseable {

  private static final String PATH = "/products/42";
  private static final Map<String, String> PATH_VARIABLES = Map.of("id", "42");
  // Built once, as a server builds them once: MockServerWebExchange makes new codecs per exchange.
  private static final ServerCodecConfigurer CODECS = ServerCodecConfigurer.create();
  private static final WebSessionManager SESSIONS = new DefaultWebSessionManager();
  private static final LocaleContextResolver LOCALES = new AcceptHeaderLocaleContextResolver();

  private final ConfigurableApplicationContext context;
  private final HttpCookie passCookie;

  private MicroGateway(ConfigurableApplicationContext context) {
    this.context = context;
    // An hour-long pass: well before half its life, so no renewal (which would call Redis).
    String pass =
        context
            .getBean(TokenCodec.class)
            .issuePass(
                VisitorIds.newVisitorId(), MicroDefaults.ROOM, List.of("42"), Duration.ofHours(1));
    this.passCookie = new HttpCookie("anteroom_pass_" + MicroDefaults.ROOM, pass);
  }

  static MicroGateway start() throws IOException {
    return start(List.of());
  }

  /**
   * @param settings more {@code --name=value} arguments, e.g. how passes are signed
   */
  static MicroGateway start(List<String> settings) throws IOException {
    System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
    List<String> args = new ArrayList<>();
    args.add("--ANTEROOM_CONFIG=" + System.getProperty("bench.micro.config"));
    args.add(
        "--anteroom.tokens.keys.main=" + Base64.getEncoder().encodeToString(MicroDefaults.KEY));
    args.add("--anteroom.redis.uri=redis://127.0.0.1:" + FreePorts.pick());
    args.add("--anteroom.gateway.cookie-secure=false");
    args.add("--server.port=0");
    args.add("--management.server.port=" + FreePorts.pick());
    args.addAll(settings);
    return new MicroGateway(
        new SpringApplicationBuilder(GatewayApplication.class).run(args.toArray(String[]::new)));
  }

  /** The pass this gateway issued, which every {@link #passHolder()} request carries. */
  String pass() {
    return passCookie.getValue();
  }

  <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  <T> T bean(String name, Class<T> type) {
    return context.getBean(name, type);
  }

  @Override
  public void close() {
    context.close();
  }

  /** A browser's GET of a protected page with its pass and a cookie of the shop's own. */
  ServerWebExchange passHolder() {
    ServerWebExchange exchange =
        exchange(
            MockServerHttpRequest.get(PATH)
                .header("Accept", "text/html")
                .header("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) micro-benchmark")
                .cookie(passCookie, new HttpCookie("shop_session", "c2Vzc2lvbi0xMjM0NTY3ODk"))
                .build());
    // What the route's Path predicate leaves for the filter.
    exchange
        .getAttributes()
        .put(ServerWebExchangeUtils.URI_TEMPLATE_VARIABLES_ATTRIBUTE, PATH_VARIABLES);
    return exchange;
  }

  /** {@code request} with a response that goes nowhere, as cheap as a server's own. */
  static ServerWebExchange exchange(MockServerHttpRequest request) {
    return new DefaultServerWebExchange(request, new BareResponse(), SESSIONS, CODECS, LOCALES);
  }

  /**
   * Requires the answer to have finished by the time {@code subscribe} returns: with a downstream
   * chain that does not wait, an answer still pending waited on something such as Redis.
   */
  static void complete(Mono<Void> answer) {
    CompletableFuture<Void> done = answer.toFuture();
    MicroDefaults.require(done.isDone(), "the filter must decide at once, not wait on Redis");
    done.join();
  }
}

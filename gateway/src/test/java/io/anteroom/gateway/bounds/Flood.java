package io.anteroom.gateway.bounds;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Requests through one room's waiting-room filter of a running gateway, in-process and as fast as
 * it answers them: the filter and all it uses (the line in Redis, the limits, activation, the
 * counts) are the gateway's own; only the HTTP server in front and the origin behind are left out,
 * the origin's part being a 200 answer. Every request is a new visitor without cookies, from one
 * client address, asking for JSON. Counts the answers by status.
 */
final class Flood {

  /** What came back: requests sent, answers by status, and how long it took. */
  record Result(int requests, Map<Integer, Long> statuses, long millis) {

    double perSecond() {
      return requests * 1000.0 / Math.max(1, millis);
    }
  }

  private Flood() {}

  /**
   * A random number of {@code length} digits without a leading zero, like a real item's: its own
   * canonical spelling in a room of integer ids.
   */
  static String randomId(int length) {
    StringBuilder id = new StringBuilder(length);
    ThreadLocalRandom random = ThreadLocalRandom.current();
    id.append((char) ('1' + random.nextInt(9)));
    for (int i = 1; i < length; i++) {
      id.append((char) ('0' + random.nextInt(10)));
    }
    return id.toString();
  }

  /**
   * Sends {@code requests} GETs of {@code /products/<item>}, {@code item.apply(n)} for the n-th,
   * through {@code filter}, at most {@code concurrency} at once.
   */
  static Result through(
      GatewayFilter filter, int requests, int concurrency, IntFunction<String> item) {
    long start = System.nanoTime();
    Map<Integer, Long> statuses =
        Flux.range(0, requests)
            .flatMap(n -> one(filter, item.apply(n)), concurrency)
            .collect(Collectors.groupingBy(status -> status, TreeMap::new, Collectors.counting()))
            .block(Duration.ofMinutes(5));
    return new Result(requests, statuses, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
  }

  private static Mono<Integer> one(GatewayFilter filter, String item) {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(
            MockServerHttpRequest.get("/products/" + item)
                .accept(MediaType.APPLICATION_JSON)
                .remoteAddress(new InetSocketAddress("127.0.0.1", 50_000)));
    exchange
        .getAttributes()
        .put(ServerWebExchangeUtils.URI_TEMPLATE_VARIABLES_ATTRIBUTE, Map.of("id", item));
    return filter
        .filter(
            exchange,
            origin -> {
              origin.getResponse().setStatusCode(HttpStatus.OK);
              return origin.getResponse().setComplete();
            })
        .then(
            Mono.fromSupplier(
                () -> {
                  HttpStatusCode status = exchange.getResponse().getStatusCode();
                  return status == null ? 200 : status.value();
                }));
  }
}

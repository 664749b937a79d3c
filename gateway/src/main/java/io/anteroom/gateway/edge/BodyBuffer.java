package io.anteroom.gateway.edge;

import io.anteroom.gateway.origin.Sending;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reads a request's whole body before it goes to the origin, as nginx does by default: a client
 * that sends its body slowly (or never finishes) holds a connection of the gateway, which costs it
 * little, never a worker of the origin. A body larger than {@code
 * anteroom.gateway.max-request-body} is answered {@code 413}, one that has not arrived within
 * {@code anteroom.gateway.request-body-timeout} {@code 408}; a body arriving while the bodies of
 * all requests together hold {@code anteroom.gateway.request-bodies-held}, or those of its client
 * address an eighth of it (at least one largest body), is answered {@code 503}: all counted as
 * {@value #REFUSED}{@code {reason}} and never forwarded. Requests without a body pass untouched.
 * Runs on every route, just before the request is sent.
 */
final class BodyBuffer implements GlobalFilter, Ordered {

  static final String REFUSED = "anteroom.gateway.bodies.refused";
  static final String HELD = "anteroom.gateway.bodies.held";

  private static final byte[] TOO_LARGE =
      "{\"error\":\"body-too-large\"}".getBytes(StandardCharsets.UTF_8);
  private static final byte[] TOO_SLOW =
      "{\"error\":\"body-too-slow\"}".getBytes(StandardCharsets.UTF_8);
  private static final byte[] NO_ROOM =
      "{\"error\":\"bodies-held-full\"}".getBytes(StandardCharsets.UTF_8);

  private final int most;
  private final Duration within;
  private final long budget;
  private final long share;
  private final Function<ServerHttpRequest, String> clients;
  private final AtomicLong held = new AtomicLong();
  private final Map<String, Long> byClient = new ConcurrentHashMap<>();
  private final Counter tooLarge;
  private final Counter tooSlow;
  private final Counter noRoom;

  /**
   * @param most the largest body read, in bytes
   * @param within how long the whole body may take to arrive
   * @param budget the most bytes of bodies held at once, all requests together
   * @param clients what a request's client address counts as; one address holds at most an eighth
   *     of {@code budget}, and at least {@code most}
   */
  BodyBuffer(
      int most,
      Duration within,
      long budget,
      Function<ServerHttpRequest, String> clients,
      MeterRegistry meters) {
    this.most = most;
    this.within = within;
    this.budget = budget;
    this.share = Math.max(most, budget / 8);
    this.clients = clients;
    this.tooLarge = counter(meters, "too-large");
    this.tooSlow = counter(meters, "too-slow");
    this.noRoom = counter(meters, "no-room");
    Gauge.builder(HELD, held, AtomicLong::get)
        .description(
            "Bytes of request bodies the gateway holds now, from their arrival to the answer")
        .baseUnit("bytes")
        .register(meters);
  }

  private static Counter counter(MeterRegistry meters, String reason) {
    return Counter.builder(REFUSED)
        .description("Request bodies refused before reaching the origin")
        .tag("reason", reason)
        .register(meters);
  }

  /** Just before the routing filter, which sends the request ({@code LOWEST_PRECEDENCE}). */
  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE - 1;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
    ServerHttpRequest request = exchange.getRequest();
    HttpHeaders headers = request.getHeaders();
    if (headers.getContentLength() <= 0 && !headers.containsHeader(HttpHeaders.TRANSFER_ENCODING)) {
      return chain.filter(exchange);
    }
    if (headers.getContentLength() > most) {
      withheld(exchange);
      tooLarge.increment();
      return refuse(exchange, HttpStatus.PAYLOAD_TOO_LARGE, TOO_LARGE);
    }
    // Only the reading is refused: what the origin answers, or how it fails, passes as it is.
    Hold hold = new Hold(clients.apply(request));
    return DataBufferUtils.join(request.getBody().doOnNext(hold::take), most)
        .timeout(within)
        .doOnError(error -> withheld(exchange))
        .map(body -> withBody(exchange, Flux.just(body)))
        .switchIfEmpty(Mono.fromSupplier(() -> withBody(exchange, Flux.empty())))
        .onErrorResume(
            DataBufferLimitException.class,
            error -> {
              tooLarge.increment();
              return refuse(exchange, HttpStatus.PAYLOAD_TOO_LARGE, TOO_LARGE).then(Mono.empty());
            })
        .onErrorResume(
            TimeoutException.class,
            error -> {
              tooSlow.increment();
              return refuse(exchange, HttpStatus.REQUEST_TIMEOUT, TOO_SLOW).then(Mono.empty());
            })
        .onErrorResume(
            NoRoom.class,
            error -> {
              noRoom.increment();
              exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
              return refuse(exchange, HttpStatus.SERVICE_UNAVAILABLE, NO_ROOM).then(Mono.empty());
            })
        .flatMap(chain::filter)
        .doFinally(signal -> hold.release());
  }

  /** Tells the origin's meters that {@code exchange} never reached the origin. */
  private static void withheld(ServerWebExchange exchange) {
    Sending sending = Sending.of(exchange);
    if (sending != null) {
      sending.withheld();
    }
  }

  /** The bytes of one request's body held, counted against the budget as they arrive. */
  private final class Hold {
    private final String client;
    private long taken;

    Hold(String client) {
      this.client = client;
    }

    void take(DataBuffer part) {
      long bytes = part.readableByteCount();
      taken += bytes;
      long ofClient = byClient.merge(client, bytes, Long::sum);
      if (held.addAndGet(bytes) > budget || ofClient > share) {
        throw new NoRoom();
      }
    }

    void release() {
      long bytes = taken;
      taken = 0;
      held.addAndGet(-bytes);
      // An address holding nothing more is forgotten: made-up addresses leave no entries behind.
      byClient.computeIfPresent(client, (address, had) -> had == bytes ? null : had - bytes);
    }
  }

  /** The bodies held together would exceed the budget. */
  private static final class NoRoom extends RuntimeException {
    NoRoom() {
      super("request bodies held: the budget is full", null, false, false);
    }
  }

  /**
   * {@code exchange} with the body read in place of the one its request was still receiving; a
   * forwarding timed for the origin is timed from this body on.
   */
  private static ServerWebExchange withBody(ServerWebExchange exchange, Flux<DataBuffer> read) {
    Sending sending = Sending.of(exchange);
    Flux<DataBuffer> body = sending == null ? read : sending.forwarding(read);
    ServerHttpRequest request =
        new ServerHttpRequestDecorator(exchange.getRequest()) {
          @Override
          public Flux<DataBuffer> getBody() {
            return body;
          }
        };
    return exchange.mutate().request(request).build();
  }

  private static Mono<Void> refuse(ServerWebExchange exchange, HttpStatus status, byte[] text) {
    ServerHttpResponse response = exchange.getResponse();
    if (response.isCommitted()) {
      return Mono.empty();
    }
    response.setStatusCode(status);
    response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
    response.getHeaders().setConnection("close");
    return response.writeWith(Mono.just(response.bufferFactory().wrap(text)));
  }
}

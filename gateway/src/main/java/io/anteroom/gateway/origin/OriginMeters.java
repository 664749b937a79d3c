package io.anteroom.gateway.origin;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * How long each room's origin takes to answer a forwarded request: the timer {@value #NAME}{@code
 * {room,outcome}}, a histogram (Prometheus buckets from 1 ms to 10 s) from the moment the whole
 * request has gone to the origin (its body's last byte; for a bodiless request, the start of
 * forwarding: {@link Sending}) to the moment the origin's status and headers arrive. A client that
 * drips its body moves only what comes before, which is not timed: only the origin moves the timer.
 * An answer or a failure before the request was fully sent counts 0 s, save a connection the origin
 * refused, timed from the start of forwarding. The outcome is the answer's status class ({@code
 * 2xx} … {@code 5xx}), or {@code error} when no answer came (refused connection, timeout). Every
 * room's timers are registered once at start-up, so rates start at zero and the number of series is
 * fixed; a request the visitor abandoned before the answer is not timed. The timer times every
 * forwarded request; the auto-pilot ({@link OriginWatch}) samples only the answers to requests
 * {@code timed} names a visitor for, once the request was fully sent, and a failure only when it is
 * the origin's own ({@link Sending#originsOwn}).
 */
public final class OriginMeters {

  /** The timer's name. */
  public static final String NAME = "anteroom.gateway.origin";

  /** What the origin did with a forwarded request, as the {@code outcome} tag says. */
  public enum Outcome {
    INFORMATIONAL("1xx"),
    SUCCESS("2xx"),
    REDIRECTION("3xx"),
    CLIENT_ERROR("4xx"),
    SERVER_ERROR("5xx"),
    /** No answer: the origin could not be reached or did not answer in time. */
    ERROR("error");

    private final String tag;

    Outcome(String tag) {
      this.tag = tag;
    }

    /** The {@code outcome} tag. */
    public String tag() {
      return tag;
    }

    /** The outcome of an answer with {@code status} (200 when unset). */
    static Outcome of(HttpStatusCode status) {
      return switch (status == null ? 2 : status.value() / 100) {
        case 1 -> INFORMATIONAL;
        case 2 -> SUCCESS;
        case 3 -> REDIRECTION;
        case 4 -> CLIENT_ERROR;
        default -> SERVER_ERROR;
      };
    }
  }

  private final Map<String, EnumMap<Outcome, Timer>> rooms;
  private final OriginWatch watch;
  private final Clock clock;

  /**
   * @param rooms the configured rooms
   * @param watch where the pass holders' answers are also recorded, for the auto-pilot
   */
  public OriginMeters(Set<String> rooms, OriginWatch watch, MeterRegistry meters) {
    this.watch = watch;
    this.clock = meters.config().clock();
    this.rooms =
        rooms.stream()
            .collect(Collectors.toUnmodifiableMap(Function.identity(), r -> timers(r, meters)));
  }

  private static EnumMap<Outcome, Timer> timers(String room, MeterRegistry meters) {
    EnumMap<Outcome, Timer> timers = new EnumMap<>(Outcome.class);
    for (Outcome outcome : Outcome.values()) {
      timers.put(
          outcome,
          Timer.builder(NAME)
              .description("Time from a request fully sent to the origin to its status and headers")
              .tags("room", room, "outcome", outcome.tag())
              .publishPercentileHistogram()
              .minimumExpectedValue(Duration.ofMillis(1))
              .maximumExpectedValue(Duration.ofSeconds(10))
              .register(meters));
    }
    return timers;
  }

  /** The timer of {@code room}'s answers with {@code outcome}, or null for an unknown room. */
  public Timer timer(String room, Outcome outcome) {
    EnumMap<Outcome, Timer> timers = rooms.get(room);
    return timers == null ? null : timers.get(outcome);
  }

  /**
   * {@code forwarding} (the rest of the chain, which calls the origin) of {@code exchange}, timed
   * from the moment the request is fully sent until the answer's headers are about to be written to
   * the visitor, or until it fails.
   *
   * @param sampled the visitor whose answer the auto-pilot samples ({@link OriginWatch}): a pass
   *     holder the line admitted, asking to read (GET, HEAD); null for everyone else
   */
  public Mono<Void> timed(
      String room,
      ServerWebExchange exchange,
      Function<ServerWebExchange, Mono<Void>> forwarding,
      String sampled) {
    EnumMap<Outcome, Timer> timers = rooms.get(room);
    if (timers == null) {
      return forwarding.apply(exchange);
    }
    Sending sending = new Sending(clock);
    Answer answer = new Answer(room, timers, sampled, exchange.getResponse(), sending);
    exchange.getResponse().beforeCommit(answer);
    return forwarding.apply(sending.watch(exchange)).doOnError(answer::failed);
  }

  /**
   * One forwarded request's answer, recorded once: when it commits, or when forwarding fails; never
   * for a request the gateway withheld from the origin ({@link Sending#withheld}).
   */
  private final class Answer implements Supplier<Mono<Void>> {

    private final String room;
    private final EnumMap<Outcome, Timer> timers;
    private final String sampled;
    private final ServerHttpResponse response;
    private final Sending sending;
    private volatile boolean recorded;

    Answer(
        String room,
        EnumMap<Outcome, Timer> timers,
        String sampled,
        ServerHttpResponse response,
        Sending sending) {
      this.room = room;
      this.timers = timers;
      this.sampled = sampled;
      this.response = response;
      this.sending = sending;
    }

    /** Runs just before the answer's status and headers go to the visitor. */
    @Override
    public Mono<Void> get() {
      record(Outcome.of(response.getStatusCode()), null);
      return Mono.empty();
    }

    void failed(Throwable error) {
      record(Outcome.ERROR, error);
    }

    private void record(Outcome outcome, Throwable error) {
      if (recorded) {
        return;
      }
      recorded = true;
      if (!sending.forwarded()) {
        return;
      }
      boolean refused = error != null && Sending.refused(error);
      long nanos = sending.originNanos(clock.monotonicTime(), refused);
      timers.get(outcome).record(nanos, TimeUnit.NANOSECONDS);
      if (sampled != null && (error == null ? sending.fullySent() : sending.originsOwn(error))) {
        watch.sample(room, sampled, outcome, nanos);
      }
    }
  }
}

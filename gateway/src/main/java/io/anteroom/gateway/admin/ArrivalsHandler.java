package io.anteroom.gateway.admin;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.queue.arrival.RecordedArrival;
import io.anteroom.queue.arrival.RedisArrivals;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.springframework.http.CacheControl;
import org.springframework.http.ContentDisposition;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code GET /admin/api/rooms/{room}/arrivals?from=…&to=…}: the room's recorded arrivals as CSV,
 * the file {@code ./anteroom simulate --recording} replays:
 *
 * <pre>
 * # anteroom arrivals room=shop sample=0.25 from=2026-12-04T15:00:00Z to=2026-12-04T15:10:00Z
 * at_ms,item
 * 1764860400123,42
 * 1764860400150,_
 * </pre>
 *
 * The first line states the share of newcomers recorded (the latest in the span, when it changed
 * while recording; the room's setting now when nothing was recorded) and the span: {@code from} and
 * {@code to} as asked, or the first and last arrival (the time of the call when there is none).
 * Rows are in time order, each arrival once. The stream is read twice in pages of {@link #PAGE}:
 * once for the first line, once for the rows, which go out while they are read; memory holds a page
 * and {@link RedisArrivals#LATEST} of arrivals. A Redis failure before the first line is a 503;
 * after it, the download ends short.
 */
final class ArrivalsHandler {

  static final int PAGE = 1_000;

  static final MediaType CSV = new MediaType("text", "csv");

  private final Rooms rooms;
  private final RedisArrivals arrivals;
  private final RedisGuard redis;
  private final Clock clock;

  ArrivalsHandler(Rooms rooms, RedisArrivals arrivals, RedisGuard redis, Clock clock) {
    this.rooms = rooms;
    this.arrivals = arrivals;
    this.redis = redis;
    this.clock = clock;
  }

  /** The span asked for, in epoch ms, both ends included. */
  private record Span(long from, long to) {

    boolean holds(RecordedArrival arrival) {
      return arrival.at() >= from && arrival.at() <= to;
    }
  }

  /** What the first read found: what the first line states, and where the second read stops. */
  private record Found(long count, long first, long last, double sample, String lastId) {

    static final Found NOTHING = new Found(0, Long.MAX_VALUE, Long.MIN_VALUE, 0, null);

    Found with(RecordedArrival arrival) {
      return new Found(
          count + 1,
          Math.min(first, arrival.at()),
          Math.max(last, arrival.at()),
          arrival.sample(),
          lastId);
    }

    Found readTo(String id) {
      return id == null ? this : new Found(count, first, last, sample, id);
    }
  }

  Mono<ServerResponse> room(ServerRequest request) {
    String room = rooms.room(request);
    Instant from = instant(request, "from");
    Instant to = instant(request, "to");
    if (from != null && to != null && to.isBefore(from)) {
      throw AdminException.badRequest("to: must not be before from");
    }
    Span span =
        new Span(
            from == null ? 0 : from.toEpochMilli(),
            to == null ? Long.MAX_VALUE : to.toEpochMilli());
    return found(room, span).flatMap(found -> export(room, span, from, to, found));
  }

  /** The file, once the first read has found what its first line states. */
  private Mono<ServerResponse> export(
      String room, Span span, Instant from, Instant to, Found found) {
    return sample(room, found)
        .map(sample -> head(room, sample, from, to, found))
        .flatMap(head -> csv(room, Flux.concat(Mono.just(head), rows(room, span, found))));
  }

  private static Mono<ServerResponse> csv(String room, Flux<String> body) {
    ContentDisposition file =
        ContentDisposition.attachment().filename("arrivals-" + room + ".csv").build();
    return ServerResponse.ok()
        .contentType(CSV)
        .cacheControl(CacheControl.noStore())
        .headers(headers -> headers.setContentDisposition(file))
        .body(body, String.class);
  }

  /** The first line and the header of the columns. */
  private String head(String room, double sample, Instant from, Instant to, Found found) {
    Instant now = clock.instant();
    Instant first =
        from != null ? from : found.count() > 0 ? Instant.ofEpochMilli(found.first()) : now;
    Instant last = to != null ? to : found.count() > 0 ? Instant.ofEpochMilli(found.last()) : now;
    return "# anteroom arrivals room="
        + room
        + " sample="
        + PolicyView.number(sample)
        + " from="
        + first
        + " to="
        + last
        + "\nat_ms,item\n";
  }

  /** The share the recording states: the latest recorded, or the room's setting now. */
  private Mono<Double> sample(String room, Found found) {
    return found.count() > 0
        ? Mono.just(found.sample())
        : rooms.current(room).map(current -> current.settings().policy().recordArrivals());
  }

  private Mono<Found> found(String room, Span span) {
    return pages(room, span, upTo(span))
        .reduce(
            Found.NOTHING,
            (found, page) -> {
              Found next = found;
              for (RecordedArrival arrival : page.arrivals()) {
                if (span.holds(arrival)) {
                  next = next.with(arrival);
                }
              }
              return next.readTo(page.last());
            });
  }

  /** The rows, read a second time up to where the first read ended. */
  private Flux<String> rows(String room, Span span, Found found) {
    if (found.lastId() == null) {
      return Flux.empty();
    }
    TimeOrder order = new TimeOrder();
    return pages(room, span, found.lastId())
        .map(page -> order.take(page.arrivals().stream().filter(span::holds).toList(), page.last()))
        .concatWith(Mono.fromSupplier(order::rest))
        .filter(arrivals -> !arrivals.isEmpty())
        .map(ArrivalsHandler::csv);
  }

  /** The last id an arrival of the span can have: its end plus the latest delay. */
  private static String upTo(Span span) {
    return span.to() == Long.MAX_VALUE
        ? null
        : Long.toString(span.to() + RedisArrivals.LATEST.toMillis());
  }

  private Flux<RedisArrivals.Page> pages(String room, Span span, String last) {
    return page(room, span, null, last)
        .expand(page -> page.full() ? page(room, span, page.last(), last) : Mono.empty());
  }

  private Mono<RedisArrivals.Page> page(String room, Span span, String after, String last) {
    return redis.handOff(arrivals.page(room, span.from(), after, last, PAGE));
  }

  private static String csv(List<RecordedArrival> arrivals) {
    StringBuilder text = new StringBuilder(arrivals.size() * 24);
    for (RecordedArrival arrival : arrivals) {
      text.append(arrival.at()).append(',').append(arrival.item()).append('\n');
    }
    return text.toString();
  }

  /** The query parameter {@code name} as an instant, or null; 400 naming it when it is not one. */
  private static Instant instant(ServerRequest request, String name) {
    String text = request.queryParam(name).orElse(null);
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw AdminException.badRequest(
          name + ": must be an ISO-8601 instant such as 2026-12-04T15:00:00Z");
    }
  }
}

package io.anteroom.gateway.admin;

import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueCounts;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.shadow.ShadowLines;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The read side of the admin API: rooms, each with its totals against its room-wide limits, where
 * its auto-pilot stands ({@link AutopilotView#compact}), and the queues of each that are on or have
 * overrides of their own, with their counts and the admission rate measured in Redis, and for a
 * queue in shadow mode what its virtual line shows ({@link ShadowView}). Reads Redis on every call
 * (one read of the active queues, one of each room's overrides, one of its totals and one of its
 * auto-pilot, one per queue for its counts and rate), so it shows what is, not a mirror.
 */
final class RoomListing {

  /** Most queues listed per room; a room with more says {@code "truncated": true}. */
  static final int MAX_QUEUES = 500;

  private static final int CONCURRENCY = 16;

  private final RoomPolicies policies;
  private final Rooms rooms;
  private final ActiveQueues active;
  private final QueueStore queues;
  private final RoomStore roomStore;
  private final AutopilotHandler autopilot;
  private final ShadowLines shadow;

  RoomListing(
      RoomPolicies policies,
      Rooms rooms,
      ActiveQueues active,
      QueueStore queues,
      RoomStore roomStore,
      AutopilotHandler autopilot,
      ShadowLines shadow) {
    this.policies = policies;
    this.rooms = rooms;
    this.active = active;
    this.queues = queues;
    this.roomStore = roomStore;
    this.autopilot = autopilot;
    this.shadow = shadow;
  }

  /** {@code GET /admin/api/rooms}. */
  Mono<ServerResponse> rooms(ServerRequest request) {
    return active
        .list()
        .flatMap(
            on ->
                Flux.fromIterable(new TreeSet<>(policies.rooms()))
                    .concatMap(room -> roomView(room, on))
                    .collectList())
        .flatMap(list -> AdminResponses.ok(Map.of("rooms", list)));
  }

  /** {@code GET /admin/api/rooms/{room}}. */
  Mono<ServerResponse> room(ServerRequest request) {
    String room = rooms.room(request);
    return active.list().flatMap(on -> roomView(room, on)).flatMap(AdminResponses::ok);
  }

  /** {@code GET /admin/api/rooms/{room}/queues/{item}}. */
  Mono<ServerResponse> queue(ServerRequest request) {
    return queueView(rooms.reachable(request)).flatMap(AdminResponses::ok);
  }

  /** One queue as listed, read now. */
  Mono<Map<String, Object>> queueView(QueueId queue) {
    return Mono.zip(active.list(), rooms.current(queue.room()))
        .flatMap(
            t ->
                queueView(
                    queue,
                    t.getT1().get(queue),
                    t.getT2().settings().forItem(queue.item()),
                    t.getT2().overrides().queues().getOrDefault(queue.item(), Map.of())));
  }

  private Mono<Map<String, Object>> roomView(String room, Map<QueueId, Activation> on) {
    return rooms
        .current(room)
        .flatMap(
            current -> {
              Set<String> items = new TreeSet<>(current.overrides().queues().keySet());
              on.keySet().stream()
                  .filter(q -> q.room().equals(room))
                  .forEach(q -> items.add(q.item()));
              List<String> listed = items.stream().limit(MAX_QUEUES).toList();
              Mono<List<Map<String, Object>>> queueViews =
                  Flux.fromIterable(listed)
                      .flatMapSequential(
                          item -> {
                            QueueId queue = new QueueId(room, item);
                            return queueView(
                                queue,
                                on.get(queue),
                                current.settings().forItem(item),
                                current.overrides().queues().getOrDefault(item, Map.of()));
                          },
                          CONCURRENCY)
                      .collectList();
              RoomPolicy policy = current.settings().policy();
              return Mono.zip(
                      queueViews, totalsView(room, policy, on), autopilot.compact(room, policy))
                  .map(
                      read -> {
                        Map<String, Object> view = new LinkedHashMap<>();
                        view.put("room", room);
                        view.put("settings", PolicyView.of(current.settings().policy()));
                        view.put("overrides", PolicyView.sorted(current.overrides().room()));
                        view.put("totals", read.getT2());
                        view.put("autopilot", read.getT3());
                        view.put("queues", read.getT1());
                        view.put("truncated", items.size() > listed.size());
                        return view;
                      });
            });
  }

  /** The room's totals against its limits, waiting counted over its queues that are on. */
  private Mono<Map<String, Object>> totalsView(
      String room, RoomPolicy policy, Map<QueueId, Activation> on) {
    List<QueueId> queuesOn = on.keySet().stream().filter(q -> q.room().equals(room)).toList();
    return roomStore
        .totals(room, policy, queuesOn)
        .map(totals -> RoomTotalsView.of(policy, totals));
  }

  private Mono<Map<String, Object>> queueView(
      QueueId queue, Activation activation, RoomPolicy policy, Map<String, String> overrides) {
    Mono<Map<String, Object>> virtual =
        policy.mode() == Mode.SHADOW ? ShadowView.of(shadow, queue) : Mono.just(Map.of());
    return Mono.zip(queues.counts(queue), queues.measuredRate(queue), virtual)
        .map(
            read -> {
              Map<String, Object> view = new LinkedHashMap<>();
              view.put("item", queue.item());
              view.put("queue", queue.toString());
              view.put("active", activation == null ? null : activation.value());
              view.put("mode", policy.mode().value());
              view.put("state", state(policy.mode(), activation != null));
              view.put("admit-per-second", PolicyView.number(policy.admitPerSecond()));
              view.put("overrides", PolicyView.sorted(overrides));
              putCounts(view, read.getT1());
              view.put("measured-admit-per-second", PolicyView.number(read.getT2()));
              if (!read.getT3().isEmpty()) {
                view.put("shadow", read.getT3());
              }
              return view;
            });
  }

  /**
   * What visitors without a pass meet: {@code queueing} (they wait and are admitted at the rate),
   * {@code off} (they pass), {@code paused}, {@code closed}, {@code passthrough} or {@code shadow}
   * (they pass; a virtual line counts who would have waited).
   */
  static String state(Mode mode, boolean on) {
    return switch (mode) {
      case QUEUE -> on ? "queueing" : "off";
      case QUEUE_ALL -> "queueing";
      case PAUSED -> "paused";
      case CLOSED -> "closed";
      case PASSTHROUGH -> "passthrough";
      case SHADOW -> "shadow";
    };
  }

  private static void putCounts(Map<String, Object> view, QueueCounts counts) {
    view.put("waiting", counts.waiting());
    view.put("running", counts.running());
    view.put("finished", counts.finished());
    view.put("enqueued", counts.enqueued());
    view.put("admitted", counts.admitted());
    view.put("abandoned", counts.abandoned());
    view.put("expired", counts.expired());
    view.put("released", counts.released());
  }
}

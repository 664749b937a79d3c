package io.anteroom.gateway.admin;

import io.anteroom.queue.history.HistorySample;
import io.anteroom.queue.history.RoomHistory;
import io.anteroom.queue.policy.Durations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET /admin/api/rooms/{room}/history}: the room's line over the last {@link
 * RoomHistory#SPAN}, as the admission workers sampled it, with the admission rate between samples
 * ({@link HistorySample#admittedPerSecond}) and the rate the room is set to now, for the admin
 * page's charts. Reads Redis on every call, the samples and the room's settings side by side.
 */
final class HistoryHandler {

  private final Rooms rooms;
  private final RoomHistory history;

  HistoryHandler(Rooms rooms, RoomHistory history) {
    this.rooms = rooms;
    this.history = history;
  }

  Mono<ServerResponse> room(ServerRequest request) {
    String room = rooms.room(request);
    return Mono.zip(history.recent(room), rooms.current(room))
        .map(t -> view(room, t.getT1(), t.getT2().settings().policy().admitPerSecond()))
        .flatMap(AdminResponses::ok);
  }

  private static Map<String, Object> view(
      String room, List<HistorySample> samples, double admitPerSecond) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("room", room);
    view.put("interval", Durations.format(RoomHistory.INTERVAL));
    view.put("span", Durations.format(RoomHistory.SPAN));
    view.put("admitPerSecond", admitPerSecond);
    view.put("samples", samples(samples));
    return view;
  }

  private static List<Map<String, Object>> samples(List<HistorySample> samples) {
    List<Double> rates = HistorySample.admittedPerSecond(samples);
    List<Map<String, Object>> views = new ArrayList<>(samples.size());
    for (int i = 0; i < samples.size(); i++) {
      HistorySample sample = samples.get(i);
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("at", Instant.ofEpochMilli(sample.at()).toString());
      view.put("waiting", sample.waiting());
      view.put("running", sample.running());
      view.put("finished", sample.finished());
      view.put("admittedPerSecond", rates.get(i));
      views.add(view);
    }
    return views;
  }
}

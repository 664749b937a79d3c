package io.anteroom.queue.origin;

import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * A room's auto-pilot in Redis: gateways report the origin's answers each second ({@link
 * QueueKeys#origin}), workers read them with the pilot's state ({@link QueueKeys#pilot}) and move
 * it, one worker per decision ({@code pilot_step.lua}); its changes are kept in a short list
 * ({@link QueueKeys#pilotLog}). All of a room's keys share its hash tag, so each call is one slot.
 */
public final class RedisPilot {

  /** How long a second's reports live: long after every worker has read them. */
  static final Duration REPORT_LIFE = Duration.ofSeconds(15);

  /** How long the pilot's state and changes live after its last decision. */
  static final Duration STATE_LIFE = Duration.ofDays(1);

  /** Most changes kept per room. */
  public static final int CHANGES_KEPT = 100;

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;

  /**
   * @param clock the clock the pilot's decision times are taken from
   */
  public RedisPilot(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands, clock);
    this.keys = keys;
  }

  /**
   * Records what {@code gateway} saw of {@code room}'s origin in the second {@code epochSecond}.
   */
  public Mono<Void> report(String room, long epochSecond, String gateway, OriginFigures figures) {
    return scripts
        .run(
            QueueScripts.ORIGIN_REPORT,
            ScriptOutputType.INTEGER,
            new String[] {keys.origin(room, epochSecond)},
            gateway,
            figures.encode(),
            Long.toString(REPORT_LIFE.toMillis()))
        .then();
  }

  /**
   * The pilot's state and the origin's figures of the seconds {@code from} to {@code to} (epoch
   * seconds, both included), summed over gateways.
   */
  public Mono<PilotReading> read(String room, long from, long to) {
    List<String> keyList = new ArrayList<>();
    keyList.add(keys.pilot(room));
    for (long second = from; second <= to; second++) {
      keyList.add(keys.origin(room, second));
    }
    return scripts
        .<List<Object>>run(
            QueueScripts.PILOT, ScriptOutputType.MULTI, keyList.toArray(String[]::new))
        .map(RedisPilot::reading);
  }

  /** Where the pilot stands, without the origin's figures. */
  public Mono<PilotState> state(String room) {
    return read(room, 1, 0).map(PilotReading::state);
  }

  /**
   * Moves the pilot from {@code read} (as {@link #read} found it) to {@code next}, unless another
   * worker moved it since; a change of share is logged.
   *
   * @return whether this step was taken
   */
  public Mono<Boolean> step(String room, PilotState read, PilotState next) {
    boolean changed = Math.abs(next.share() - read.share()) > 1e-9;
    return scripts
        .<Long>run(
            QueueScripts.PILOT_STEP,
            ScriptOutputType.INTEGER,
            new String[] {keys.pilot(room), keys.pilotLog(room)},
            Long.toString(read.at()),
            Long.toString(next.at()),
            Double.toString(next.share()),
            next.reason(),
            changed ? "1" : "0",
            Integer.toString(CHANGES_KEPT),
            Long.toString(STATE_LIFE.toMillis()),
            Double.toString(next.peak()),
            Long.toString(next.holdUntil()),
            Long.toString(next.seen()),
            Double.toString(next.high()))
        .map(taken -> taken == 1L);
  }

  /** The pilot's last {@code count} changes, newest first. */
  public Mono<List<PilotState>> changes(String room, int count) {
    return Mono.fromCompletionStage(() -> commands.lrange(keys.pilotLog(room), 0, count - 1L))
        .map(lines -> lines.stream().map(RedisPilot::change).filter(c -> c != null).toList());
  }

  private static PilotState change(String line) {
    String[] parts = line.split(" ", 3);
    try {
      return new PilotState(
          Double.parseDouble(parts[1]), Long.parseLong(parts[0]), parts[2], 0, 0, 0, 0);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The fields of the pilot's hash {@code pilot.lua} reads first, in order. */
  private static final int STATE_FIELDS = 7;

  private static PilotReading reading(List<Object> reply) {
    return PilotReading.of(
        state(reply.subList(0, STATE_FIELDS)), reports(reply.subList(STATE_FIELDS, reply.size())));
  }

  /**
   * The stored state; the configured rates when there is none, or when it was not written by a
   * worker (then from its decision time, so that the next step replaces it).
   */
  private static PilotState state(List<Object> fields) {
    long at = whole(fields.get(1));
    try {
      double share = Double.parseDouble(String.valueOf(fields.get(0)));
      if (!(share > 0 && share <= 1)) {
        return PilotState.START.next(at, 1, PilotState.START.reason());
      }
      Object reason = fields.get(2);
      return new PilotState(
          share,
          at,
          reason == null ? "" : reason.toString(),
          fields.get(3) == null ? 0 : Double.parseDouble(fields.get(3).toString()),
          whole(fields.get(4)),
          whole(fields.get(5)),
          fields.get(6) == null ? share : Double.parseDouble(fields.get(6).toString()));
    } catch (NumberFormatException e) {
      return PilotState.START.next(at, 1, PilotState.START.reason());
    }
  }

  private static long whole(Object field) {
    try {
      return field == null ? 0 : Long.parseLong(field.toString());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static List<String> reports(List<Object> values) {
    List<String> reports = new ArrayList<>();
    for (Object value : values) {
      reports.add(String.valueOf(value));
    }
    return reports;
  }
}

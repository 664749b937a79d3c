package io.anteroom.queue;

import static java.lang.Double.NaN;

import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.LuaScript;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import reactor.core.publisher.Mono;

/**
 * {@link QueueStore} on Redis: one Lua script per operation over the keys of {@link QueueKeys}. A
 * join or registration that wrote the keys of a queue that is off (the script says so) is reported
 * to the room's {@link IdleLines} without waiting for it, so such lines stay within their bound.
 */
public final class RedisQueueStore implements QueueStore {

  /**
   * Most idle sessions (or gone visitors) one expiry (or sweep) call ends; the next tick takes the
   * rest.
   */
  public static final int EXPIRE_LIMIT = 1000;

  private static final VisitorStatus.State[] STATES = {
    VisitorStatus.State.UNKNOWN,
    VisitorStatus.State.WAITING,
    VisitorStatus.State.ADMITTED,
    VisitorStatus.State.FINISHED
  };

  /** Random places are drawn here, not in the script, whose random numbers are predictable. */
  private final RedisClusterAsyncCommands<String, String> commands;

  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;
  private final MeasuredRates rates = new MeasuredRates();
  private final IdleReports idle;
  private final boolean virtual;

  /** A store whose lines of queues that are off are not bounded, only expire. */
  public RedisQueueStore(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this(commands, keys, clock, IdleLines.UNBOUNDED);
  }

  /**
   * @param idle where writes to the keys of queues that are off are reported
   */
  public RedisQueueStore(
      RedisClusterAsyncCommands<String, String> commands,
      QueueKeys keys,
      Clock clock,
      IdleLines idle) {
    this(commands, keys, clock, idle, false);
  }

  private RedisQueueStore(
      RedisClusterAsyncCommands<String, String> commands,
      QueueKeys keys,
      Clock clock,
      IdleLines idle,
      boolean virtual) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands, clock);
    this.keys = keys;
    this.clock = clock;
    this.idle = new IdleReports(idle, clock);
    this.virtual = virtual;
  }

  /**
   * The store of the virtual lines of queues in shadow mode, over {@code keys.shadow()}: the same
   * scripts, but its expiry gives the keys the idle time to live instead of removing it, so a
   * virtual line goes away by itself once the worker stops working on it. Its lines are never
   * reported as idle lines: the bound of those deletes lines of queues that are off, and the
   * virtual lines' queues are not on in the shadow keys.
   */
  public static RedisQueueStore shadow(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    return new RedisQueueStore(commands, keys.shadow(), clock, IdleLines.UNBOUNDED, true);
  }

  @Override
  public Mono<EnqueueResult> enqueue(
      QueueId queue,
      String visitor,
      Instant joinedAt,
      double place,
      RoomPolicy policy,
      double roomShare) {
    Instant instant = clock.instant();
    String[] args = Arrays.copyOf(PlaceCalls.placeArgs(visitor, instant, policy), 13);
    args[7] = Long.toString(policy.idleTimeToLive().toMillis());
    args[8] = joinedAt == null ? "0" : Long.toString(joinedAt.toEpochMilli());
    PlaceCalls.roomLimitArgs(args, 9, policy, roomShare);
    args[12] = Double.isNaN(place) ? "" : Double.toString(place);
    return list(QueueScripts.ENQUEUE, queue, args)
        .doOnNext(r -> reportIdle(queue, r.get(6) == 1L, policy))
        .map(r -> enqueued(queue, r, instant.toEpochMilli(), 0, policy));
  }

  /**
   * Asks the script for the measured rate only when none was read lately (see {@link
   * MeasuredRates}). The newcomer is written as last seen {@code abandon-after} minus {@link
   * RoomPolicy#firstReturnWithin} ago, so one who never comes back is given up after that, not a
   * whole {@code abandon-after} (not in a virtual line, which nobody polls).
   */
  @Override
  public Mono<EnqueueResult> join(
      QueueId queue, String newcomer, RoomPolicy policy, double roomShare) {
    Instant instant = clock.instant();
    long now = instant.toEpochMilli();
    OptionalDouble recent = rates.recent(queue, now);
    String[] args = Arrays.copyOf(PlaceCalls.placeArgs(newcomer, instant, policy), 13);
    args[7] = recent.isPresent() ? "0" : "1";
    args[8] = Long.toString(policy.idleTimeToLive().toMillis());
    PlaceCalls.roomLimitArgs(args, 9, policy, roomShare);
    // Nobody polls a virtual line: its newcomers keep their places as long as anyone else.
    args[12] =
        virtual
            ? "0"
            : Long.toString(policy.abandonAfter().minus(policy.firstReturnWithin()).toMillis());
    return list(QueueScripts.JOIN, queue, args)
        .doOnNext(r -> reportIdle(queue, r.get(6) == 1L, policy))
        .map(r -> enqueued(queue, r, now, recent.orElse(0), policy));
  }

  /**
   * Reports a write to the keys of a queue that is off to the room's idle lines, in the background:
   * the visitor's answer does not wait for it, and a failure only leaves the line to its time to
   * live.
   */
  private void reportIdle(QueueId queue, boolean wasIdle, RoomPolicy policy) {
    if (wasIdle) {
      idle.report(queue.room(), queue.item(), policy.idleTimeToLive());
    }
  }

  /**
   * Maps the reply; a rate of -1 (not read) is replaced by {@code knownRate}. A visitor found
   * finished (outcome 3, a repeated call) is neither admitted nor in line: position 0, no rate.
   */
  private EnqueueResult enqueued(
      QueueId queue, List<Long> r, long now, double knownRate, RoomPolicy policy) {
    boolean admitted = r.get(0) == 2;
    boolean waiting = r.get(0) == 1;
    double rate = knownRate;
    if (r.get(5) >= 0) {
      rate = PlaceCalls.perSecond(r.get(5));
      if (waiting) {
        rates.record(queue, rate, now);
      }
    }
    return new EnqueueResult(
        admitted,
        r.get(1),
        r.get(2),
        r.get(3) == 1,
        r.get(4) == 1,
        waiting ? rate : 0,
        CapWait.of(r, 7, now, policy),
        r.get(15),
        place(r));
  }

  /** The place a waiting visitor's reply names (a score as Redis writes it), NaN for none. */
  private static double place(List<?> reply) {
    Object place = reply.size() > 16 ? reply.get(16) : null;
    return place instanceof String score && !score.isEmpty() ? Double.parseDouble(score) : NaN;
  }

  @Override
  public Mono<VisitorStatus> status(
      QueueId queue, String visitor, RoomPolicy policy, double roomShare) {
    long now = clock.millis();
    String[] args = new String[6];
    args[0] = visitor;
    args[1] = Long.toString(now);
    args[2] = policy == null ? "0" : Integer.toString(policy.maxActive());
    PlaceCalls.roomLimitArgs(args, 3, policy, roomShare);
    return list(QueueScripts.STATUS, queue, args)
        .map(
            r -> {
              VisitorStatus status =
                  new VisitorStatus(
                      STATES[r.get(0).intValue()],
                      r.get(1),
                      r.get(2),
                      r.get(3),
                      PlaceCalls.perSecond(r.get(4)),
                      policy == null ? CapWait.NONE : PlaceCalls.statusCapWait(r, now, policy),
                      r.get(8) == 1,
                      r.get(14));
              if (status.state() == VisitorStatus.State.WAITING) {
                rates.record(queue, status.measuredRate(), now);
              }
              return status;
            });
  }

  @Override
  public Mono<AdmitResult> admit(QueueId queue, RoomPolicy policy) {
    return list(
            QueueScripts.ADMIT,
            queue,
            now(),
            Double.toString(policy.admitPerSecond()),
            Double.toString(policy.burstTokens()),
            Integer.toString(policy.maxActive()),
            Integer.toString(policy.admitBatch()),
            Long.toString(policy.abandonAfter().toMillis()))
        .map(r -> new AdmitResult(r.get(0), r.get(1), r.get(2), r.get(3)));
  }

  @Override
  public Mono<ExpireResult> expire(QueueId queue, RoomPolicy policy) {
    return list(
            QueueScripts.EXPIRE,
            queue,
            now(),
            Long.toString(policy.sessionIdleLimit().toMillis()),
            Long.toString(policy.finishedRetention().toMillis()),
            Integer.toString(EXPIRE_LIMIT),
            virtual ? Long.toString(policy.idleTimeToLive().toMillis()) : "0",
            policy.budget().sessionScope().value())
        .map(r -> new ExpireResult(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5)));
  }

  @Override
  public Mono<Long> register(QueueId queue, Collection<String> visitors, RoomPolicy policy) {
    if (visitors.isEmpty()) {
      return Mono.just(0L);
    }
    String[] args = new String[visitors.size() + 4];
    args[0] = now();
    args[1] = Long.toString(policy.sessionDuration().toMillis() * 2);
    // A dry run (shadow mode) lets everyone in without spending the room's new users: they count as
    // its users, but take no token, so the room owes nothing once it goes live.
    boolean spends = policy.mode() != Mode.SHADOW;
    args[2] = spends ? Double.toString(policy.budget().newUsersPerSecond()) : "0";
    args[3] = Double.toString(policy.budget().burstTokens());
    int i = 4;
    for (String visitor : visitors) {
      args[i++] = visitor;
    }
    return scripts
        .<Long>run(QueueScripts.REGISTER, ScriptOutputType.INTEGER, keys.scriptKeys(queue), args)
        .doOnNext(added -> reportIdle(queue, true, policy));
  }

  @Override
  public Mono<Boolean> touch(QueueId queue, String visitor, Instant confirmed, RoomPolicy policy) {
    return flag(
        QueueScripts.TOUCH,
        queue,
        visitor,
        now(),
        confirmed == null ? "0" : Long.toString(confirmed.toEpochMilli()),
        Long.toString(policy.sessionIdleLimit().toMillis()),
        policy.budget().sessionScope().value());
  }

  @Override
  public Mono<Boolean> release(QueueId queue, String visitor, Collection<QueueId> others) {
    return scripts
        .<Long>run(
            QueueScripts.RELEASE,
            ScriptOutputType.INTEGER,
            withOthers(keys.scriptKeys(queue), queue, others),
            visitor,
            now())
        .map(r -> r == 1L);
  }

  /**
   * {@code queueKeys} followed by the running keys of {@code others}, the queues of the same room
   * besides {@code queue} whose sessions keep the visitor an active user of the room.
   */
  private String[] withOthers(String[] queueKeys, QueueId queue, Collection<QueueId> others) {
    List<String> names = new ArrayList<>(List.of(queueKeys));
    for (QueueId other : others) {
      if (!other.room().equals(queue.room())) {
        throw new IllegalArgumentException(other + " is not a queue of room " + queue.room());
      }
      if (!other.equals(queue)) {
        names.add(keys.running(other));
      }
    }
    return names.toArray(String[]::new);
  }

  /** The counts of re-entries live as long as the queue's finished entries. */
  @Override
  public Mono<Reentered> reenter(
      QueueId queue,
      String visitor,
      Instant admittedAt,
      RoomPolicy policy,
      Collection<QueueId> others) {
    String[] queueKeys = keys.scriptKeys(queue);
    String[] keyNames = Arrays.copyOf(queueKeys, queueKeys.length + 1);
    keyNames[queueKeys.length] = keys.reentries(queue);
    keyNames = withOthers(keyNames, queue, others);
    return scripts
        .<Long>run(
            QueueScripts.REENTER,
            ScriptOutputType.INTEGER,
            keyNames,
            visitor,
            now(),
            Long.toString(admittedAt.toEpochMilli()),
            Integer.toString(policy.reentry().max()),
            Long.toString(policy.finishedRetention().toMillis()))
        .map(Reentered::of);
  }

  @Override
  public Mono<Long> sweep(QueueId queue, RoomPolicy policy) {
    return scripts.run(
        QueueScripts.SWEEP,
        ScriptOutputType.INTEGER,
        keys.scriptKeys(queue),
        now(),
        Long.toString(policy.abandonAfter().toMillis()),
        Integer.toString(EXPIRE_LIMIT));
  }

  @Override
  public Mono<Long> clear(QueueId queue) {
    return scripts.run(QueueScripts.CLEAR, ScriptOutputType.INTEGER, keys.scriptKeys(queue));
  }

  @Override
  public Mono<QueueCounts> counts(QueueId queue) {
    Mono<Long> waiting = Mono.fromCompletionStage(() -> commands.zcard(keys.waiting(queue)));
    Mono<Long> running = Mono.fromCompletionStage(() -> commands.zcard(keys.running(queue)));
    Mono<Long> finished = Mono.fromCompletionStage(() -> commands.zcard(keys.finished(queue)));
    Mono<Map<String, String>> state =
        Mono.fromCompletionStage(() -> commands.hgetall(keys.state(queue)));
    return Mono.zip(waiting, running, finished, state)
        .map(
            t ->
                new QueueCounts(
                    t.getT1(),
                    t.getT2(),
                    t.getT3(),
                    counter(t.getT4(), "seq") + counter(t.getT4(), "drawn"),
                    counter(t.getT4(), "admitted"),
                    counter(t.getT4(), "abandoned"),
                    counter(t.getT4(), "expired"),
                    counter(t.getT4(), "released")));
  }

  @Override
  public Mono<Double> measuredRate(QueueId queue) {
    return scripts
        .<Long>run(
            QueueScripts.MEASURED_RATE, ScriptOutputType.INTEGER, keys.scriptKeys(queue), now())
        .map(PlaceCalls::perSecond);
  }

  private Mono<List<Long>> list(LuaScript script, QueueId queue, String... args) {
    return scripts.run(script, ScriptOutputType.MULTI, keys.scriptKeys(queue), args);
  }

  private Mono<Boolean> flag(LuaScript script, QueueId queue, String... args) {
    return scripts
        .<Long>run(script, ScriptOutputType.INTEGER, keys.scriptKeys(queue), args)
        .map(r -> r == 1L);
  }

  private String now() {
    return Long.toString(clock.millis());
  }

  private static long counter(Map<String, String> state, String field) {
    String value = state.get(field);
    return value == null ? 0 : Long.parseLong(value);
  }
}

package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link ActiveQueues} in the hash {@link QueueKeys#active()}: one key, one script call per change
 * (active_set.lua, deactivate.lua), each adding one to the hash's generation.
 *
 * <p>A read sends the generation it read last and gets the entries only when it moved
 * (active_read.lua), so the periodic reads of every gateway and worker cost the same however many
 * queues made-up item ids turned on. Every {@value #WHOLE_EVERY}th read, and {@link #readWhole},
 * read every entry whatever the generation says, so a change written without it (an older version
 * during a rolling upgrade, an operator's {@code HSET}) is seen too.
 *
 * <p>Every read also tells whether the store came back empty since this instance's last read
 * (active_read.lua: a marker in the hash names the Redis server that wrote it). If so, the queues
 * this instance last knew to be on are written back where missing (reassert.lua), and their lines
 * start again holding admission for those who come back with tickets (reborn.lua, for {@link
 * RoomPolicy#rejoinHold()}): an empty store never lets a line walk in.
 */
public final class RedisActiveQueues implements ActiveQueues {

  private static final Logger log = LoggerFactory.getLogger(RedisActiveQueues.class);

  /** The hold of a room that is not configured here. */
  private static final Duration DEFAULT_HOLD = Duration.ofSeconds(37);

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;
  private final Function<String, Duration> holds;
  private final List<Remembered> remembered;

  /** The run id of the Redis server this instance read last; empty before the first read. */
  private volatile String server = "";

  /** The queues that were on at this instance's last read. */
  private volatile Map<QueueId, Activation> known = Map.of();

  /** Every this many reads, one reads every entry whatever the generation. */
  static final int WHOLE_EVERY = 20;

  /** The last read that returned the entries, with the generation it found; null before any. */
  private volatile Entries last;

  private final AtomicLong reads = new AtomicLong();

  /** A read's entries and the generation of the hash they were read at. */
  private record Entries(String generation, ActiveSet set) {}

  /** The value of a room's field while the room is at its limits. */
  private static final String FULL = "full";

  /** Recovers from an empty store on the system clock, holding every line for 37 s. */
  public RedisActiveQueues(RedisClusterAsyncCommands<String, String> commands, QueueKeys keys) {
    this(commands, keys, Clock.systemUTC(), room -> DEFAULT_HOLD, List.of());
  }

  /**
   * @param holds how long the lines of a room hold admission for those who come back with tickets
   *     after the store came back empty
   * @param remembered what else this instance writes back then (a room's live settings)
   */
  public RedisActiveQueues(
      RedisClusterAsyncCommands<String, String> commands,
      QueueKeys keys,
      Clock clock,
      Function<String, Duration> holds,
      List<Remembered> remembered) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands, clock);
    this.keys = keys;
    this.clock = clock;
    this.holds = holds;
    this.remembered = List.copyOf(remembered);
  }

  /** The hold of {@code policies}' rooms: {@link RoomPolicy#rejoinHold()}. */
  public static Function<String, Duration> holdsOf(RoomPolicies policies) {
    return room -> {
      RoomPolicy policy = policies.configured(room);
      return policy == null ? DEFAULT_HOLD : policy.rejoinHold();
    };
  }

  @Override
  public Mono<Boolean> activate(QueueId queue, Activation cause) {
    String field = queue.toString();
    return write(field, cause.value(), cause == Activation.AUTO)
        .flatMap(changed -> announce(queue, changed));
  }

  /** One field written (or removed, for an empty value); true when it was added or removed. */
  private Mono<Boolean> write(String field, String value, boolean onlyIfMissing) {
    return scripts
        .<Long>run(
            QueueScripts.ACTIVE_SET,
            ScriptOutputType.INTEGER,
            new String[] {keys.active()},
            field,
            value,
            onlyIfMissing ? "nx" : "")
        .map(changed -> changed == 1L);
  }

  @Override
  public Mono<Boolean> deactivate(QueueId queue) {
    return deactivate(queue, "");
  }

  @Override
  public Mono<Boolean> deactivate(QueueId queue, Activation cause) {
    return deactivate(queue, cause.value());
  }

  private Mono<Boolean> deactivate(QueueId queue, String cause) {
    return scripts
        .<Long>run(
            QueueScripts.DEACTIVATE,
            ScriptOutputType.INTEGER,
            new String[] {keys.active()},
            queue.toString(),
            cause)
        .flatMap(r -> announce(queue, r == 1L));
  }

  /** Tells mirrors to refresh now rather than at their next periodic read. */
  private Mono<Boolean> announce(QueueId queue, boolean changed) {
    if (!changed) {
      return Mono.just(false);
    }
    return Mono.fromCompletionStage(() -> commands.publish(keys.activeChanged(), queue.toString()))
        .thenReturn(true);
  }

  @Override
  public Mono<ActiveSet> read() {
    return read(reads.incrementAndGet() % WHOLE_EVERY == 0);
  }

  @Override
  public Mono<ActiveSet> readWhole() {
    return read(true);
  }

  private Mono<ActiveSet> read(boolean whole) {
    return Mono.defer(
        () -> {
          Entries since = whole ? null : last;
          return scripts
              .<List<Object>>run(
                  QueueScripts.ACTIVE_READ,
                  ScriptOutputType.MULTI,
                  new String[] {keys.active()},
                  server,
                  since == null ? "" : since.generation())
              .flatMap(reply -> read(reply, since));
        });
  }

  private Mono<ActiveSet> read(List<Object> reply, Entries since) {
    String run = (String) reply.get(0);
    Map<QueueId, Activation> knew = known;
    if ((Long) reply.get(1) == 1L) {
      return recover(run, knew).then(Mono.defer(() -> read(true)));
    }
    server = run;
    if ((Long) reply.get(3) == 0L) {
      return Mono.just(since.set());
    }
    ActiveSet set = parse(entries(reply));
    known = set.queues();
    last = new Entries((String) reply.get(2), set);
    return Mono.just(set);
  }

  /**
   * Writes back the queues that were on, and holds their lines for those who come back; the server
   * is taken as read only once that is done, so a failure leaves the next read to try again.
   */
  private Mono<Void> recover(String run, Map<QueueId, Activation> knew) {
    long now = clock.millis();
    String[] fields = new String[knew.size() * 2];
    int i = 0;
    for (Map.Entry<QueueId, Activation> entry : knew.entrySet()) {
      fields[i++] = entry.getKey().toString();
      fields[i++] = entry.getValue().value();
    }
    Mono<Long> reasserted =
        scripts
            .<Long>run(
                QueueScripts.REASSERT,
                ScriptOutputType.INTEGER,
                new String[] {keys.active()},
                fields)
            .flatMap(
                written ->
                    Mono.fromCompletionStage(
                            () -> commands.hincrby(keys.active(), QueueKeys.GENERATION, 1))
                        .thenReturn(written));
    return reasserted
        .flatMap(
            written ->
                Flux.fromIterable(knew.keySet())
                    .flatMap(queue -> reborn(queue, now).then(announce(queue, true)))
                    .thenMany(Flux.fromIterable(remembered).flatMap(Remembered::writeBack))
                    .then(Mono.just(written)))
        .doOnNext(
            written -> {
              log.warn(
                  "Redis came back without its data (server {} before, {} now): wrote back {} of"
                      + " the {} queues that were on, and the live settings read last; their lines"
                      + " admit only visitors coming back with tickets for a while",
                  server,
                  run,
                  written,
                  knew.size());
              server = run;
            })
        .then();
  }

  private Mono<Long> reborn(QueueId queue, long now) {
    long until = now + holds.apply(queue.room()).toMillis();
    return scripts.run(
        QueueScripts.REBORN,
        ScriptOutputType.INTEGER,
        keys.scriptKeys(queue),
        Long.toString(now),
        Long.toString(until));
  }

  private static Map<String, String> entries(List<Object> reply) {
    Map<String, String> entries = new LinkedHashMap<>();
    for (int i = 4; i + 1 < reply.size(); i += 2) {
      entries.put((String) reply.get(i), (String) reply.get(i + 1));
    }
    return entries;
  }

  /** A room at its limits is the field {@code room} (no item), value {@code full}. */
  @Override
  public Mono<Boolean> markFull(String room, boolean full) {
    String field = QueueId.requireRoom(room);
    return write(field, full ? FULL : "", false)
        .flatMap(
            changed ->
                changed
                    ? Mono.fromCompletionStage(() -> commands.publish(keys.activeChanged(), room))
                        .thenReturn(true)
                    : Mono.just(false));
  }

  private ActiveSet parse(Map<String, String> entries) {
    Map<QueueId, Activation> active = new LinkedHashMap<>();
    Set<String> full = new HashSet<>();
    entries.forEach(
        (id, cause) -> {
          if (id.indexOf(':') < 0 && FULL.equals(cause)) {
            full.add(id);
            return;
          }
          try {
            active.put(QueueId.parse(id), Activation.fromValue(cause));
          } catch (IllegalArgumentException e) {
            log.warn("Skipping active queue entry that is not a queue id: {}", id);
          }
        });
    return new ActiveSet(active, full);
  }
}

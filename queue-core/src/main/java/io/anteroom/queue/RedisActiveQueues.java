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
 * <p>Every read also tells how the store relates to the one this instance read last
 * (active_read.lua: the store's incarnation, its verdict on a new one, and the time of its last
 * read, kept in the hash). Came back empty, the queues this instance last knew to be on are written
 * back where missing, and their lines start again holding admission for those who come back with
 * tickets (for {@link RoomPolicy#rejoinHold()}): an empty store never lets a line walk in. Came
 * back older, the hash is written back as this instance read it unless a later read or change wrote
 * it since, and the lines take back those they lost ({@link StoreRecovery}). A store emptied on
 * purpose on the same server (FLUSHALL) is a fresh start for every instance.
 */
public final class RedisActiveQueues implements ActiveQueues {

  private static final Logger log = LoggerFactory.getLogger(RedisActiveQueues.class);

  /** The hold of a room that is not configured here. */
  private static final Duration DEFAULT_HOLD = Duration.ofSeconds(37);

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final StoreRecovery recovery;

  /** The store as this instance read it last; {@link Store#NONE} before the first read. */
  private volatile Store store = Store.NONE;

  /** The queues that were on at this instance's last read. */
  private volatile Map<QueueId, Activation> known = Map.of();

  /** Every this many reads, one reads every entry whatever the generation. */
  static final int WHOLE_EVERY = 20;

  /** The last read that returned the entries, with the generation it found; null before any. */
  private volatile Entries last;

  private final AtomicLong reads = new AtomicLong();

  /** A read's entries, as read and parsed, and the generation of the hash they were read at. */
  private record Entries(String generation, Map<String, String> entries, ActiveSet set) {}

  /** The store's incarnation, the server it was read on and the store's time of that read. */
  private record Store(String incarnation, String server, long seen) {
    static final Store NONE = new Store("", "", 0);
  }

  /** What a read finds of the store (active_read.lua). */
  private static final long SAME = 0;

  private static final long EMPTY = 1;
  private static final long OLDER = 2;

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
    this.recovery = new StoreRecovery(commands, keys, clock, holds, remembered);
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
        .flatMap(changed -> recovery.announce(queue, changed));
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
        .flatMap(r -> recovery.announce(queue, r == 1L));
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
          Store read = store;
          return scripts
              .<List<Object>>run(
                  QueueScripts.ACTIVE_READ,
                  ScriptOutputType.MULTI,
                  new String[] {keys.active()},
                  read.incarnation(),
                  since == null ? "" : since.generation(),
                  read.server(),
                  Long.toString(read.seen()))
              .flatMap(reply -> read(reply, since));
        });
  }

  private Mono<ActiveSet> read(List<Object> reply, Entries since) {
    Store now = new Store((String) reply.get(0), (String) reply.get(4), (Long) reply.get(5));
    long verdict = (Long) reply.get(1);
    if (verdict == EMPTY) {
      return recoverEmpty(now).then(Mono.defer(() -> read(true)));
    }
    if (verdict == OLDER) {
      return recoverOlder(now).then(Mono.defer(() -> read(true)));
    }
    if (verdict != SAME) {
      log.info(
          "Redis holds a new store ({} before, {} now), taken as it is: emptied on purpose, or"
              + " found empty long enough ago that other instances wrote back already",
          store.incarnation(),
          now.incarnation());
    }
    store = now;
    if ((Long) reply.get(3) == 0L) {
      return Mono.just(since.set());
    }
    Map<String, String> entries = entries(reply);
    ActiveSet set = parse(entries);
    known = set.queues();
    last = new Entries((String) reply.get(2), entries, set);
    return Mono.just(set);
  }

  /**
   * Writes back the queues that were on and holds their lines; the store is taken as read only once
   * that is done, so a failure leaves the next read to try again.
   */
  private Mono<Void> recoverEmpty(Store now) {
    Map<QueueId, Activation> knew = known;
    return recovery
        .afterEmpty(knew)
        .doOnNext(
            written -> {
              log.warn(
                  "Redis came back without its data (server {} before, {} now): wrote back {} of"
                      + " the {} queues that were on, and the live settings read last; their lines"
                      + " admit only visitors coming back with tickets for a while",
                  store.server(),
                  now.server(),
                  written,
                  knew.size());
              store = now;
            })
        .then();
  }

  private Mono<Void> recoverOlder(Store now) {
    Entries read = last;
    Map<QueueId, Activation> knew = known;
    Mono<Boolean> restored =
        read == null
            ? Mono.just(false)
            : recovery.afterOlder(read.generation(), read.entries(), knew.keySet());
    return restored
        .doOnNext(
            written -> {
              log.warn(
                  "Redis came back with older data (last read at {}, the store held {}): {} the"
                      + " {} queues on as of generation {}; their lines take back visitors coming"
                      + " back with tickets",
                  store.seen(),
                  now.seen(),
                  written ? "wrote back" : "a later read or change had written back",
                  knew.size(),
                  read == null ? "none" : read.generation());
              store = now;
            })
        .then();
  }

  private static Map<String, String> entries(List<Object> reply) {
    Map<String, String> entries = new LinkedHashMap<>();
    for (int i = 6; i + 1 < reply.size(); i += 2) {
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

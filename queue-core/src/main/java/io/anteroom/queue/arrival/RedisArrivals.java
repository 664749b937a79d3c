package io.anteroom.queue.arrival;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import reactor.core.publisher.Mono;

/**
 * A room's recorded arrivals in one Redis stream, {@link QueueKeys#arrivals(String)}:
 *
 * <pre>
 * XADD wr:{shop}:arrivals MAXLEN ~ 200000 1764860401000-0 at 1764860400123 item 42 sample 0.25
 * PEXPIRE wr:{shop}:arrivals 86400000
 * XRANGE wr:{shop}:arrivals (1764860401000-0 + COUNT 1000
 * </pre>
 *
 * Gateways write with {@code arrivals.lua}, at most {@link #MOST_PER_CALL} arrivals a call; the
 * admin API reads in pages. The stream keeps about {@link #MAX_ENTRIES} entries and lives {@link
 * #LIFE} after the last write, so a recording left on, or left behind, stays bounded.
 */
public final class RedisArrivals {

  /** About the most entries a room's stream keeps; older ones are trimmed. */
  public static final long MAX_ENTRIES = 200_000;

  /** How long a stream lives after its last write. */
  public static final Duration LIFE = Duration.ofDays(1);

  /**
   * The longest an arrival may wait before it is written; later ones are left out, so a reader can
   * put the stream back in time order holding no more than this span of entries.
   */
  public static final Duration LATEST = Duration.ofSeconds(10);

  /** Most arrivals sent in one script call, which keeps a call short. */
  public static final int MOST_PER_CALL = 1_000;

  /**
   * What a write did.
   *
   * @param recorded arrivals added
   * @param late arrivals left out, older than {@link #LATEST} by the time they were written
   */
  public record Written(long recorded, long late) {}

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;
  private final long maxEntries;

  public RedisArrivals(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this(commands, keys, clock, MAX_ENTRIES);
  }

  /** A store with another bound, for tests. */
  public RedisArrivals(
      RedisClusterAsyncCommands<String, String> commands,
      QueueKeys keys,
      Clock clock,
      long maxEntries) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands, clock);
    this.keys = keys;
    this.clock = clock;
    this.maxEntries = maxEntries;
  }

  /**
   * Adds {@code arrivals} of {@code room} (at most {@link #MOST_PER_CALL}, oldest first) in one
   * script call, each with the share of newcomers that was recorded.
   */
  public Mono<Written> record(String room, double sample, List<Arrival> arrivals) {
    if (arrivals.size() > MOST_PER_CALL) {
      throw new IllegalArgumentException("at most " + MOST_PER_CALL + " arrivals a call");
    }
    List<String> args = new ArrayList<>(6 + arrivals.size() * 2);
    args.add(Long.toString(clock.millis()));
    args.add(Double.toString(sample));
    args.add(Long.toString(maxEntries));
    args.add(Long.toString(LIFE.toMillis()));
    args.add(Long.toString(LATEST.toMillis()));
    args.add(UUID.randomUUID().toString());
    for (Arrival arrival : arrivals) {
      args.add(Long.toString(arrival.at()));
      args.add(arrival.item());
    }
    return scripts
        .<List<Long>>run(
            QueueScripts.ARRIVALS,
            ScriptOutputType.MULTI,
            new String[] {keys.arrivals(room), keys.arrivalFlushes(room)},
            args.toArray(String[]::new))
        .map(reply -> new Written(reply.get(0), reply.get(1)));
  }

  /**
   * One read of the stream.
   *
   * @param arrivals the arrivals read, in id order; entries that are not arrivals (written by hand)
   *     are left out
   * @param last the id of the last entry read, arrival or not; null when none was
   * @param full whether the read returned as many entries as asked for, so more may follow
   */
  public record Page(List<RecordedArrival> arrivals, String last, boolean full) {}

  /**
   * Up to {@code count} entries in id order: after the id {@code after}, or from the time {@code
   * fromMillis} when it is null; up to the id {@code last} included, or to the end when it is null.
   */
  public Mono<Page> page(String room, long fromMillis, String after, String last, int count) {
    Range.Boundary<String> lower =
        after == null
            ? Range.Boundary.including(Long.toString(Math.max(0, fromMillis)))
            : Range.Boundary.excluding(after);
    Range.Boundary<String> upper =
        last == null ? Range.Boundary.unbounded() : Range.Boundary.including(last);
    return Mono.fromCompletionStage(
            () -> commands.xrange(keys.arrivals(room), Range.from(lower, upper), Limit.from(count)))
        .map(messages -> page(messages, count));
  }

  private static Page page(List<StreamMessage<String, String>> messages, int count) {
    List<RecordedArrival> arrivals = new ArrayList<>(messages.size());
    for (StreamMessage<String, String> message : messages) {
      RecordedArrival arrival = arrival(message.getId(), message.getBody());
      if (arrival != null) {
        arrivals.add(arrival);
      }
    }
    String last = messages.isEmpty() ? null : messages.get(messages.size() - 1).getId();
    return new Page(arrivals, last, messages.size() >= count);
  }

  /** The arrival an entry holds, or null when its fields are not one's. */
  static RecordedArrival arrival(String id, Map<String, String> body) {
    String item = body.get("item");
    String at = body.get("at");
    String sample = body.get("sample");
    if (!QueueId.isItem(item) || at == null || sample == null) {
      return null;
    }
    try {
      return new RecordedArrival(id, Long.parseLong(at), item, Double.parseDouble(sample));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}

package io.anteroom.queue;

import java.util.regex.Pattern;

/**
 * The one owner of Anteroom's Redis key layout. Every key of a room's queues, and the room's budget
 * and sessions, carry the hash tag {@code {room}}, so a room lives in one Cluster slot and one
 * script can admit across its queues within the room's limits (room_admit.lua). The keys outside
 * ({@code active}, {@code settings}, {@code history}, {@code idle}, ...) are each used alone by
 * every script and command, so no call crosses slots in a Redis Cluster.
 *
 * <pre>
 * ZADD wr:{shop}:42:waiting  &lt;sequence&gt; &lt;visitor&gt;     line, in order
 * ZADD wr:{shop}:42:waiting  &lt;sequence + draw&gt; &lt;visitor&gt;   random place: draw in [0, 1)
 * ZADD wr:{shop}:42:running  &lt;last-activity-ms&gt; &lt;visitor&gt;   admitted sessions
 * ZADD wr:{shop}:42:admitted &lt;admitted-ms&gt; &lt;visitor&gt;    when the line let in each of those
 *                            running (admit_head.lua, place.lua); none for a pass given while the
 *                            queue was off (register.lua, enter.lua) or a session taken back
 *                            (touch.lua); removed with the running entry, lives as long
 * ZADD wr:{shop}:42:finished &lt;end-ms&gt; &lt;visitor&gt;          ended, released or abandoned
 * ZADD wr:{shop}:42:seen     &lt;last-poll-ms&gt; &lt;visitor&gt;    last poll of those in line (a
 *                            newcomer's join: a minute short of abandon-after, join.lua);
 *                            kept after admission, trimmed once older than abandon-after
 * HSET wr:{shop}:42:state    seq &lt;n&gt; drawn &lt;n&gt; tokens &lt;f&gt; refill &lt;ms&gt; admitted &lt;n&gt; abandoned &lt;n&gt;
 *                            expired &lt;n&gt; released &lt;n&gt; cleared &lt;n&gt; quiet-since &lt;ms&gt;
 *                            since &lt;ms&gt; hold-until &lt;ms&gt; rejoined &lt;n&gt; rejoined-sessions &lt;n&gt;
 *                            (the line's keys began; after an empty store, rejoin.lua)
 *                            rate-sum &lt;f&gt; rate-weight &lt;ms&gt; rate-at &lt;ms&gt; rate-open 0|1
 *                            (measured admission rate, see rate.lua) pass &lt;f&gt; (room share)
 * HINCRBY wr:{shop}:42:hits  &lt;epoch-second&gt; &lt;requests&gt;      traffic per second, expires
 *                            tidied &lt;epoch-second&gt;             (old seconds dropped, see hits.lua)
 * HINCRBY wr:{shop}:42:reentries &lt;visitor&gt; 1                   back to the front (reenter.lua)
 * HSET wr:{shop}:42:reentries at|&lt;visitor&gt; &lt;admitted-ms&gt;     the admission they went back from
 * ZADD wr:{shop}:sessions    &lt;last-activity-ms&gt; &lt;visitor&gt;  the room's active users, each once:
 *                            the latest activity on any item (sessions.lua)
 * HSET wr:{shop}:budget      tokens &lt;f&gt; refill &lt;ms&gt; pass &lt;f&gt; full 0|1  rate, shares, at limits
 *                            started-sum &lt;f&gt; started-weight &lt;ms&gt; started-at &lt;ms&gt;
 *                            (measured new users, see started.lua)
 * HSET wr:{shop}:origin:&lt;epoch-second&gt; &lt;gateway&gt; &lt;figures&gt;  origin's answers, expires
 * HSET wr:{shop}:pilot       share &lt;f&gt; at &lt;ms&gt; reason &lt;text&gt;  the room's auto-pilot (pilot_step.lua)
 * LPUSH wr:{shop}:pilot-log  &lt;ms&gt; &lt;share&gt; &lt;reason&gt;       its last changes, bounded
 * XADD wr:{shop}:arrivals MAXLEN ~ 200000 &lt;ms&gt;-* at &lt;ms&gt; item 42 sample 0.25
 *                            recorded arrivals (arrivals.lua); expires a day after the last flush
 * HSET wr:active             shop:42 manual|auto                active queues and why
 * HSET wr:active             shop full                          a room at its room-wide limits
 * HSET wr:active             .store &lt;run id&gt;                   the server that wrote it (active_read.lua)
 * HINCRBY wr:active          .gen 1                             on every change (active_set.lua)
 * PUBLISH wr:active:changed  shop:42                            after each change of wr:active
 * HSET wr:settings:shop      admit-per-second 250 42/mode paused  live overrides: room, queue
 * SET wr:message:shop        &lt;text&gt;                          operator message on the room's pages
 * HSET wr:messages:shop      ko &lt;text&gt; ja &lt;text&gt;            the message in other languages
 * ZADD wr:idle:shop          &lt;written-ms&gt; 42               lines of queues that are off, bounded
 * ZADD wr:places:shop:&lt;visitor&gt; &lt;joined-ms&gt; 42        queues a visitor id joined, for a cap
 * INCR wr:newplaces:shop:&lt;address&gt;:&lt;epoch-minute&gt;       new places per client address, expires
 * ZADD wr:history:shop       &lt;interval-ms&gt; &lt;ms:waiting:running:finished:admitted&gt;  last 15 min
 * ZADD wr:shadow:{shop}:42:waiting ...    a queue in shadow mode: its virtual line, the same keys
 *                            under the prefix {@code wr:shadow} ({@link #shadow()})
 * LPUSH wr:shadow:{shop}:42:waits &lt;ms&gt;   its last would-be waits, newest first, bounded
 * XADD wr:audit MAXLEN ~ 10000 * at &lt;iso&gt; who &lt;name&gt; from &lt;address&gt; what &lt;change&gt;
 *                            target &lt;room or queue&gt; old &lt;values&gt; new &lt;values&gt;  admin changes;
 *                            then XTRIM wr:audit MINID &lt;30 days ago&gt;
 * </pre>
 *
 * <p>What a request without cookies can make Redis keep, each with a time to live and a bound per
 * room (docs/operations.md, "What anonymous traffic leaves in Redis"):
 *
 * <ul>
 *   <li>the six keys of a queue's line: while the queue is on they have no time to live (the worker
 *       removes it every tick), and at most {@code anteroom.gateway.max-queues-per-room} queues of
 *       a room are on automatically; while it is off, every script that writes them gives them the
 *       idle time to live ({@code RoomPolicy#idleTimeToLive}), and {@code idle} keeps the {@code
 *       anteroom.idle-lines.per-room} most recently written lines, deleting the rest (idle.lua,
 *       forget.lua);
 *   <li>{@code hits}: two activation windows and five seconds, written only for items a gateway
 *       counted a tenth of the threshold for, at most 1,000 per gateway and flush;
 *   <li>{@code places}: twice the longer of session-duration and abandon-after, and only for
 *       visitor ids that came back with a ticket, a pass or an identity (a newcomer's id is minted
 *       for the request: nothing to record);
 *   <li>{@code newplaces}: two minutes, one per client address and minute;
 *   <li>{@code idle}: as long as its longest-lived line, one per room;
 *   <li>{@code sessions}: one entry per active visitor of the room, dropped once idle past the
 *       room's idle limit by the worker's tick (room_admit.lua) or when their last session in the
 *       room ends; {@code budget}: one small hash per room.
 * </ul>
 */
public final class QueueKeys {

  private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_-]{1,32}");

  /**
   * The field of {@link #active()} that holds the store's incarnation: Redis's time when a read
   * found the hash missing and began it (active_read.lua, which also keeps the store's verdict on a
   * new incarnation, its time of the last read and its last rollback in fields of its own).
   */
  public static final String STORE_MARKER = ".store";

  /**
   * The field of {@link #active()} that every change moves forward (active_set.lua, deactivate.lua:
   * to Redis's time in microseconds, or by one; generation.lua), so a read finds whether anything
   * changed at a cost that does not grow with the queues on (active_read.lua); neither a queue nor
   * a room.
   */
  public static final String GENERATION = ".gen";

  /**
   * Whether {@code field} of {@link #active()} is one of the store's own ({@link #STORE_MARKER},
   * {@link #GENERATION} and the others active_read.lua keeps): they all begin with a dot, which no
   * queue id or room name can.
   */
  public static boolean isStoreField(String field) {
    return field.startsWith(".");
  }

  /** What {@link #shadow()} adds to the prefix: a part no room, item or other key can spell. */
  private static final String SHADOW = ":shadow";

  private final String prefix;

  /** Keys under {@code prefix}, which must be 1-32 letters, digits, dashes or underscores. */
  public QueueKeys(String prefix) {
    if (!isPrefix(prefix)) {
      throw new IllegalArgumentException(
          "key prefix must be 1-32 letters, digits, '-' or '_': " + prefix);
    }
    this.prefix = prefix;
  }

  /** The keys of {@code real}'s virtual lines ({@link #shadow()}). */
  private QueueKeys(QueueKeys real) {
    this.prefix = real.prefix + SHADOW;
  }

  /**
   * The keys of the virtual lines of queues in shadow mode: every key of this layout under the
   * prefix {@code <prefix>:shadow} ({@code wr:shadow:{shop}:42:waiting}), so the real scripts run
   * on them unchanged and can never touch a real line. The room's hash tag is kept, so a virtual
   * line lives in its room's Cluster slot. The prefix checked at start-up stays within 32
   * characters; the shadow one is made here only, from a checked prefix, and may be up to 39. Its
   * lines carry a time to live, refreshed while the mode is on (expire.lua, shadow_waits.lua,
   * join.lua), so they go away by themselves once it is not.
   */
  public QueueKeys shadow() {
    return prefix.endsWith(SHADOW) ? this : new QueueKeys(this);
  }

  /** Whether {@code text} can prefix keys: 1-32 letters, digits, dashes or underscores. */
  public static boolean isPrefix(String text) {
    return text != null && PREFIX.matcher(text).matches();
  }

  /**
   * The keys every queue script takes, in the order the scripts' KEYS headers name them: the
   * queue's first five, then its room's sessions and budget, then the queue's {@link #admitted}.
   */
  public String[] scriptKeys(QueueId queue) {
    return new String[] {
      waiting(queue),
      running(queue),
      finished(queue),
      seen(queue),
      state(queue),
      sessions(queue.room()),
      budget(queue.room()),
      admitted(queue)
    };
  }

  public String waiting(QueueId queue) {
    return queueKey(queue, "waiting");
  }

  public String running(QueueId queue) {
    return queueKey(queue, "running");
  }

  /**
   * Sorted set of when the line let in each visitor running in the queue (ms): a visitor running
   * without an entry was let in otherwise (a pass given while the queue was off, a session taken
   * back), which names no admission to go back to the front from.
   */
  public String admitted(QueueId queue) {
    return queueKey(queue, "admitted");
  }

  public String finished(QueueId queue) {
    return queueKey(queue, "finished");
  }

  public String seen(QueueId queue) {
    return queueKey(queue, "seen");
  }

  public String state(QueueId queue) {
    return queueKey(queue, "state");
  }

  /**
   * List of the last would-be waits (ms) of a virtual line, newest first, bounded; meant for the
   * keys of {@link #shadow()} (shadow_waits.lua).
   */
  public String waits(QueueId queue) {
    return queueKey(queue, "waits");
  }

  /** Hash of the queue's requests per epoch second, for activation by traffic. */
  public String hits(QueueId queue) {
    return queueKey(queue, "hits");
  }

  /**
   * Hash of active queues: field {@code room:item}, value the {@link Activation} cause; and of
   * rooms at their room-wide limits: field {@code room}, value {@code full}.
   */
  public String active() {
    return prefix + ":active";
  }

  /**
   * Hash of the gateways' beats: field a gateway's instance id, value a count it raises every
   * second ({@link GatewayBeats}).
   */
  public String gateways() {
    return prefix + ":gateways";
  }

  /** Pub/sub channel announcing a change of {@link #active()}; the message is the queue id. */
  public String activeChanged() {
    return prefix + ":active:changed";
  }

  /** Hash of a room's live policy overrides, property name to value. */
  public String settings(String room) {
    return prefix + ":settings:" + QueueId.requireRoom(room);
  }

  /**
   * The room's operator message in other languages than its default one, a hash by language, shown
   * on the pages in that language instead of {@link #message(String)}.
   */
  public String messages(String room) {
    return prefix + ":messages:" + QueueId.requireRoom(room);
  }

  /** The room's operator message, shown on its visitor pages. */
  public String message(String room) {
    return prefix + ":message:" + QueueId.requireRoom(room);
  }

  /** Sorted set of a room's recent line samples, by time, for the admin page's chart. */
  public String history(String room) {
    return prefix + ":history:" + QueueId.requireRoom(room);
  }

  /**
   * Stream of the changes made through the admin API, every room's, oldest first; bounded by count
   * and by age.
   */
  public String audit() {
    return prefix + ":audit";
  }

  /**
   * Sorted set of the items of a room whose queues are off but whose keys were written, by the time
   * of the last write; bounded, the least recently written are deleted.
   */
  public String idle(String room) {
    return prefix + ":idle:" + QueueId.requireRoom(room);
  }

  /** Sorted set of the items of a room whose lines one visitor id joined, by join time. */
  public String places(String room, String visitor) {
    return prefix + ":places:" + QueueId.requireRoom(room) + ":" + visitor;
  }

  /** Counter of the places one client address asked for in a room in one minute. */
  public String newPlaces(String room, String address, long epochMinute) {
    return prefix + ":newplaces:" + QueueId.requireRoom(room) + ":" + address + ":" + epochMinute;
  }

  /**
   * Hash of the room's admission budget: its token bucket for new users per minute, the share each
   * of its queues has had ({@code room_admit.lua}), and its measured new users ({@code
   * started.lua}).
   */
  public String budget(String room) {
    return roomTag(room) + ":budget";
  }

  /**
   * Sorted set of the room's active users: member the visitor, once however many of the room's
   * items (their queues on or off) they run in, score their latest activity on any of them; what
   * total active users and new users per minute count.
   */
  public String sessions(String room) {
    return roomTag(room) + ":sessions";
  }

  /**
   * Hash of how many times each visitor went back to the front of the queue's line after the origin
   * failed them right after admission ({@code reenter.lua}): field visitor, value the count, and
   * field {@code at|visitor}, the admission they last went back from (ms); lives as long as the
   * queue's finished entries.
   */
  public String reentries(QueueId queue) {
    return queueKey(queue, "reentries");
  }

  /**
   * Hash of the origin's answers to the room's pass holders in one second, as each gateway saw them
   * ({@code origin_report.lua}): field the gateway's id, value its figures ({@code OriginFigures});
   * lives a few seconds.
   */
  public String origin(String room, long epochSecond) {
    return roomTag(room) + ":origin:" + epochSecond;
  }

  /**
   * Hash of the room's auto-pilot: the share of the configured rates it admits at, when it last
   * moved and why ({@code pilot.lua}).
   */
  public String pilot(String room) {
    return roomTag(room) + ":pilot";
  }

  /** List of the auto-pilot's last changes, newest first, each {@code at-ms share reason}. */
  public String pilotLog(String room) {
    return roomTag(room) + ":pilot-log";
  }

  /**
   * Stream of the room's recorded arrivals, a sample of its newcomers ({@code record-arrivals}):
   * each entry's fields are {@code at} (epoch ms), {@code item} (as in keys) and {@code sample}
   * (the share recorded); bounded by count, and gone a day after the last recording ({@code
   * arrivals.lua}).
   */
  public String arrivals(String room) {
    return roomTag(room) + ":arrivals";
  }

  /**
   * Sorted set of the ids of the room's arrival flushes of the last minute, scored by time, so a
   * flush Lettuce sends again is recorded once ({@code arrivals.lua}); gone a minute after the
   * last.
   */
  public String arrivalFlushes(String room) {
    return roomTag(room) + ":arrivals:flushes";
  }

  private String queueKey(QueueId queue, String part) {
    return roomTag(queue.room()) + ":" + queue.item() + ":" + part;
  }

  private String roomTag(String room) {
    return prefix + ":{" + QueueId.requireRoom(room) + "}";
  }
}

package io.anteroom.bench;

/** The "How it is measured" section of {@link QueueRedisReport}: the method of each phase. */
final class QueueRedisMethod {

  static final String TEXT =
      """
      ## How it is measured

      On its own redis-server, in short slices: `CONFIG RESETSTAT`, the slice's commands, `INFO \
      commandstats` (the server's time inside each command, without network or client time; a \
      script's commands count inside its EVALSHA and under their own names), summed per phase. \
      Whatever takes the CPU from redis-server mid-command inflates that time, so the sides take \
      turns slice by slice, which side starts alternating between rounds; read the figures with \
      the host load above. Every round starts on a flushed server with the scripts loaded. Side A \
      is the queue model through `RedisQueueStore`, side B the references on keys of their own \
      (their scripts are in `bench/src/main/resources/io/anteroom/bench/`):

      - **A1**: distinct visitors (base64url of 16 random bytes), pipelined, join one queue by \
      `join.lua` (ids minted in the request) and a second by `enqueue.lua` (ids that may have been \
      in the queue), with an empty token bucket and a still clock, so each joins the back.
      - **B1**: `ZADD key NX seq visitor` + `ZRANK key visitor`, raw and as a script \
      (`zadd_nx_zrank.lua`); a script that only returns (`return_only.lua`, enqueue's five keys \
      and arguments); the four commands a join cannot do without (`join_floor.lua`); the eight \
      commands `join.lua` runs for a newcomer behind others, without its logic \
      (`join_commands.lua`: those four, the idle check, the two look-ups a re-sent call needs and \
      the running count for the cap's estimate).
      - **A2**: `admit` calls, one slice each, empty A1's line, the clock moving one second per \
      call so each admits a full batch; then, the clock past abandon-after, calls on the empty \
      line trim the admitted visitors' `seen` entries, counted less as many idle calls. As in \
      service, sessions end: before each call, outside the measured slice, `expire.lua` (as the \
      worker runs it each tick) ends the sessions idle for their idle limit (a session of 36 s, \
      39.6 s with its check), so running and the room's sessions hover at 3,900–4,000 members \
      with a batch of 100, well under the 8,192 at which Redis doubles a sorted set's hash table; \
      every admission call is measured and counted. Also taking turns, one more queue whose \
      sessions never end (the method before) is emptied by the same calls, its running set \
      growing to every visitor, through 8,192 and 16,384 members: only its longest call is \
      reported.
      - **A2 room**: taking turns call by call with A2, a room with room-wide limits \
      (`new-users-per-minute` one batch a second, `total-active-users` above everyone) and three \
      active item queues, whose lines hold the same visitors dealt over the items, is emptied by \
      `RedisRoomStore.admit` (`room_admit.lua`), one call a second, each call sharing one batch \
      among the three queues by their weights, sessions ending as in A2 (`expire.lua` on each \
      queue); then trimmed and idle calls as in A2, after every session has ended.
      - **B2**: `ZPOPMIN key batch` + `ZADD running now m1 now m2 …` per batch, raw and as a \
      script (`zpopmin_zadd.lua`), and what admission with abandonment cannot do without \
      (`admit_floor.lua`: `ZPOPMIN`, `ZMSCORE` on seen, `ZADD` to running); the commands \
      `admit.lua` runs in a call that admits, without its logic (`admit_commands.lua`: the \
      floor's, plus the bucket, the cap, the recovery's hold, the head taken by rank, the room's \
      sessions, the count of stale seen entries, the counters, the room's started sessions and the \
      measured rate; compared with `admit.lua`'s calls that admitted, the trimming of seen being \
      the same two commands either way); before each \
      batch, outside the measured slice, `ZREMRANGEBYRANK` leaves each running set (and the \
      commands' sessions) as many members as A2's has before a call, so both sides add to sets of \
      the same size.
      - **Memory**: growth of `used_memory` less `mem_clients_normal` on a flushed server while \
      the visitors join a fresh line through the store, against the same ids in one sorted set.
      """;

  private QueueRedisMethod() {}
}

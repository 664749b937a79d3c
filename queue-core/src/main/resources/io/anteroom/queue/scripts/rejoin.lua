-- Shared by the scripts that place, admit and confirm visitors: how a line takes back, in their old
-- order, those it lost when the store came back empty.
-- The state hash's since is when this incarnation of the line began: written by the first place
-- given (place.lua; back.lua for a newcomer behind others) or by the recovery (reborn.lua). A visitor whom the line does not know and whose
-- ticket says they joined no later than the second since falls in was in line before the loss:
-- tickets carry whole seconds, and anyone who joined since is known to the line, so a ticket of
-- since's own second comes from before too. They rejoin at a score below 0 (below), so those who
-- rejoin go before everyone who came after (scores from 1) and among themselves in their old order.
-- hold-until, written by the recovery, keeps the line from admitting anyone else, and anyone at
-- once, until those in line before had time to come back (one poll): after an empty store, anyone
-- but those who rejoined; after an older one, anyone behind hold-below, the last place the line
-- still held at the recovery (newcomers since).

local function rejoin_held(state, now)
  return now < tonumber(redis.call('HGET', state, 'hold-until') or 0)
end

-- The most of n the line admits now: while held, only those in line before the loss.
local function rejoin_limit(state, waiting, now, n)
  if n > 0 and rejoin_held(state, now) then
    local below = redis.call('HGET', state, 'hold-below') or '(0'
    return math.min(n, redis.call('ZCOUNT', waiting, '-inf', below))
  end
  return n
end

-- The incarnation's start (ms), written as now if missing.
local function rejoin_since(state, now)
  local since = tonumber(redis.call('HGET', state, 'since') or 0)
  if since == 0 then
    redis.call('HSET', state, 'since', now)
    return now
  end
  return since
end

-- A ticket that names the place its visitor held (the score, as the line gave it) rejoins at that
-- place less PLACE_OFFSET, so a lottery or a pre-queue keeps its drawn order and a first-come line
-- its exact one. A ticket that names none (a re-entrant's, or one given while the line could not
-- be reached) rejoins by the second it joined, in a block below those, SECONDS_BASE down: a
-- re-entrant stays ahead of the line it was at the front of. Scores, lowest first: re-entrants
-- still in line (near -4e15, front.lua), rejoiners by the second (near -1e15), rejoiners at their
-- old place (less 2^27: old places lie between a re-entrant's and the line's sequence, far below
-- 134 million; a draw's fraction keeps about 26 bits there), then everyone placed since (from 1).
-- Written as strings: Lua would format numbers this large with 14 digits.
local SECONDS_BASE, PLACE_OFFSET = 1e15, 134217728

-- The score below 0 of a visitor who joined at joined (ms, 0 when unknown) no later than the second
-- the line's incarnation began in, at the old place the ticket names (place, or nil), or nil; nil
-- too in a line no recovery began (reborn.lua writes hold-until), so a line begun again by a clear,
-- a deletion of its idle keys or its first place sends tickets from before to the back like
-- everyone else.
local function rejoin_score(state, joined, now, place)
  if joined <= 0 or redis.call('HEXISTS', state, 'hold-until') == 0 then
    return nil
  end
  local seconds = math.floor(joined / 1000) - math.floor(rejoin_since(state, now) / 1000) - 1
  if seconds >= 0 then
    return nil
  end
  if place then
    return string.format('%.17g', math.min(place - PLACE_OFFSET, -1))
  end
  return string.format('%.0f', seconds - SECONDS_BASE)
end

-- Shared by reenter.lua and status.lua: the front of the line, kept for visitors whom the origin
-- failed right after their admission (reenter.lua). Newcomers take scores from 1 (place.lua), and
-- those who rejoin after the store came back empty negative ones (rejoin.lua, near -1.3e8 or
-- -1e15); a re-entrant takes the time they were admitted (ms) less FRONT_BASE, below all of those,
-- so re-entrants go first, in the order they were first admitted. Admission times of this era are
-- about 1.8e12 ms, so the scores lie near -4e15: whole numbers a double holds exactly (below 2^53),
-- and below half FRONT_BASE, where no rejoiner's score lies. While a
-- line is held after the store came back empty, re-entrants count among those who rejoined
-- (rejoin_limit: scores below 0), as they were in line before too.

local FRONT_BASE = 4e15

-- The score of a re-entrant admitted at admitted (ms), as the exact whole number ZADD takes: Lua
-- would format a number this large with 14 digits and round it.
local function front_score(admitted)
  return string.format('%.0f', admitted - FRONT_BASE)
end

-- Whether score (as ZSCORE returns it) is a place at the front: below half the base.
local function front_place(score)
  return score ~= nil and score ~= false and tonumber(score) < -FRONT_BASE / 2
end

-- Shared by hits.lua (writes) and settle.lua (reads): the requests counted in a queue's hits hash
-- over the activation window. The hash has one field per second (epoch s) holding the requests
-- all gateways counted in it, and 'tidied', the second of its last tidy (hits.lua).

-- The requests in the window of `second` (that second and the `window` - 1 before it), the
-- fields of seconds that left the window or of anything else that is not a second, and the
-- second of the last tidy (nil before the first).
local function hits_in_window(key, second, window)
  local total, stale, tidied = 0, {}, nil
  local counts = redis.call('HGETALL', key)
  for i = 1, #counts, 2 do
    local field = counts[i]
    if field == 'tidied' then
      tidied = tonumber(counts[i + 1])
    else
      local s = tonumber(field)
      if not s or s <= second - window then
        stale[#stale + 1] = field
      elseif s <= second then
        total = total + tonumber(counts[i + 1])
      end
    end
  end
  return total, stale, tidied
end

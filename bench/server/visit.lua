-- wrk script: iPhone visits of a short link, each creating one deferred record; every thread
-- stops after its share of the total given after `--`.
--   wrk -t2 ... -s visit.lua URL -- 1000000 2
local limit
local count = 0

function init(args)
    limit = math.ceil(tonumber(args[1]) / tonumber(args[2]))
    wrk.headers["User-Agent"] = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)"
end

function response(status, headers, body)
    count = count + 1
    if count >= limit then
        wrk.thread:stop()
    end
end

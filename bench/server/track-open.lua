-- wrk script: POST /api/v1/track/open with the publishable key given after `--`.
--   wrk ... -s track-open.lua URL -- li2_pk_...
-- Every answered call writes one analytics event to disk before the answer leaves.
function init(args)
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
    wrk.headers["X-Li2-Key"] = args[1]
    wrk.headers["User-Agent"] = "Shop/3.2 CFNetwork/1490.0.4 Darwin/23.2.0"
    wrk.body = '{"deepLink": "https://go.example/summer"}'
end

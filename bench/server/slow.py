#!/usr/bin/env python3
"""Slow clients against `workbook serve`: do trickling connections leave the server to everyone else?

Two modes. `--mode head` (the default): SLOW connections from 127.0.0.1 each send half a request
head and then one header byte every INTERVAL seconds, reconnecting when the server closes them,
for DURATION seconds. Meanwhile a normal client on 127.0.0.2 (the whole 127.0.0.0/8 is loopback
on Linux) sends REQUESTS requests, one connection each, and times them. The baseline is the same
client, the same requests, measured first in the same run with no slow connection open.

    slow.py PORT [--slow 500] [--interval 5] [--requests 2000] [--duration 60]

`--mode body`: ADDRESSES source addresses (127.0.0.1, 127.0.0.2, ...) each open PER_ADDRESS
connections; each sends a whole head of `POST /api/v1/track/open` with the publishable key of
CONFIG and `Content-Length: 65536`, then one body byte every INTERVAL seconds, reconnecting when
the server closes it (what the server sent before closing is read: a 408 is counted). A few
threads drive shares of the non-blocking sockets. The normal client on 127.0.0.100 starts a
`GET /healthz` on a fresh connection every EVERY seconds: first alone for REQUESTS requests (the
baseline), then for DURATION seconds once the trickling connections are open; it also records
the longest time without an answer. With --server-pid, the server's open files are sampled too.

    slow.py PORT --mode body [--addresses 20] [--per-address 60] [--interval 5] [--every 0.02]
            [--requests 750] [--duration 75] [--config config/demo.json] [--server-pid PID]

Both print the answered counts and p50/p99 of both runs, their ratio, and the verdict against the
target: every request answered and p99 under 50 ms. Every socket has a timeout, every loop a
bound, and everything stays on loopback.
"""

import argparse
import json
import os
import selectors
import socket
import statistics
import sys
import threading
import time

try:
    import resource
except ImportError:  # not on every platform; then the limit is left as it is
    resource = None

TARGET_P99_MS = 50.0


def timed_request(port, source):
    """One GET /healthz on a fresh connection from `source`; seconds taken, or None."""
    started = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) as conn:
            conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = b""
            while len(answer) < 65536:
                chunk = conn.recv(4096)
                if not chunk:
                    break
                answer += chunk
    except OSError:
        return None
    if not answer.startswith(b"HTTP/1.1 200"):
        return None
    return time.perf_counter() - started


def normal_client(port, requests):
    """Times `requests` requests from 127.0.0.2; returns (answered, latencies in ms)."""
    latencies = []
    for _ in range(requests):
        seconds = timed_request(port, "127.0.0.2")
        if seconds is not None:
            latencies.append(seconds * 1000)
    return len(latencies), latencies


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


class SlowClients:
    """`count` trickling connections from 127.0.0.1, kept up until `stop` is set."""

    def __init__(self, port, count, interval):
        self.port, self.count, self.interval = port, count, interval
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.opened = self.ended_by_server = self.refused = 0
        self.threads = []

    def start(self):
        # A few threads each drive a share of the sockets, so 500 do not need 500 threads.
        shares = [self.count // 10 + (1 if i < self.count % 10 else 0) for i in range(10)]
        for share in shares:
            thread = threading.Thread(target=self.drive, args=(share,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def connect(self):
        try:
            conn = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            conn.setblocking(False)
            with self.lock:
                self.opened += 1
            return conn
        except OSError:
            with self.lock:
                self.refused += 1
            return None

    def drive(self, share):
        conns = [self.connect() for _ in range(share)]
        while not self.stop.wait(self.interval):
            for index, conn in enumerate(conns):
                closed = conn is None
                if conn is not None:
                    try:
                        if conn.recv(1, socket.MSG_PEEK) == b"":
                            closed = True
                    except BlockingIOError:
                        pass
                    except OSError:
                        closed = True
                    if not closed:
                        try:
                            conn.send(b"x")
                        except OSError:
                            closed = True
                if closed:
                    if conn is not None:
                        conn.close()
                        with self.lock:
                            self.ended_by_server += 1
                    conns[index] = self.connect()
        for conn in conns:
            if conn is not None:
                conn.close()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=30)


def head_mode(args):
    base_answered, base = normal_client(args.port, args.requests)
    slow = SlowClients(args.port, args.slow, args.interval)
    slow.start()
    # Let the slow connections take what they can, and the server start ending them.
    time.sleep(min(args.duration, 2 * args.interval))
    answered, loaded = 0, []
    deadline = time.monotonic() + args.duration
    rounds = 0
    while time.monotonic() < deadline and rounds < 1000:
        round_answered, round_latencies = normal_client(args.port, max(1, args.requests // 10))
        answered += round_answered
        loaded += round_latencies
        rounds += 1
        if len(loaded) >= args.requests and rounds >= 10:
            break
    sent = rounds * max(1, args.requests // 10)
    slow.finish()

    p99_base, p99_loaded = percentile(base, 0.99), percentile(loaded, 0.99)
    print(f"normal client on 127.0.0.2, GET /healthz on a fresh connection each")
    print(f"  baseline (no slow clients):     {base_answered}/{args.requests} answered, "
          f"p50 {statistics.median(base):.2f} ms, p99 {p99_base:.2f} ms")
    print(f"  with {args.slow} slow connections:  {answered}/{sent} answered, "
          f"p50 {statistics.median(loaded):.2f} ms, p99 {p99_loaded:.2f} ms")
    print(f"  slow side on 127.0.0.1: {slow.opened} connections opened, {slow.ended_by_server} closed "
          f"by the server (over the per-address cap, or past the head deadline), {slow.refused} refused at connect")
    ratio = p99_loaded / p99_base if p99_base > 0 else float("nan")
    met = answered == sent and p99_loaded < TARGET_P99_MS
    print(f"p99 with slow clients vs baseline: {ratio:.2f}x; every request answered and p99 under "
          f"{TARGET_P99_MS:.0f} ms: {'met' if met else 'MISSED'}")
    return 0 if met else 1


# --- slow bodies -------------------------------------------------------------------------------

NORMAL_SOURCE = "127.0.0.100"
BODY_LENGTH = 65536


def raise_file_limit(needed):
    """Raises the soft limit on open files to `needed` if it is lower (up to the hard limit);
    returns the limit now in force, or None when it cannot be read."""
    if resource is None:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        wanted = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return None if soft == resource.RLIM_INFINITY else soft


def open_files(pid):
    """How many files process `pid` has open, or None."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def paced_client(port, seconds, every, limit, tick=None):
    """GET /healthz from NORMAL_SOURCE, a fresh connection each, one started every `every` seconds
    (none while the previous one waits), for `seconds` seconds and at most `limit` requests.
    Returns (sent, latencies in ms, longest time in seconds without an answer); `tick` is called
    before every request."""
    started = time.monotonic()
    end = started + seconds
    latencies, sent, last_answer, longest = [], 0, started, 0.0
    next_at = started
    while sent < limit:
        now = time.monotonic()
        if now >= end:
            break
        if next_at > now:
            time.sleep(min(next_at - now, end - now))
            continue
        if tick is not None:
            tick()
        result = timed_request(port, NORMAL_SOURCE)
        sent += 1
        done = time.monotonic()
        if result is not None:
            latencies.append(result * 1000)
            longest = max(longest, done - last_answer)
            last_answer = done
        next_at = max(next_at + every, done)
    longest = max(longest, min(time.monotonic(), end) - last_answer)
    return sent, latencies, longest


class Trickle:
    """One trickling body: its socket's state."""

    __slots__ = ("source", "opened_at", "next_send", "sent", "received")

    def __init__(self, source, now, interval):
        self.source, self.opened_at, self.next_send = source, now, now + interval
        self.sent, self.received = 0, b""


class SlowBodies:
    """PER_ADDRESS connections from each of `sources`, each with a whole head announcing a 64 KiB
    body, then one body byte every `interval` seconds; reconnected when the server ends them,
    until `stop` is set. `threads` threads drive a share of the sockets each."""

    def __init__(self, port, sources, per_address, interval, key, threads=4, seconds=600):
        self.port, self.interval = port, interval
        self.slots = [source for source in sources for _ in range(per_address)]
        self.head = (
            "POST /api/v1/track/open HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/json\r\n"
            f"X-Li2-Key: {key}\r\nContent-Length: {BODY_LENGTH}\r\n\r\n"
        ).encode()
        self.hard_end = time.monotonic() + seconds  # the threads stop by themselves then
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.opened = self.failed = self.closed = self.timeouts = self.other = self.silent = 0
        self.statuses = {}
        self.timeout_ages = []  # seconds from the head to the 408
        self.silent_ages = []  # seconds from the head to a close without an answer
        self.held = 0
        self.started = 0  # threads done with their first connections
        self.threads = [
            threading.Thread(target=self.drive, args=(self.slots[i::threads],), daemon=True)
            for i in range(min(threads, len(self.slots)))
        ]

    def start(self):
        for thread in self.threads:
            thread.start()

    def ready(self):
        with self.lock:
            return self.started == len(self.threads)

    def connect(self, source):
        try:
            conn = socket.create_connection(("127.0.0.1", self.port), timeout=5, source_address=(source, 0))
        except OSError:
            with self.lock:
                self.failed += 1
            return None
        try:
            conn.sendall(self.head)
            conn.setblocking(False)
        except OSError:
            conn.close()
            with self.lock:
                self.failed += 1
            return None
        with self.lock:
            self.opened += 1
            self.held += 1
        return conn

    def ended(self, trickle):
        """Counts a connection the server ended, by what it sent first."""
        answer = trickle.received
        with self.lock:
            self.closed += 1
            self.held -= 1
            if answer.startswith(b"HTTP/1.1 408") and b"request_timeout" in answer:
                self.timeouts += 1
                self.timeout_ages.append(time.monotonic() - trickle.opened_at)
            elif answer:
                self.other += 1
                status = answer.split(b"\r\n", 1)[0].decode("latin-1")[:40]
                self.statuses[status] = self.statuses.get(status, 0) + 1
            else:
                self.silent += 1
                self.silent_ages.append(time.monotonic() - trickle.opened_at)

    def drive(self, slots):
        selector = selectors.DefaultSelector()
        live = {}  # socket -> Trickle
        retry = []  # (source, when): connections to open again

        def open_one(source):
            conn = self.connect(source)
            now = time.monotonic()
            if conn is None:
                retry.append((source, now + self.interval))
            else:
                live[conn] = Trickle(source, now, self.interval)
                selector.register(conn, selectors.EVENT_READ)

        def end(conn):
            trickle = live.pop(conn)
            selector.unregister(conn)
            conn.close()
            self.ended(trickle)
            open_one(trickle.source)

        for source in slots:
            if self.stop.is_set():
                break
            open_one(source)
        with self.lock:
            self.started += 1
        loops = 0
        while not self.stop.is_set() and time.monotonic() < self.hard_end and loops < 1_000_000:
            loops += 1
            now = time.monotonic()
            due = min((t.next_send for t in live.values()), default=now + 0.5)
            # Sends due within 50 ms go out together; closes are seen at once.
            wait = min(max(due - now, 0.05), 0.5)
            if live:
                events = selector.select(wait)
            else:
                time.sleep(wait)
                events = []
            for key, _ in events:
                conn = key.fileobj
                trickle, over = live[conn], False
                for _ in range(16):
                    try:
                        chunk = conn.recv(4096)
                    except BlockingIOError:
                        break
                    except OSError:
                        over = True
                        break
                    if not chunk:
                        over = True
                        break
                    if len(trickle.received) < 65536:
                        trickle.received += chunk
                if over:
                    end(conn)
            now = time.monotonic()
            for conn, trickle in list(live.items()):
                if trickle.next_send > now or self.stop.is_set():
                    continue
                trickle.next_send = max(trickle.next_send + self.interval, now)
                if trickle.sent >= BODY_LENGTH - 1:
                    continue  # never completes the body
                try:
                    conn.send(b"x")
                    trickle.sent += 1
                except BlockingIOError:
                    pass
                except OSError:
                    # Ended: read what it may have said first.
                    try:
                        trickle.received += conn.recv(4096)
                    except OSError:
                        pass
                    end(conn)
            for _ in range(len(retry)):
                source, when = retry.pop(0)
                if when <= now and not self.stop.is_set():
                    open_one(source)
                else:
                    retry.append((source, when))
        for conn in live:
            conn.close()
        selector.close()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=30)


def summary(latencies):
    """'p50 … ms, p99 … ms' or 'none answered'."""
    if not latencies:
        return "p50 -, p99 -"
    return f"p50 {statistics.median(latencies):.2f} ms, p99 {percentile(latencies, 0.99):.2f} ms"


def body_mode(args):
    with open(args.config) as file:
        key = json.load(file)["keys"]["publishable"]
    sources = [f"127.0.0.{i}" for i in range(1, args.addresses + 1)]
    if NORMAL_SOURCE in sources:
        print(f"--addresses must stay below {NORMAL_SOURCE.rsplit('.', 1)[1]}", file=sys.stderr)
        return 2
    target = args.addresses * args.per_address
    needed = target + 64
    limit = raise_file_limit(needed)
    if limit is not None and limit < needed:
        print(f"warning: this process may open only {limit} files, not the {needed} that {target} "
              f"connections need (raise the hard limit with ulimit -Hn): some will fail to open")
    every = args.every

    load_before = os.getloadavg()[0]
    # The baseline: the same client, alone, at the same pace.
    base_sent, base, base_gap = paced_client(args.port, args.requests * every + 30, every, args.requests)

    server_files = []

    def sample():
        if args.server_pid:
            count = open_files(args.server_pid)
            if count is not None:
                server_files.append(count)
        with slow.lock:
            held.append(slow.held)

    slow = SlowBodies(args.port, sources, args.per_address, args.interval, key, threads=args.threads,
                      seconds=args.duration + 120)
    held = []
    ramp_started = time.monotonic()
    slow.start()
    ramp_limit = ramp_started + 60
    while not slow.ready() and time.monotonic() < ramp_limit:
        time.sleep(0.05)
    ramp = time.monotonic() - ramp_started
    sent, loaded, gap = paced_client(args.port, args.duration, every, int(args.duration / every) + 1, tick=sample)
    slow.finish()

    print(f"normal client on {NORMAL_SOURCE}, GET /healthz on a fresh connection each, one every "
          f"{every * 1000:.0f} ms at most")
    print(f"  baseline (no slow clients):          {len(base)}/{base_sent} answered, {summary(base)}, "
          f"longest without an answer {base_gap:.2f} s")
    print(f"  with {target} trickling bodies, {args.duration:.0f} s: {len(loaded)}/{sent} answered, "
          f"{summary(loaded)}, longest without an answer {gap:.2f} s")
    def spread(what, ages):
        ages = sorted(ages)
        return f" ({what} {ages[0]:.1f} to {ages[-1]:.1f} s, median {statistics.median(ages):.1f} s)" if ages else ""

    others = ", ".join(f"{count} '{status}'" for status, count in sorted(slow.statuses.items()))
    print(f"  slow side on {sources[0]}-{sources[-1]}, {args.per_address} each, a body byte every "
          f"{args.interval:g} s: {slow.opened} connections opened in all (the first {target} tried in "
          f"{ramp:.1f} s), {slow.closed} closed by the server, {slow.timeouts} of them answered 408"
          f"{spread('after', slow.timeout_ages)}, {slow.other} other answers"
          f"{' (' + others + ')' if others else ''}, {slow.silent} closed without a word"
          f"{spread('after', slow.silent_ages)}; {slow.failed} failed to open")
    if held:
        print(f"  held open by the slow side during the measurement: {min(held)} to {max(held)}")
    if server_files:
        print(f"  files open in the server during the measurement: {min(server_files)} to {max(server_files)}")
    print(f"  1-minute load average: {load_before:.2f} before the baseline, {os.getloadavg()[0]:.2f} at the end")
    p99_base, p99_loaded = percentile(base, 0.99), percentile(loaded, 0.99)
    ratio = p99_loaded / p99_base if loaded and p99_base > 0 else float("nan")
    met = bool(loaded) and len(loaded) == sent and p99_loaded < TARGET_P99_MS
    ratio_text = f"{ratio:.2f}x" if loaded else "- (no answer)"
    print(f"p99 with trickling bodies vs baseline: {ratio_text}; every request answered and p99 under "
          f"{TARGET_P99_MS:.0f} ms: {'met' if met else 'MISSED'}")
    return 0 if met else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("port", type=int)
    parser.add_argument("--mode", choices=["head", "body"], default="head")
    parser.add_argument("--slow", type=int, default=500, help="head mode: trickling connections")
    parser.add_argument("--interval", type=float, default=5.0)
    parser.add_argument("--requests", type=int, help="baseline requests (head 2000, body 750)")
    parser.add_argument("--duration", type=float, help="seconds with slow clients (head 60, body 75)")
    parser.add_argument("--addresses", type=int, default=20, help="body mode: source addresses")
    parser.add_argument("--per-address", type=int, default=60, help="body mode: connections per address")
    parser.add_argument("--every", type=float, default=0.02, help="body mode: seconds between normal requests")
    parser.add_argument("--threads", type=int, default=4, help="body mode: threads driving the slow side")
    parser.add_argument("--config", default="config/demo.json", help="body mode: where the publishable key is")
    parser.add_argument("--server-pid", type=int, help="body mode: sample this process's open files")
    args = parser.parse_args()
    if args.mode == "head":
        args.requests = 2000 if args.requests is None else args.requests
        args.duration = 60.0 if args.duration is None else args.duration
        return head_mode(args)
    args.requests = 750 if args.requests is None else args.requests
    args.duration = 75.0 if args.duration is None else args.duration
    if not (1 <= args.addresses <= 99 and 1 <= args.per_address and 0.1 <= args.interval
            and 0.001 <= args.every and 1 <= args.threads <= 32 and 1 <= args.duration <= 3600
            and 1 <= args.requests <= 100_000):
        parser.error("body mode: 1-99 addresses, at least 1 per address, interval >= 0.1 s, every >= 0.001 s, "
                     "1-32 threads, duration 1-3600 s, 1-100000 requests")
    return body_mode(args)


if __name__ == "__main__":
    sys.exit(main())

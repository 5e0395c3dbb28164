#!/usr/bin/env python3
"""Slow clients against `workbook serve`: does one address full of trickling connections leave
the server to everyone else?

SLOW connections from 127.0.0.1 each send half a request head and then one header byte every
INTERVAL seconds, reconnecting when the server closes them, for DURATION seconds. Meanwhile a
normal client on 127.0.0.2 (the whole 127.0.0.0/8 is loopback on Linux) sends REQUESTS
requests, one connection each, and times them. The baseline is the same client, the same
requests, measured first in the same run with no slow connection open.

    slow.py PORT [--slow 500] [--interval 5] [--requests 2000] [--duration 60]

Prints the answered counts and p50/p99 of both runs, their ratio, and the verdict against the
target: every request answered and p99 under 50 ms. Every socket has a timeout, every loop a
bound, and everything stays on loopback.
"""

import argparse
import socket
import statistics
import sys
import threading
import time

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("port", type=int)
    parser.add_argument("--slow", type=int, default=500)
    parser.add_argument("--interval", type=float, default=5.0)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--duration", type=float, default=60.0)
    args = parser.parse_args()

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


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Save -> reload latency of `workbook serve`: how long from a chapter being written to the
"reload" Server-Sent Event reaching an open page.

    reload_latency.py WORKBOOK BOOK [RUNS]

Starts `WORKBOOK serve --book BOOK` on a free port, waits for the first build, opens
/_workbook/events like a page does, then RUNS times: appends a line to a chapter, and times
until the `reload` event arrives. Between runs it waits for the background checks (snippet
checkers, tangle drift: 1.5 to 3 s) to finish, so that each save starts from a quiet server.
Prints every figure and the median.
"""
import http.client
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def main():
    workbook, book = sys.argv[1], Path(sys.argv[2]).resolve()
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    data = tempfile.mkdtemp(prefix="reload-bench-")
    server = subprocess.Popen(
        [workbook, "serve", "--port", "0", "--book", str(book), "--data-dir", data,
         "--config", str(book / "config/demo.json")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = None
        for line in server.stdout:
            match = re.match(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if match:
                port = int(match.group(1))
                break
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
        wait_ready(port)
        events = open_events(port)
        chapter = sorted((book / "chapters").glob("*.md"))[1]
        original = chapter.read_text()
        figures = []
        try:
            for run in range(runs):
                time.sleep(3.5)
                settle(events, quiet=0.5)
                chapter.write_text(original + "\n" * (run % 2 + 1))
                started = time.perf_counter()
                wait_for(events, "event: reload")
                figures.append((time.perf_counter() - started) * 1000)
                print(f"run {run + 1}: {figures[-1]:.0f} ms", flush=True)
        finally:
            chapter.write_text(original)
        print(f"save -> reload: median {statistics.median(figures):.0f} ms over {runs} saves "
              f"(min {min(figures):.0f}, max {max(figures):.0f}); target <= 200 ms")
    finally:
        server.terminate()
        server.wait(timeout=15)


def wait_ready(port):
    deadline = time.time() + 120
    while time.time() < deadline:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/_workbook/status")
        body = connection.getresponse().read().decode()
        if '"state":"ready"' in body:
            return
        time.sleep(0.1)
    raise SystemExit("the first build never finished")


def open_events(port):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /_workbook/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return sock


def wait_for(sock, marker):
    sock.settimeout(30)
    received = b""
    while marker.encode() not in received:
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("the event stream closed")
        received += chunk


def settle(sock, quiet):
    """Reads and drops events until none has come for `quiet` seconds."""
    sock.settimeout(quiet)
    while True:
        try:
            if not sock.recv(65536):
                raise SystemExit("the event stream closed")
        except socket.timeout:
            return


if __name__ == "__main__":
    main()

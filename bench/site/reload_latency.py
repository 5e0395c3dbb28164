#!/usr/bin/env python3
"""Save -> reload latency of `workbook serve`: how long from a chapter being written to the
"reload" Server-Sent Event reaching an open page.

    reload_latency.py WORKBOOK BOOK [RUNS] [SITE]

Starts `WORKBOOK serve --book BOOK` on a free port, waits for the first build, opens
/_workbook/events like a page does, then RUNS times: changes one word of a paragraph in the
chapter in the middle of the book, to a new word each time (`anchor` becomes `anchora`, then
`anchorb`, ...: no save repeats a text, as an author's saves do not, so memos keyed by text can
neither make a save look free nor hide that they keep every version), and times until the `reload` event
for SITE's pages arrives (`en`, the default, or `vi`: a reload names the languages it is for, and
one without a list is for every page). Between runs it waits for the background checks (snippet
checkers, tangle drift) to finish, so that each save starts from a quiet server.

Prints every figure, what the server says it rebuilt and how long that took, and ends with
`save -> reload: median N ms, p95 N ms over RUNS saves`, then the server's resident memory (VmRSS
of /proc/PID/status, read when the server is quiet) after the first save and after the last:
`RUNS` = 200 gives the figure after 200 saves that the live site's memory target is about.
"""
import collections
import http.client
import json
import math
import os
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
    site = sys.argv[4] if len(sys.argv) > 4 else "en"
    data = tempfile.mkdtemp(prefix="reload-bench-")
    server = subprocess.Popen(
        [workbook, "serve", "--port", "0", "--book", str(book), "--data-dir", data,
         "--config", str(book / "config/demo.json")] + (["--timings"] if os.environ.get("TIMINGS") else []),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rebuilds = []
    last_lines = collections.deque(maxlen=30)
    try:
        port = None
        for line in server.stdout:
            match = re.match(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if match:
                port = int(match.group(1))
                break
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
        threading.Thread(target=collect_rebuilds, args=(server.stderr, rebuilds, last_lines), daemon=True).start()
        wait_ready(port)
        events = open_events(port)
        chapters = sorted(p for p in (book / "chapters").glob("*.md") if p.name != "SUMMARY.md")
        chapter = chapters[len(chapters) // 2]
        original = chapter.read_text()
        line, word = word_to_change(original)
        print(f"editing one word of {chapter.name}, line {line + 1}: '{word}'", flush=True)
        figures = []
        memory = []
        try:
            for run in range(runs):
                time.sleep(3.5)
                settle(events, quiet=0.5)
                if run == 1:
                    memory.append(resident_kilobytes(server.pid))
                del rebuilds[:]
                lines = original.split("\n")
                lines[line] = re.sub(rf"\b{re.escape(word)}\b", word + suffix(run), lines[line], count=1)
                chapter.write_text("\n".join(lines))
                started = time.perf_counter()
                wait_for_reload(events, site)
                figures.append((time.perf_counter() - started) * 1000)
                time.sleep(0.3)
                print(f"run {run + 1}: {figures[-1]:.0f} ms   ({'; '.join(r for r in rebuilds if not r.startswith(' '))})",
                      flush=True)
                for stage in (r for r in rebuilds if r.startswith(" ")):
                    print("   " + stage, flush=True)
            time.sleep(3.5)
            settle(events, quiet=0.5)
            memory.append(resident_kilobytes(server.pid))
        finally:
            chapter.write_text(original)
        p95 = sorted(figures)[max(0, math.ceil(0.95 * len(figures)) - 1)]
        print(f"save -> reload: median {statistics.median(figures):.0f} ms, p95 {p95:.0f} ms "
              f"over {runs} saves (site {site})")
        if len(memory) == 2:
            first, last = memory
            print(f"memory (RSS): {first / 1024:.1f} MB after 1 save, {last / 1024:.1f} MB after {runs} "
                  f"saves ({100 * (last - first) / first:+.1f} %; target: within 10 % after 200)")
    except SystemExit:
        # Say what the server last wrote, and whether it is still running.
        status = server.poll()
        print("the server " + ("is still running" if status is None else f"ended with status {status}")
              + "; its last lines:", file=sys.stderr)
        for line in last_lines:
            print("  " + line, file=sys.stderr)
        raise
    finally:
        server.terminate()
        server.wait(timeout=15)


def resident_kilobytes(pid):
    """The process's resident set size in kB, from the VmRSS line of /proc/PID/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise SystemExit(f"no VmRSS in /proc/{pid}/status")


def suffix(run):
    """Letters that differ for every run: a, b, ..., z, aa, ab, ..."""
    letters = ""
    run += 1
    while run > 0:
        run, rest = divmod(run - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def word_to_change(text):
    """The first word of seven letters or more on a prose line: outside code blocks, not a
    heading, a list item, a table row or a quote."""
    fenced = False
    for number, line in enumerate(text.split("\n")):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or not line.strip() or line.lstrip()[0] in "#-*|>0123456789<":
            continue
        for word in re.findall(r"(?<![\w`\[(/.-])[A-Za-z]{7,}(?![\w`\])/.-])", line):
            return number, word
    raise SystemExit("no prose word to change in the chapter")


def collect_rebuilds(stream, rebuilds, last_lines):
    """Keeps the server's lines that say what a rebuild did (`site: en: 1 page, ... in 12 ms`),
    and the last lines it wrote, to show if the run fails."""
    for line in stream:
        last_lines.append(line.rstrip("\n"))
        match = re.match(r"site: ((en|vi): .*)$", line.strip())
        if match:
            rebuilds.append(match.group(1))
        elif line.startswith("site:   "):
            # A stage's time, with TIMINGS=1 (`serve --timings`): `site:   PageWriting.write  9.1 ms`.
            rebuilds.append(line[len("site:"):].rstrip("\n"))


def wait_ready(port):
    deadline = time.time() + 180
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


def wait_for_reload(sock, site):
    """Reads events until a `reload` for `site`'s pages has arrived."""
    sock.settimeout(30)
    received = b""
    while True:
        while b"\n\n" not in received:
            chunk = sock.recv(65536)
            if not chunk:
                raise SystemExit("the event stream closed")
            received += chunk
        event, received = received.split(b"\n\n", 1)
        text = event.decode(errors="replace")
        if "event: reload" not in text:
            continue
        payload = re.search(r"^data: (.*)$", text, re.M)
        languages = json.loads(payload.group(1)).get("languages") if payload else None
        if languages is None or site in languages:
            return


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

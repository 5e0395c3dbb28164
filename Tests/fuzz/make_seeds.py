#!/usr/bin/env python3
"""Writes the fuzz targets' seed inputs from the book's own snippets.

    make_seeds.py OUT_FOLDER

Every chapter's code blocks are sorted by what they are: JSON snippets seed the strict JSON
checker (and, by their keys, the AASA and assetlinks readers), AndroidManifest XML seeds the
manifest reader, each block with the prose around it seeds the chunk parser, `li2_dl` values
seed the referrer decoder, and the routes of the OpenAPI document with the JSON snippets as
bodies seed the HTTP checks. The folder is written afresh each run.
"""

import hashlib
import json
import pathlib
import re
import shutil
import sys
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(```+|~~~+)(.*)$")
MAX_SEED = 8192


def blocks(text):
    """(info string, body, start offset, end offset) of each fenced block."""
    lines = text.splitlines(keepends=True)
    offset, index, found = 0, 0, []
    offsets = []
    for line in lines:
        offsets.append(offset)
        offset += len(line)
    offsets.append(offset)
    while index < len(lines):
        match = FENCE.match(lines[index].rstrip("\n"))
        if not match:
            index += 1
            continue
        fence, info = match.group(1), match.group(2).strip()
        end = index + 1
        while end < len(lines) and not lines[end].startswith(fence):
            end += 1
        body = "".join(lines[index + 1:end])
        found.append((info, body, offsets[index], offsets[min(end + 1, len(lines))]))
        index = end + 1
    return found


def main():
    out = pathlib.Path(sys.argv[1])
    shutil.rmtree(out, ignore_errors=True)
    seeds = {name: set() for name in
             ["info-string", "chunk-expansion", "strict-json", "aasa", "assetlinks", "android-manifest", "referrer", "http-request"]}
    json_bodies = []
    for chapter in sorted((ROOT / "chapters").glob("*.md")):
        text = chapter.read_text(encoding="utf-8")
        for info, body, start, end in blocks(text):
            language = info.split(" ", 1)[0].split("{", 1)[0]
            # A block with a little prose before it, as a chapter of its own.
            excerpt = text[max(0, start - 300):end]
            if len(excerpt.encode()) <= MAX_SEED:
                seeds["info-string"].add(excerpt)
            seeds["info-string"].add(info + "\n")
            if language == "json":
                seeds["strict-json"].add(body)
                json_bodies.append(body)
                if '"applinks"' in body or '"webcredentials"' in body or '"appclips"' in body:
                    seeds["aasa"].add(body)
                if "delegate_permission" in body:
                    seeds["assetlinks"].add(body)
            if language == "xml" and "<manifest" in body:
                seeds["android-manifest"].add(body)
            for value in re.findall(r"li2_dl(?:=|%3D)[^\s\"'`)<]+", body):
                seeds["referrer"].add(value)
                seeds["referrer"].add(urllib.parse.unquote(value))
    document = json.loads((ROOT / "Sources/MockServer/Resources/openapi.json").read_text(encoding="utf-8"))
    small_bodies = [body for body in json_bodies if len(body.encode()) < 1024][:20] or ["{}"]
    for path, operations in document["paths"].items():
        for method in operations:
            if method not in ("get", "post"):
                continue
            target = path.replace("{key}", "summer").replace("{domain}", "go.example").replace("{id}", "sim_1")
            for body in (small_bodies if method == "post" else [""]):
                head = (f"{method.upper()} {target}?limit=2&after=5 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        f"Content-Type: application/json\r\nContent-Length: {len(body.encode())}\r\n\r\n")
                seeds["http-request"].add(head + body)
    seeds["http-request"].add("POST /api/v1/echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
    # Chunk books (see targets/chunk-expansion.swift): a chain, a fan-out, a cycle, a canImport block.
    seeds["chunk-expansion"] |= {
        bytes([8, 0x40, 0x00, 0x41, 0x01, 0x42, 0x02, 0x80 | 5]),
        bytes([4, 0x40, 0x40, 0x00, 0x41, 0x41, 0x01, 0x42, 0x42, 0x02, 0x80 | 7]),
        bytes([3, 0x40, 0x00, 0x40, 0x80 | 1]),
        bytes([2, 0xC1, 0x80 | 2, 0x40, 0xC2, 0xC3]),
    }
    for name, inputs in seeds.items():
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        for text in inputs:
            data = (text if isinstance(text, bytes) else text.encode("utf-8"))[:MAX_SEED]
            (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
        print(f"seeds: {name}: {len(inputs)}", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a synthetic book for the tangle benchmark, in Entangled's syntax.

200 chapters, each with 25 named Swift chunks of about 8 lines and one file chunk that includes
them all: about 2.4 MB of Markdown. Deterministic, so every run measures the same input.
"""
import os
import sys

CHAPTERS = 200
CHUNKS = 25


def chunk_body(chapter: int, chunk: int) -> str:
    name = f"value{chapter}x{chunk}"
    lines = [
        f"/// Returns the {chunk}th derived value of chapter {chapter}, with a little prose in the",
        "/// comment so the block looks like real documented code in a real chapter.",
        f"static func {name}(_ input: Int) -> Int {{",
        f"    let scaled = input &* {chunk + 3} &+ {chapter}",
        "    let mixed = (scaled << 3) ^ (scaled >> 2)",
        f"    guard mixed != {chapter * 31 + chunk} else {{ return 0 }}",
        "    return mixed % 1_000_003",
        "}",
    ]
    return "\n".join(lines)


def chapter_text(chapter: int) -> str:
    parts = [f"# Chapter {chapter}: synthetic material\n"]
    parts.append(
        "This chapter exists to measure the tangler. It mixes prose paragraphs, named chunks and "
        "one file chunk, in the proportions of a real chapter of the book. " * 3 + "\n")
    refs = "\n".join(f"    <<chapter{chapter}-chunk{c}>>" for c in range(CHUNKS))
    parts.append(
        f"``` {{.swift file=out/Chapter{chapter:03}.swift}}\n"
        f"public enum Chapter{chapter:03} {{\n{refs}\n}}\n```\n")
    for c in range(CHUNKS):
        parts.append(
            f"## Step {c}\n\nThe {c}th step explains why the value is derived the way it is, "
            "which edge case it guards against, and how a reader would test it. "
            "It is deliberately wordy, as explanations in a teaching book are.\n")
        parts.append(f"``` {{.swift #chapter{chapter}-chunk{c}}}\n{chunk_body(chapter, c)}\n```\n")
    return "\n".join(parts)


def main() -> None:
    root = sys.argv[1]
    os.makedirs(os.path.join(root, "chapters"), exist_ok=True)
    total = 0
    for chapter in range(CHAPTERS):
        text = chapter_text(chapter)
        total += len(text.encode())
        with open(os.path.join(root, "chapters", f"{chapter:03}-synthetic.md"), "w") as f:
            f.write(text)
    with open(os.path.join(root, "entangled.toml"), "w") as f:
        f.write('version = "2.0"\nwatch_list = ["chapters/*.md"]\n\n'
                '[[languages]]\nname = "Swift"\nidentifiers = ["swift"]\ncomment = { open = "//" }\n')
    print(f"{CHAPTERS} chapters, {CHAPTERS * CHUNKS} named chunks, {total / 1e6:.2f} MB")


if __name__ == "__main__":
    main()

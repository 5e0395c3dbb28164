#!/usr/bin/env python3
"""Copies a corpus of Markdown files into a book's chapters folder for the site benchmark.

    copy_corpus.py CORPUS CHAPTERS

Every `.md` file below CORPUS, at any depth (a `SUMMARY.md` left out: the book orders its
chapters by name), is copied to CHAPTERS as `NNN-path-with-dashes.md`, numbered in the order of
the paths, so that every tool of the benchmark reads the same files in the same order.
"""
import os
import sys


def main():
    source, chapters = sys.argv[1], sys.argv[2]
    paths = sorted(
        os.path.relpath(os.path.join(folder, name), source)
        for folder, _, names in os.walk(source)
        for name in names
        if name.endswith(".md") and name != "SUMMARY.md")
    if not paths:
        sys.exit(f"copy_corpus.py: no Markdown file in {source}")
    os.makedirs(chapters)
    for number, path in enumerate(paths, 1):
        name = "%03d-%s" % (number, path.replace(os.sep, "-").lower())
        with open(os.path.join(source, path), "rb") as old, open(os.path.join(chapters, name), "wb") as new:
            new.write(old.read())


if __name__ == "__main__":
    main()

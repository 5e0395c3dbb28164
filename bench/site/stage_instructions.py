#!/usr/bin/env python3
"""Instructions per stage of `SiteBuilder.build`, from callgrind, for bench/site/run.

    stage_instructions.py LABEL ANNOTATED...

Each ANNOTATED file is `callgrind_annotate --inclusive=yes` of one thread of a build run with
`valgrind --tool=callgrind --separate-threads=yes`, demangled (`swift demangle --simplified`).
Some stages hand parts of their work to other threads (pages are rendered by a concurrent map), so
a stage's count is, summed over the threads, the largest inclusive count of a function of that
stage in each thread: the stage's function itself in the thread that calls it, the outermost of
its closures in a worker thread (or those of a function it calls, listed in CALLED). The build is `SiteBuilder.build` in the first thread and all of
every worker thread. Prints one line per stage, with its share of the build, then the search
index's parts and their join (inside the stages above).
"""
import re
import sys

STAGES = [
    "SiteInput.load",
    "BlockProofs.measure",
    "BookPages.collect",
    "ReferencePages.add",
    "SiteLinks.resolve",
    "PageWriting.write",
    "SiteFiles.write",
]
# Functions a stage calls that run their own closures on worker threads, where no frame of the
# stage is on the stack: the chapters are parsed in parallel by `Book.load`.
CALLED = {"SiteInput.load": ["Book.load("]}
# Inside the stages: making each page's part of the search index, and joining the parts.
PARTS = [("search index parts", "SearchIndex.part"), ("search index join", "SearchIndex.json(parts:")]
LINE = re.compile(r"^\s*([\d,]+) \([ \d.]+%\)\s+\S*?:(.*) \[")


def counts(path):
    total, functions = 0, []
    with open(path, encoding="utf-8", errors="replace") as file:
        for line in file:
            if "PROGRAM TOTALS" in line:
                total = int(line.split()[0].replace(",", ""))
                continue
            match = LINE.match(line)
            if match:
                functions.append((int(match.group(1).replace(",", "")), match.group(2)))
    return total, functions


def main():
    label, paths = sys.argv[1], sys.argv[2:]
    threads = [counts(path) for path in paths]
    program = sum(total for total, _ in threads)

    def spent(name):
        wanted = [name if "(" in name else name + "("] + CALLED.get(name, [])
        return sum(
            max((count for count, function in functions if any(w in function for w in wanted)), default=0)
            for _, functions in threads)

    # A worker thread runs nothing but the build's concurrent maps: all of it counts.
    build = sum(
        max((count for count, function in functions if "SiteBuilder.build(" in function), default=0)
        if any("SiteBuilder.build(" in function for _, function in functions) or index == 0 else total
        for index, (total, functions) in enumerate(threads))
    print(f"instructions ({label}): {program / 1e6:,.0f} M in the program, "
          f"{build / 1e6:,.0f} M in SiteBuilder.build")
    staged = 0
    for name in STAGES:
        value = spent(name)
        staged += value
        print(f"  {name:<22} {value / 1e6:>8,.1f} M  {100 * value / build if build else 0:5.1f} %")
    other = build - staged
    print(f"  {'between the stages':<22} {other / 1e6:>8,.1f} M  {100 * other / build if build else 0:5.1f} %")
    for title, name in PARTS:
        value = spent(name)
        print(f"  {title:<22} {value / 1e6:>8,.1f} M  {100 * value / build if build else 0:5.1f} %")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a synthetic book for the site benchmark.

48 chapters of about 58 KB each (about 2.8 MB of Markdown): prose paragraphs with emphasis, code
spans and links to other chapters' headings, bullet and ordered lists, pipe tables, block quotes,
and code blocks in the proportions of a real chapter (Swift file and named chunks, JSON checked
as JSON, display-only Kotlin and shell). Deterministic, so every run measures the same input.
"""
import os
import sys

CHAPTERS = 48
SECTIONS = 14

WORDS = (
    "link route scheme domain token install referrer clipboard consent matcher component path "
    "pattern query fragment host association entitlement manifest filter verify fingerprint "
    "interstitial destination resolver gate window attribution publishable key server record"
).split()


def sentence(seed: int, length: int) -> str:
    words = [WORDS[(seed * 7 + i * 13) % len(WORDS)] for i in range(length)]
    words[0] = words[0].capitalize()
    return " ".join(words) + "."


def paragraph(chapter: int, section: int, index: int) -> str:
    seed = chapter * 1000 + section * 10 + index
    parts = [sentence(seed + k, 9 + (seed + k) % 7) for k in range(6)]
    parts[1] = parts[1][:-1] + f", with *emphasis*, **strong words** and `code{section}.value`."
    other = (chapter + 1) % CHAPTERS
    parts[3] = (
        parts[3][:-1]
        + f"; see [section {index}]({other:02}-synthetic.md#step-{index}-of-chapter-{other}) "
        + f"and [the step above](#step-{section}-of-chapter-{chapter})."
    )
    return " ".join(parts)


def swift_chunk(chapter: int, section: int) -> str:
    name = f"derive{chapter}x{section}"
    return "\n".join([
        f"/// Derives the {section}th value of chapter {chapter}: a documented, realistic body.",
        f"static func {name}(_ input: Int, label: String = \"step-{section}\") -> String {{",
        f"    let scaled = input &* {section + 3} &+ {chapter}",
        "    let mixed = (scaled << 3) ^ (scaled >> 2)",
        f"    guard mixed != {chapter * 31 + section} else {{ return label + \": zero\" }}",
        "    if mixed % 2 == 0 && label.count < 40 {",
        "        return \"\\(label): even \\(mixed % 1_000_003)\"",
        "    }",
        "    return \"\\(label): odd \\(mixed % 1_000_003)\"",
        "}",
    ])


def section_text(chapter: int, section: int) -> str:
    parts = [f"## Step {section} of chapter {chapter}\n"]
    for index in range(3):
        parts.append(paragraph(chapter, section, index) + "\n")
    parts.append("\n".join(
        f"- {sentence(chapter + section + i, 8)} Use `value{i}` when the {WORDS[i]} is known."
        for i in range(4)) + "\n")
    parts.append("\n".join(
        f"{i + 1}. {sentence(chapter * section + i, 10)}" for i in range(3)) + "\n")
    if section % 3 == 0:
        parts.append(
            "| Input | Outcome | Why |\n| --- | :---: | ---: |\n" + "\n".join(
                f"| `/{WORDS[i]}/{section}` | **{WORDS[(i + 3) % len(WORDS)]}** | "
                f"{sentence(i + section, 6)} |" for i in range(6)) + "\n")
    parts.append(f"> {sentence(chapter + section, 14)} {sentence(section, 11)}\n")
    parts.append(f"```swift {{#chapter{chapter}-step{section}}}\n{swift_chunk(chapter, section)}\n```\n")
    if section % 2 == 0:
        parts.append(
            "```json\n{\n  \"applinks\": {\n    \"details\": [\n      {\n"
            f"        \"appIDs\": [\"ABCDE12345.com.example.app{chapter}\"],\n"
            "        \"components\": [\n"
            f"          {{ \"/\": \"/step/{section}/*\", \"comment\": \"step {section}\" }},\n"
            "          { \"/\": \"/private/*\", \"exclude\": true }\n"
            "        ]\n      }\n    ]\n  }\n}\n```\n")
    else:
        parts.append(
            "```kotlin\noverride fun onNewIntent(intent: Intent) {\n"
            "    super.onNewIntent(intent)\n"
            f"    val uri = intent.data ?: return\n    router.open(uri, step = {section})\n}}\n```\n")
    if section % 5 == 1:
        parts.append(f"```console\n$ adb shell am start -a android.intent.action.VIEW "
                     f"-d \"https://example.com/step/{section}\"\nStarting: Intent {{ act=VIEW }}\n```\n")
    return "\n".join(parts)


def chapter_text(chapter: int) -> str:
    refs = "\n".join(f"    <<chapter{chapter}-step{s}>>" for s in range(SECTIONS))
    parts = [
        f"# Chapter {chapter}: synthetic material\n",
        sentence(chapter, 20) + " " + sentence(chapter + 1, 18) + "\n",
        f"```swift {{file=Sources/Synthetic/Chapter{chapter:02}.swift}}\n"
        f"public enum Chapter{chapter:02} {{\n{refs}\n}}\n```\n",
    ]
    parts += [section_text(chapter, s) for s in range(SECTIONS)]
    return "\n".join(parts)


def main() -> None:
    root = sys.argv[1]
    os.makedirs(os.path.join(root, "chapters"), exist_ok=True)
    total = 0
    for chapter in range(CHAPTERS):
        text = chapter_text(chapter)
        total += len(text.encode())
        with open(os.path.join(root, "chapters", f"{chapter:02}-synthetic.md"), "w") as f:
            f.write(text)
    print(f"{CHAPTERS} chapters, {total / 1e6:.2f} MB of Markdown")


if __name__ == "__main__":
    main()

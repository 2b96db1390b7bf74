#!/usr/bin/env python3
"""Turns the Swift code blocks of the documentation into Swift files that compile.

    python3 Scripts/extract-doc-examples.py OUTPUT_DIRECTORY README.md Sources/.../*.md

Run by Scripts/check-doc-examples.sh, which compiles the result against the library. Every
```swift block of each Markdown file is taken, except:

- a fragment: a block whose fence follows the line `<!-- fragment -->` (a piece of a larger
  declaration, such as a method shown without its class, or a part of a manifest);
- a package manifest: a block that starts with `// swift-tools-version:`; its blocks are
  written to OUTPUT/manifests/<article>-<line>/Package.swift instead, for the script to
  evaluate with `swift package dump-package`.

Each Markdown file becomes one Swift file, OUTPUT/Sources/DocExamples/<article>.swift, with
one function whose body holds the article's blocks in order. Each block opens a nested
`do {` scope, closed at the end of the function: a block sees every name the blocks before
it declared (the examples of an article build on each other), and may declare a name again
(a "before" and an "after" version of a type). The types declared in a block are local
types. `import` lines are moved to the top of the file.

A block may need names the article mentions but does not show (`data`, an `order` of some
`Order` type). An HTML comment that starts with `<!-- setup` right before the fence (or
before the fragment marker's place) holds Swift code compiled just before the block, in
its scope; neither DocC nor GitHub renders it:

    <!-- setup
    struct Order: Codable { var id = 1 }
    let order = Order()
    -->
    ```swift
    let data = try ArchiveEncoder().encode(order)
    ```

or, on one line, `<!-- setup: struct Order: Codable {}; let order = Order() -->`.

`#sourceLocation` lines make the compiler's errors name the Markdown file and line.
Prints one line per article with its count of blocks, fragments and manifests.
"""
import os
import re
import sys

FENCE = re.compile(r"^```\s*swift\s*$")
FRAGMENT = "<!-- fragment -->"


def blocks_of(lines):
    """(kind, first code line number (1-based), code lines, setup lines, setup line number)."""
    result = []
    index = 0
    while index < len(lines):
        if not FENCE.match(lines[index]):
            index += 1
            continue
        start = index
        end = start + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        if end == len(lines):
            raise SystemExit(f"error: line {start + 1}: a ```swift block is never closed")
        code = lines[start + 1:end]
        above = start - 1
        kind = "code"
        if above >= 0 and lines[above].strip() == FRAGMENT:
            kind = "fragment"
        elif code and code[0].startswith("// swift-tools-version:"):
            kind = "manifest"
        setup, setup_line = [], 0
        if above >= 0 and lines[above].strip() == "-->":
            opening = above - 1
            while opening >= 0 and not lines[opening].lstrip().startswith("<!--"):
                opening -= 1
            if opening >= 0 and lines[opening].strip().startswith("<!-- setup"):
                setup = lines[opening + 1:above]
                setup_line = opening + 2
        elif above >= 0 and lines[above].strip().startswith("<!-- setup") and lines[above].strip().endswith("-->"):
            setup = [lines[above].strip()[len("<!-- setup"):-len("-->")].strip(" :")]
            setup_line = above + 1
        result.append((kind, start + 2, code, setup, setup_line))
        index = end + 1
    return result


def swift_name(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    return re.sub(r"[^A-Za-z0-9_]", "_", stem)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    output = argv[1]
    sources = os.path.join(output, "Sources", "DocExamples")
    manifests = os.path.join(output, "manifests")
    os.makedirs(sources, exist_ok=True)
    os.makedirs(manifests, exist_ok=True)
    totals = [0, 0, 0]
    for path in argv[2:]:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        name = swift_name(path)
        shown = os.path.relpath(path)
        imports = ["import Foundation", "import KeyedArchive"]
        body = []
        counts = {"code": 0, "fragment": 0, "manifest": 0}
        for kind, line, code, setup, setup_line in blocks_of(lines):
            counts[kind] += 1
            if kind == "fragment":
                continue
            if kind == "manifest":
                folder = os.path.join(manifests, f"{name}-{line}")
                os.makedirs(folder, exist_ok=True)
                with open(os.path.join(folder, "Package.swift"), "w", encoding="utf-8") as handle:
                    handle.write("\n".join(code) + "\n")
                continue
            body.append("do {")
            for part, first in ((setup, setup_line), (code, line)):
                if not part:
                    continue
                body.append(f'#sourceLocation(file: "{shown}", line: {first})')
                for text in part:
                    if re.match(r"^\s*import\s+\w+\s*$", text):
                        if text.strip() not in imports:
                            imports.append(text.strip())
                        text = ""
                    body.append(text)
                body.append("#sourceLocation()")
        depth = counts["code"]
        with open(os.path.join(sources, name + ".swift"), "w", encoding="utf-8") as handle:
            handle.write(f"// Written by Scripts/check-doc-examples.sh from {shown}; do not edit.\n")
            handle.write("\n".join(imports) + "\n\n")
            handle.write(f"// The {depth} Swift block(s) of {shown}, each in a scope nested in the one before.\n")
            handle.write(f"func examplesOf{name}() async throws {{\n")
            handle.write("\n".join(body) + "\n")
            handle.write("}" * depth + "\n}\n")
        for i, key in enumerate(("code", "fragment", "manifest")):
            totals[i] += counts[key]
        print(f"{shown}: {counts['code']} compiled, {counts['fragment']} fragments, {counts['manifest']} manifests")
    print(f"{totals[0]} blocks compiled, {totals[1]} fragments, {totals[2]} manifests")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Checks the relative links of README.md and docs/*.md: every `](path)` and `](path#anchor)` must name a file
of the repository, and an anchor must be a heading of that file (GitHub's slugs); every docs/*.svg must be
referenced by some page. Exit 0 when all hold, 1 listing what does not."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: pathlib.Path) -> set:
    found, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


def main() -> int:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    errors, referenced = [], set()
    for page in pages:
        fenced = False
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue
                file, _, anchor = target.partition("#")
                dest = (page.parent / file).resolve() if file else page
                where = f"{page.relative_to(ROOT)}:{number}: {target}"
                if not dest.exists():
                    errors.append(f"{where}: no such file")
                    continue
                referenced.add(dest)
                if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                    errors.append(f"{where}: no heading #{anchor}")
    for svg in sorted((ROOT / "docs").glob("*.svg")):
        if svg.resolve() not in referenced:
            errors.append(f"{svg.relative_to(ROOT)}: referenced by no page")
    for error in errors:
        print(error)
    print(f"{len(pages)} pages checked, {len(errors)} broken links", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks that the code README.md, docs/*.md and results/README.md point at still exists: every `src/...rs` path
must be a file; every quoted module path (`crate::a::b`, `arbiter::a::b`, or `a::b` whose first part is a
top-level module of src/, such as `runner::rundir::records`) must name a file or folder under src/, and the names
after the module (an item, a `tests::name`) must occur as words in that module's file. Paths of other projects
(`src/chessgame.cpp`) are not checked. Exit 0 when all hold, 1 listing what does not."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
CODE = re.compile(r"`([^`\n]+)`")
SRC_PATH = re.compile(r"(?<![\w/.-])(src/\w[\w/.-]*\w)")
MODULE_PATH = re.compile(r"(?<![\w:/.])((?:[a-z_][a-z0-9_]*::)+[A-Za-z_][A-Za-z0-9_]*)")


def top_modules() -> set:
    found = {"crate", "arbiter"}
    for entry in SRC.iterdir():
        if entry.is_dir() or (entry.suffix == ".rs" and entry.stem not in ("lib", "main")):
            found.add(entry.stem)
    return found


def module_file(parts: list):
    """The file of the module `parts` (a folder's mod.rs, or a file), or None."""
    base = SRC.joinpath(*parts) if parts else SRC
    if not parts:
        return SRC / "lib.rs"
    if (base.with_suffix(".rs")).is_file():
        return base.with_suffix(".rs")
    if (base / "mod.rs").is_file():
        return base / "mod.rs"
    return None


def check_module_path(text: str):
    """None when `text` names an existing module (and its trailing names occur there), else the reason."""
    parts = text.split("::")
    if parts[0] in ("crate", "arbiter"):
        parts = parts[1:]
    modules = []
    while parts and module_file(modules + [parts[0]]) is not None:
        modules.append(parts.pop(0))
    if not modules:
        return f"no module src/{parts[0]}"
    if parts and parts[0][:1].islower() and parts[0] != "tests" and len(parts) > 1:
        # a lower-case segment followed by more names is meant as a module: it must exist
        return f"no module src/{'/'.join(modules + [parts[0]])}(.rs)"
    source = module_file(modules).read_text(encoding="utf-8")
    for name in parts:
        if not re.search(rf"\b{re.escape(name)}\b", source):
            return f"no `{name}` in {module_file(modules).relative_to(ROOT)}"
    return None


def main() -> int:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "results" / "README.md"]
    modules = top_modules()
    errors, checked = [], 0
    for page in pages:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{page.relative_to(ROOT)}:{number}"
            for path in SRC_PATH.findall(line):
                if path.endswith(".rs"):
                    checked += 1
                    if not (ROOT / path).is_file():
                        errors.append(f"{where}: {path}: no such file")
                elif path.endswith("/") or "." not in path.rsplit("/", 1)[-1]:
                    checked += 1
                    if not (ROOT / path).is_dir():
                        errors.append(f"{where}: {path}: no such folder")
            for code in CODE.findall(line):
                for path in MODULE_PATH.findall(code):
                    if path.split("::")[0] not in modules:
                        continue
                    checked += 1
                    reason = check_module_path(path)
                    if reason:
                        errors.append(f"{where}: {path}: {reason}")
    for error in errors:
        print(error)
    print(f"{len(pages)} pages, {checked} code paths checked, {len(errors)} missing", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

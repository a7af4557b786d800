"""Every rule citation in the repository names a section that exists.

Code, tests, docs and notebooks cite the numbered rules pages in one form:
``docs/rules/<game>.md SN`` (or a range ``SA-B``) and ``docs/interface.md SN``, S being the
section sign.  Inside one of those pages a bare ``SN`` names a section of the same page.  A
citation in any other form, one of a page or section that does not exist, a citation of the
rules "spec" (which users do not have) and a bare decision number of that spec (a D and a
number) all fail here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SIGN = "\u00a7"  # written as an escape so that this file holds no citation of its own
SUFFIXES = {".py", ".md", ".ipynb", ".js", ".html", ".txt", ".toml", ".cfg", ".sh", ".rst"}
SKIP_DIRS = {".git", ".venv", "venv", "__pycache__", "node_modules", "build", "dist", ".pytest_cache"}
PAGES = ("docs/rules/yacht.md", "docs/rules/rainbow_dice.md", "docs/rules/gostop.md", "docs/interface.md")

SEC = r"\d+(?:\.\d+)*"
CITATION = re.compile(r"(?P<page>docs/(?:rules/[a-z_]+|interface)\.md) " + SIGN + r"(?P<a>" + SEC + r")(?:-(?P<b>" + SEC + r"))?")
BARE = re.compile(SIGN + r"(?P<a>" + SEC + r")(?:-(?P<b>" + SEC + r"))?")
HEADING = re.compile(r"^#{2,6}\s+(" + SEC + r")\.?\s", re.M)
OLD_SPEC = re.compile(r"shared/" + r"spec|\b[Ss]pec(?:ification)?(?:'s)?\s+(?:" + SIGN + r"|D\d|``\w+\.md)")
DECISION = re.compile(r"(?<![\w./-])D(?:[1-9]|1\d|2\d)(?![\w.-])")


def sections(page: Path) -> set[str]:
    """The section numbers of a Markdown page: its ``## N. Title`` / ``### N.M Title`` headings."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    return set(HEADING.findall(text))


def problems(text: str, rel: str, numbered: dict[str, set[str]]) -> list[str]:
    """What is wrong with the rule citations of ``text`` (the file at repo path ``rel``)."""
    out, covered = [], set()

    def check(page: str, a: str, b: str | None, where: int) -> None:
        line = text.count("\n", 0, where) + 1
        if page not in numbered:
            out.append(f"{rel}:{line}: cites {page}, which is not a numbered rules page")
            return
        for n in (a, b):
            if n is not None and n not in numbered[page]:
                out.append(f"{rel}:{line}: cites {page} {SIGN}{n}, which has no such section")

    for m in CITATION.finditer(text):
        check(m["page"], m["a"], m["b"], m.start())
        covered.add(m.start("page") + len(m["page"]) + 1)
    if rel in numbered:  # a bare citation inside a rules page names the same page
        for m in BARE.finditer(text):
            if m.start() not in covered:
                check(rel, m["a"], m["b"], m.start())
                covered.add(m.start())
    for i in (i for i, c in enumerate(text) if c == SIGN and i not in covered):
        line = text.count("\n", 0, i) + 1
        out.append(f"{rel}:{line}: {text[max(0, i - 30):i + 12]!r} is not in the form "
                   f"'docs/rules/<game>.md {SIGN}N' or 'docs/interface.md {SIGN}N'")
    for m in OLD_SPEC.finditer(text):
        out.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {m[0]!r} cites the rules spec; "
                   f"cite docs/rules/<game>.md {SIGN}N")
    for m in DECISION.finditer(text):
        out.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {m[0]} is a decision number of the rules "
                   f"spec; cite the docs/rules/<game>.md {SIGN}N that states the rule")
    return out


def _skipped_dir(d: Path) -> bool:
    """A folder that holds no project files: hidden (``.git``, ``.venv``, ``.venv-rllib``), a
    virtual environment by any name, caches, build output, vendored packages."""
    return (d.name.startswith(".") or d.name in SKIP_DIRS or d.name.endswith(".egg-info")
            or (d / "pyvenv.cfg").is_file())


def shipped_files(root: Path):
    """Repo-relative paths and texts of the code, tests, docs and notebooks under ``root``."""
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not _skipped_dir(Path(here) / d))
        for name in sorted(files):
            p = Path(here) / name
            if p.suffix not in SUFFIXES:
                continue
            try:
                yield p.relative_to(root).as_posix(), p.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue


@pytest.fixture(scope="module")
def numbered() -> dict[str, set[str]]:
    return {page: sections(ROOT / page) for page in PAGES}


def test_rules_pages_are_numbered(numbered):
    for page, found in numbered.items():
        top = sorted(int(n) for n in found if "." not in n)
        assert top == list(range(1, len(top) + 1)) and len(top) >= 5, f"{page}: sections {top}"


def test_every_rule_citation_names_an_existing_section(numbered):
    found, wrong = 0, []
    for rel, text in shipped_files(ROOT):
        found += len(CITATION.findall(text))
        wrong += problems(text, rel, numbered)
    assert not wrong, "\n".join(wrong)
    assert found >= 150, f"only {found} citations found: is the walk missing files?"


@pytest.mark.parametrize("text", [
    "see " + SIGN + "5.8",  # bare, outside a rules page
    "spec " + SIGN + "5.8",
    "docs/rules/gostop.md " + SIGN + "99",  # no such section
    "docs/rules/gostop.md " + SIGN + "5.2-5.99",  # range end missing
    "docs/rules/chess.md " + SIGN + "1",  # no such page
    "the junk rule (" + "D" + "13)",
    "shared/" + "spec/gostop.md",
])
def test_a_bad_citation_is_reported(numbered, text):
    assert problems(text, "envs/gostop/x.py", numbered)


@pytest.mark.parametrize("text,rel", [
    ("docs/rules/gostop.md " + SIGN + "5.8 and docs/rules/gostop.md " + SIGN + "5.2-5.6", "envs/gostop/x.py"),
    ("docs/interface.md " + SIGN + "5", "envs/adapters/x.py"),
    ("as " + SIGN + "7.2 says", "docs/rules/gostop.md"),
])
def test_a_good_citation_passes(numbered, text, rel):
    assert problems(text, rel, numbered) == []

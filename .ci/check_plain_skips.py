"""Check the skips of README's test command on README's install (phase 1 of .ci/run).

    python .ci/check_plain_skips.py JUNIT_XML REQUIRES_LIST README.md

JUNIT_XML is pytest's report of the run; REQUIRES_LIST is ``pytest -m requires --co -q`` (the
tests that declare a requirement).  Passes when every skip has a reason made of conftest.py's
"needs WHAT (missing: ...): HOW", when as many tests were skipped as declare a requirement and as
README says, when every requirement held back some test, and when README's table gives each
requirement's count.  Prints how many tests each requirement held back.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import REQUIREMENTS  # noqa: E402  (the project's requirement table)

README_FIGURE = re.compile(r"skips \*\*(\d+) tests\*\*")
README_ROW = re.compile(r"^\| (\d+) \| `([a-z-]+)` \|", re.M)  # README's table: tests held back per requirement


def node_id(case: ET.Element) -> str:
    """A junit test case as pytest's node id prefix (``tests/test_x.py::name``)."""
    module = case.get("classname", "").replace(".", "/")
    return f"{module}.py::{case.get('name')}" if module else case.get("name", "")


def main(junit: str, requires_list: str, readme: str) -> int:
    errors = []
    expected = [line.strip() for line in Path(requires_list).read_text().splitlines()
                if re.match(r"(tests|notebooks)/", line)]
    held_back: Counter = Counter()
    skipped = []
    for case in ET.parse(junit).iter("testcase"):
        skip = case.find("skipped")
        if skip is None:
            continue
        skipped.append(case)
        message = skip.get("message", "")
        names = [n for n, (what, _, _) in REQUIREMENTS.items() if f"needs {what} (missing:" in message]
        if not message.startswith("needs ") or not names:
            errors.append(f"{node_id(case)} skipped for another reason: {message!r}")
        held_back.update(names)
    for name in REQUIREMENTS:
        print(f"{held_back[name]:4d} tests need {REQUIREMENTS[name][0]} ({name}): {REQUIREMENTS[name][2]}")
    print(f"{len(skipped):4d} skipped in all; {len(expected)} tests declare a requirement")
    if len(skipped) != len(expected):
        errors.append(f"{len(skipped)} tests skipped, but {len(expected)} declare a requirement")
    missing = [n for n in REQUIREMENTS if not held_back[n]]
    if missing:
        errors.append(f"no test was skipped for {missing}: is each guard still used?")
    text = Path(readme).read_text()
    rows = {name: int(n) for n, name in README_ROW.findall(text) if name in REQUIREMENTS}
    if rows != {n: held_back[n] for n in REQUIREMENTS}:
        errors.append(f"README's table of requirements says {rows}; the run held back {dict(held_back)}")
    figure = README_FIGURE.search(text)
    if figure is None:
        errors.append("README does not say how many tests its install skips ('skips **N tests**')")
    elif int(figure.group(1)) != len(skipped):
        errors.append(f"README says its install skips {figure.group(1)} tests; {len(skipped)} were skipped")
    for e in errors:
        print("error:", e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))

"""Plain-string helpers shared by the games' seat views: move lists and typed move names.

Every game's ``view`` module describes its legal moves as dicts ``{"id", "kind", "text", ...}``
and reads a person's typed move with :func:`parse_typed` plus its own short names.  Nothing
here imports a rendering library: front-ends (the terminal game, the web page) style the text.
"""

from __future__ import annotations

import re
import textwrap

WIDTH = 78
"""Text pictures fit lines of this many characters (an 80-column terminal)."""


def tokens(text: str) -> list[str]:
    """Lower-case words of ``text`` (commas, ``+`` and ``-`` signs split off as their own words)."""
    spaced = re.sub(r"([,+\-])", r" \1 ", str(text).lower()).replace(",", " ")
    return spaced.split()


def match_name(query: str, names: dict[str, object], what: str, shown: list[str] | None = None,
               prefix: bool = True):
    """The value whose name ``query`` is (or, failing that and with ``prefix``, uniquely begins),
    ignoring case and spaces.

    ``names`` maps names to values; several names may map to one value (the first name of a
    squashed spelling wins).  Raises ``ValueError`` saying that nothing matched (listing
    ``shown``, default every name; without ``prefix``, the names a prefix would have matched)
    or that the query is ambiguous (listing the candidates).
    """
    key = _squash(query)
    table: dict[str, object] = {}
    for name, value in names.items():
        table.setdefault(_squash(name), value)
    if key in table:
        return table[key]
    hits = {n: v for n, v in table.items() if key and n.startswith(key)}
    values = list(dict.fromkeys(hits.values()))
    if not prefix and hits:
        cands = sorted(n for n in names if _squash(n) in hits)
        raise ValueError(f"no {what} called {query!r}; did you mean {' or '.join(cands)}?")
    if len(values) == 1:
        return values[0]
    if not values:
        listed = shown if shown is not None else sorted(names, key=str.lower)
        raise ValueError(f"no {what} called {query!r}; try one of: {', '.join(listed)}")
    cands = sorted(n for n in names if _squash(n) in hits)
    raise ValueError(f"{query!r} could mean several: {', '.join(cands)}")


def _squash(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", str(name).lower())


def is_number(word: str) -> bool:
    """``word`` is a plain decimal number (ASCII digits only)."""
    return word.isascii() and word.isdigit()


def move_by_id(word: str, moves: list[dict]) -> int | None:
    """The move id typed as a plain number (``"42"``), or None when ``word`` is not a number.

    Raises ``ValueError`` for a number that is not a legal move now.
    """
    if not re.fullmatch(r"\d+", word):
        return None
    a = int(word)
    legal = [m["id"] for m in moves]
    if a not in legal:
        raise ValueError(f"move {a} is not legal now; legal move ids: {_ranges(legal)}")
    return a


def _ranges(ids: list[int]) -> str:
    out, ids = [], sorted(ids)
    i = 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(str(ids[i]) if i == j else f"{ids[i]}-{ids[j]}")
        i = j + 1
    return ", ".join(out)


def require_legal(action: int, moves: list[dict], why_not: str) -> int:
    """``action`` if it is among ``moves``; else ``ValueError(why_not)``."""
    if any(m["id"] == action for m in moves):
        return action
    raise ValueError(why_not)


def fit(lines: list[str], width: int = WIDTH) -> str:
    """Join text lines, wrapping any longer than ``width`` (continuations indented)."""
    out = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
        else:
            out.extend(textwrap.wrap(line, width, subsequent_indent="    ", break_on_hyphens=False))
    return "\n".join(out)


def seat_label(view: dict, seat: int, names: list[str] | None = None) -> str:
    """How a text picture calls ``seat``: ``"seat 1 (you)"``, or with ``names`` (what a front-end
    calls each seat) ``"gostop-greedy (seat 1)"``."""
    if names:
        return f"{names[seat]} (seat {seat})"
    return f"seat {seat}{' (you)' if seat == view['seat'] else ''}"


def seat_name(view: dict, seat: int, names: list[str] | None = None) -> str:
    """How a line about a move calls ``seat``: its name in ``names``, else ``"you"`` for the
    viewer and ``"seat N"`` for the others."""
    if names:
        return names[seat]
    return "you" if seat == view["seat"] else f"seat {seat}"


def plural(n: int, word: str) -> str:
    """``"1 card"``, ``"2 cards"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def move_lines(moves: list[dict], width: int = WIDTH) -> list[str]:
    """``[id] text`` lines for a move list; moves of one ``kind`` that say little share lines.

    Kinds whose texts are short (rerolls: 31 or 63 of them) are laid out in columns so a whole
    list stays readable; every legal move still appears with its id.
    """
    lines: list[str] = []
    groups: dict[str, list[dict]] = {}
    for m in moves:
        groups.setdefault(m["kind"], []).append(m)
    for kind, group in groups.items():
        cells = [f"[{m['id']:>3}] {m['text']}" for m in group]
        cell = max(len(c) for c in cells) + 2
        if len(group) > 6 and cell <= width // 3:
            per_line = max(1, width // cell)
            for k in range(0, len(cells), per_line):
                lines.append("  " + "".join(c.ljust(cell) for c in cells[k:k + per_line]).rstrip())
        else:
            lines.extend("  " + c for c in cells)
    return lines

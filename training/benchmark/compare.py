"""A paired test of two benchmark results on the same seeds (``madang benchmark --compare A.json B.json``).

Both policies played the same games of the same suite (the same dice, the same deals), so the
difference of their results game by game (solo) or deal pair by deal pair (against each rung)
removes most of the luck.  The test: the mean difference per game, its 95 % CI from the spread
of the per-unit differences, and a two-sided normal p-value (the suites play hundreds of units
or more).  Results of different suites or seeds are refused; a differing rules hash or ladder
is reported, since the games then differ.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .runner import FORMAT
from .stats import Z95, normal_p
from .suites import SUITES


def read_result(path) -> dict:
    """A result file written by ``madang benchmark --out`` or ``--json``; ``ValueError`` naming it."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        raise ValueError(f"{path}: not a readable benchmark result ({type(e).__name__})") from None
    if isinstance(data, list) and len(data) == 1:
        data = data[0]  # `madang benchmark --json` of one suite
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("values"), dict):
        raise ValueError(f"{path}: not a madang benchmark result (format {FORMAT})")
    problem = _problem(data)
    if problem:
        raise ValueError(f"{path}: a damaged benchmark result: {problem}")
    return data


def _numbers(x) -> bool:
    return isinstance(x, list) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in x)


def _problem(data: dict) -> str | None:
    """What is wrong with a result's fields that a comparison reads, or None."""
    if data.get("suite") not in SUITES:
        return f"unknown suite {data.get('suite')!r}"
    for key in ("seeds_hash", "rules_hash"):
        if not isinstance(data.get(key), str):
            return f"no {key}"
    policy = data.get("policy")
    if not isinstance(policy, dict) or not all(isinstance(policy.get(k), str) for k in ("name", "kind")):
        return "no policy name and kind"
    values = data["values"]
    if SUITES[data["suite"]].solo:
        return None if _numbers(values.get("scores")) and values["scores"] else "no scores"
    for rung, v in values.items():
        keys = ("points", "opponent", "wins", "decided", "games")
        if not isinstance(v, dict) or not all(_numbers(v.get(k)) for k in keys) \
                or len({len(v[k]) for k in keys}) != 1 or not v["points"]:
            return f"the values against {rung!r} are not equal-length lists of numbers"
    return None


def _paired(diffs: np.ndarray, games: np.ndarray) -> dict:
    units, total = diffs.size, games.sum()
    mean = float(diffs.sum() / total)
    sd = float(diffs.std(ddof=1)) if units > 1 else float("nan")
    se = sd * np.sqrt(units) / total
    z = mean / se if se > 0 else (0.0 if mean == 0 else float("inf"))
    return {"units": int(units), "difference": mean, "ci95": float(Z95 * se), "z": float(z), "p": normal_p(z)}


def compare(a: dict, b: dict) -> dict:
    """The paired comparison of results ``a`` and ``b`` (A minus B; see the module docstring).

    ``ValueError`` if they come from different suites or seeds.  With different game counts
    (a ``--games`` check) the common first games or deal pairs are compared.
    """
    if a["suite"] != b["suite"]:
        raise ValueError(f"the results come from different suites: {a['suite']} and {b['suite']}")
    if a["seeds_hash"] != b["seeds_hash"]:
        raise ValueError(f"the results of {a['suite']} were played on different seeds (seeds hash "
                         f"{a['seeds_hash'][:12]} and {b['seeds_hash'][:12]})")
    notes = []
    if a["rules_hash"] != b["rules_hash"]:
        notes.append("the rules hashes differ: the two installs play different games, so the pairing is loose")
    if a.get("ladder") != b.get("ladder"):
        notes.append("the ladders' files differ")
    out = {"suite": a["suite"], "a": a["policy"], "b": b["policy"], "notes": notes}
    if "scores" in a["values"]:
        n = min(len(a["values"]["scores"]), len(b["values"]["scores"]))
        d = np.asarray(a["values"]["scores"][:n], np.float64) - np.asarray(b["values"]["scores"][:n], np.float64)
        out["points"] = _paired(d, np.ones(n))
        return out
    rungs = [r for r in a["values"] if r in b["values"]]
    if not rungs:
        raise ValueError("the two results share no rung of the ladder")
    parts = {"points": [], "wins": [], "games": []}
    out["rungs"] = {}
    for rung in rungs:
        va, vb = a["values"][rung], b["values"][rung]
        n = min(len(va["points"]), len(vb["points"]))
        games = np.asarray(va["games"][:n], np.float64)
        dp = np.asarray(va["points"][:n], np.float64) - np.asarray(vb["points"][:n], np.float64)
        dw = np.asarray(va["wins"][:n], np.float64) - np.asarray(vb["wins"][:n], np.float64)
        out["rungs"][rung] = {"points": _paired(dp, games), "wins": _paired(dw, games)}
        parts["points"].append(dp)
        parts["wins"].append(dw)
        parts["games"].append(games)
    games = np.concatenate(parts["games"])
    out["points"] = _paired(np.concatenate(parts["points"]), games)
    out["wins"] = _paired(np.concatenate(parts["wins"]), games)
    return out

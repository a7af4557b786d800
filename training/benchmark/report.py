"""Benchmark results and comparisons as text (what ``madang benchmark`` prints without ``--json``)."""

from __future__ import annotations

from .suites import get_suite


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def _policy(p: dict) -> str:
    digest = f"sha256 {p['sha256'][:12]}" if p.get("sha256") else "no file"
    return f"{p['name']} ({p['kind']}, {digest})"


def result_text(r: dict) -> str:
    """A result in a few lines: its provenance, then its figures (a table per rung for a ladder)."""
    suite, s = get_suite(r["suite"]), r["summary"]
    head = (f"{r['suite']}: {_policy(r['policy'])}; madang {r['madang_version']}, rules {r['rules_hash'][:12]}"
            f"{'' if r['rules_match'] else ' (not the rules the suite was defined on)'}, seeds {r['seeds_hash'][:12]}")
    lines = [head]
    if not r["complete"]:
        lines.append(f"only the first {r['games_per_unit']} of {suite.games} games or deal pairs: a check, "
                     "not a suite result")
    if suite.solo:
        line = (f"{s['games']} games: {s['mean']:.2f} ± {s['ci95']:.2f} {suite.unit} "
                f"(target ± {suite.target:g}: {_met(s['target_met'])})")
        if "fraction_of_optimum" in s:
            line += f", {100 * s['fraction_of_optimum']:.2f} % of the optimum {s['optimum']:.2f}"
        return "\n".join(lines + [line])
    lines += ["| rung | deal pairs | " + suite.unit + " | margin | decided games won |", "|---|---:|---:|---:|---:|"]
    for g in s["rungs"]:
        lines.append(f"| {g['rung']} | {g['pairs']} | {g['points']:.2f} ± {g['points_ci95']:.2f} "
                     f"| {g['margin']:+.2f} ± {g['margin_ci95']:.2f} "
                     f"| {100 * g['decided_win_rate']:.1f} % ± {100 * g['win_ci95']:.1f} |")
    elo = "" if s["elo"] is None else f", Elo {s['elo']:.0f} on the ladder"
    lines.append(f"ladder: {s['points']:.2f} ± {s['points_ci95']:.2f} {suite.unit} (target ± {suite.target:g}: "
                 f"{_met(s['points_ci95'] <= suite.target)}), {100 * s['decided_win_rate']:.1f} % ± "
                 f"{100 * s['win_ci95']:.1f} of the decided games won (target ± {100 * suite.win_target:g} %: "
                 f"{_met(s['win_ci95'] <= suite.win_target)}){elo}")
    return "\n".join(lines)


def _test(t: dict, scale: float = 1.0, unit: str = "") -> str:
    return (f"{scale * t['difference']:+.2f} ± {scale * t['ci95']:.2f}{unit} (95 % CI), z = {t['z']:.2f}, "
            f"p = {t['p']:.2g}, over {t['units']} paired units")


def comparison_text(c: dict) -> str:
    """A comparison (:func:`training.benchmark.compare.compare`) in a few lines."""
    unit = get_suite(c["suite"]).unit
    lines = [f"{c['suite']}: A = {_policy(c['a'])}, B = {_policy(c['b'])}, on the same seeds",
             f"A - B, {unit}: {_test(c['points'])}"]
    if "wins" in c:
        lines.append(f"A - B, share of games won: {_test(c['wins'], 100, ' points')}")
        for rung, t in c["rungs"].items():
            lines.append(f"  against {rung}: {_test(t['points'])}")
    lines += [f"note: {n}" for n in c["notes"]]
    return "\n".join(lines)

"""The public leaderboard: every shipped bot, random and the SB3 baseline on every suite, in ``docs/benchmarks.md``.

::

    python -m training.benchmark.leaderboard            # play what is missing, time, write the page

For every suite and every policy of its game (``agents.available(game)`` and the baseline zip
``benchmarks/baselines/sb3-maskableppo-GAME.zip``, when it exists) it plays the suite, unless
``--results`` already holds a complete result of the same suite, seeds, rules and policy
file; then it times every policy of each game at batch 1 (:mod:`.timing`) unless timings are
there, checks that the ladders' frozen ratings reproduce, and writes the page from the
result files alone (:func:`render`).  ``--replay`` plays everything again, ``--retime``
times again, ``--suite`` / ``--policy`` restrict what is played.
"""

from __future__ import annotations

import argparse
import json
import sys
import zipfile
from pathlib import Path

import agents
from training.evaluate import bradley_terry_elo

from .identity import policy_identity, rules_hash, seeds_hash
from .runner import FORMAT, play, result_filename, summarize
from .suites import SUITES, Suite, suites_for

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results" / "leaderboard"
BASELINES = ROOT / "benchmarks" / "baselines"
PAGE = ROOT / "docs" / "benchmarks.md"
BASELINE_FILE = "sb3-maskableppo-{game}.zip"
COMMAND = "python -m training.benchmark.leaderboard"


def candidates(game: str, baselines: Path) -> list[str]:
    """The policies of the leaderboard for ``game``: every loadable bot, then the baseline zip if present."""
    out = agents.available(game)
    zip_path = baselines / BASELINE_FILE.format(game=game)
    if zip_path.is_file():
        out.append(str(zip_path.relative_to(ROOT)) if zip_path.is_relative_to(ROOT) else str(zip_path))
    return out


def _load(spec: str):
    """The bot ``spec`` names; a baseline's path is relative to the repository root, wherever this runs."""
    return agents.load(str(ROOT / spec) if (ROOT / spec).is_file() else spec)


def _cached(path: Path, suite: Suite, rules: str, spec: str, bot) -> dict | None:
    """The result at ``path`` if it is complete and of this suite, seeds, ``rules`` hash and policy file."""
    if not path.is_file():
        return None
    r = json.loads(path.read_text())
    same = (r.get("format") == FORMAT and r.get("suite") == suite.id and r.get("complete")
            and r.get("seeds_hash") == seeds_hash(suite) and r.get("rules_hash") == rules
            and r["policy"].get("sha256") == policy_identity(spec, bot)["sha256"])
    return r if same else None


def _write(path: Path, result: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, separators=(",", ":")) + "\n")


def ladder_ratings(suite: Suite, results: dict) -> dict:
    """The rungs' Bradley-Terry ratings (mean 1500, one decimal) from their own results in the suite:
    every rung against every other, both ways round (each way on its own deals)."""
    names = list(suite.ladder)
    wins = [[0.0] * len(names) for _ in names]
    for i, a in enumerate(names):
        for g in results[a]["summary"]["rungs"]:
            wins[i][names.index(g["rung"])] += g["score_points"]
    return {n: round(float(e), 1) for n, e in zip(names, bradley_terry_elo(wins))}


def run(suite_ids, policies, results_dir: Path, baselines: Path, replay: bool, log=print) -> dict:
    """Play (or read) every result; returns {suite id: {spec: result}}."""
    out = {}
    for suite in (SUITES[s] for s in suite_ids):
        out[suite.id] = {}
        rules = rules_hash(suite.game, suite.players, suite.game_config)
        for spec in candidates(suite.game, baselines):
            bot = _load(spec)
            path = results_dir / result_filename({"suite": suite.id, "policy": {"spec": spec}})
            r = None if replay else _cached(path, suite, rules, spec, bot)
            if r is None and (policies is None or spec in policies):
                log(f"playing {suite.id} with {spec}")
                r = play(suite, bot, spec)
                _write(path, r)
                log(f"  {r['run']['cpu_s']} s CPU, {r['run']['wall_s']} s wall, load average {r['run']['load_average']}")
            if r is not None:
                summary = summarize(suite, r)  # with the suite's frozen ratings as they are now
                if summary != r["summary"]:
                    r["summary"] = summary
                    _write(path, r)
                out[suite.id][spec] = r
    return out


def check_ladders(results: dict) -> list[str]:
    """Problems with the frozen ladder ratings: missing, or not what the rungs' results give."""
    problems = []
    for sid, rs in results.items():
        suite = SUITES[sid]
        if suite.solo or not all(r in rs for r in suite.ladder):
            continue
        got = ladder_ratings(suite, rs)
        if got != suite.ladder_elo:
            problems.append(f"{sid}: the rungs' results give the ratings {got}, the suite has {suite.ladder_elo}")
    return problems


# ------------------------------------------------------------------------------ the page
def _short(r: dict) -> str:
    p = r["policy"]
    return f"`{Path(p['spec']).name if p['kind'].startswith('sb3') else p['spec']}`"


def _ms(timings: dict, game: str, spec: str) -> str:
    t = timings.get(game, {}).get("bots", {}).get(spec)
    return "—" if t is None else f"{t['cpu_ms']:.3g} ({t['wall_ms']:.3g})"


def _baseline_steps(spec: str) -> str:
    try:
        with zipfile.ZipFile(ROOT / spec) as z:
            return str(json.loads(z.read("data"))["_total_timesteps"])  # what --steps asked for
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return "?"


def _suite_rows() -> list[str]:
    rows = ["| suite | game | what is played | 95 % CI target | ladder (frozen Elo) |", "|---|---|---|---|---|"]
    for s in SUITES.values():
        if s.solo:
            played, target = f"{s.games:,} solitaire games, seeds {s.seed:,} + j", f"± {s.target:.1f} {s.unit}"
            ladder = "—"
        else:
            played = f"{s.games:,} deal pairs per rung, rung k on seeds {s.seed:,} + k·10⁶ + j"
            target = f"± {s.target:.1f} {s.unit}, ± {100 * s.win_target:.1f} percentage points of decided games won"
            ladder = ", ".join(f"{r} ({s.ladder_elo[r]:.0f})" if r in s.ladder_elo else r for r in s.ladder)
        rows.append(f"| `{s.id}` | {s.game} | {played} | {target} | {ladder} |")
    return rows


def _table(suite: Suite, rs: dict, timings: dict) -> list[str]:
    order = sorted(rs.values(), key=lambda r: -(r["summary"]["mean"] if suite.solo else
                                                (r["summary"]["elo"] or r["summary"]["points"])))
    if suite.solo:
        opt = "fraction_of_optimum" in order[0]["summary"]
        lines = ["| policy | kind | sha256 | " + suite.unit + " (95 % CI) | " + ("of the optimum | " if opt else "")
                 + "ms per decision (wall) |", "|---|---|---|---:|" + ("---:|" if opt else "") + "---:|"]
        for r in order:
            s = r["summary"]
            cells = [_short(r), r["policy"]["kind"], f"`{r['policy']['sha256'][:10]}`",
                     f"{s['mean']:.2f} ± {s['ci95']:.2f}"]
            if opt:
                cells.append(f"{100 * s['fraction_of_optimum']:.2f} %")
            lines.append("| " + " | ".join(cells + [_ms(timings, suite.game, r["policy"]["spec"])]) + " |")
        return lines
    lines = ["| policy | kind | sha256 | Elo | " + suite.unit + " (95 % CI) | decided games won | ms per decision (wall) |",
             "|---|---|---|---:|---:|---:|---:|"]
    for r in order:
        s = r["summary"]
        elo = "—" if s["elo"] is None else f"{s['elo']:.0f}"
        lines.append(f"| {_short(r)} | {r['policy']['kind']} | `{r['policy']['sha256'][:10]}` | {elo} "
                     f"| {s['points']:.2f} ± {s['points_ci95']:.2f} "
                     f"| {100 * s['decided_win_rate']:.1f} % ± {100 * s['win_ci95']:.1f} "
                     f"| {_ms(timings, suite.game, r['policy']['spec'])} |")
    return lines


def _costs(results: dict) -> list[str]:
    lines = ["| suite | policies | CPU time | wall time | load average (1 min) as each policy finished |",
             "|---|---:|---:|---:|---:|"]
    for sid, rs in results.items():
        runs = [r["run"] for r in rs.values()]
        loads = [r["load_average"][0] for r in runs if r.get("load_average")]
        load = f"{min(loads):.1f}–{max(loads):.1f}" if loads else "—"
        lines.append(f"| `{sid}` | {len(runs)} | {sum(r['cpu_s'] for r in runs) / 60:.1f} min "
                     f"| {sum(r['wall_s'] for r in runs) / 60:.1f} min | {load} |")
    return lines


def render(results: dict, timings: dict) -> str:
    """The page ``docs/benchmarks.md`` from the results ({suite id: {spec: result}}) and timings
    ({game: :func:`training.benchmark.timing.decision_times`}) alone."""
    version = next((r["madang_version"] for rs in results.values() for r in rs.values()), "?")
    out = [
        "# Benchmarks",
        "",
        "`madang benchmark GAME POLICY` plays a policy on versioned suites: fixed seeds, fixed game counts",
        "chosen to reach a stated confidence-interval half-width, and for two-player games a fixed ladder of",
        "shipped bots played seat-swapped (every deal twice, the seats swapped). The policy is anything",
        "`madang eval` takes: a bot name, madang policy files, a `.onnx` file, an SB3 `.zip`, an RLlib",
        "checkpoint or `module:attr` (see [bots.md](bots.md)).",
        "",
        "```bash",
        "madang benchmark yacht mine.zip                         # every suite of the game",
        "madang benchmark gostop mybots:policy --suite gostop-v1 --out results/",
        "madang benchmark --compare results/gostop-v1--mybots_policy.json \\",
        "    benchmarks/results/leaderboard/gostop-v1--gostop-ppo.json",
        "```",
        "",
        "A result (`--json`, or a file per suite with `--out DIR`) records the suite id, the madang version,",
        "a hash of the rules (every observation, mask, action and reward of eight fixed games), a hash of",
        "the seeds, the policy's identity (the sha256 of its file, or of its files' sha256s; a code bot's",
        "source file), the ladder's hashes, the figures with their 95 % CIs and whether they met the",
        "suite's targets, and the raw values that `--compare` needs: it runs a paired test of two results",
        "on the same seeds (game by game, or deal pair by deal pair against each rung), which removes",
        "most of the luck of the dice and the deals. `--games N` plays only the first N games or deal",
        "pairs, for a quick check; such a result says it is not complete.",
        "",
        "## The suites",
        "",
        *_suite_rows(),
        "",
        "The main figure is the mean score (solo) or the points per game against the whole ladder (Go-Stop:",
        "points per deal, the signed payout); for ladders also the share of the decided games won, and the",
        "Elo on the ladder: the rating that explains the policy's scores against the rungs, whose ratings",
        "are frozen in the suite (the Bradley–Terry fit of the rungs' own results in it, mean 1500).",
        "A policy that is a rung does not play itself. The game counts were chosen from the spread of the",
        "shipped bots' results so that each of them meets the targets (every result records whether it",
        "did); Go-Stop's payouts spread widely, so its target is looser, to keep the ladder's search bot",
        "affordable. Anything that changes a suite's figures (the rules, the observations, the seeds, the",
        "counts, the ladder) makes a new version of it.",
        "",
        "## Leaderboard",
        "",
        f"Every table below comes from `{COMMAND}`, which plays each policy with",
        "`madang benchmark GAME POLICY --suite ID` (skipping results it already has in",
        "`benchmarks/results/leaderboard/`, one file per suite and policy), times the policies and writes",
        f"this page. madang {version}.",
        "",
    ]
    for sid, rs in results.items():
        suite = SUITES[sid]
        out += [f"### `{sid}`", "", suite.description + ".", "", *_table(suite, rs, timings), ""]
    out += [
        "**ms per decision** is the CPU time (and in brackets the wall-clock time) of one `act` call at",
        "batch 1, in milliseconds, averaged over every decision of whole games, forced moves included:",
        "each game's policies were timed in one run, side by side, game by game in turn, each playing",
        "every seat of its games until it had made "
        f"{min((t['bots'][b]['decisions'] for t in timings.values() for b in t['bots']), default=0)} or more decisions.",
        "They were measured on a shared machine (2 cores behaving as one, other work running), so read",
        "them as ratios; the load averages (1, 5, 15 min) before and after each run:",
        "",
        "| game | decisions per policy | load average before | after |",
        "|---|---|---|---|",
        *[f"| {g} | {min(b['decisions'] for b in t['bots'].values())}–{max(b['decisions'] for b in t['bots'].values())} "
          f"| {', '.join(map(str, t['load_average'][0]))} | {', '.join(map(str, t['load_average'][1]))} |"
          for g, t in timings.items()],
        "",
        "### How long each suite takes",
        "",
        "Summed over the policies above, as each result recorded it, on the same shared machine:",
        "",
        *_costs(results),
        "",
        "## The SB3 MaskablePPO baseline",
        "",
        "sb3-contrib's `MaskablePPO` with SB3's default network, trained by one command per game",
        "(`training/sb3_baseline.py`: 16 games in one batched `MadangSB3VecEnv`, Go-Stop against",
        "`gostop-greedy`):",
        "",
        "```bash",
        *[f"python -m training.sb3_baseline {g} --steps {_baseline_steps(s)} --out {s}"
          for g in sorted({SUITES[sid].game for sid in results})
          for s in [str((BASELINES / BASELINE_FILE.format(game=g)).relative_to(ROOT))]
          if (ROOT / s).is_file()],
        "```",
        "",
        "The zips are in `benchmarks/baselines/` and load as they are in SB3, and in madang by path",
        "(without running the pickled code SB3's own loader runs).",
        "",
    ]
    return "\n".join(out)


def read_results(results_dir: Path) -> dict:
    """Every result file in ``results_dir`` as {suite id: {spec: result}}, in the suites' and candidates' order."""
    found: dict = {}
    for path in sorted(results_dir.glob("*.json")):
        r = json.loads(path.read_text())
        if r.get("format") == FORMAT:
            found.setdefault(r["suite"], {})[r["policy"]["spec"]] = r
    out = {}
    for sid in SUITES:
        if sid in found:
            suite = SUITES[sid]
            order = candidates(suite.game, BASELINES)
            rs = found[sid]
            out[sid] = {spec: rs[spec] for spec in sorted(rs, key=lambda s: order.index(s) if s in order else 99)}
            for r in out[sid].values():
                r["summary"] = summarize(suite, r)
    return out


def read_timings(results_dir: Path) -> dict:
    """The timing files of ``results_dir`` (``timings-GAME.json``) as {game: timings}."""
    out = {}
    for path in sorted(results_dir.glob("timings-*.json")):
        t = json.loads(path.read_text())
        out[t["game"]] = t
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", action="append", choices=list(SUITES), help="play only these suites (repeat)")
    p.add_argument("--policy", action="append", help="play only these policies (repeat)")
    p.add_argument("--results", default=str(RESULTS), help="result files (default benchmarks/results/leaderboard)")
    p.add_argument("--baselines", default=str(BASELINES), help="baseline zips (default benchmarks/baselines)")
    p.add_argument("--out", default=str(PAGE), help="the page to write (default docs/benchmarks.md)")
    p.add_argument("--replay", action="store_true", help="play every result again")
    p.add_argument("--retime", action="store_true", help="time every policy again")
    p.add_argument("--no-timing", action="store_true", help="do not time the policies")
    p.add_argument("--no-page", action="store_true", help="do not write the page")
    args = p.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    results_dir, baselines = Path(args.results), Path(args.baselines)
    run(args.suite or list(SUITES), args.policy, results_dir, baselines, args.replay,
        log=lambda m: print(m, file=sys.stderr, flush=True))
    from .timing import decision_times

    for game in sorted({s.game for s in SUITES.values()}):
        path = results_dir / f"timings-{game}.json"
        if not args.no_timing and (args.retime or not path.is_file()):
            print(f"timing the policies of {game} at batch 1", file=sys.stderr, flush=True)
            bots = {spec: _load(spec) for spec in candidates(game, baselines)}
            _write(path, decision_times(game, bots))
    results = read_results(results_dir)
    problems = check_ladders(results)
    for line in problems:
        print(f"ladder: {line}", file=sys.stderr)
    if args.no_page:
        return 0
    if problems:
        print("not writing the page: freeze the ratings above in training/benchmark/suites.py "
              "(a new suite version if they changed)", file=sys.stderr)
        return 1
    Path(args.out).write_text(render(results, read_timings(results_dir)))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

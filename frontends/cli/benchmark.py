"""``madang benchmark``: a policy on the versioned benchmark suites, or ``--compare`` two results."""

from __future__ import annotations

import json
from pathlib import Path

from envs.registration import GAMES

from .common import UsageError, key_values, load_bots, shard_progress, user_input


def run(args) -> int:
    """Run ``madang benchmark`` with the parsed ``args``; returns the exit status."""
    from training import benchmark as bm
    from training.benchmark.report import comparison_text, result_text

    example = "e.g. madang benchmark yacht yacht-greedy --suite yacht-solo-v1"
    if args.compare:
        if args.game or args.policy:
            raise UsageError("--compare takes two result files, no GAME or POLICY",
                             "e.g. madang benchmark --compare a/yacht-solo-v1--mine.json b/yacht-solo-v1--yours.json")
        with user_input("compare two results of one suite, as `madang benchmark --out DIR` or --json wrote them"):
            c = bm.compare(*(bm.read_result(p) for p in args.compare))
        print(json.dumps(c, indent=1) if args.json else comparison_text(c))
        return 0
    if not args.game or not args.policy:
        raise UsageError("benchmark needs a GAME and a POLICY (or --compare A.json B.json)", example)
    with user_input(f"the suites of {args.game}: {', '.join(s.id for s in bm.suites_for(args.game))}"):
        suites = [bm.get_suite(args.suite)] if args.suite else bm.suites_for(args.game)
        if suites[0].game != args.game:
            raise ValueError(f"suite {args.suite} plays {suites[0].game}, not {args.game}")
    if args.games is not None and args.games < 1:
        raise UsageError(f"--games must be positive, got {args.games}", "e.g. --games 64 for a quick check")
    out = Path(args.out) if args.out else None
    if out is not None:
        try:  # before playing: a suite can take an hour
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageError(f"--out {out}: not a directory that can be made ({e.strerror})",
                             "give a directory for the result files") from None
    (bot,) = load_bots([args.policy], args.game, {None: key_values(args.bot_option, "--bot-option", "game=yacht")})
    results = []
    for suite in suites:
        with shard_progress() as progress:
            r = bm.play(suite, bot, args.policy, limit=args.games, progress=progress)
        results.append(r)
        if out is not None:
            try:
                (out / bm.result_filename(r)).write_text(json.dumps(r, separators=(",", ":")) + "\n")
            except OSError as e:
                raise UsageError(f"--out {out}: cannot write the result ({e.strerror})",
                                 "give a directory you can write to") from None
        if not args.json:
            print(result_text(r) + "\n", flush=True)
    if args.json:
        print(json.dumps(results, separators=(",", ":")))
    return 0


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    from training.benchmark.suites import SUITES

    bm = sub.add_parser("benchmark", help="a policy on the versioned benchmark suites, or --compare two results "
                                          "(docs/benchmarks.md)")
    bm.add_argument("game", nargs="?", choices=sorted(GAMES))
    bm.add_argument("policy", nargs="?", help="a bot name, policy files, a .onnx file, an SB3 .zip, an RLlib "
                                              "checkpoint or module:attr")
    bm.add_argument("--suite", help="one suite (default: every suite of the game): " + ", ".join(SUITES))
    bm.add_argument("--bot-option", nargs="*", metavar="KEY=VALUE", help="an option of the policy, e.g. game=yacht")
    bm.add_argument("--games", type=int, help="only the first N games (solo) or deal pairs per rung: a quick "
                                              "check, not a suite result")
    bm.add_argument("--json", action="store_true", help="print the results (or the comparison) as JSON")
    bm.add_argument("--out", metavar="DIR", help="write each result to DIR/SUITE--POLICY.json")
    bm.add_argument("--compare", nargs=2, metavar=("A.json", "B.json"),
                    help="a paired test of two results of one suite, on their common seeds")
    bm.set_defaults(func=run)

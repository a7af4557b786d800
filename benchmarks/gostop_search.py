"""gostop-search against gostop-greedy: per-decision time and a seat-swapped match.

Usage::

    python -m benchmarks.gostop_search --timing-deals 40 --batch 1 64 --deals 2000 --seed 0 \\
        [--bot-option determinizations=32 ...]

Timing plays ``--timing-deals`` deals against ``gostop-greedy`` in batches of each
``--batch`` size (the bot alternates seats) and times every ``act`` call of the search bot:
the time per decision is the total time of the calls over the decisions they made (a call at
batch 64 decides for every live game at once).  Decisions with one legal action cost almost
nothing and are counted, as an env counts them; the table also gives the time per decision
with two or more legal actions.  Wall-clock and CPU times are both shown: on a shared machine
wall-clock time includes waiting for the CPU.

The match is :func:`training.evaluate.seat_swapped_match` over ``--deals`` deals played in
both seatings (the one evaluation path of ``madang eval``); the standard error and the 95 %
interval come from the spread of the deal pairs' totals.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import agents
from agents.base import Bot
from agents.play import play_out
from envs.gostop import GoStop
from envs.gostop.observation import View
from training.cli import _key_values
from training.evaluate import Z95, seat_swapped_match

KINDS = ("play", "hand_choice", "stock_choice", "go_stop")


class _Timed(Bot):
    """Wraps a bot and records, per ``act`` call, wall and CPU seconds and the decisions made."""

    def __init__(self, bot: Bot):
        self.bot, self.name, self.game = bot, bot.name, bot.game
        self.calls: list[tuple[float, float, np.ndarray, np.ndarray]] = []

    def act(self, observation, mask, rng):
        wall, cpu = time.perf_counter(), time.process_time()
        actions = self.bot.act(observation, mask, rng)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        self.calls.append((wall, cpu, View(observation).decision, np.asarray(mask).sum(axis=1)))
        return actions


def decision_times(bot: Bot, batch: int, deals: int, seed: int = 0) -> dict:
    """Time ``bot`` over ``deals`` deals against gostop-greedy played ``batch`` at a time."""
    game, greedy, timed = GoStop(), agents.load("gostop-greedy"), _Timed(bot)
    rng = np.random.default_rng(seed)
    for start in range(0, deals, batch):
        n = min(batch, deals - start)
        state = game.init(seed + start + np.arange(n))
        seat = (start + np.arange(n)) % 2  # the search bot's seat
        play_out(game, state, [timed, greedy], rng, np.stack([seat, 1 - seat], axis=1))
    wall = np.array([c[0] for c in timed.calls])
    cpu = np.array([c[1] for c in timed.calls])
    rows = np.array([c[2].size for c in timed.calls])
    searched = np.array([(c[3] > 1).sum() for c in timed.calls])
    out = {
        "batch": batch, "deals": deals, "calls": len(timed.calls), "decisions": int(rows.sum()),
        "ms_per_decision": 1000 * wall.sum() / rows.sum(),
        "cpu_ms_per_decision": 1000 * cpu.sum() / rows.sum(),
        "ms_per_decision_with_a_choice": 1000 * wall.sum() / max(int(searched.sum()), 1),
        "ms_per_call": 1000 * wall.mean(), "max_ms_per_call": 1000 * wall.max(),
    }
    if batch == 1:  # one decision per call: split by kind
        kind = np.concatenate([c[2] for c in timed.calls])
        for k, name in enumerate(KINDS):
            if (kind == k).any():
                out[f"ms_{name}"] = 1000 * wall[kind == k].mean()
    return out


def match_table(bot: Bot, deals: int, seed: int) -> str:
    """A Markdown table of a seat-swapped match of ``bot`` against gostop-greedy."""
    m = seat_swapped_match("gostop", bot, "gostop-greedy", deals, seed=seed)
    decided = m.wins + m.losses
    lines = [
        f"{m.games} deals ({deals} deals x 2 seatings, plus {m.games - 2 * deals} decided before any "
        f"decision), seed {seed}",
        "",
        "| bot | points per deal | s.e. | 95 % CI | won / decided | nagari | deals with a Go | Go calls "
        "| won after Go | lost after Go |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, sign, wins, go in ((m.bot_a, 1, m.wins, m.go_a), (m.bot_b, -1, m.losses, m.go_b)):
        lines.append(
            f"| {name} | {sign * m.mean_a:+.2f} | {m.ci95_a / Z95:.2f} | ± {m.ci95_a:.2f} | "
            f"{wins / max(decided, 1):.3f} | {m.nagari / m.games:.3f} | {go.called_go} | {go.gos} | "
            f"{go.won_after_go} | {go.lost_after_go} |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    """Command-line entry (see the module docstring)."""
    p = argparse.ArgumentParser(description="gostop-search timing and match against gostop-greedy")
    p.add_argument("--timing-deals", type=int, default=40)
    p.add_argument("--batch", type=int, nargs="*", default=[1, 64])
    p.add_argument("--deals", type=int, default=2000, help="match deals (each in both seatings); 0 skips")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot-option", nargs="*", metavar="KEY=VALUE", help="gostop-search options")
    args = p.parse_args(argv)
    options = _key_values(args.bot_option, "--bot-option")
    print(f"gostop-search options: {options or 'defaults'}")
    for b in args.batch:
        print(json.dumps(decision_times(agents.load("gostop-search", **options), b, args.timing_deals,
                                        args.seed)))
    if args.deals:
        print(match_table(agents.load("gostop-search", **options), args.deals, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Seat-swapped Go-Stop matches between two bots on the batched core.

Each of ``deals`` random deals is played twice, once with bot A in seat 0 and once in
seat 1 (same cards, same first player), so the luck of the deal cancels out.  Deals that
end before any decision (chongtong) are dealt again by the core; they are counted here
as played deals with their result (they cancel between the two seatings as well).

Command line::

    python -m agents.gostop_arena gostop-greedy random --deals 2000 --seed 0
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass

import numpy as np

from envs.gostop import GoStop
from envs.gostop.scoring import CHONGTONG_PAYOUT

from .play import play_out
from .registry import load


@dataclass
class MatchResult:
    """Totals from bot A's point of view over ``deals`` deals (chongtong deals included)."""

    deals: int
    wins: int
    losses: int
    draws: int
    points: float  # sum of A's signed payouts
    points_sd: float  # standard deviation of A's payout per deal
    pair_sd: float = 0.0  # standard deviation of A's mean payout over a deal's two seatings
    nagari: int = 0  # deals that ended with nobody stopping
    go: tuple = (0, 0)  # deals in which bot A / bot B called Go at least once
    go_won: tuple = (0, 0)  # ... and that bot won the deal
    go_lost: tuple = (0, 0)  # ... and that bot lost it
    skipped: int = 0  # deals that ended before any decision (chongtong), among ``deals``

    @property
    def win_rate(self) -> float:
        return self.wins / self.deals

    @property
    def mean_points(self) -> float:
        return self.points / self.deals

    def as_dict(self) -> dict:
        pairs = (self.deals - self.skipped) // 2
        return dict(asdict(self), win_rate=self.win_rate, mean_points=self.mean_points,
                    mean_points_se=float(self.points_sd / np.sqrt(self.deals)),
                    mean_points_se_pairs=float(self.pair_sd / np.sqrt(max(pairs, 1))))


def play_match(bot_a, bot_b, deals: int, seed: int = 0) -> MatchResult:
    """Play ``deals`` seat-swapped deal pairs between two bots (instances or names)."""
    bot_a = load(bot_a) if isinstance(bot_a, str) else bot_a
    bot_b = load(bot_b) if isinstance(bot_b, str) else bot_b
    game = GoStop()
    seeds = seed + np.arange(deals)
    state = game.init(np.concatenate([seeds, seeds]))
    a_seat = np.repeat(np.array([0, 1]), deals)
    seating = np.stack([a_seat, 1 - a_seat], axis=1)  # seat -> 0 (bot A) or 1 (bot B)
    play_out(game, state, [bot_a, bot_b], np.random.default_rng(seed), seating)
    sign = np.where(state.winner == a_seat, 1.0, np.where(state.winner < 0, 0.0, -1.0))
    pay = sign * state.payout
    ar = np.arange(a_seat.size)
    skipped_a, skipped_b = state.skipped[ar, a_seat], state.skipped[ar, 1 - a_seat]
    n_skip = int(skipped_a.sum() + skipped_b.sum())
    per_deal = np.concatenate([pay, np.full(int(skipped_a.sum()), float(CHONGTONG_PAYOUT)),
                               np.full(int(skipped_b.sum()), -float(CHONGTONG_PAYOUT))])
    # A deal's two seatings (chongtong deals before it cancel between them, net 0 per pair).
    pair = (pay[:deals] + pay[deals:]) / 2
    went = state.go_count[ar[:, None], seating.argsort(axis=1)] > 0  # (2 deals, bot A / bot B)
    won = np.stack([sign > 0, sign < 0], axis=1)
    lost = np.stack([sign < 0, sign > 0], axis=1)
    return MatchResult(
        deals=a_seat.size + n_skip,
        wins=int((sign > 0).sum() + skipped_a.sum()),
        losses=int((sign < 0).sum() + skipped_b.sum()),
        draws=int((sign == 0).sum()),
        points=float(per_deal.sum()),
        points_sd=float(per_deal.std(ddof=1)) if per_deal.size > 1 else 0.0,
        pair_sd=float(pair.std(ddof=1)) if deals > 1 else 0.0,
        nagari=int((state.winner < 0).sum()),
        go=tuple(int(x) for x in went.sum(axis=0)),
        go_won=tuple(int(x) for x in (went & won).sum(axis=0)),
        go_lost=tuple(int(x) for x in (went & lost).sum(axis=0)),
        skipped=n_skip,
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="seat-swapped Go-Stop match between two bots")
    p.add_argument("bot_a")
    p.add_argument("bot_b")
    p.add_argument("--deals", type=int, default=1000, help="deal pairs (each played in both seatings)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    print(json.dumps(play_match(args.bot_a, args.bot_b, args.deals, args.seed).as_dict(), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

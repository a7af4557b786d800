"""Solitaire means, seat-swapped matches and round-robin tournaments (see :mod:`training.evaluate`)."""

from __future__ import annotations

import importlib
import itertools
from dataclasses import asdict, dataclass, field

import numpy as np

from envs.core.rng import normalize_seed, seed_range
from envs.registration import game_spec

from .engine import SHARD_GAMES, LocalRunner, _bot, _joined, _name, _shards, play_match
from .gostop import GoStats
from .stats import Z95, bradley_terry_elo, pair_mean_ci


@dataclass
class SoloResult:
    """Solitaire evaluation of one bot: mean ± standard error over ``games`` seeded games."""

    bot: str
    games: int
    mean: float
    se: float
    optimum: float | None = None
    scores: np.ndarray = field(repr=False, default=None)  # every game's score (not in as_dict)

    @property
    def ci95(self) -> float:
        """Half-width of the 95 % confidence interval of the mean."""
        return Z95 * self.se

    @property
    def fraction_of_optimum(self) -> float | None:
        """Mean divided by the exact optimum, where the game has one."""
        return None if self.optimum is None else self.mean / self.optimum

    def as_dict(self) -> dict:
        """A JSON-compatible dict (``--json``), without the scores."""
        d = {k: v for k, v in asdict(self).items() if k != "scores"}
        return dict(d, ci95=self.ci95, fraction_of_optimum=self.fraction_of_optimum)


def solo_optimum(game: str) -> float | None:
    """The exact optimal expected solitaire score of ``game``, from its descriptor's
    ``solo_optimum`` (``module:attr`` of a function), or None for a game without one."""
    ref = game_spec(game).solo_optimum
    if ref is None:
        return None
    module, attr = ref.split(":")
    return float(getattr(importlib.import_module(module), attr)())


def evaluate_solo(game_name: str, bot, num_games: int, seed: int = 0, *, shard_games: int = SHARD_GAMES,
                  runner=None, progress=None, **game_config) -> SoloResult:
    """Mean ± standard error of a bot's solitaire score over ``num_games`` seeded games.

    ``game_config`` goes to the rules (e.g. ``copies_per_hand=None``); ``optimum`` is
    :func:`solo_optimum`.  A game without a
    one-player mode (Go-Stop) raises ``ValueError``.  Shards, ``runner`` and ``progress`` as
    in :func:`play_match`.
    """
    scores = play_match(game_name, [bot], num_games, seed, shard_games=shard_games, runner=runner,
                        progress=progress, **game_config)[:, 0]
    optimum = solo_optimum(game_name)
    se = float(scores.std(ddof=1) / np.sqrt(num_games)) if num_games > 1 else float("nan")
    return SoloResult(_name(bot), num_games, float(scores.mean()), se, optimum, scores)


@dataclass
class MatchResult:
    """A seat-swapped match of bot A against bot B, from A's side.

    ``games`` counts every game: two per deal pair, plus the Go-Stop deals decided before
    any decision.  ``mean_a`` / ``mean_b`` are each bot's mean result per game (Go-Stop:
    points per deal), ``margin`` the mean of A's minus B's result; the ``ci95`` half-widths
    come from the spread of the deal pairs' totals (the pairs are independent).
    ``nagari`` counts the draws that were nagari (Go-Stop).  ``go_a`` / ``go_b`` are the
    bots' :class:`GoStats` (None for games without Go calls).  ``values_a`` / ``values_b``
    hold every game's results and ``pair_index`` each game's deal pair (not in :meth:`as_dict`).
    """

    game: str
    bot_a: str
    bot_b: str
    pairs: int
    paired: bool
    games: int
    wins: int
    losses: int
    draws: int
    nagari: int
    mean_a: float
    mean_b: float
    ci95_a: float
    margin: float
    margin_ci95: float
    go_a: GoStats | None = None
    go_b: GoStats | None = None
    values_a: np.ndarray = field(repr=False, default=None)
    values_b: np.ndarray = field(repr=False, default=None)
    score_rate_ci95: float = 0.0
    """Half-width of the 95 % CI of :attr:`score_rate`, from the spread of the deal pairs."""
    pair_index: np.ndarray = field(repr=False, default=None)

    @property
    def win_rate(self) -> float:
        """A's share of games won."""
        return self.wins / self.games

    @property
    def score_rate(self) -> float:
        """A's share of games won, draws counting one half."""
        return (self.wins + 0.5 * self.draws) / self.games

    @property
    def decided_win_rate(self) -> float:
        """A's share of the decided games (wins and losses, draws left out)."""
        decided = self.wins + self.losses
        return self.wins / decided if decided else 0.5

    def as_dict(self) -> dict:
        """A JSON-compatible dict (``--json``)."""
        d = {k: v for k, v in asdict(self).items()
             if k not in ("values_a", "values_b", "pair_index", "go_a", "go_b")}
        gos = {k: getattr(self, k).as_dict() for k in ("go_a", "go_b") if getattr(self, k) is not None}
        return dict(d, win_rate=self.win_rate, score_rate=self.score_rate, decided_win_rate=self.decided_win_rate,
                    **gos)


def seat_swapped_match(game_name: str, bot_a, bot_b, pairs: int, seed: int = 0, paired: bool = True, *,
                       shard_games: int = SHARD_GAMES, runner=None, progress=None, **game_config) -> MatchResult:
    """Bot A against bot B over ``pairs`` deal pairs: each deal twice, A in seat 0 then in seat 1.

    Deal ``j`` uses seed ``seed + j`` in both seatings (``paired=False``: the second seating
    gets fresh seeds ``seed + pairs + j``, so every game has its own deal); in both seatings
    the bots of the shard starting at deal ``k`` draw from ``default_rng(seed + k)``.  Bots are
    instances or names.  Shards, ``runner`` and ``progress`` as in :func:`play_match`.
    """
    shards, finish = _match_plan(game_name, bot_a, bot_b, pairs, seed, paired, shard_games, game_config)
    return finish((runner or LocalRunner()).map(shards, progress))


def _match_plan(game_name: str, bot_a, bot_b, pairs: int, seed: int, paired: bool, shard_games: int,
                game_config: dict):
    """The shards of a seat-swapped match and the function that turns their outputs into its result."""
    if pairs < 1:
        raise ValueError(f"a match needs at least one deal pair, got {pairs}")
    bot_a, bot_b = _bot(bot_a), _bot(bot_b)
    first = seed_range(seed, pairs)
    second = first if paired else seed_range(normalize_seed(seed) + pairs, pairs)
    shards_a = _shards(game_name, [bot_a, bot_b], first, seed, game_config, shard_games)
    shards_b = _shards(game_name, [bot_b, bot_a], second, seed, game_config, shard_games)

    def finish(outputs: list) -> MatchResult:
        return _match_result(game_name, bot_a, bot_b, pairs, paired, _joined(outputs[:len(shards_a)]),
                             _joined(outputs[len(shards_a):]))

    return shards_a + shards_b, finish


def _match_result(game_name: str, bot_a, bot_b, pairs: int, paired: bool, seating_a, seating_b) -> MatchResult:
    """A seat-swapped match from the joined outputs of its two seatings (A in seat 0, then 1)."""
    va, nag_a, skip_a, gos_a = seating_a
    vb, nag_b, skip_b, gos_b = seating_b
    go_a = go_b = None
    if gos_a is not None:  # the deals played to a decision (skipped ones have no Go)
        go_a = GoStats.of(np.concatenate([gos_a[:, 0], gos_b[:, 1]]), np.concatenate([va[:, 0], vb[:, 1]]),
                          np.concatenate([va[:, 1], vb[:, 0]]))
        go_b = GoStats.of(np.concatenate([gos_a[:, 1], gos_b[:, 0]]), np.concatenate([va[:, 1], vb[:, 0]]),
                          np.concatenate([va[:, 0], vb[:, 1]]))
    # A's and B's result in every game, and each game's deal pair.
    mine = [va[:, 0], vb[:, 1]]
    theirs = [va[:, 1], vb[:, 0]]
    pair_of = [np.arange(pairs), np.arange(pairs)]
    for seat_a, skipped in ((0, skip_a), (1, skip_b)):
        rows = [(j, v) for j, vals in enumerate(skipped) for v in vals]
        if rows:
            mine.append(np.array([v[seat_a] for _, v in rows]))
            theirs.append(np.array([v[1 - seat_a] for _, v in rows]))
            pair_of.append(np.array([j for j, _ in rows]))
    a, b, pair = np.concatenate(mine), np.concatenate(theirs), np.concatenate(pair_of)
    games = a.size

    mean_a, ci_a = pair_mean_ci(a, pair, pairs)
    margin, margin_ci = pair_mean_ci(a - b, pair, pairs)
    _, score_ci = pair_mean_ci((a > b) + 0.5 * (a == b), pair, pairs)
    return MatchResult(
        game=game_name, bot_a=_name(bot_a), bot_b=_name(bot_b), pairs=pairs, paired=paired, games=games,
        wins=int((a > b).sum()), losses=int((a < b).sum()), draws=int((a == b).sum()),
        nagari=int(nag_a.sum() + nag_b.sum()), mean_a=mean_a, mean_b=float(b.mean()), ci95_a=ci_a,
        margin=margin, margin_ci95=margin_ci, go_a=go_a, go_b=go_b, values_a=a, values_b=b,
        score_rate_ci95=score_ci, pair_index=pair,
    )


@dataclass
class Tournament:
    """Round-robin results: per bot mean result, CI, win rate; pairwise wins and matches; Elo."""

    bots: list
    games_per_pair: int
    mean: dict = field(default_factory=dict)
    ci95: dict = field(default_factory=dict)
    win_rate: dict = field(default_factory=dict)
    wins: np.ndarray | None = None  # wins[i, j]: games bot i won against bot j (ties count 1/2)
    elo: dict = field(default_factory=dict)
    matches: list = field(default_factory=list)  # one MatchResult per pair of bots

    def markdown(self) -> str:
        """The results as a Markdown table, best Elo first."""
        lines = ["| bot | Elo | mean | 95 % CI | win rate |", "|---|---:|---:|---:|---:|"]
        for b in sorted(self.bots, key=lambda b: -self.elo[b]):
            lines.append(
                f"| {b} | {self.elo[b]:.0f} | {self.mean[b]:.2f} | ± {self.ci95[b]:.2f} | {self.win_rate[b]:.3f} |"
            )
        return "\n".join(lines)

    def as_dict(self) -> dict:
        """A JSON-compatible dict (``--json``): per-bot figures, best Elo first, and the matches."""
        order = sorted(self.bots, key=lambda b: -self.elo[b])
        return {
            "games_per_pair": self.games_per_pair,
            "bots": [{"bot": b, "elo": self.elo[b], "mean": self.mean[b], "ci95": self.ci95[b],
                      "win_rate": self.win_rate[b]} for b in order],
            "matches": [m.as_dict() for m in self.matches],
        }


def round_robin(game_name: str, bots: list, games_per_pair: int, seed: int = 0, paired: bool = True, *,
                shard_games: int = SHARD_GAMES, runner=None, progress=None, **game_config) -> Tournament:
    """Every two bots play a :func:`seat_swapped_match` of ``games_per_pair`` deal pairs.

    A bot's win rate counts draws as halves; its mean and CI are over all its games.  The
    shards of all the matches go to ``runner`` together (default :class:`LocalRunner`);
    ``progress(done, total)`` follows them.
    """
    if len(bots) < 2:
        raise ValueError("a tournament needs at least two bots")
    names = [_name(b) for b in bots]
    if len(set(names)) != len(names):
        raise ValueError(f"a tournament needs distinct bots, got {names}")
    loaded = [_bot(b) for b in bots]
    n = len(bots)
    results: dict = {b: [] for b in names}
    outcomes: dict = {b: [] for b in names}
    wins = np.zeros((n, n))
    t = Tournament(names, games_per_pair, wins=wins)
    pairs = list(itertools.combinations(range(n), 2))
    plans = [_match_plan(game_name, loaded[i], loaded[j], games_per_pair, seed, paired, shard_games, game_config)
             for i, j in pairs]
    outputs = (runner or LocalRunner()).map([s for shards, _ in plans for s in shards], progress)
    start = 0
    for (i, j), (shards, finish) in zip(pairs, plans):
        m = finish(outputs[start:start + len(shards)])
        start += len(shards)
        m.bot_a, m.bot_b = names[i], names[j]
        t.matches.append(m)
        score_a = np.where(m.values_a > m.values_b, 1.0, np.where(m.values_a < m.values_b, 0.0, 0.5))
        wins[i, j] += score_a.sum()
        wins[j, i] += (1 - score_a).sum()
        results[names[i]].extend(m.values_a)
        results[names[j]].extend(m.values_b)
        outcomes[names[i]].extend(score_a)
        outcomes[names[j]].extend(1 - score_a)
    for b in names:
        r = np.asarray(results[b])
        t.mean[b] = float(r.mean())
        t.ci95[b] = float(Z95 * r.std(ddof=1) / np.sqrt(r.size))
        t.win_rate[b] = float(np.mean(outcomes[b]))
    t.elo = dict(zip(names, bradley_terry_elo(wins)))
    return t

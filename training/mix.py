"""The table mix of a training run: which game configs the learner plays, in what shares, against whom.

A run trains one network on one or more *tables*.  Without ``PPOConfig.mix`` there is one
table made of the top-level fields (``game_config``, ``opponents``, ``opponent_pool``,
``learner_seat``, ``reward_scale``).  With it, every entry of ``mix`` is a table::

    {"name": "2p", "share": 0.3, "game_config": {"num_players": 2, "reward": "win"},
     "opponent_pool": {"self": 0.8, "rainbow-simple": 0.2}, "reward_scale": 1.0}

Only ``share`` is required.  An entry's ``game_config`` is merged over the top-level one;
its other keys default to the top-level fields; its ``name`` defaults to ``<players>p``.
The ``num_envs`` games of a rollout are split between the tables in proportion to their
shares (largest remainder, at least one game each).  All tables must share one observation
and action size (one network plays them all).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from envs.core.match import Match

MIX_KEYS = {"name", "share", "game_config", "opponents", "opponent_pool", "learner_seat", "reward_scale"}


@dataclass
class TableSpec:
    """One table of the mix, fully resolved (see the module docstring)."""

    name: str
    share: float
    game_config: dict
    opponents: list
    opponent_pool: dict
    learner_seat: int | None
    reward_scale: float


def table_specs(config) -> list[TableSpec]:
    """The resolved tables of a :class:`~training.ppo.PPOConfig`; ``ValueError`` for a bad entry."""
    entries = config.mix or [{"share": 1.0}]
    specs = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ValueError(f"mix[{i}] must be a dict, got {entry!r}")
        unknown = set(entry) - MIX_KEYS
        if unknown:
            raise ValueError(f"mix[{i}]: unknown keys {sorted(unknown)} (known: {sorted(MIX_KEYS)})")
        share = entry.get("share")
        if not isinstance(share, (int, float)) or share <= 0:
            raise ValueError(f"mix[{i}]: share must be a positive number, got {share!r}")
        game_config = {**config.game_config, **entry.get("game_config", {})}
        opponents = list(entry.get("opponents", config.opponents))
        pool = dict(entry.get("opponent_pool", config.opponent_pool))
        if "opponents" in entry and "opponent_pool" not in entry:
            pool = {}  # an entry that names its seats does not inherit the top-level pool
        if opponents and pool:
            raise ValueError(f"table {i}: give opponents (one bot per seat) or opponent_pool, not both")
        if any(not isinstance(w, (int, float)) or w < 0 for w in pool.values()) or (pool and not sum(pool.values())):
            raise ValueError(f"table {i}: opponent_pool weights must be non-negative and not all zero")
        name = entry.get("name") or f"{game_config.get('num_players', 1)}p"
        specs.append(TableSpec(str(name), float(share), game_config, opponents, pool,
                               entry.get("learner_seat", config.learner_seat),
                               float(entry.get("reward_scale", config.reward_scale))))
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"mix table names must be unique, got {names}")
    return specs


def split_games(total: int, shares: list[float]) -> list[int]:
    """Split ``total`` games in proportion to ``shares`` (largest remainder, at least one each)."""
    if total < len(shares):
        raise ValueError(f"num_envs {total} is smaller than the {len(shares)} tables of the mix")
    raw = [total * s / sum(shares) for s in shares]
    counts = [int(r) for r in raw]
    by_remainder = sorted(range(len(raw)), key=lambda i: counts[i] - raw[i])
    for j in by_remainder[: total - sum(counts)]:
        counts[j] += 1
    for j in range(len(counts)):
        if counts[j] == 0:  # every table gets a game, from the largest one
            counts[max(range(len(counts)), key=counts.__getitem__)] -= 1
            counts[j] = 1
    return counts


class Table:
    """The games in flight on one table: core state, learner seats, opponent seating, returns.

    ``pool`` is the run's :class:`~training.opponents.OpponentPool`; ``rng`` the trainer's
    generator (seats and opponents of new games are drawn from it).
    """

    def __init__(self, spec: TableSpec, game, num_games: int, pool, rng, recent: int = 1000):
        if game.num_players == 1 and spec.opponents:
            raise ValueError(f"table {spec.name}: a one-player game takes no opponents")
        self.spec, self.game, self.num_games, self.pool, self.rng = spec, game, num_games, pool, rng
        others = game.num_players - 1
        if others and not spec.opponents and not spec.opponent_pool:
            spec.opponents = ["random"]
        if spec.opponents:
            names = spec.opponents * others if len(spec.opponents) == 1 else spec.opponents
            if len(names) != others:
                raise ValueError(f"table {spec.name}: opponents must name {others} bot(s), got {len(names)}")
            spec.opponents = list(names)
        self.recent = deque(maxlen=recent)

    def bot_names(self) -> set:
        """Every bot name this table seats."""
        if self.game.num_players == 1:
            return set()
        return set(self.spec.opponents) | {n for n, w in self.spec.opponent_pool.items() if w > 0}

    def start(self, seeds: np.ndarray) -> None:
        """Start ``num_games`` fresh games from ``seeds`` and let the opponents move first."""
        self.state = self.game.init(seeds)
        n, others = self.num_games, self.game.num_players - 1
        self.learner_seat = np.zeros(n, dtype=np.int64)
        self.seating = np.zeros((n, others), dtype=np.int64)
        self.episode_return = np.zeros(n, dtype=np.float64)
        self._seat(np.arange(n))
        self._play()

    def _seat(self, idx: np.ndarray) -> None:
        seat = self.spec.learner_seat
        P = self.game.num_players
        self.learner_seat[idx] = self.rng.integers(P, size=idx.size) if seat is None else seat
        if P == 1:
            return
        if self.spec.opponent_pool:
            self.seating[idx] = self.pool.sample(self.spec.opponent_pool, (idx.size, P - 1), self.rng)
        else:
            self.seating[idx] = self.pool.fixed(self.spec.opponents)

    def observe(self):
        """(observations, masks) of the learner's pending decisions, as numpy arrays."""
        return (self.game.observe(self.state, self.learner_seat, check=False),
                self.game.legal_mask(self.state, check=False))

    def step(self, actions: np.ndarray):
        """Apply the learner's actions, let the opponents answer, restart finished games.

        Returns the learner's (n,) rewards (its own step plus what it collected while the
        others moved) and the (n,) done flags of the games that finished.
        """
        rows = np.arange(self.num_games)
        reward = self._play(actions)[rows, self.learner_seat]
        done = self.state.done.copy()
        self.episode_return += reward
        if done.any():
            idx = np.flatnonzero(done)
            self.recent.extend(self.episode_return[idx].tolist())
            self.episode_return[idx] = 0.0
            self.game.reset_where(self.state, done, check=False)
            self._seat(idx)
            self._play()
        return reward, done

    def _play(self, actions=None) -> np.ndarray:
        """Apply the learner's ``actions`` (if any), let the opponents move until the learner's
        turns; the (n, P) rewards."""
        return Match(self.game, self.pool.bots).play(self.state, self.rng, learner_seat=self.learner_seat,
                                                     seating=self.seating, learner_actions=actions, check=False)

    def mean_return(self) -> float | None:
        """Mean return of the last finished games (None before the first one finishes)."""
        return float(np.mean(self.recent)) if self.recent else None

"""The opponent pool of a training run: named bots plus frozen snapshots of the learner.

Every non-learner seat of every game is played by one bot of the pool, chosen when the
game starts: a table either names one bot per seat (``opponents``; ``"self"`` is the
latest snapshot) or gives sampling weights (``opponent_pool``, e.g. ``{"self": 0.7,
"rainbow-greedy": 0.1, "random": 0.2}``), drawn independently for each seat of each new
game.  ``"self"`` in a pool is a snapshot drawn uniformly from the last ``pool_snapshots``
ones; the trainer takes a snapshot every ``snapshot_every`` updates.  Snapshots sample
from their policy (they are not greedy), so self-play stays varied.
"""

from __future__ import annotations

import copy

import numpy as np

from agents import load as load_bot
from agents.torch_policy import PolicyBot

SELF = "self"


class OpponentPool:
    """Bots by index: ``bots`` holds the named bots, then the snapshot slots.

    ``game_name`` is the game (named bots must play it); ``names`` every bot name the
    run's tables use; ``snapshots`` (>= 1) how many past snapshots are kept.  An unknown
    name raises ``ValueError``.
    """

    def __init__(self, game_name: str, model, names, snapshots: int, device: str):
        if snapshots < 1:
            raise ValueError("pool_snapshots must be at least 1")
        named = sorted(set(names) - {SELF})
        self.bots = [load_bot(n) for n in named]
        for bot in self.bots:
            if hasattr(bot, "check_game"):
                bot.check_game(game_name)
        self.index = {n: i for i, n in enumerate(named)}
        self.game_name, self.device, self.capacity = game_name, device, snapshots
        self.slots: list[int] = []  # indices into bots, oldest first
        self.refresh(model)

    @property
    def latest(self) -> PolicyBot:
        """The most recent snapshot."""
        return self.bots[self.slots[-1]]

    def refresh(self, model) -> None:
        """Take a snapshot of ``model`` (the oldest one is dropped once ``capacity`` are kept)."""
        if len(self.slots) < self.capacity:
            self.bots.append(PolicyBot(copy.deepcopy(model), SELF, self.game_name, greedy=False, device=self.device))
            self.slots.append(len(self.bots) - 1)
        else:
            oldest = self.slots.pop(0)
            self.bots[oldest].model.load_state_dict(model.state_dict())
            self.slots.append(oldest)

    def reset(self, model) -> None:
        """Make every kept snapshot a copy of ``model`` (after a warm start)."""
        for i in self.slots:
            self.bots[i].model.load_state_dict(model.state_dict())

    def fixed(self, names: list) -> np.ndarray:
        """Bot index of each name (``"self"``: the latest snapshot)."""
        return np.array([self.slots[-1] if n == SELF else self.index[n] for n in names], dtype=np.int64)

    def sample(self, weights: dict, size, rng: np.random.Generator) -> np.ndarray:
        """Bot indices of shape ``size`` drawn from ``weights`` (name -> weight)."""
        names = list(weights)
        p = np.array([weights[n] for n in names], dtype=np.float64)
        pick = rng.choice(len(names), size=size, p=p / p.sum())
        out = np.empty(size, dtype=np.int64)
        for k, n in enumerate(names):
            hit = pick == k
            if n == SELF:
                out[hit] = np.array(self.slots)[rng.integers(len(self.slots), size=int(hit.sum()))]
            else:
                out[hit] = self.index[n]
        return out

    def state(self) -> dict:
        """Snapshot weights (oldest first), for checkpoints."""
        return {f"snapshot_{k}": self.bots[i].model.state_dict() for k, i in enumerate(self.slots)}

    def load_state(self, state: dict, model) -> None:
        """Restore the snapshots written by :meth:`state` (missing slots copy ``model``)."""
        keys = sorted((k for k in state if k.startswith("snapshot_")), key=lambda k: int(k.split("_")[1]))
        weights = [state[k] for k in keys][-self.capacity:]
        while len(self.slots) < len(weights):
            self.refresh(model)
        for i, w in zip(self.slots, weights):
            self.bots[i].model.load_state_dict(w)

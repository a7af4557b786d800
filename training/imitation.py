"""Behaviour cloning from a teacher bot: a warm start for PPO.

``collect_demonstrations`` lets the teacher play every seat of the run's tables (the
``mix``, in its shares) and records each decision: the observation (float16), the legal
mask, the teacher's action and, for every reward mode of the game, the rewards that
decision's seat received until its next decision.  The data lives in a directory of ``part-NNNNN.npz`` chunks, written as they
finish, so a slow teacher can be stopped and resumed (existing chunks are kept).

``load_demonstrations`` turns the chunks into tensors, with each decision's return (the
seat's discounted rewards from there on, in the table's ``reward_scale`` units) as the
value target.  ``behaviour_clone`` fits the policy to the teacher's actions (cross-entropy
over the legal actions) and the value head to those returns, so PPO starts from the
teacher's play with a critic that already knows what its positions are worth.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

import agents
from envs.core.match import Match
from envs.registration import game_class

from .mix import split_games, table_specs

CHUNK_GAMES = 256
"""Games per saved chunk."""
SEED_OFFSET = 10**7
"""Demonstration game ``k`` of a run with seed ``s`` uses seed ``s * 1_000_003 + SEED_OFFSET + k``."""


def _schedule(config, num_games: int) -> list[tuple[int, int]]:
    """(table index, games) of each chunk: every table's chunks, interleaved in proportion."""
    specs = table_specs(config)
    order = []
    for i, n in enumerate(split_games(num_games, [s.share for s in specs])):
        sizes = [CHUNK_GAMES] * (n // CHUNK_GAMES) + ([n % CHUNK_GAMES] if n % CHUNK_GAMES else [])
        order += [((k + 0.5) / len(sizes), i, size) for k, size in enumerate(sizes)]
    return [(i, size) for _, i, size in sorted(order)]


def collect_demonstrations(config, teacher: str, num_games: int, path: str | Path, log=print) -> Path:
    """Record ``num_games`` games of ``teacher`` in every seat of the run's tables into ``path``.

    Chunks already in ``path`` are kept and the collection continues after them.
    Returns ``path``.
    """
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    specs = table_specs(config)
    bot = agents.load(teacher)
    schedule = _schedule(config, num_games)
    for k, (table, games) in enumerate(schedule):
        part = path / f"part-{k:05d}.npz"
        if part.exists():
            continue
        spec = specs[table]
        seeds = config.seed * 1_000_003 + SEED_OFFSET + k * CHUNK_GAMES + np.arange(games)
        data = _record(config.game, spec.game_config, bot, seeds, np.random.default_rng(seeds[0]))
        tmp = part.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, game_config=_key(spec.game_config), teacher=teacher, **data)
        tmp.replace(part)
        if log:
            log(f"demonstrations: chunk {k + 1}/{len(schedule)} ({spec.name}, {data['action'].size:,} decisions)")
    return path


def _record(game_name: str, game_config: dict, bot, seeds, rng) -> dict:
    """Play one batch of games with ``bot`` in every seat; the decisions as arrays.

    The rewards of every reward mode the game offers at this table size are recorded
    (``reward_<mode>``) by replaying the same actions on the same seeds, so one recording
    serves runs with either mode.
    """
    cls = game_class(game_name)
    config = {k: v for k, v in game_config.items() if k != "reward"}
    game = cls(**config)
    state = game.init(seeds)
    seating = np.zeros((state.batch_size, game.num_players), dtype=np.int64)  # the teacher in every seat
    decisions = _Decisions(state.batch_size, game.num_players)
    Match(game, [bot]).play(state, rng, seating=seating, on_move=decisions)
    out = decisions.arrays()
    for mode in cls.reward_modes:
        try:
            replay = cls(**config, reward=mode)
        except ValueError:  # e.g. "win" at a one-seat table
            continue
        rewards = _Rewards(state.batch_size, game.num_players, out["action"].size)
        # The recorded actions again, in the order they were made (the teacher was one call per ply).
        Match(replay, [_Replay(decisions.actions)], validate=False).play(replay.init(seeds), None, seating=seating,
                                                                        on_move=rewards)
        out[f"reward_{mode}"] = rewards.reward.astype(np.float32)
    return out


class _Decisions:
    """The ``on_move`` recorder of a match where the teacher plays every seat: each decision's
    observation, mask and action, its episode (game and seat) and its index among that seat's
    decisions."""

    def __init__(self, batch: int, players: int):
        self.players = players
        self.made = np.zeros((batch, players), dtype=np.int64)  # decisions so far, per game and seat
        self.obs, self.mask, self.actions, self.episode, self.step = [], [], [], [], []

    def __call__(self, move) -> None:
        rows, seats = move.rows, move.seats
        self.obs.append(move.obs.astype(np.float16))
        self.mask.append(np.packbits(move.mask, axis=1))
        self.actions.append(move.actions)
        self.episode.append((rows * self.players + seats).astype(np.int32))
        self.step.append(self.made[rows, seats].astype(np.int16))
        self.made[rows, seats] += 1

    def arrays(self) -> dict:
        """The decisions as the arrays of a chunk."""
        return {"obs": np.concatenate(self.obs), "mask": np.concatenate(self.mask),
                "action": np.concatenate(self.actions).astype(np.int16),
                "episode": np.concatenate(self.episode), "step": np.concatenate(self.step)}


class _Rewards:
    """The ``on_move`` recorder of a replay of ``n`` decisions: ``reward[k]`` is what decision
    ``k``'s seat receives from it until its next decision (opponents' moves included)."""

    def __init__(self, batch: int, players: int, n: int):
        self.last = np.full((batch, players), -1, dtype=np.int64)  # each seat's latest decision
        self.reward = np.zeros(n, dtype=np.float64)
        self.made = 0

    def __call__(self, move) -> None:
        self.last[move.rows, move.seats] = self.made + np.arange(move.rows.size)
        self.made += move.rows.size
        owner = self.last[move.rows]
        seen = owner >= 0
        np.add.at(self.reward, owner[seen], move.rewards[seen])


class _Replay:
    """A bot that returns recorded batches of actions, one per call, in order."""

    name = "replay"

    def __init__(self, actions: list):
        self.actions = iter(actions)

    def act(self, obs, mask, rng):
        return next(self.actions)


@dataclass
class Demonstrations:
    """Decisions of a teacher as tensors: ``obs`` (N, O) float16, ``mask`` (N, A) bool,
    ``action`` (N,) long, ``ret`` (N,) float32 value targets, and the teacher's name."""

    obs: torch.Tensor
    mask: torch.Tensor
    action: torch.Tensor
    ret: torch.Tensor
    teacher: str

    def __len__(self) -> int:
        return self.action.shape[0]


def load_demonstrations(path: str | Path, config, num_actions: int) -> Demonstrations:
    """Load every chunk in ``path`` with returns for ``config``'s ``gamma`` and reward scales.

    Raises ``ValueError`` when there is no chunk, or a chunk was recorded on a game config
    that is not one of the run's tables.
    """
    parts = sorted(Path(path).glob("part-*.npz"))
    if not parts:
        raise ValueError(f"no demonstrations in {path} (expected part-*.npz chunks)")
    cls = game_class(config.game)
    tables = {_key(s.game_config): s for s in table_specs(config)}
    obs, mask, action, ret, teachers = [], [], [], [], set()
    for part in parts:
        with np.load(part) as z:
            key = str(z["game_config"])
            if key not in tables:
                raise ValueError(f"{part} was recorded on game config {key}, which is not a table of this "
                                 f"run ({sorted(tables)}); use another bc_data directory")
            spec = tables[key]
            mode = spec.game_config.get("reward") or cls.reward_modes[0]
            teachers.add(str(z["teacher"]))
            obs.append(z["obs"])
            mask.append(np.unpackbits(z["mask"], axis=1, count=num_actions).view(bool))
            action.append(z["action"].astype(np.int64))
            ret.append(_returns(z[f"reward_{mode}"], z["episode"], z["step"], config.gamma) * spec.reward_scale)
    return Demonstrations(torch.from_numpy(np.concatenate(obs)), torch.from_numpy(np.concatenate(mask)),
                          torch.from_numpy(np.concatenate(action)),
                          torch.from_numpy(np.concatenate(ret).astype(np.float32)), "+".join(sorted(teachers)))


def _key(game_config: dict) -> str:
    """A table's game config without its reward mode (recordings hold every mode's rewards)."""
    return json.dumps({k: v for k, v in game_config.items() if k != "reward"}, sort_keys=True)


def _returns(reward, episode, step, gamma: float) -> np.ndarray:
    """Discounted return of every decision within its episode (a seat of one game)."""
    ids, ep = np.unique(episode, return_inverse=True)
    grid = np.zeros((ids.size, int(step.max()) + 1))
    grid[ep, step] = reward
    for t in range(grid.shape[1] - 2, -1, -1):
        grid[:, t] += gamma * grid[:, t + 1]
    return grid[ep, step]


def behaviour_clone(model, demos: Demonstrations, epochs: int, minibatch_size: int, learning_rate: float,
                    vf_coef: float, device, rng: np.random.Generator, log=None) -> dict:
    """Fit ``model`` to the teacher: cross-entropy on its actions plus ``vf_coef`` x value MSE
    (Adam, ``learning_rate`` decayed linearly to 0 over the epochs).

    The last 5 % of the decisions are held out; returns the held-out accuracy (the model's
    argmax equals the teacher's action), cross-entropy and value loss after the last epoch.
    """
    n = len(demos)
    held = max(1, n // 20)
    train_idx = np.arange(n - held)
    opt = torch.optim.Adam(model.parameters(), lr=learning_rate, eps=1e-5)
    steps = epochs * -(-train_idx.size // minibatch_size)
    done = 0
    stats: dict = {}
    for epoch in range(epochs):
        model.train()
        rng.shuffle(train_idx)
        for start in range(0, train_idx.size, minibatch_size):
            opt.param_groups[0]["lr"] = learning_rate * (1 - done / steps)  # linear decay to 0
            done += 1
            mb = torch.from_numpy(train_idx[start : start + minibatch_size])
            ce, vloss, _ = _bc_losses(model, demos, mb, device)
            loss = ce + vf_coef * vloss
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        with torch.no_grad():
            ce, vloss, acc = _bc_losses(model, demos, torch.arange(n - held, n), device)
        stats = {"bc_epoch": epoch + 1, "bc_accuracy": float(acc), "bc_cross_entropy": float(ce),
                 "bc_value_loss": float(vloss), "bc_decisions": n}
        if log:
            log(stats)
    return stats


def _bc_losses(model, demos: Demonstrations, idx, device):
    obs = demos.obs[idx].to(device).float()
    mask = demos.mask[idx].to(device)
    action = demos.action[idx].to(device)
    logits, value = model(obs, mask)
    ce = torch.nn.functional.cross_entropy(logits, action)
    vloss = 0.5 * (value - demos.ret[idx].to(device)).pow(2).mean()
    acc = (logits.argmax(dim=1) == action).float().mean()
    return ce, vloss, acc

"""Masked PPO on madang's batched numpy cores (one readable file, in the spirit of CleanRL).

The trainer steps a game's batched core directly: ``num_envs`` games advance with one
call per step, the learner plays one seat of every game, and bots play the other seats
inside the rollout.  Illegal actions get a logit of -1e9, so they are never sampled; GAE
runs over the learner's own decisions, with the rewards collected while the other seats
moved added to the learner's previous step.  A finished game is replaced at once (its
slot continues its random stream), and the transition that ended it bootstraps from zero.

Options for harder games, all in :class:`PPOConfig` (and so in JSON configs):

* a **table mix** (``mix``): one network trained on several game configs at once, e.g.
  solitaire plus 2-4 seats, each with its own share of the games, opponents and reward
  scale (:mod:`training.mix`);
* an **opponent pool** (``opponent_pool``, ``pool_snapshots``): each opponent seat of each
  new game drawn from named bots and past snapshots of the learner (:mod:`training.opponents`);
* a **start from a trained policy** (``init``: a shipped name or policy files, e.g. the
  result of a distillation, :mod:`training.gostop_distill`);
* a **behaviour-cloning warm start** (``bc_teacher``, ``bc_games``, ``bc_data``,
  ``bc_epochs``, ...): the policy and value head first fit a teacher bot's recorded games
  (:mod:`training.imitation`);
* **reward scaling, a win bonus and clipping** (``reward_scale`` per table,
  ``reward_win_bonus``, ``reward_clip``).

Sections: config, rollout buffer, trainer (rollout, GAE, update), checkpoints.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from agents.torch_policy import ActorCritic, PolicyBot
from envs.adapters.actions import make_game
from envs.registration import game_class

from .checkpoint import CheckpointError, check_state, read_checkpoint
from .initial import load_policy_model
from .mix import Table, split_games, table_specs
from .opponents import OpponentPool


# --------------------------------------------------------------------------- config
@dataclass
class PPOConfig:
    """Everything that defines a training run (saved with every checkpoint)."""

    game: str = "yacht"
    """Game module name (``yacht``, ...)."""
    game_config: dict = field(default_factory=dict)
    """Rules options passed to the game (``num_players``, ``reward``, ...)."""
    opponents: list = field(default_factory=list)
    """Bot names for the other seats (seat order skipping the learner); ``"self"`` is a frozen
    snapshot of the learner (self-play, refreshed every ``snapshot_every`` updates)."""
    opponent_pool: dict = field(default_factory=dict)
    """Instead of ``opponents``: bot name -> weight; every opponent seat of every new game is
    drawn from it (``"self"``: one of the last ``pool_snapshots`` snapshots of the learner)."""
    pool_snapshots: int = 1
    """Past snapshots of the learner kept for ``"self"`` (one taken every ``snapshot_every`` updates)."""
    learner_seat: int | None = None
    """The learner's seat, or None for a random seat per game."""
    mix: list = field(default_factory=list)
    """Tables trained together with one network: entries ``{"share", "name", "game_config",
    "opponents", "opponent_pool", "learner_seat", "reward_scale"}`` (only ``share`` required;
    the rest default to the top-level fields, ``game_config`` merged over the top-level one).
    Empty: one table from the top-level fields.  See :mod:`training.mix`."""
    total_steps: int = 20_000_000
    """Learner decisions to train for (summed over the batch)."""
    num_envs: int = 4096
    """Games stepped together (the batch size of the core)."""
    num_steps: int = 32
    """Steps per game per rollout (rollout = num_envs * num_steps decisions)."""
    hidden: tuple = (256, 256)
    """Widths of the shared MLP trunk."""
    init: str = ""
    """Policy to start from: a shipped name or policy files (e.g. a distillation's run
    directory) with the same ``hidden`` widths; "" starts from a fresh network.  Not with
    ``bc_teacher`` (two starts)."""
    learning_rate: float = 3e-4
    """Adam learning rate (annealed linearly to 0 over ``total_steps`` when ``anneal_lr``)."""
    anneal_lr: bool = True
    """Anneal the learning rate linearly to zero."""
    gamma: float = 1.0
    """Discount factor (1.0: episodic games with a final score)."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    update_epochs: int = 4
    """Passes over each rollout."""
    minibatch_size: int = 8192
    """Decisions per gradient step."""
    clip_coef: float = 0.2
    """PPO ratio clip."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    vf_coef: float = 0.5
    """Value-loss weight."""
    max_grad_norm: float = 0.5
    """Gradient-norm clip."""
    reward_scale: float = 1.0
    """Rewards are multiplied by this for learning (values are in scaled units); a mix entry
    may set its own."""
    reward_win_bonus: float = 0.0
    """Add this times the sign of each raw reward to the scaled reward (before clipping): in
    games that pay only at the end (Go-Stop) a fixed bonus for a won deal and a fixed penalty
    for a lost one, on top of the scaled points.  The warm start's value targets leave it out."""
    reward_clip: float = 0.0
    """Clip each scaled reward to [-reward_clip, reward_clip] (0: no clipping)."""
    snapshot_every: int = 10
    """Updates between refreshes of the self-play snapshot."""
    eval_every: int = 20
    """Updates between evaluations (0: never)."""
    eval_games: int = 2000
    """Games per evaluation (greedy policy, fixed seeds)."""
    eval_opponents: list = field(default_factory=list)
    """Bots for the other seats during evaluation (default: the training opponents, with
    ``"self"`` replaced by ``random``)."""
    eval_tables: list = field(default_factory=list)
    """Several evaluations instead: entries ``{"name", "game_config", "opponents", "games"}``
    (``game_config`` merged over the top-level one; ``games`` defaults to ``eval_games``)."""
    checkpoint_every: int = 20
    """Updates between checkpoints (and at the end)."""
    seed: int = 0
    """Seeds the games, torch and the samplers."""
    device: str = "cpu"
    """Torch device (``cpu`` or ``cuda``); the rules always run in numpy on the CPU."""
    bf16: bool = True
    """Run the network's matrix products in bfloat16 (autocast; weights and losses stay
    float32).  About 2x faster on CPUs with AVX-512 BF16 and on GPUs; set False for fp32."""
    torch_threads: int = 1
    """Torch CPU threads (1 is fastest on small machines)."""
    bc_teacher: str = ""
    """Bot to clone before PPO starts ("" : no warm start).  It plays every seat of ``bc_games``
    games of the mix; the policy fits its actions and the value head its returns."""
    bc_games: int = 0
    """Teacher games to record (split between the tables by share)."""
    bc_data: str = ""
    """Directory of the recorded games (reused when present, resumed when partial; default
    ``demonstrations/`` next to the checkpoint)."""
    bc_epochs: int = 0
    """Passes over the recorded decisions."""
    bc_minibatch_size: int = 4096
    """Decisions per behaviour-cloning gradient step."""
    bc_learning_rate: float = 1e-3
    """Adam learning rate of behaviour cloning (its own optimizer; PPO's starts fresh)."""

    @property
    def rollout_size(self) -> int:
        """Decisions per rollout."""
        return self.num_envs * self.num_steps

    def validate(self) -> None:
        """Raise ``ValueError`` for mistyped or inconsistent settings (naming the field)."""
        from envs.registration import GAMES

        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}; known games: {sorted(GAMES)}")
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            is_int = isinstance(value, int) and not isinstance(value, bool)
            check = {  # field annotation -> (test, what the message asks for)
                "int": (is_int, "an int"), "float": (is_int or isinstance(value, float), "a number"),
                "bool": (isinstance(value, bool), "true or false"), "str": (isinstance(value, str), "a string"),
                "dict": (isinstance(value, dict), "an object"), "list": (isinstance(value, list), "a list"),
                "int | None": (is_int or value is None, "an int or null"),
                "tuple": (isinstance(value, tuple) and all(isinstance(h, int) and not isinstance(h, bool)
                                                           and h > 0 for h in value), "a list of positive ints"),
            }.get(f.type)
            if check is not None and not check[0]:
                raise ValueError(f"config field {f.name} must be {check[1]}, got {value!r}")
        if self.rollout_size % self.minibatch_size:
            raise ValueError(
                f"minibatch_size {self.minibatch_size} must divide num_envs * num_steps = {self.rollout_size}"
            )
        for name in ("total_steps", "num_envs", "num_steps", "update_epochs", "minibatch_size", "torch_threads",
                     "snapshot_every", "checkpoint_every"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if self.eval_every < 0 or (self.eval_every and self.eval_games < 2):
            raise ValueError(f"eval_every must be >= 0 (0: never) and eval_games >= 2, got "
                             f"{self.eval_every} and {self.eval_games}")
        if not 0 <= self.seed < 2**32:
            raise ValueError(f"seed must be in 0..{2**32 - 1}, got {self.seed}")
        if not 0 < self.gamma <= 1 or not 0 <= self.gae_lambda <= 1:
            raise ValueError("gamma must be in (0, 1] and gae_lambda in [0, 1]")
        if self.opponents and self.opponent_pool:
            raise ValueError("give opponents (one bot per seat) or opponent_pool, not both")
        if self.reward_clip < 0:
            raise ValueError("reward_clip must be >= 0 (0: no clipping)")
        if self.reward_win_bonus < 0:
            raise ValueError("reward_win_bonus must be >= 0 (0: none)")
        try:
            torch.device(self.device)
        except RuntimeError:
            raise ValueError(f"device {self.device!r} is not a torch device (cpu, cuda, cuda:1, ...)") from None
        if self.init and self.bc_teacher:
            raise ValueError("init and bc_teacher are two ways to start a run: give one (bc_teacher=\"\" for none)")
        if self.bc_teacher and (self.bc_games < 1 and not self.bc_data or self.bc_epochs < 1):
            raise ValueError("bc_teacher needs bc_epochs >= 1 and bc_games >= 1 (or an existing bc_data)")
        table_specs(self)  # raises for a bad mix entry

    @classmethod
    def from_dict(cls, d: dict) -> "PPOConfig":
        """Build from a dict (e.g. a JSON config file); unknown keys raise ``ValueError``."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise ValueError(f"unknown config keys: {sorted(unknown)}")
        d = dict(d)
        if isinstance(d.get("hidden"), list):
            d["hidden"] = tuple(d["hidden"])
        return cls(**d)

    def to_dict(self) -> dict:
        """A JSON-compatible dict."""
        d = dataclasses.asdict(self)
        d["hidden"] = list(self.hidden)
        return d


# -------------------------------------------------------------------- rollout buffer
class Rollout:
    """Fixed-size storage of one rollout: (num_steps, num_envs, ...) tensors."""

    def __init__(self, T: int, B: int, obs_size: int, num_actions: int, device: str):
        z = lambda *s, dtype=torch.float32: torch.zeros(s, dtype=dtype, device=device)  # noqa: E731
        self.obs = z(T, B, obs_size)
        self.mask = z(T, B, num_actions, dtype=torch.bool)
        self.actions = z(T, B, dtype=torch.long)
        self.logprobs = z(T, B)
        self.values = z(T, B)
        self.rewards = z(T, B)
        self.dones = z(T, B)


# ---------------------------------------------------------------------------- trainer
class PPOTrainer:
    """Trains an :class:`ActorCritic` on one game with masked PPO.

    ``train(callback)`` runs until ``config.total_steps``; the callback receives a dict
    of statistics after every update.  ``save(path)`` / ``PPOTrainer.load(path)`` write and
    resume checkpoints (``torch.load(weights_only=True)``).
    """

    SIZING_UPDATES = 5
    """Updates timed before a ``time_budget_s`` run fixes its ``total_steps``."""
    SIZING_MARGIN = 0.1
    """Fraction of the remaining budget a sized run leaves for evaluations and noise."""

    def __init__(self, config: PPOConfig, start_from_init: bool = True):
        config.validate()
        self.config = config
        torch.set_num_threads(config.torch_threads)
        torch.manual_seed(config.seed)
        self.device = torch.device(config.device)
        specs = table_specs(config)
        games = [make_game(game_class(config.game), spec.game_config) for spec in specs]
        self.game = games[0]
        for g in games[1:]:
            if (g.obs_size, g.num_actions) != (self.game.obs_size, self.game.num_actions):
                raise ValueError("every table of the mix must have the same observation and action sizes")
        self.model = ActorCritic(self.game.obs_size, self.game.num_actions, config.hidden)
        if config.init and start_from_init:
            self.model.load_state_dict(load_policy_model(config.init, config.hidden, config.game).state_dict())
        self.model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.learning_rate, eps=1e-5)
        self.rng = np.random.default_rng(config.seed)
        self.global_step = 0
        self.update = 0
        self.bc_done = False
        self.bc_stats: dict = {}
        """The warm start's held-out figures (empty without one)."""
        counts = split_games(config.num_envs, [spec.share for spec in specs])
        self.tables = [Table(spec, g, n, None, self.rng) for spec, g, n in zip(specs, games, counts)]
        names = set().union(*(t.bot_names() for t in self.tables))
        self.pool = OpponentPool(config.game, self.model, names, config.pool_snapshots, config.device)
        for t in self.tables:
            t.pool = self.pool
        self._scale = torch.from_numpy(np.concatenate(
            [np.full(t.num_games, t.spec.reward_scale, np.float32) for t in self.tables])).to(self.device)
        self._start_games(config.seed)

    # ------------------------------------------------------------------ helpers
    @property
    def snapshot(self) -> PolicyBot:
        """The latest frozen snapshot of the learner (what ``"self"`` opponents play)."""
        return self.pool.latest

    def _start_games(self, seed: int) -> None:
        offset = 0  # game seeds seed * 1_000_003 + 0, 1, ... run on through the tables
        for t in self.tables:
            t.start(seed * 1_000_003 + offset + np.arange(t.num_games))
            offset += t.num_games

    def _observe(self):
        parts = [t.observe() for t in self.tables]
        obs = torch.from_numpy(np.concatenate([p[0] for p in parts])).to(self.device)
        mask = torch.from_numpy(np.concatenate([p[1] for p in parts])).to(self.device)
        return obs, mask

    def returns(self) -> dict:
        """Mean return of the last finished games per table (None until one finishes)."""
        return {t.spec.name: t.mean_return() for t in self.tables}

    # ------------------------------------------------------------------ rollout
    @torch.no_grad()
    def collect(self, buf: Rollout):
        """Fill ``buf`` with one rollout; returns the bootstrap value of the final states."""
        cfg = self.config
        for t in range(cfg.num_steps):
            obs, mask = self._observe()
            logp_all, value = self._forward(obs, mask)
            action = torch.multinomial(logp_all.exp(), 1)[:, 0]
            buf.obs[t], buf.mask[t], buf.actions[t] = obs, mask, action
            buf.logprobs[t] = logp_all.gather(1, action[:, None])[:, 0]
            buf.values[t] = value
            a = action.cpu().numpy()
            rewards, dones, start = [], [], 0
            for table in self.tables:
                r, d = table.step(a[start : start + table.num_games])
                rewards.append(r)
                dones.append(d)
                start += table.num_games
            raw = torch.from_numpy(np.concatenate(rewards).astype(np.float32)).to(self.device)
            reward = raw * self._scale
            if cfg.reward_win_bonus:
                reward = reward + cfg.reward_win_bonus * torch.sign(raw)
            if cfg.reward_clip:
                reward = reward.clamp(-cfg.reward_clip, cfg.reward_clip)
            buf.rewards[t] = reward
            buf.dones[t] = torch.from_numpy(np.concatenate(dones).astype(np.float32)).to(self.device)
        obs, mask = self._observe()
        return self._forward(obs, mask)[1]

    def _forward(self, obs, mask):
        """Log-probabilities (float32, masked) and values of the model."""
        with torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.config.bf16):
            logits, value = self.model(obs, mask)
        return torch.log_softmax(logits.float(), dim=1), value.float()

    def advantages(self, buf: Rollout, next_value: torch.Tensor):
        """GAE advantages and returns; a done step bootstraps from zero."""
        cfg = self.config
        adv = torch.zeros_like(buf.rewards)
        last = torch.zeros_like(next_value)
        for t in reversed(range(cfg.num_steps)):
            nxt = next_value if t == cfg.num_steps - 1 else buf.values[t + 1]
            live = 1.0 - buf.dones[t]
            delta = buf.rewards[t] + cfg.gamma * nxt * live - buf.values[t]
            last = delta + cfg.gamma * cfg.gae_lambda * live * last
            adv[t] = last
        return adv, adv + buf.values

    # ------------------------------------------------------------------- update
    def learn(self, buf: Rollout, adv: torch.Tensor, returns: torch.Tensor) -> dict:
        """PPO epochs over the rollout; returns loss statistics."""
        cfg = self.config
        n = cfg.rollout_size
        obs, mask = buf.obs.reshape(n, -1), buf.mask.reshape(n, -1)
        actions, old_logp = buf.actions.reshape(n), buf.logprobs.reshape(n)
        adv, returns = adv.reshape(n), returns.reshape(n)
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0, "clipfrac": 0.0}
        count = 0
        for _ in range(cfg.update_epochs):
            perm = torch.randperm(n, device=self.device)
            for start in range(0, n, cfg.minibatch_size):
                mb = perm[start : start + cfg.minibatch_size]
                logp_all, value = self._forward(obs[mb], mask[mb])
                logp = logp_all.gather(1, actions[mb][:, None])[:, 0]
                ratio = (logp - old_logp[mb]).exp()
                a = adv[mb]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
                vloss = 0.5 * (value - returns[mb]).pow(2).mean()
                entropy = -(logp_all.exp() * logp_all).sum(dim=1).mean()
                loss = pg + cfg.vf_coef * vloss - cfg.ent_coef * entropy
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), cfg.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    log_ratio = logp - old_logp[mb]
                    stats["approx_kl"] += float(((ratio - 1) - log_ratio).mean())
                    stats["clipfrac"] += float(((ratio - 1).abs() > cfg.clip_coef).float().mean())
                stats["policy_loss"] += pg.item()
                stats["value_loss"] += vloss.item()
                stats["entropy"] += entropy.item()
                count += 1
        return {k: v / count for k, v in stats.items()}

    def warm_start(self, data_dir: str | Path | None = None, log=None) -> dict:
        """Behaviour cloning from ``config.bc_teacher`` (see :mod:`training.imitation`).

        Records the teacher's games into ``config.bc_data`` (or ``data_dir``) unless they are
        there, fits the model to them, and makes every snapshot a copy of the result.
        Returns the held-out statistics (``bc_accuracy`` ...).
        """
        from .imitation import behaviour_clone, collect_demonstrations, load_demonstrations

        cfg = self.config
        path = Path(cfg.bc_data or data_dir or tempfile.mkdtemp(prefix="madang-bc-"))
        if cfg.bc_games:
            collect_demonstrations(cfg, cfg.bc_teacher, cfg.bc_games, path, log=log)
        demos = load_demonstrations(path, cfg, self.game.num_actions)
        stats = behaviour_clone(self.model, demos, cfg.bc_epochs, cfg.bc_minibatch_size, cfg.bc_learning_rate,
                                cfg.vf_coef, self.device, self.rng, log=log)
        self.pool.reset(self.model)
        self.bc_done, self.bc_stats = True, {**stats, "bc_teacher": demos.teacher}
        return stats

    def train(self, callback=None, evaluate=None, checkpoint_path: str | Path | None = None,
              time_budget_s: float | None = None, log=None) -> dict:
        """Run PPO until ``total_steps``; returns the last statistics.

        ``callback(stats)`` is called after every update; ``evaluate(bot) -> dict`` every
        ``eval_every`` updates (its result is merged into the stats); checkpoints are
        written to ``checkpoint_path`` every ``checkpoint_every`` updates and at the end.

        ``time_budget_s`` fits the run to a wall-clock budget: after the first
        ``SIZING_UPDATES`` updates of this call the trainer measures its throughput and
        lowers ``total_steps`` (never raises it) to what fits in the rest of the budget, with
        ``SIZING_MARGIN`` to spare for evaluations, so the learning rate still anneals to
        zero; the new ``total_steps`` is saved with the checkpoints (``stats["sized_total_steps"]``
        reports it once).  If the budget runs out anyway, training stops after the current
        update and writes a checkpoint that ``load`` resumes (``stats["stopped"]`` is True).

        A fresh run with ``bc_teacher`` first runs :meth:`warm_start` (its data goes to
        ``demonstrations/`` next to the checkpoint unless ``bc_data`` says otherwise), reports
        its statistics through ``log`` (a callable taking a str or dict) and checkpoints it;
        its time counts against ``time_budget_s`` (but not into the measured PPO throughput).
        """
        cfg = self.config
        started, first_step, first_update = time.monotonic(), self.global_step, self.update
        ppo_started = started  # the throughput is measured over PPO updates only
        if cfg.bc_teacher and not self.bc_done and self.update == 0:
            data_dir = Path(checkpoint_path).parent / "demonstrations" if checkpoint_path else None
            self.warm_start(data_dir, log=log)
            if evaluate is not None:
                self.bc_stats["evaluation"] = evaluate(self.greedy_bot())
                if log:
                    log({"warm_start_evaluation": self.bc_stats["evaluation"]})
            if checkpoint_path is not None:
                self.save(checkpoint_path)
            ppo_started = time.monotonic()
        buf = Rollout(cfg.num_steps, cfg.num_envs, self.game.obs_size, self.game.num_actions, self.device)
        stats: dict = {}
        while self.global_step < cfg.total_steps:
            if cfg.anneal_lr:
                frac = 1.0 - self.global_step / cfg.total_steps
                self.optimizer.param_groups[0]["lr"] = frac * cfg.learning_rate
            t0 = time.perf_counter()
            next_value = self.collect(buf)
            adv, returns = self.advantages(buf, next_value)
            t1 = time.perf_counter()
            stats = self.learn(buf, adv, returns)
            t2 = time.perf_counter()
            self.global_step += cfg.rollout_size
            self.update += 1
            if self.update % cfg.snapshot_every == 0:
                self.pool.refresh(self.model)
            returns = self.returns()
            stats.update(
                update=self.update, global_step=self.global_step,
                steps_per_s=cfg.rollout_size / (t2 - t0), rollout_s=t1 - t0, learn_s=t2 - t1,
                mean_return=next(iter(returns.values())), returns=returns,
                lr=self.optimizer.param_groups[0]["lr"],
            )
            if len(returns) > 1:
                stats.update({f"return_{k}": v for k, v in returns.items() if v is not None})
            if evaluate is not None and cfg.eval_every and (
                self.update % cfg.eval_every == 0 or self.global_step >= cfg.total_steps
            ):
                stats.update(evaluate(self.greedy_bot()))
            stopped = False
            if time_budget_s is not None:
                elapsed = time.monotonic() - started
                if self.update - first_update == self.SIZING_UPDATES:
                    rate = (self.global_step - first_step) / (elapsed - (ppo_started - started))
                    fits = self.global_step + rate * (time_budget_s - elapsed) * (1 - self.SIZING_MARGIN)
                    fits = max(self.global_step, int(fits) // cfg.rollout_size * cfg.rollout_size)
                    cfg.total_steps = min(cfg.total_steps, fits)
                    stats["sized_total_steps"] = cfg.total_steps
                stopped = elapsed >= time_budget_s and self.global_step < cfg.total_steps
                stats["stopped"] = stopped
            if checkpoint_path is not None and (
                stopped or self.update % cfg.checkpoint_every == 0 or self.global_step >= cfg.total_steps
            ):
                self.save(checkpoint_path)
            if callback is not None:
                callback(stats)
            if stopped:
                break
        return stats

    # -------------------------------------------------------------- checkpoints
    def greedy_bot(self, name: str = "ppo") -> PolicyBot:
        """A greedy bot playing a copy of the current model."""
        return PolicyBot(copy.deepcopy(self.model), name, self.game.name, greedy=True,
                         device=self.config.device)

    def save(self, path: str | Path) -> None:
        """Write a resumable checkpoint (tensors and plain Python values only)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        torch.save(
            {
                "config": json.dumps(self.config.to_dict()),
                "model": self.model.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                **self.pool.state(),
                "global_step": self.global_step,
                "update": self.update,
                "bc_done": self.bc_done,
                "bc_stats": json.dumps(self.bc_stats),
                "torch_rng": torch.get_rng_state(),
                "np_rng": json.dumps(self.rng.bit_generator.state),
            },
            tmp,
        )
        tmp.replace(path)

    @staticmethod
    def read_checkpoint(path: str | Path) -> dict:
        """The checked contents of the checkpoint file at ``path``: see :func:`training.checkpoint.read_checkpoint`."""
        return read_checkpoint(path)

    @classmethod
    def checkpoint_config(cls, checkpoint, **overrides) -> PPOConfig:
        """The config of a checkpoint (a path or a loaded one) with ``overrides`` applied."""
        if not isinstance(checkpoint, dict):
            checkpoint = read_checkpoint(checkpoint)
        return PPOConfig.from_dict({**json.loads(checkpoint["config"]), **overrides})

    @classmethod
    def load(cls, path: str | Path, **overrides) -> "PPOTrainer":
        """Resume from a checkpoint; ``overrides`` change config fields (e.g. ``total_steps``).

        Every part of the file is checked before any is restored: a damaged or tampered
        checkpoint raises :class:`training.checkpoint.CheckpointError` (a ``ValueError``)
        naming it.  The games in flight are not saved: a resumed run starts fresh games from
        a seed derived from the run's seed and update count, so it is reproducible but not
        bit-identical to an uninterrupted run.
        """
        ckpt = read_checkpoint(path)
        config = cls.checkpoint_config(ckpt, **overrides)
        try:
            trainer = cls(config, start_from_init=False)  # the checkpoint's weights replace the initial ones
        except ValueError as e:  # its game_config or opponents do not fit the installed games and bots
            raise CheckpointError(f"{path}: the checkpoint's config{' with the overrides' if overrides else ''} "
                                  f"does not fit: {e}") from None
        check_state(path, ckpt, trainer)
        trainer.model.load_state_dict(ckpt["model"])
        trainer.optimizer.load_state_dict(ckpt["optimizer"])
        if "snapshot" in ckpt:  # checkpoints before the opponent pool kept one snapshot
            ckpt["snapshot_0"] = ckpt.pop("snapshot")
        trainer.pool.load_state(ckpt, trainer.model)
        trainer.global_step, trainer.update = ckpt["global_step"], ckpt["update"]
        trainer.bc_done = ckpt.get("bc_done", False)
        trainer.bc_stats = json.loads(ckpt.get("bc_stats", "{}"))
        torch.set_rng_state(ckpt["torch_rng"])
        trainer.rng.bit_generator.state = json.loads(ckpt["np_rng"])
        trainer._start_games(config.seed + trainer.update)
        return trainer

"""Distil the exact Yacht solver into a policy network (DAgger with the solver's action values).

``yacht-ppo`` learns solitaire Yacht by PPO alone.  Here the network instead learns from
the exact solver (:mod:`agents.yacht_solver`), on the states its own play reaches:

* **collect**: the student plays ``games_per_round`` solitaire games (half greedy, half
  sampling from its policy, so near-ties are explored); every decision is labelled with the
  solver's action values ``Q(s, a)`` (expected final score to go, in points);
* **fit**: the policy head fits the soft target ``softmax(Q / temperature)`` over the legal
  actions (reroll ids that keep the same dice share one keep's weight), and the value head
  the solver's state value ``max_a Q(s, a)`` times ``reward_scale``, so that PPO can continue
  from the result with the critic it expects; the last ``buffer_rounds`` rounds are the
  training data (DAgger's aggregate, bounded);
* **measure**: the greedy games give the student's regret exactly in expectation: the final
  score's mean is the optimum minus the mean sum over decisions of ``max Q - Q(chosen)``,
  which has far less noise than the scores themselves.  Every ``eval_every`` rounds the
  greedy student also plays ``eval_games`` fixed evaluation games.

Runs stop after ``--minutes`` and continue with ``--resume`` from ``RUN_DIR/checkpoint.pt``
(model, optimiser, round, config); ``RUN_DIR/curve.jsonl`` holds one line per round.
``RUN_DIR/policy.pt`` / ``policy.json`` are the latest student as policy files (loadable by
path, shippable with ``madang ship``).

    python -m training.distill --run-dir RUN --minutes 60 [--resume] [--set learning_rate=3e-5 ...]
    python -m training.distill --run-dir RUN --plot curve.png
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from agents.policy_files import save_policy
from agents.torch_policy import ActorCritic, PolicyBot
from agents.yacht_solver import YachtSolverBot
from envs.core.rng import seed_range
from envs.yacht import Yacht
from envs.yacht.dice import KEEP_OF
from envs.yacht.observation import decode_own
from envs.yacht.rules import NUM_ACTIONS, SCORE_START
from envs.yacht.scoring import MULTISET_INDEX, dice_code

from . import dagger
from .initial import load_policy_model

OPTIMUM = 169.7739


@dataclass
class DistillConfig(dagger.DaggerConfig):
    """Everything that defines a distillation run (saved with every checkpoint)."""

    hidden: tuple = (512, 512, 512, 512)
    init: str = "yacht-ppo"
    """Policy to start from (a shipped name or policy files), or "" for a fresh network."""
    games_per_round: int = 1024
    sample_share: float = 0.5
    """Share of each round's games in which the student samples instead of playing greedily."""
    buffer_rounds: int = 8
    samples_per_round: int = 65536
    """Decisions drawn (with replacement across rounds) from the buffer for each round's fit."""
    minibatch_size: int = 1024
    learning_rate: float = 1e-4
    temperature: float = 0.5
    """Points: the soft target is softmax(Q / temperature) over the legal actions."""
    vf_coef: float = 0.5
    reward_scale: float = 0.02
    eval_every: int = 10
    eval_games: int = 2000
    eval_seed: int = 10**9
    seed: int = 0

    def validate(self) -> None:
        """``ValueError`` naming the first option out of range."""
        self.check_ints(("games_per_round", "buffer_rounds", "samples_per_round", "minibatch_size", "eval_games"), 1)
        self.check_numbers((("learning_rate", None, None), ("temperature", None, None), ("sample_share", 0, 1),
                            ("vf_coef", 0, float("inf")), ("reward_scale", 0, float("inf"))))
        self.check_ints(("eval_every", "eval_seed", "seed"), 0)
        if not isinstance(self.init, str):
            raise ValueError(f"init must be a bot name or a path (or \"\"), got {self.init!r}")


def same_keep(obs: np.ndarray) -> np.ndarray:
    """(B, 44, 44) bool: actions ``i`` and ``j`` have the same effect (reroll ids that keep the
    same dice; every action is the same as itself)."""
    dice, _, _ = decode_own(obs)
    keeps = KEEP_OF[MULTISET_INDEX[dice_code(dice)], 1:32]  # (B, 31)
    same = np.broadcast_to(np.eye(NUM_ACTIONS, dtype=bool), (obs.shape[0], NUM_ACTIONS, NUM_ACTIONS)).copy()
    same[:, 1:SCORE_START, 1:SCORE_START] = keeps[:, :, None] == keeps[:, None, :]
    return same


def _keep_weights(same: np.ndarray) -> np.ndarray:
    """(B, 44) 1 / (number of actions with the same effect)."""
    return 1.0 / same.sum(axis=2)


def soft_targets(q: np.ndarray, mask: np.ndarray, same: np.ndarray, temperature: float) -> np.ndarray:
    """(B, 44) float32 target distribution: softmax(Q / temperature) over legal actions, each
    distinct keep weighted once however many reroll ids make it (``same``: :func:`same_keep`)."""
    q = np.where(mask, q, -np.inf)
    z = (q - q.max(axis=1, keepdims=True)) / temperature
    p = np.exp(z) * _keep_weights(same)
    p = np.where(mask, p, 0.0)
    return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)


class Distiller(dagger.DaggerRun):
    """One distillation run: the student, its optimiser, the round counter and the buffer."""

    config_cls = DistillConfig

    def __init__(self, config: DistillConfig, start_from_init: bool = True):
        self.config = config
        self.game = Yacht(num_players=1)
        self.solver = YachtSolverBot()
        if config.init and start_from_init:
            self.model = load_policy_model(config.init, config.hidden, "yacht")
        else:
            self.model = ActorCritic(self.game.obs_size, NUM_ACTIONS, config.hidden)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.learning_rate, eps=1e-5)
        self.round = 0
        self.trained = 0
        self.buffer: list[dict] = []

    # ------------------------------------------------------------------ collect
    @torch.no_grad()
    def collect(self) -> dict:
        """Play one round of student games; label, buffer and measure them."""
        cfg = self.config
        n = cfg.games_per_round
        seeds = seed_range(cfg.seed * 1_000_003 + self.round * n, n)
        rng = np.random.default_rng([cfg.seed, self.round])
        sampling = np.arange(n) < int(round(cfg.sample_share * n))
        state = self.game.init(seeds)
        obs_l, mask_l, q_l = [], [], []
        regret = np.zeros(n)
        agree = disagree = 0
        self.model.eval()
        while not state.done.all():
            live = np.flatnonzero(~state.done)
            sub = state.take(live)
            obs, mask = self.game.observe(sub), self.game.legal_mask(sub)
            logits, _ = self.model(torch.from_numpy(obs), torch.from_numpy(mask))
            logits = logits.numpy()
            gumbel = -np.log(-np.log(rng.random(mask.shape)))
            samp = sampling[live]
            action = np.where(samp, np.where(mask, logits + gumbel, -np.inf).argmax(axis=1), logits.argmax(axis=1))
            q = np.where(mask, self.solver.action_values(obs), -np.inf)
            best = q.max(axis=1)
            loss = best - q[np.arange(live.size), action]
            regret[live[~samp]] += loss[~samp]
            agree += int((loss[~samp] < 1e-9).sum())
            disagree += int((loss[~samp] >= 1e-9).sum())
            obs_l.append(obs.astype(np.float16))
            mask_l.append(mask)
            q_l.append(np.where(mask, q, 0.0).astype(np.float32))
            self.game.step(sub, action)
            state.put(live, sub)
        totals = self.game.totals(state)[:, 0]
        self.buffer.append({"obs": np.concatenate(obs_l), "mask": np.concatenate(mask_l), "q": np.concatenate(q_l)})
        self.buffer = self.buffer[-cfg.buffer_rounds:]
        greedy = ~sampling
        return {"greedy_mean": float(totals[greedy].mean()), "sampled_mean": float(totals[sampling].mean()),
                "regret_per_game": float(regret[greedy].mean()),
                "regret_se": float(regret[greedy].std(ddof=1) / np.sqrt(greedy.sum())),
                "estimated_mean": OPTIMUM - float(regret[greedy].mean()),
                "agreement": agree / max(1, agree + disagree)}

    # ---------------------------------------------------------------------- fit
    def fit(self) -> dict:
        """One round of minibatch steps on decisions drawn from the buffer."""
        cfg = self.config
        rng = np.random.default_rng([cfg.seed, self.round, 1])
        obs = np.concatenate([b["obs"] for b in self.buffer])
        mask = np.concatenate([b["mask"] for b in self.buffer])
        q = np.concatenate([b["q"] for b in self.buffer])
        pick = rng.integers(0, obs.shape[0], cfg.samples_per_round)
        self.model.train()
        ce_sum = v_sum = 0.0
        steps = 0
        for start in range(0, pick.size, cfg.minibatch_size):
            idx = pick[start : start + cfg.minibatch_size]
            o, m, qq = obs[idx].astype(np.float32), mask[idx], q[idx]
            same = same_keep(o)
            target = torch.from_numpy(soft_targets(qq, m, same, cfg.temperature))
            value_target = torch.from_numpy(np.where(m, qq, -np.inf).max(axis=1).astype(np.float32) * cfg.reward_scale)
            logits, value = self.model(torch.from_numpy(o), torch.from_numpy(m))
            # The student may put a keep's probability on any of its reroll ids: the loss
            # compares per-keep probabilities (summed over the ids with the same effect).
            p = torch.softmax(logits, dim=1)
            p_keep = torch.bmm(torch.from_numpy(same.astype(np.float32)), p.unsqueeze(2)).squeeze(2)
            logp = torch.log(p_keep.clamp_min(1e-12))
            ce = -(target * logp.masked_fill(~torch.from_numpy(m), 0.0)).sum(dim=1).mean()
            vloss = 0.5 * (value - value_target).pow(2).mean()
            loss = ce + cfg.vf_coef * vloss
            self.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
            ce_sum, v_sum, steps = ce_sum + ce.item(), v_sum + vloss.item(), steps + 1
        self.trained += int(pick.size)
        return {"cross_entropy": ce_sum / steps, "value_loss": v_sum / steps}

    def evaluate(self) -> dict:
        """Greedy solitaire mean over the fixed evaluation games."""
        from .evaluate import evaluate_solo

        res = evaluate_solo("yacht", self.bot(), self.config.eval_games, seed=self.config.eval_seed)
        return {"eval_mean": res.mean, "eval_se": res.se, "eval_fraction_of_optimum": res.mean / OPTIMUM}

    def bot(self, name: str = "distilled") -> PolicyBot:
        """A greedy bot playing the current student (shares its weights)."""
        return PolicyBot(self.model, name, "yacht", greedy=True)

    def write_policy(self, stem: Path, stats: dict) -> None:
        """Write the student as policy files at ``stem`` (``.pt`` / ``.json``)."""
        save_policy(self.model, stem, "yacht", training_config={"distill": self.config.to_dict()},
                    global_step=self.trained, evaluation=stats,
                    description=f"{'x'.join(map(str, self.config.hidden))} MLP distilled from yacht-solver "
                                f"(python -m training.distill, {self.trained:,} decisions)")


def run(run_dir: Path, minutes: float, resume: bool, overrides: dict, log=print) -> None:
    """Distil for ``minutes`` (wall clock) in ``run_dir``, resuming its checkpoint when asked."""
    dagger.run(Distiller, run_dir, minutes, resume, overrides, log)


def plot_curve(run_dir: Path, path: Path) -> None:
    """Save the learning curve of ``run_dir`` (its ``curve.jsonl``) as a PNG at ``path``: the
    student's mean regret per game (optimum minus expected score) by decisions trained on, and
    its evaluations as a fraction of the optimum."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(x) for x in (Path(run_dir) / "curve.jsonl").read_text().splitlines() if x.strip()]
    # A round's regret is measured before its fit: at the previous round's count.
    trained = np.array([0] + [r["trained"] for r in rows[:-1]]) / 1e6
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    axes[0].plot(trained, [r["regret_per_game"] for r in rows], color="tab:blue")
    axes[0].set_yscale("log")
    axes[0].set_xlabel("decisions trained on (millions)")
    axes[0].set_ylabel("regret per game (points, greedy games of the round)")
    ev = [r for r in rows if "eval_mean" in r]
    axes[1].errorbar([r["trained"] / 1e6 for r in ev], [100 * r["eval_mean"] / OPTIMUM for r in ev],
                     yerr=[196 * r["eval_se"] / OPTIMUM for r in ev], fmt="o-", color="tab:orange", capsize=3)
    axes[1].plot(trained, [100 * r["estimated_mean"] / OPTIMUM for r in rows], color="tab:blue", alpha=0.5,
                 label="optimum - regret")
    axes[1].axhline(98, color="gray", linestyle="--", label="98 %")
    axes[1].set_xlabel("decisions trained on (millions)")
    axes[1].set_ylabel("% of the optimum 169.7739")
    axes[1].legend()
    fig.suptitle("yacht-ppo: the exact solver distilled into a 4x512 MLP")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None) -> None:
    """Command line: ``python -m training.distill --run-dir RUN --minutes M [--resume] [--set k=v ...]``."""
    dagger.main(Distiller, argv, "python -m training.distill", __doc__.split("\n")[0], plot_curve)


if __name__ == "__main__":
    main()

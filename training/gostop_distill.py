"""Expert iteration for Go-Stop: distil ``gostop-search`` into a policy network (DAgger).

The student (an :class:`~agents.torch_policy.ActorCritic`, by default starting from
``gostop-ppo-v1``'s weights, so that PPO can continue from the result) learns the search's
choices on the positions its own play reaches:

* **collect**: a round is ``deals_per_round`` deals in the batched core, played by the one
  match loop (:class:`envs.core.match.Match`).  The student sits in seat ``k % 2`` of deal
  ``k``; each deal's opponent is drawn from ``opponents`` (name -> weight; ``"self"`` is the
  student playing greedily); the student samples from its policy in ``sample_share`` of the
  deals and plays greedily in the rest.  Every student decision with more than one legal
  action (with ``decisions="go_stop"``, only its Go/Stop decisions) is recorded (observation,
  mask) and, at the end of the round, all are labelled by
  **one** batched call of the teacher (``teacher``, with ``teacher_options``).  Each record
  also keeps the deal's outcome from the student's seat (signed points) for the value head.
  The label depends on ``target``: ``"values"`` (the default) takes the teacher's
  ``action_values`` (each legal move's mean payout over its determinizations, ``Q``) and the
  best of them as the label (a decision the teacher does not value, with a zero budget, is
  dropped); ``"action"`` takes the teacher's ``act``.
* **fit**: ``samples_per_round`` decisions drawn from the last ``buffer_rounds`` rounds;
  the policy loss is, for ``"values"``, the expected regret under the student,
  ``sum_a pi(a|s) (max_b Q(s,b) - Q(s,a)) / regret_scale``, plus ``argmax_weight`` times the
  cross-entropy to the label (so that near-ties do not leave the policy flat), and for
  ``"action"`` the cross-entropy to the label alone; the cross-entropy spreads
  ``label_smoothing`` over the legal actions.  The value head fits ``reward_scale * points +
  reward_win_bonus * sign(points)``, the return PPO's Go-Stop config
  (``training/configs/gostop.json``) trains its critic on; Adam.  Cloning the search's argmax
  mostly teaches near-ties it breaks by noise; the values say how much each choice costs.
* **measure**: before the fit, on the round's fresh labels (held out: the student has not
  trained on them), the greedy student's agreement with the label and, for ``"values"``, its
  mean regret ``max Q - Q(its move)`` in points per decision next to ``gostop-greedy``'s on
  the same decisions; every ``eval_every`` rounds, the
  greedy student against ``gostop-greedy`` over ``eval_pairs`` fixed seat-swapped deal pairs
  by the evaluation engine (the figures ``madang eval`` gives): points per deal with its
  95 % CI and the share of decided deals won.

Runs stop after ``--minutes`` and continue with ``--resume`` from ``RUN_DIR/checkpoint.pt``
(model, optimiser, round, config and the label buffer); ``RUN_DIR/curve.jsonl`` holds one
line per round; ``RUN_DIR/policy.pt`` / ``policy.json`` are the latest student (loadable by
path: ``madang eval gostop --bots RUN_DIR gostop-greedy``).

    python -m training.gostop_distill --run-dir RUN --minutes 50 [--resume] [--set deals_per_round=256 ...]
    python -m training.gostop_distill --run-dir RUN --plot curve.png
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

import agents
from agents.policy_files import save_policy
from agents.torch_policy import ActorCritic, PolicyBot
from envs.core.match import Match
from envs.core.rng import seed_range
from envs.gostop import GoStop
from envs.gostop.actions import GO

from . import dagger
from .initial import load_policy_model


@dataclass
class GoStopDistillConfig(dagger.DaggerConfig):
    """Everything that defines a Go-Stop distillation run (saved with every checkpoint)."""

    hidden: tuple = (256, 256)
    init: str = "gostop-ppo-v1"
    """Policy to start from (a shipped name or policy files), or "" for a fresh network."""
    teacher: str = "gostop-search"
    teacher_options: dict = field(default_factory=dict)
    """Options of the teacher bot (``agents.load(teacher, **teacher_options)``; default budgets)."""
    target: str = "values"
    """What the student learns: "values" (the teacher's action_values, by expected regret) or
    "action" (the teacher's act, by cross-entropy)."""
    regret_scale: float = 0.3
    """Points per unit of the regret loss ("values")."""
    argmax_weight: float = 0.1
    """Weight of the cross-entropy to the best-valued move next to the regret ("values")."""
    decisions: str = "all"
    """Which of the student's decisions are labelled and learnt: "all" (every one with a choice)
    or "go_stop" (only Go/Stop, where the search's edge over the heuristic is largest; the
    card play stays the initial policy's, up to what the shared layers carry over)."""
    deals_per_round: int = 1024
    opponents: dict = field(default_factory=lambda: {"self": 0.5, "gostop-greedy": 0.5})
    """Opponent of each deal, drawn by weight: bot names, ``"self"`` (the greedy student)."""
    sample_share: float = 0.3
    """Share of the deals in which the student samples from its policy instead of playing greedily."""
    buffer_rounds: int = 8
    samples_per_round: int = 65536
    """Decisions drawn (with replacement) from the buffer for each round's fit."""
    minibatch_size: int = 512
    learning_rate: float = 3e-4
    label_smoothing: float = 0.02
    vf_coef: float = 0.5
    reward_scale: float = 0.05
    reward_win_bonus: float = 1.0
    eval_every: int = 1
    eval_pairs: int = 2000
    eval_seed: int = 10**9
    seed: int = 0

    def validate(self) -> None:
        """``ValueError`` naming the first option out of range."""
        self.check_ints(("deals_per_round", "buffer_rounds", "samples_per_round", "minibatch_size", "eval_pairs"), 1)
        self.check_numbers((("learning_rate", None, None), ("sample_share", 0, 1), ("label_smoothing", 0, 1),
                            ("vf_coef", 0, float("inf")), ("reward_scale", 0, float("inf")),
                            ("reward_win_bonus", 0, float("inf")), ("regret_scale", None, None),
                            ("argmax_weight", 0, float("inf"))))
        if self.target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}, got {self.target!r}")
        if self.decisions not in DECISIONS:
            raise ValueError(f"decisions must be one of {DECISIONS}, got {self.decisions!r}")
        self.check_ints(("eval_every", "eval_seed", "seed"), 0)
        for name in ("init", "teacher"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} must be a bot name or a path, got {getattr(self, name)!r}")
        if not isinstance(self.teacher_options, dict):
            raise ValueError(f"teacher_options must be an object, got {self.teacher_options!r}")
        if not isinstance(self.opponents, dict) or not self.opponents or any(
                not isinstance(k, str) or isinstance(w, bool) or not isinstance(w, (int, float)) or w < 0
                for k, w in self.opponents.items()) or not sum(self.opponents.values()) > 0:
            raise ValueError(f"opponents must map bot names (or \"self\") to weights >= 0, not all 0; "
                             f"got {self.opponents!r}")


TARGETS = ("values", "action")
DECISIONS = ("all", "go_stop")
BUFFER_FIELDS = ("obs", "mask", "label", "values", "outcome")


def losses(model: ActorCritic, batch: dict, config: GoStopDistillConfig) -> dict:
    """The losses of ``model`` on ``batch`` (tensors ``obs`` float, ``mask`` bool, ``label``
    long, ``values`` float with NaN where illegal, ``outcome`` float points):
    ``cross_entropy`` to the label smoothed by ``config.label_smoothing`` over the legal
    actions; ``regret`` (target "values" only) the expected regret of the student's policy,
    ``sum_a pi(a) (max Q - Q(a))`` in points; ``value_loss`` half the squared error to
    ``reward_scale * outcome + reward_win_bonus * sign(outcome)``; and ``total``, the sum
    the fit minimises (with ``regret / regret_scale + argmax_weight * cross_entropy`` as the
    policy loss for "values", ``cross_entropy`` for "action", and ``vf_coef`` on the value loss)."""
    logits, value = model(batch["obs"], batch["mask"])
    legal = batch["mask"].float()
    target = legal * (config.label_smoothing / legal.sum(dim=1, keepdim=True))
    target = target + (1.0 - config.label_smoothing) * torch.nn.functional.one_hot(
        batch["label"], legal.shape[1]).float()
    logp = torch.log_softmax(logits, dim=1).masked_fill(~batch["mask"], 0.0)
    ce = -(target * logp).sum(dim=1).mean()
    outcome = batch["outcome"]
    value_target = config.reward_scale * outcome + config.reward_win_bonus * torch.sign(outcome)
    out = {"cross_entropy": ce, "value_loss": 0.5 * (value - value_target).pow(2).mean()}
    if config.target == "values":
        q = batch["values"]
        gap = (q.nan_to_num(float("-inf")).max(dim=1, keepdim=True).values - q).nan_to_num(0.0)
        out["regret"] = (torch.softmax(logits, dim=1) * gap).sum(dim=1).mean()
        policy = out["regret"] / config.regret_scale + config.argmax_weight * ce
    else:
        policy = ce
    out["total"] = policy + config.vf_coef * out["value_loss"]
    return out


def regrets(values: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """(n,) points each action loses against the best-valued move, ``max Q - Q(action)``."""
    return np.nanmax(values, axis=1) - values[np.arange(actions.size), actions]


def as_tensors(data: dict, idx=None) -> dict:
    """The rows ``idx`` (all by default) of buffered arrays as the tensors :func:`losses` takes."""
    pick = (lambda a: a) if idx is None else (lambda a: a[idx])
    return {"obs": torch.from_numpy(pick(data["obs"]).astype(np.float32)), "mask": torch.from_numpy(pick(data["mask"])),
            "label": torch.from_numpy(pick(data["label"]).astype(np.int64)),
            "values": torch.from_numpy(pick(data["values"]).astype(np.float32)),
            "outcome": torch.from_numpy(pick(data["outcome"]).astype(np.float32))}


class GoStopDistiller(dagger.DaggerRun):
    """One Go-Stop distillation run: the student, its optimiser, the round counter and the buffer."""

    config_cls = GoStopDistillConfig

    def __init__(self, config: GoStopDistillConfig, start_from_init: bool = True):
        self.config = config
        self.game = GoStop()
        self.teacher = agents.load(config.teacher, **config.teacher_options)
        if config.target == "values" and not callable(getattr(self.teacher, "action_values", None)):
            raise ValueError(f"target \"values\" needs a teacher with action_values; {config.teacher} has none "
                             f"(use gostop-search, or target \"action\")")
        self.heuristic = agents.load("gostop-greedy")
        self.opponent_names = list(config.opponents)
        self.opponent_bots = [agents.load(n) for n in self.opponent_names if n != "self"]
        if config.init and start_from_init:
            self.model = load_policy_model(config.init, config.hidden, "gostop")
        else:
            self.model = ActorCritic(self.game.obs_size, self.game.num_actions, config.hidden)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.learning_rate, eps=1e-5)
        self.round = 0
        self.trained = 0
        self.buffer: list[dict] = []

    def bot(self, name: str = "distilled", greedy: bool = True) -> PolicyBot:
        """A bot playing the current student (shares its weights)."""
        return PolicyBot(self.model, name, "gostop", greedy=greedy)

    # ------------------------------------------------------------------ collect
    def play_round(self) -> dict:
        """Play this round's deals; the student's recorded decisions (``obs``, ``mask``,
        ``outcome`` points from its seat), with each one's deal (``rows``: deal ``k`` is seeded
        ``seed * 1_000_003 + round * deals_per_round + k``, the student in seat ``k % 2``) and
        ``sampled`` (whether the student sampled in that deal)."""
        cfg = self.config
        n = cfg.deals_per_round
        rng = np.random.default_rng([cfg.seed, self.round])
        student_seat = np.arange(n) % 2
        sampling = rng.random(n) < cfg.sample_share
        weights = np.array([cfg.opponents[k] for k in self.opponent_names], dtype=np.float64)
        drawn = rng.choice(len(self.opponent_names), size=n, p=weights / weights.sum())
        # Bots: 0 the greedy student, 1 the sampling student, 2.. the named opponents.
        named = {k: 2 + i for i, k in enumerate(k for k in self.opponent_names if k != "self")}
        opp_index = np.array([0 if self.opponent_names[j] == "self" else named[self.opponent_names[j]]
                              for j in drawn], dtype=np.int64)
        student_index = sampling.astype(np.int64)
        seating = np.where(student_seat[:, None] == np.arange(2)[None, :], student_index[:, None], opp_index[:, None])
        bots = [self.bot(greedy=True), self.bot(greedy=False), *self.opponent_bots]
        rows_l, obs_l, mask_l = [], [], []
        go_stop_only = cfg.decisions == "go_stop"

        def record(move):
            keep = (move.seats == student_seat[move.rows]) & (move.mask.sum(axis=1) > 1)
            if go_stop_only:
                keep &= move.mask[:, GO]
            if keep.any():
                rows_l.append(move.rows[keep])
                obs_l.append(move.obs[keep].copy())
                mask_l.append(move.mask[keep].copy())

        state = self.game.init(seed_range(cfg.seed * 1_000_003 + self.round * n, n))
        self.model.eval()
        with torch.no_grad():
            total = Match(self.game, bots).play(state, rng, seating=seating, on_move=record, check=False)
        rows = np.concatenate(rows_l) if rows_l else np.zeros(0, np.int64)
        return {"obs": np.concatenate(obs_l) if obs_l else np.zeros((0, self.game.obs_size), np.float32),
                "mask": np.concatenate(mask_l) if mask_l else np.zeros((0, self.game.num_actions), bool),
                "outcome": total[rows, student_seat[rows]].astype(np.float32), "rows": rows, "sampled": sampling[rows]}

    def label(self, data: dict) -> dict:
        """``data`` (a round's ``obs`` and ``mask``, and any per-decision arrays) labelled by one
        teacher call: ``values`` and ``label`` added, decisions without values dropped."""
        n = data["mask"].shape[0]
        rng = np.random.default_rng([self.config.seed, self.round, 2])
        obs = data["obs"].astype(np.float32)
        if self.config.target == "action":
            values = np.full(data["mask"].shape, np.nan, np.float32)
            label = np.asarray(self.teacher.act(obs, data["mask"], rng), np.int64) if n else np.zeros(0, np.int64)
            return {**data, "values": values, "label": label}
        values = self.teacher.action_values(obs, data["mask"], rng).astype(np.float32) if n \
            else np.zeros(data["mask"].shape, np.float32)
        keep = np.isfinite(values).any(axis=1)
        out = {k: v[keep] for k, v in data.items()}
        out["values"] = values[keep]
        out["label"] = np.nanargmax(out["values"], axis=1).astype(np.int64) if keep.any() else np.zeros(0, np.int64)
        return out

    def collect(self) -> dict:
        """Play a round, label its decisions with one teacher call, measure the student on
        those labels (before fitting on them: agreement, and for "values" its regret next to
        gostop-greedy's) and buffer them."""
        data = self.label(self.play_round())
        n = data["mask"].shape[0]
        with torch.no_grad():
            mine = self.model(torch.from_numpy(data["obs"].astype(np.float32)),
                              torch.from_numpy(data["mask"]))[0].argmax(dim=1).numpy() if n else np.zeros(0, np.int64)
        agree = mine == data["label"]
        greedy = ~data["sampled"]
        self.buffer.append({k: data[k] for k in BUFFER_FIELDS})
        self.buffer = self.buffer[-self.config.buffer_rounds:]
        stats = {"labels": int(n), "agreement": float(agree.mean()) if n else None,
                 "agreement_greedy_deals": float(agree[greedy].mean()) if greedy.any() else None,
                 "round_points": float(data["outcome"].mean()) if n else None}
        if self.config.target == "values" and n:
            heuristic = self.heuristic.act(data["obs"].astype(np.float32), data["mask"], None)
            stats.update(regret_student=float(regrets(data["values"], mine).mean()),
                         regret_heuristic=float(regrets(data["values"], heuristic).mean()))
        return stats

    # ---------------------------------------------------------------------- fit
    def fit(self) -> dict:
        """One round of minibatch steps on decisions drawn from the buffer."""
        cfg = self.config
        data = {k: np.concatenate([b[k] for b in self.buffer]) for k in BUFFER_FIELDS}
        if data["label"].size == 0:
            return {"cross_entropy": None, "value_loss": None}
        rng = np.random.default_rng([cfg.seed, self.round, 1])
        pick = rng.integers(0, data["label"].size, cfg.samples_per_round)
        self.model.train()
        sums: dict = {}
        steps = 0
        for start in range(0, pick.size, cfg.minibatch_size):
            parts = losses(self.model, as_tensors(data, pick[start:start + cfg.minibatch_size]), cfg)
            self.optimizer.zero_grad()
            parts["total"].backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
            for k, v in parts.items():
                sums[k] = sums.get(k, 0.0) + v.item()
            steps += 1
        self.model.eval()
        self.trained += int(pick.size)
        named = {"cross_entropy": "cross_entropy", "value_loss": "value_loss", "regret": "fit_regret"}
        return {**{named[k]: v / steps for k, v in sums.items() if k in named}, "buffer": int(data["label"].size)}

    # ------------------------------------------------------------------ measure
    def evaluate(self) -> dict:
        """The greedy student against gostop-greedy over the fixed seat-swapped deal pairs."""
        from .evaluate import seat_swapped_match

        res = seat_swapped_match("gostop", self.bot(), "gostop-greedy", self.config.eval_pairs,
                                 seed=self.config.eval_seed)
        return {"eval_points": res.mean_a, "eval_points_ci95": res.ci95_a,
                "eval_decided_win_rate": res.decided_win_rate, "eval_pairs": res.pairs}

    # -------------------------------------------------------------- checkpoints
    def extra_state(self) -> dict:
        """The label buffer (one tensor per field and round)."""
        return {"buffer": [{k: torch.from_numpy(np.ascontiguousarray(b[k])) for k in BUFFER_FIELDS}
                           for b in self.buffer]}

    def load_extra_state(self, ckpt: dict, path: Path) -> None:
        """Restore the label buffer (checked against the game's sizes)."""
        buffer = ckpt.get("buffer", [])
        O, A = self.game.obs_size, self.game.num_actions
        for b in buffer:
            if not isinstance(b, dict) or set(b) != set(BUFFER_FIELDS):
                raise ValueError(f"{path}: a buffered round must hold {BUFFER_FIELDS}")
            n = b["label"].shape[0]
            shapes = {"obs": (n, O), "mask": (n, A), "label": (n,), "values": (n, A), "outcome": (n,)}
            if any(tuple(b[k].shape) != s for k, s in shapes.items()) or (
                    n and not bool(b["mask"][torch.arange(n), b["label"]].all())):
                raise ValueError(f"{path}: a buffered round has the wrong shapes or illegal labels")
        self.buffer = [{k: b[k].numpy() for k in BUFFER_FIELDS} for b in buffer][-self.config.buffer_rounds:]

    def write_policy(self, stem: Path, stats: dict) -> None:
        """Write the student as policy files at ``stem`` (``.pt`` / ``.json``)."""
        save_policy(self.model, stem, "gostop", training_config={"gostop_distill": self.config.to_dict()},
                    global_step=self.trained, evaluation=stats,
                    description=f"{'x'.join(map(str, self.config.hidden))} MLP distilled from {self.config.teacher} "
                                f"(python -m training.gostop_distill, {self.round} rounds, "
                                f"{self.trained:,} decisions fitted)")


def run(run_dir: Path, minutes: float, resume: bool, overrides: dict, log=print) -> None:
    """Distil for ``minutes`` (wall clock) in ``run_dir``, resuming its checkpoint when asked."""
    dagger.run(GoStopDistiller, run_dir, minutes, resume, overrides, log)


def plot_curve(run_dir: Path, path: Path) -> None:
    """Save the learning curve of ``run_dir`` (its ``curve.jsonl``) as a PNG at ``path``: the
    student's agreement with the teacher on each round's fresh labels (for a "values" run, its
    mean regret and gostop-greedy's on them instead), and its evaluations
    against gostop-greedy (points per deal with 95 % CI, share of decided deals won)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(x) for x in (Path(run_dir) / "curve.jsonl").read_text().splitlines() if x.strip()]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    labelled = np.cumsum([r["labels"] for r in rows]) / 1e3
    if all("regret_student" in r for r in rows):
        axes[0].plot(labelled, [r["regret_student"] for r in rows], "o-", color="tab:blue", label="student")
        axes[0].plot(labelled, [r["regret_heuristic"] for r in rows], "o-", color="gray", label="gostop-greedy")
        axes[0].set_ylabel("mean regret, points per decision (fresh labels)")
        axes[0].legend()
    else:
        axes[0].plot(labelled, [100 * (r["agreement"] or 0) for r in rows], "o-", color="tab:blue")
        axes[0].set_ylabel("% agreement with the teacher (fresh labels)")
    axes[0].set_xlabel("teacher labels collected (thousands)")
    ev = [(x, r) for x, r in zip(labelled, rows) if "eval_points" in r]
    axes[1].errorbar([x for x, _ in ev], [r["eval_points"] for _, r in ev],
                     yerr=[r["eval_points_ci95"] for _, r in ev], fmt="o-", color="tab:orange", capsize=3)
    axes[1].axhline(4.0, color="gray", linestyle="--", label="target +4.0")
    axes[1].set_ylabel("points per deal against gostop-greedy")
    axes[2].plot([x for x, _ in ev], [100 * r["eval_decided_win_rate"] for _, r in ev], "o-", color="tab:green")
    axes[2].axhline(55, color="gray", linestyle="--", label="target 55 %")
    axes[2].set_ylabel("% of decided deals won against gostop-greedy")
    for ax in axes[1:]:
        ax.set_xlabel("teacher labels collected (thousands)")
        ax.legend()
    fig.suptitle("gostop: gostop-search distilled into the PPO network (DAgger)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None) -> None:
    """Command line: ``python -m training.gostop_distill --run-dir RUN --minutes M [--resume] [--set k=v ...]``."""
    dagger.main(GoStopDistiller, argv, "python -m training.gostop_distill", __doc__.split("\n")[0], plot_curve)


if __name__ == "__main__":
    main()

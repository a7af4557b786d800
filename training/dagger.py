"""The round loop, checkpoints and command line shared by the DAgger distillations.

A distillation (:mod:`training.distill` for Yacht, :mod:`training.gostop_distill` for Go-Stop)
is a :class:`DaggerRun` subclass: a config dataclass (``config_cls``, with ``from_dict``,
``to_dict``, ``eval_every`` and ``init``), a student network and its optimiser, and three
steps per round: ``collect`` (the student plays, a teacher labels its decisions), ``fit``
(minibatch steps on the buffered labels) and, every ``eval_every`` rounds, ``evaluate``.
:func:`run` plays rounds for a wall-clock budget and resumes from ``RUN_DIR/checkpoint.pt``;
``RUN_DIR/curve.jsonl`` gets one line per round and ``RUN_DIR/policy.pt`` / ``policy.json``
the latest student.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from pathlib import Path

import torch

CHECKPOINT_KEYS = {"config", "model", "optimizer", "round", "trained"}


class DaggerConfig:
    """Base of a distillation's config dataclass: ``to_dict`` / ``from_dict`` (which calls the
    subclass's ``validate``) and the range checks ``validate`` uses."""

    def to_dict(self) -> dict:
        """A JSON-compatible dict."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(self).items()}

    @classmethod
    def from_dict(cls, d: dict):
        """The config a dict holds (unknown keys and values out of range raise ``ValueError``)."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(d) - names)
        if unknown:
            raise ValueError(f"unknown distillation option(s) {unknown}; known: {sorted(names)}")
        d = dict(d)
        if "hidden" in d:
            if not isinstance(d["hidden"], (list, tuple)) or not d["hidden"] or any(
                    isinstance(h, bool) or not isinstance(h, int) or h < 1 for h in d["hidden"]):
                raise ValueError(f"hidden must be a list of positive layer widths, got {d['hidden']!r}")
            d["hidden"] = tuple(d["hidden"])
        config = cls(**d)
        config.validate()
        return config

    def check_ints(self, names, lo: int) -> None:
        """``ValueError`` unless each field in ``names`` is an int >= ``lo`` (0 or 1)."""
        for name in names:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < lo:
                raise ValueError(f"{name} must be a {'positive' if lo else 'non-negative'} integer, got {v!r}")

    def check_numbers(self, ranges) -> None:
        """``ValueError`` unless each ``(name, lo, hi)`` field is a number in [lo, hi] (``lo``
        None: a positive number)."""
        for name, lo, hi in ranges:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not (
                    v > 0 if lo is None else lo <= v <= hi):
                what = "a positive number" if lo is None else f"a number in [{lo}, {hi}]"
                raise ValueError(f"{name} must be {what}, got {v!r}")


class DaggerRun:
    """One distillation run: ``config``, ``model``, ``optimizer``, ``round`` and ``trained``.

    Subclasses set ``config_cls`` and define ``__init__(config, start_from_init=True)``,
    ``collect() -> dict``, ``fit() -> dict``, ``evaluate() -> dict`` and
    ``write_policy(stem, stats)``; they may keep more in the checkpoint with
    :meth:`extra_state` / :meth:`load_extra_state` (tensors and plain values only).
    """

    config_cls: type = None

    def extra_state(self) -> dict:
        """More checkpoint entries (none by default)."""
        return {}

    def load_extra_state(self, ckpt: dict, path: Path) -> None:
        """Restore :meth:`extra_state` from a checkpoint read from ``path`` (nothing by default)."""

    def save(self, path: Path) -> None:
        """Write a resumable checkpoint (tensors and plain values only)."""
        tmp = Path(path).with_suffix(".tmp")
        torch.save({"config": json.dumps(self.config.to_dict()), "model": self.model.state_dict(),
                    "optimizer": self.optimizer.state_dict(), "round": self.round, "trained": self.trained,
                    **self.extra_state()}, tmp)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, **overrides) -> "DaggerRun":
        """Resume a checkpoint; ``overrides`` change config fields (e.g. ``learning_rate``)."""
        try:
            ckpt = torch.load(path, map_location="cpu", weights_only=True)
        except Exception as e:  # missing, truncated, or not a checkpoint (torch raises many types)
            raise ValueError(f"{path}: no readable distillation checkpoint ({type(e).__name__})") from None
        if not isinstance(ckpt, dict) or not CHECKPOINT_KEYS <= set(ckpt):
            raise ValueError(f"{path}: not a distillation checkpoint")
        config = cls.config_cls.from_dict({**json.loads(ckpt["config"]), **overrides})
        d = cls(config, start_from_init=False)  # the checkpoint's weights replace the initial ones
        d.model.load_state_dict(ckpt["model"])
        d.optimizer.load_state_dict(ckpt["optimizer"])
        for g in d.optimizer.param_groups:
            g["lr"] = config.learning_rate
        d.round, d.trained = int(ckpt["round"]), int(ckpt["trained"])
        d.load_extra_state(ckpt, Path(path))
        return d


def run(cls: type, run_dir: Path, minutes: float, resume: bool, overrides: dict, log=print) -> None:
    """Distil with ``cls`` for ``minutes`` (wall clock) in ``run_dir``, resuming its checkpoint
    when asked; a round that starts before the budget ends is finished."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    ckpt = run_dir / "checkpoint.pt"
    if resume:
        d = cls.load(ckpt, **overrides)
        if log:
            log(f"resumed {ckpt} at round {d.round}")
    else:
        if ckpt.exists():
            raise ValueError(f"{ckpt} exists: pass --resume or choose another --run-dir")
        d = cls(cls.config_cls.from_dict(overrides))
    (run_dir / "config.json").write_text(json.dumps(d.config.to_dict(), indent=2) + "\n")
    start = time.time()
    while time.time() - start < minutes * 60:
        t0 = time.time()
        stats = {"round": d.round, **d.collect(), **d.fit()}
        d.round += 1
        stats["trained"] = d.trained
        if d.config.eval_every and d.round % d.config.eval_every == 0:
            stats.update(d.evaluate())
        stats["wall_s"] = round(time.time() - t0, 1)
        with open(run_dir / "curve.jsonl", "a") as f:
            f.write(json.dumps(stats) + "\n")
        if log:
            log(json.dumps(stats))
        d.save(ckpt)
        d.write_policy(run_dir / "policy", stats)


def main(cls: type, argv, prog: str, description: str, plot) -> None:
    """Command line of a distillation: ``prog --run-dir RUN --minutes M [--resume] [--set k=v ...]``,
    or ``prog --run-dir RUN --plot PNG`` (``plot(run_dir, png)``)."""
    p = argparse.ArgumentParser(prog=prog, description=description)
    p.add_argument("--run-dir", required=True, type=Path)
    p.add_argument("--minutes", type=float, default=60.0)
    p.add_argument("--resume", action="store_true")
    p.add_argument("--set", nargs="*", default=[], metavar="KEY=JSON", help="config overrides")
    p.add_argument("--plot", type=Path, metavar="PNG", help="only plot the run's curve.jsonl to PNG")
    args = p.parse_args(argv)
    if args.plot:
        plot(args.run_dir, args.plot)
        return
    torch.set_num_threads(1)
    overrides = {}
    for item in args.set:
        k, eq, v = item.partition("=")
        try:
            if not eq:
                raise ValueError("expected KEY=JSON")
            overrides[k] = json.loads(v)
        except ValueError as e:
            p.error(f"--set {item}: {e} (strings need JSON quotes, e.g. init='\"{cls.config_cls().init}\"')")
    if args.minutes <= 0:
        p.error(f"--minutes must be positive, got {args.minutes}")
    try:
        run(cls, args.run_dir, args.minutes, args.resume, overrides)
    except ValueError as e:  # bad options, an existing or missing checkpoint, unreadable init files
        p.error(str(e))

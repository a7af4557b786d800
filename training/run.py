"""``madang train``: a PPO run with progress, TensorBoard, evaluation, checkpoints and resume.

A run lives in one directory::

    RUN_DIR/checkpoint.pt      resumable trainer state (``--resume`` continues it)
    RUN_DIR/config.json        the full config of the run
    RUN_DIR/eval.jsonl         one line per evaluation (the learning curve)
    RUN_DIR/tb/                TensorBoard logs
    RUN_DIR/policy.pt|.json    the final greedy policy in the shipped-bot format
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from agents.policy_files import save_policy
from envs.registration import game_class

from .evaluate import evaluate_solo, play_match
from .ppo import PPOConfig, PPOTrainer

CONFIG_DIR = Path(__file__).parent / "configs"


def default_config(game: str) -> PPOConfig:
    """The version-controlled default config of a game (``training/configs/<game>.json``)."""
    path = CONFIG_DIR / f"{game}.json"
    if not path.exists():
        return PPOConfig(game=game)
    return PPOConfig.from_dict(json.loads(path.read_text()))


def make_evaluator(config: PPOConfig):
    """A function bot -> dict of evaluation figures for this run's game and seats.

    One evaluation table by default (the run's game config and opponents): ``eval_mean``
    plus ``eval_se`` (solitaire) or ``eval_win_rate``.  With ``config.eval_tables`` every
    table adds ``eval_<name>_mean`` (and ``_se`` or ``_win_rate``); ``eval_mean`` is the
    first table's mean.
    """
    tables = config.eval_tables or [{"name": "", "opponents": config.eval_opponents or [
        "random" if o == "self" else o for o in (config.opponents or ["random"])]}]

    def evaluate(bot) -> dict:
        out = {}
        for t in tables:
            game_config = {**config.game_config, **t.get("game_config", {})}
            figures = evaluate_table(config.game, bot, game_config, t.get("opponents", ["random"]),
                                     t.get("games", config.eval_games))
            prefix = f"eval_{t['name']}_" if t.get("name") else "eval_"
            out.update({prefix + k: v for k, v in figures.items()})
            out.setdefault("eval_mean", figures["mean"])
        return out

    return evaluate


def evaluate_table(game: str, bot, game_config: dict, opponents: list, games: int) -> dict:
    """Greedy-policy figures at one table: solitaire ``mean`` and ``se``; otherwise the mean
    result and ``win_rate`` with the bot first and last (half the games each, same seeds)."""
    players = game_class(game)(**game_config).num_players
    game_config = {k: v for k, v in game_config.items() if k != "num_players"}  # the seats say it
    if players == 1:
        r = evaluate_solo(game, bot, games, seed=10**9, **game_config)
        out = {"mean": r.mean, "se": r.se}
        if r.fraction_of_optimum is not None:
            out["fraction_of_optimum"] = r.fraction_of_optimum
        return out
    if len(opponents) == 1:
        opponents = opponents * (players - 1)
    half = games // 2
    rows = []
    for seat in (0, players - 1):  # learner first and last, same seeds
        seats = list(opponents)
        seats.insert(seat, bot)
        res = play_match(game, seats, half, seed=10**9, **game_config)
        others = [i for i in range(players) if i != seat]
        rows.append((res[:, seat], (res[:, seat][:, None] > res[:, others]).all(axis=1)))
    mine = sum(r[0].sum() for r in rows) / (2 * half)
    wins = sum(r[1].sum() for r in rows) / (2 * half)
    return {"mean": float(mine), "win_rate": float(wins)}


def write_policy(trainer: PPOTrainer, run_dir: str | Path, evaluation: dict | None = None) -> None:
    """Write the trainer's model as ``RUN_DIR/policy.pt`` + ``policy.json`` (the shipped-bot format)."""
    save_policy(trainer.model, Path(run_dir) / "policy", trainer.config.game,
                training_config=trainer.config.to_dict(), global_step=trainer.global_step,
                evaluation=evaluation or {}, warm_start=trainer.bc_stats or None)


def policy_from_checkpoint(run_dir: str | Path) -> None:
    """Write ``RUN_DIR/policy.*`` from ``RUN_DIR/checkpoint.pt`` (e.g. of a run still training)."""
    ckpt = Path(run_dir) / "checkpoint.pt"
    if not ckpt.exists():
        raise ValueError(f"no checkpoint at {ckpt}")
    write_policy(PPOTrainer.load(ckpt), run_dir)


def resume_trainer(config: PPOConfig, run_dir: str | Path, overrides: dict | None = None) -> PPOTrainer:
    """The trainer of ``RUN_DIR/checkpoint.pt`` with ``config.total_steps`` and ``overrides``
    applied; ``ValueError`` naming the file if it is missing, damaged or tampered with."""
    ckpt = Path(run_dir) / "checkpoint.pt"
    if not ckpt.exists():
        raise ValueError(f"--resume: no checkpoint at {ckpt}")
    return PPOTrainer.load(ckpt, **{"total_steps": config.total_steps, **(overrides or {})})


def format_returns(returns: dict) -> str:
    """The running returns of the tables for the progress line: "—" until a game finishes."""
    fmt = lambda v: "—" if v is None else f"{v:.2f}"  # noqa: E731
    if len(returns) == 1:
        return fmt(next(iter(returns.values())))
    return " ".join(f"{k} {fmt(v)}" for k, v in returns.items())


def run_training(config: PPOConfig, run_dir: str | Path, resume: bool = False,
                 console: Console | None = None, overrides: dict | None = None,
                 time_budget_s: float | None = None, trainer: PPOTrainer | None = None) -> dict:
    """Train (or resume) a run in ``run_dir``; returns the final statistics.

    A fresh run uses ``config``.  A resumed run uses the checkpoint's config with
    ``config.total_steps`` and the fields in ``overrides`` (e.g. ``device``) replacing
    its own; pass the ``trainer`` already loaded from it (:func:`resume_trainer`) to have the
    checkpoint checked before this call, else it is loaded here, before anything is written.
    ``time_budget_s`` fits the run into a wall-clock budget (see :meth:`PPOTrainer.train`).
    """
    from torch.utils.tensorboard import SummaryWriter

    console = console or Console(soft_wrap=True)  # log lines stay whole in files
    run_dir = Path(run_dir)
    ckpt = run_dir / "checkpoint.pt"
    if resume:
        trainer = trainer or resume_trainer(config, run_dir, overrides)
        console.print(f"resumed {ckpt} at step {trainer.global_step:,} (update {trainer.update})")
    else:
        if ckpt.exists():
            raise ValueError(f"{ckpt} exists: pass --resume to continue it or choose another --run-dir")
        trainer = PPOTrainer(config)
    config = trainer.config
    run_dir.mkdir(parents=True, exist_ok=True)

    def write_config() -> None:
        (run_dir / "config.json").write_text(json.dumps(config.to_dict(), indent=2) + "\n")

    write_config()
    writer = SummaryWriter(str(run_dir / "tb"))
    evaluate = make_evaluator(config)
    started = time.time()
    last_eval: dict = {}

    live = console.is_terminal  # a terminal gets a live bar; a log file plain lines
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[sps]:>8} steps/s"), TextColumn("return {task.fields[ret]}"),
        TextColumn("{task.fields[ev]}"), TimeElapsedColumn(), console=console, disable=not live,
    ) as progress:
        task = progress.add_task(f"PPO {config.game}", total=config.total_steps,
                                 completed=trainer.global_step, sps="-", ret="-", ev="")

        def on_update(stats: dict) -> None:
            step = stats["global_step"]
            for k, v in stats.items():
                if isinstance(v, (int, float)) and k not in ("global_step", "update"):
                    writer.add_scalar(f"train/{k}" if not k.startswith("eval") else f"eval/{k}", v, step)
            ev = ""
            if "eval_mean" in stats:
                record = {k: v for k, v in stats.items() if k.startswith("eval")}
                record.update(global_step=step, update=stats["update"], wall_s=round(time.time() - started, 1))
                with open(run_dir / "eval.jsonl", "a") as f:
                    f.write(json.dumps(record) + "\n")
                last_eval.clear()
                last_eval.update(record)
            if last_eval:
                ev = f"eval {last_eval['eval_mean']:.2f}"
                ev += "".join(f" {k[5:-9]} {v:.3f}" for k, v in last_eval.items() if k.endswith("_win_rate"))
                if "eval_fraction_of_optimum" in last_eval:
                    ev += f" ({100 * last_eval['eval_fraction_of_optimum']:.1f} % of optimum)"
            if "sized_total_steps" in stats:
                progress.update(task, total=stats["sized_total_steps"])
                console.print(f"sized the run to {stats['sized_total_steps']:,} steps to fit "
                              f"{time_budget_s:,.0f} s")
                write_config()  # the sized total_steps
            ret = format_returns(stats["returns"])
            progress.update(task, completed=step, sps=f"{stats['steps_per_s']:,.0f}", ret=ret, ev=ev)
            if not live:
                total = progress.tasks[0].total
                console.print(f"update {stats['update']} step {step:,} of {total:,.0f} "
                              f"({100 * step / total:.0f} %) {stats['steps_per_s']:,.0f} steps/s "
                              f"return {ret} {ev}".rstrip(), soft_wrap=True)

        stats = trainer.train(callback=on_update, evaluate=evaluate, checkpoint_path=ckpt,
                              time_budget_s=time_budget_s, log=console.print)
    writer.close()
    write_policy(trainer, run_dir, last_eval)
    console.print(f"wrote {run_dir / 'policy.pt'} and policy.json; final {last_eval or stats}")
    if stats.get("stopped"):
        console.print(f"stopped by the time budget at step {trainer.global_step:,} of "
                      f"{trainer.config.total_steps:,}; continue with --resume --run-dir {run_dir}")
    return stats

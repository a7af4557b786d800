"""``madang train``: a PPO run on a game's batched core (new, or ``--resume``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from envs.registration import GAMES

from .common import UsageError, key_values, user_input


def _read_config(spec: str, game: str) -> dict:
    """The fields of a PPO config from a JSON file or the name of a config in ``training/configs``."""
    from training.run import CONFIG_DIR

    shipped = sorted(p.stem for p in CONFIG_DIR.glob("*.json"))
    hint = f"shipped configs: {', '.join(shipped)}; or the path of a JSON file"
    path = Path(spec)
    if not path.is_file() and (CONFIG_DIR / f"{spec}.json").is_file():
        path = CONFIG_DIR / f"{spec}.json"
    if not path.is_file():
        raise UsageError(f"--config {spec!r}: no such file or shipped config", hint)
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise UsageError(f"--config {path}: not a JSON config ({e})", hint) from e
    if not isinstance(data, dict):
        raise UsageError(f"--config {path}: a config is a JSON object of PPOConfig fields", hint)
    if data.get("game", game) != game:
        raise UsageError(f"--config {path} is a config for {data['game']}, not {game}", hint)
    return data


def _check_training_setup(config) -> None:
    """Raise ``ValueError`` for a config the trainer would reject (fields, rules, opponents, device)."""
    from envs.adapters.actions import make_game
    from envs.adapters.seats import resolve_opponents
    from envs.registration import game_class

    import torch

    config.validate()
    game = make_game(game_class(config.game), config.game_config)
    if config.learner_seat is not None and not 0 <= config.learner_seat < game.num_players:
        raise ValueError(f"learner_seat must be None or a seat in 0..{game.num_players - 1}, "
                         f"got {config.learner_seat}")
    for key in ("opponents", "eval_opponents"):
        names = list(getattr(config, key))
        if names and game.num_players == 1:
            raise ValueError(f"{key}: a one-player game takes no opponents, got {names}")
        if names:
            names = names * (game.num_players - 1) if len(names) == 1 else names
            resolve_opponents(game, ["random" if n == "self" else n for n in names])
    if torch.device(config.device).type == "cuda" and not torch.cuda.is_available():  # a device: validate()
        raise ValueError(f"device {config.device!r}: this machine has no CUDA device (use --device cpu)")


def run(args) -> int:
    """Run ``madang train`` with the parsed ``args``; returns the exit status."""
    from training.checkpoint import CheckpointError
    from training.ppo import PPOConfig, PPOTrainer
    from training.run import default_config, resume_trainer, run_training

    fields = _read_config(args.config, args.game) if args.config else default_config(args.game).to_dict()
    overrides = key_values(args.set, "--set", "num_envs=1024 (a field of PPOConfig, training/ppo.py)")
    for key in ("total_steps", "num_envs", "seed", "device", "eval_games"):
        if getattr(args, key) is not None:
            overrides[key] = getattr(args, key)
    if args.minutes is not None and args.minutes <= 0:
        raise UsageError(f"--minutes must be positive, got {args.minutes}", "e.g. --minutes 90")
    run_dir = Path(args.run_dir or f"runs/{args.game}")
    ckpt = run_dir / "checkpoint.pt"
    if args.resume and not ckpt.is_file():
        raise UsageError(f"--resume: no checkpoint at {ckpt}",
                         "start the run without --resume, or pass the --run-dir of an earlier run")
    if not args.resume and ckpt.exists():
        raise UsageError(f"{ckpt} exists", "pass --resume to continue it, or choose another --run-dir")
    damaged = "the file is damaged or not a checkpoint: restore it, or start a new run in another --run-dir"
    if args.resume:
        with user_input(damaged):
            saved = PPOTrainer.read_checkpoint(ckpt)
    fields_hint = "see the config fields in training/ppo.py (PPOConfig); --set KEY=VALUE overrides one"
    with user_input(fields_hint):
        config = PPOConfig.from_dict({**fields, **overrides, "game": args.game})
        # On --resume the checkpoint's config applies (its total_steps included), with the
        # command line's overrides on top.
        final = PPOTrainer.checkpoint_config(saved, **overrides) if args.resume else config
        if args.resume:
            config.total_steps = final.total_steps
    try:
        _check_training_setup(final)
    except ValueError as e:
        if not args.resume:
            raise UsageError(str(e), fields_hint) from e
        mine = " with your overrides" if overrides else ""
        raise UsageError(f"{ckpt}: the checkpoint's config{mine} does not fit: {e}",
                         "--set KEY=VALUE (and --device, --num-envs, ...) override a field of the "
                         "checkpoint's config; or restore the file") from e
    whole = -(-final.total_steps // final.rollout_size) * final.rollout_size
    if whole != final.total_steps:
        print(f"madang: note: total_steps {final.total_steps:,} rounded up to {whole:,}, whole rollouts "
              f"of {final.num_envs} games x {final.num_steps} steps", file=sys.stderr)
        overrides["total_steps"] = config.total_steps = whole
    trainer = None
    if args.resume:  # every part of the checkpoint is checked before anything is written
        try:
            trainer = resume_trainer(config, run_dir, overrides)
        except CheckpointError as e:
            raise UsageError(str(e), damaged) from e
    run_training(config, run_dir, resume=args.resume, overrides=overrides, trainer=trainer,
                 time_budget_s=None if args.minutes is None else 60 * args.minutes)
    return 0


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    train = sub.add_parser("train", help="train a PPO bot on a game's batched core")
    train.add_argument("game", choices=sorted(GAMES))
    train.add_argument("--config", help="a JSON config file, or the name of a shipped one such as yacht_2x256 "
                                        "(default: training/configs/<game>.json)")
    train.add_argument("--run-dir", help="run directory (default runs/<game>)")
    train.add_argument("--resume", action="store_true", help="continue the checkpoint in --run-dir")
    train.add_argument("--total-steps", type=int, help="learner decisions (rounded up to whole rollouts)")
    train.add_argument("--num-envs", type=int)
    train.add_argument("--seed", type=int)
    train.add_argument("--device", help="cpu or cuda")
    train.add_argument("--eval-games", type=int)
    train.add_argument("--set", nargs="*", metavar="KEY=VALUE", help="override any config field")
    train.add_argument("--minutes", type=float,
                       help="wall-clock budget: shorten total_steps to fit it (measured after 5 "
                            "updates) and stop with a checkpoint if it runs out")
    train.set_defaults(func=run)

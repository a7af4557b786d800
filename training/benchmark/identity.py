"""What makes two benchmark results comparable: the rules, the seeds and the policy, each as a hash."""

from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path

import numpy as np

from envs.core.rng import seed_range
from envs.registration import game_class

FINGERPRINT_GAMES = 8


def madang_version() -> str:
    """The installed madang's version, or ``"unknown (not installed)"`` in a bare source tree."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("madang")
    except PackageNotFoundError:
        return "unknown (not installed)"


def rules_hash(game: str, players: int, game_config: dict) -> str:
    """A fingerprint of the rules as a policy meets them: sha256 over the env id, the config
    and :data:`FINGERPRINT_GAMES` whole games (seeds 0..7) played by a fixed rule, with every
    observation, mask, action and reward.

    Any change to the rules, the observation encoding or the masks changes it; moving or
    speeding up code that computes the same games does not.
    """
    cls = game_class(game)
    g = cls(**{**game_config, "num_players": players})
    h = hashlib.sha256(json.dumps({"env_id": cls.env_id, "players": players, "config": game_config},
                                  sort_keys=True).encode())
    state = g.init(seed_range(0, FINGERPRINT_GAMES))
    turn = 0
    while not state.done.all():
        live = np.flatnonzero(~state.done)
        sub = state.take(live)
        obs, mask = np.asarray(g.observe(sub), np.float32), np.asarray(g.legal_mask(sub)).astype(bool)
        counts = mask.sum(axis=1)
        pick = (turn * 31 + live * 17) % counts  # the pick-th legal action of each row
        actions = np.array([np.flatnonzero(m)[k] for m, k in zip(mask, pick)], dtype=np.int64)
        rewards = np.asarray(g.step(sub, actions), np.float64)
        state.put(live, sub)
        for a in (live.astype(np.int64), obs, mask, actions, rewards):
            h.update(np.ascontiguousarray(a).tobytes())
        turn += 1
    return h.hexdigest()


def seeds_hash(suite) -> str:
    """sha256 over every seed a suite plays (each rung's deals, or the solo games) and its shard size."""
    h = hashlib.sha256(f"shard_games={suite.shard_games}".encode())
    starts = [suite.seed] if suite.solo else [suite.rung_seed(k) for k in range(len(suite.ladder))]
    for start in starts:
        h.update(np.asarray(seed_range(start, suite.games), dtype=np.uint64).tobytes())
    return h.hexdigest()


def file_sha256(path) -> str:
    """The sha256 of one file's bytes (what ``sha256sum`` prints)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def files_sha256(paths) -> str:
    """One file's sha256, or for several the sha256 of their sorted sha256s (names do not count)."""
    digests = sorted(file_sha256(p) for p in paths)
    if len(digests) == 1:
        return digests[0]
    return hashlib.sha256("\n".join(digests).encode()).hexdigest()


def policy_files(bot) -> list[Path]:
    """The files a bot was read from (``bot.files``), or the source file of its class."""
    files = list(getattr(bot, "files", None) or [])
    if not files:
        source = inspect.getsourcefile(type(bot))
        files = [Path(source)] if source else []
    return [Path(f) for f in files]


def policy_identity(spec: str, bot) -> dict:
    """How a result names its policy: the spec it was loaded by (its name in the result), its kind,
    and the sha256 of its files (:func:`files_sha256`) with their names."""
    files = policy_files(bot)
    kind = getattr(bot, "kind", None) or ("policy network" if hasattr(bot, "metadata") else "code")
    return {"spec": spec, "name": spec, "kind": kind,
            "sha256": files_sha256(files) if files else None, "files": [f.name for f in files]}

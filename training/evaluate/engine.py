"""Playing games between bots over a batch, in shards: the engine under every evaluation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import agents
from agents.play import play_out
from envs.core.rng import normalize_seed, seed_range
from envs.registration import game_class


SHARD_GAMES = 4096
"""Games per shard (one batch of the core) unless told otherwise."""


def _bot(b):
    """A bot from a name, a bot, or a plain function (obs, mask, rng) -> actions."""
    return agents.load(b) if isinstance(b, str) else agents.as_bot(b)


def _name(b) -> str:
    return b if isinstance(b, str) else str(getattr(b, "name", "") or getattr(b, "__name__", "")
                                            or type(b).__name__)


def _game(game_name: str, num_players: int, game_config: dict):
    """The rules of ``game_name`` for ``num_players`` seats (``ValueError`` if it has no such mode)."""
    if game_config.get("num_players", num_players) != num_players:
        raise ValueError(f"game_config says num_players={game_config['num_players']}, "
                         f"but {num_players} bot(s) play")
    cls = game_class(game_name)
    if not cls.min_players <= num_players <= cls.max_players:
        if num_players == 1:
            raise ValueError(f"{game_name} has no solo mode: it needs {cls.min_players} players")
        raise ValueError(f"{game_name} takes {cls.min_players}..{cls.max_players} players, got {num_players}")
    return cls(**{**game_config, "num_players": num_players})


def _signed_result(result: dict, num_players: int) -> list:
    if "scores" in result:
        return list(result["scores"])
    out = [0.0] * num_players
    if result.get("winner") is not None:
        w = int(result["winner"])
        out = [-float(result["payout"])] * num_players
        out[w] = float(result["payout"])
    return out


def _play(game_name: str, bots: list, seeds, rng_seed: int, game_config: dict):
    """Play one batch (``bots[i]`` in seat ``i``, game ``j`` seeded ``seeds[j]``).

    Returns ``(values (N, P), nagari (N,) bool, skipped, gos)`` where ``skipped[j]`` lists the
    per-seat values of the games decided before any decision in slot ``j`` and ``gos`` is the
    (N, P) number of Go calls of each seat at the end of each game (None for games whose state
    has no ``go_count``).
    """
    bots = [_bot(b) for b in bots]
    game = _game(game_name, len(bots), game_config)
    for b in bots:
        if hasattr(b, "check_game"):
            b.check_game(game.name)
    state = game.init(seeds)
    play_out(game, state, bots, np.random.default_rng(normalize_seed(rng_seed)))
    P = len(bots)
    results = [game.result(state, i) for i in range(state.batch_size)]
    values = np.array([_signed_result(r, P) for r in results], dtype=np.float64).reshape(-1, P)
    nagari = np.array([r.get("reason") == "nagari" for r in results], dtype=bool)
    skipped = [[_signed_result(r, P) for r in game.skipped_results(state, i)] for i in range(state.batch_size)]
    gos = getattr(state, "go_count", None)
    return values, nagari, skipped, None if gos is None else np.asarray(gos, dtype=np.int64).reshape(-1, P)


@dataclass(frozen=True)
class Shard:
    """One batch of games to play: ``bots[i]`` in seat ``i``, game ``j`` seeded ``seeds[j]``,
    the bots drawing from ``default_rng(rng_seed)``."""

    game: str
    bots: tuple
    seeds: np.ndarray
    rng_seed: int
    game_config: dict


def _shards(game_name: str, bots, seeds, rng_seed: int, game_config: dict, shard_games: int) -> list[Shard]:
    """The games ``seeds`` of one seating, in shards of ``shard_games`` (see the module docstring)."""
    if isinstance(shard_games, bool) or not isinstance(shard_games, (int, np.integer)) or shard_games < 1:
        raise ValueError(f"shard_games must be a positive int, got {shard_games!r}")
    seeds, rng_seed = np.asarray(seeds), normalize_seed(rng_seed)
    return [Shard(game_name, tuple(bots), seeds[k:k + shard_games], normalize_seed(rng_seed + k), game_config)
            for k in range(0, len(seeds), shard_games)]


def _joined(outputs: list) -> tuple:
    """The outputs of one seating's shards (:func:`_play`), joined in game order."""
    values = np.concatenate([o[0] for o in outputs])
    nagari = np.concatenate([o[1] for o in outputs])
    gos = None if outputs[0][3] is None else np.concatenate([o[3] for o in outputs])
    return values, nagari, [s for o in outputs for s in o[2]], gos


def _play_shard(shard: Shard):
    return _play(shard.game, list(shard.bots), shard.seeds, shard.rng_seed, shard.game_config)


class LocalRunner:
    """Plays shards one after another in this process."""

    def map(self, shards: list[Shard], progress: Callable[[int, int], None] | None = None) -> list:
        """The :func:`_play` output of every shard, in order; ``progress(done, total)`` after each."""
        out = []
        for shard in shards:
            out.append(_play_shard(shard))
            if progress:
                progress(len(out), len(shards))
        return out


def play_match(game_name: str, bots: list, num_games: int, seed: int = 0, *, shard_games: int = SHARD_GAMES,
               runner=None, progress=None, **game_config) -> np.ndarray:
    """Play ``num_games`` games with ``bots[i]`` in seat ``i``; return (num_games, P) results.

    Results are final scores or signed payouts (see the module docstring) of each game
    proper; game ``j`` uses seed ``seed + j`` and the bots of the shard starting at game
    ``k`` share ``default_rng(seed + k)``.  ``runner`` (default :class:`LocalRunner`) plays the
    shards; ``progress(done, total)`` follows them.
    """
    if num_games < 1:
        raise ValueError(f"play_match needs at least one game, got {num_games}")
    bots = [_bot(b) for b in bots]
    shards = _shards(game_name, bots, seed_range(seed, num_games), seed, game_config, shard_games)
    return _joined((runner or LocalRunner()).map(shards, progress))[0]

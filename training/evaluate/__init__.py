"""Evaluation of bots: the one evaluation path (``madang eval``, in-training evaluation, ``madang ship``).

The modules: :mod:`.engine` (games over a batch, in shards), :mod:`.matches` (solo means, seat-swapped
matches, tournaments), :mod:`.stats` (confidence intervals, Elo), :mod:`.gostop` (Go-Stop's Go figures),
:mod:`.plots`, :mod:`.ray_runner` (shards as Ray tasks) and :mod:`.regret` (Yacht against the solver);
their public names are imported from here.

Everything runs on the batched cores and the one match loop (:class:`envs.core.match.Match`,
through :func:`agents.play.play_out`): a set of games between fixed seats is one batch.

* :func:`play_match`: ``N`` games with fixed seats, every seat's result per game.
* :func:`evaluate_solo`: solitaire mean, standard error and 95 % CI (and the fraction of the
  exact optimum, :func:`solo_optimum`, where the game's descriptor names one: Yacht); for
  every game with a one-player mode.
* :func:`seat_swapped_match`: two bots over ``pairs`` deals, each deal played twice with the
  seats swapped (same seed, so the same deal in Go-Stop and the same first rolls in the dice
  games), from bot A's side: points per game with 95 % CIs over the deal pairs, wins,
  losses, draws and (Go-Stop) nagari, and for games with Go calls (Go-Stop) each bot's
  :class:`GoStats`: how often it called Go and how those deals ended.  Go-Stop deals that
  end before any decision (chongtong, dealt again inside ``reset``) count as games with their
  result.
* :func:`round_robin`: every two bots in a seat-swapped match, per-bot means, CIs, win
  rates and Elo ratings from a Bradley-Terry fit.

A game's result per seat is its final score (dice games, ``result()["scores"]``) or its
signed payout (games whose result has ``winner`` / ``payout``).  Seeds follow the one seed
rule (integers modulo 2**64, :func:`envs.core.rng.normalize_seed`).

**Shards.**  The games of a seating are played in shards of ``shard_games`` games
(:data:`SHARD_GAMES` by default), each one batch of the core: the shard starting at game
``k`` is exactly the evaluation of its games on its own, its bots drawing from
``default_rng(seed + k)``.  A :class:`LocalRunner` plays the shards one after another, a
:class:`RayRunner` as Ray tasks (``madang eval --ray``); the same seeds and shard size give
the same results either way.  Up to ``shard_games`` games a seating is one shard, as it
always was.
"""

from .engine import SHARD_GAMES, LocalRunner, Shard, play_match
from .gostop import GoStats
from .matches import (
    MatchResult, SoloResult, Tournament, evaluate_solo, round_robin, seat_swapped_match, solo_optimum,
)
from .plots import plot_solo, plot_tournament
from .ray_runner import RAY_CONNECT_TIMEOUT_S, RayRunner, call_with_timeout
from .regret import yacht_regret
from .stats import Z95, bradley_terry_elo, pair_mean_ci

__all__ = [
    "RAY_CONNECT_TIMEOUT_S", "SHARD_GAMES", "Z95", "GoStats", "LocalRunner", "MatchResult", "RayRunner", "Shard",
    "SoloResult", "Tournament", "bradley_terry_elo", "call_with_timeout", "evaluate_solo", "pair_mean_ci",
    "play_match", "plot_solo", "plot_tournament", "round_robin", "seat_swapped_match", "solo_optimum",
    "yacht_regret",
]

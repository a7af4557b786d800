"""Evaluation of bots: the one evaluation path (``madang eval``, in-training evaluation, ``madang ship``).

Everything runs on the batched cores and the one play-out loop (:func:`agents.play.play_out`):
a set of games between fixed seats is one batch.

* :func:`play_match`: ``N`` games with fixed seats, every seat's result per game.
* :func:`evaluate_solo`: solitaire mean, standard error and 95 % CI (Yacht: the fraction of
  the exact optimum); for every game with a one-player mode.
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

from __future__ import annotations

import itertools
import logging
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np

import agents
from agents.play import play_out
from envs.core.rng import normalize_seed, seed_range
from envs.registration import game_class

Z95 = 1.959964

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


RAY_CONNECT_TIMEOUT_S = 30.0
"""How long :class:`RayRunner` waits for a Ray cluster to answer unless told otherwise (seconds)."""


def call_with_timeout(fn: Callable[[], object], timeout_s: float, what: str):
    """``fn()``'s result, waiting at most ``timeout_s`` seconds for it; ``fn``'s own exception is re-raised.

    ``fn`` runs in a daemon thread, so a call that blocks without end (``ray.init`` on an
    address where nothing answers ignores signals) cannot hold the process: after
    ``timeout_s`` this raises ``ConnectionError`` naming ``what``, and the blocked thread is
    left behind without keeping the process alive.  The wait itself stops at once on
    Ctrl-C (``KeyboardInterrupt``).
    """
    import threading

    box: dict = {}

    def call() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # handed to the waiting thread
            box["error"] = e

    thread = threading.Thread(target=call, name=f"madang: {what}", daemon=True)
    thread.start()
    thread.join(timeout_s)
    if thread.is_alive():
        raise ConnectionError(f"{what} did not answer within {timeout_s:g} s")
    if "error" in box:
        raise box["error"]
    return box.get("value")


class _Without(logging.Filter):
    """Drops the log records whose message starts with ``prefix``."""

    def __init__(self, prefix: str):
        super().__init__()
        self.prefix = prefix

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(self.prefix)


def _ray_init(ray, address: str | None, timeout_s: float) -> None:
    """``ray.init(address)``: connecting to a cluster within ``timeout_s`` (:func:`call_with_timeout`).

    A new local Ray (no address, no ``RAY_ADDRESS``) starts in the calling thread: its
    processes die with the thread that starts them (``PR_SET_PDEATHSIG`` on Linux), and
    starting one does not wait on anyone.  A connection runs in a helper thread, where
    ray.init cannot set its SIGTERM handler (``sys.exit``, so that its exit hooks run) and
    warns about it: the handler is set here in the main thread instead, before connecting as
    Ray does, and the warning is dropped.
    """
    import os
    import signal
    import threading

    if address in (None, "local") and not os.environ.get("RAY_ADDRESS"):
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        return
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(signum))
    quiet = _Without("SIGTERM handler is not set")
    worker_log = logging.getLogger("ray._private.worker")
    worker_log.addFilter(quiet)
    try:
        call_with_timeout(lambda: ray.init(address=address, include_dashboard=False, log_to_driver=False),
                          timeout_s, f"the Ray cluster at {address or os.environ['RAY_ADDRESS']}")
    finally:
        worker_log.removeFilter(quiet)


class RayRunner:
    """Plays shards as Ray tasks, one CPU each, each shard one batch of the core.

    Connects with ``ray.init(address=address)`` unless Ray is already initialized (``None``:
    a running cluster named by ``RAY_ADDRESS``, else a new local one), waiting at most
    ``connect_timeout_s`` seconds for a cluster: one where nothing answers raises
    ``ConnectionError`` then, as do Ray's own connection errors.  Every node needs madang
    installed.  Raises ``ImportError`` if ray is not.
    """

    def __init__(self, address: str | None = None, connect_timeout_s: float = RAY_CONNECT_TIMEOUT_S):
        import ray

        if not ray.is_initialized():
            _ray_init(ray, address, connect_timeout_s)
        self._ray = ray
        self._task = ray.remote(num_cpus=1)(_play_bots)

    def map(self, shards: list[Shard], progress: Callable[[int, int], None] | None = None) -> list:
        """The :func:`_play` output of every shard, in order; ``progress(done, total)`` as they finish."""
        ray = self._ray
        refs: dict[int, object] = {}  # each bot object is sent once
        for shard in shards:
            for b in shard.bots:
                if id(b) not in refs:
                    refs[id(b)] = ray.put(b)
        tasks = [self._task.remote(s.game, s.seeds, s.rng_seed, s.game_config, *(refs[id(b)] for b in s.bots))
                 for s in shards]
        pending, done = list(tasks), 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            done += len(ready)
            if progress:
                progress(done, len(tasks))
        return ray.get(tasks)


def _play_bots(game_name: str, seeds, rng_seed: int, game_config: dict, *bots):
    """:func:`_play` with the bots as trailing arguments (Ray resolves them)."""
    return _play(game_name, list(bots), seeds, rng_seed, game_config)


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


@dataclass
class SoloResult:
    """Solitaire evaluation of one bot: mean ± standard error over ``games`` seeded games."""

    bot: str
    games: int
    mean: float
    se: float
    optimum: float | None = None
    scores: np.ndarray = field(repr=False, default=None)  # every game's score (not in as_dict)

    @property
    def ci95(self) -> float:
        """Half-width of the 95 % confidence interval of the mean."""
        return Z95 * self.se

    @property
    def fraction_of_optimum(self) -> float | None:
        """Mean divided by the exact optimum, where the game has one."""
        return None if self.optimum is None else self.mean / self.optimum

    def as_dict(self) -> dict:
        """A JSON-compatible dict (``--json``), without the scores."""
        d = {k: v for k, v in asdict(self).items() if k != "scores"}
        return dict(d, ci95=self.ci95, fraction_of_optimum=self.fraction_of_optimum)


def evaluate_solo(game_name: str, bot, num_games: int, seed: int = 0, *, shard_games: int = SHARD_GAMES,
                  runner=None, progress=None, **game_config) -> SoloResult:
    """Mean ± standard error of a bot's solitaire score over ``num_games`` seeded games.

    ``game_config`` goes to the rules (e.g. ``copies_per_hand=None``).  A game without a
    one-player mode (Go-Stop) raises ``ValueError``.  Shards, ``runner`` and ``progress`` as
    in :func:`play_match`.
    """
    scores = play_match(game_name, [bot], num_games, seed, shard_games=shard_games, runner=runner,
                        progress=progress, **game_config)[:, 0]
    optimum = None
    if game_name == "yacht":
        from agents.yacht_dp import solve

        optimum = solve().optimal_score
    se = float(scores.std(ddof=1) / np.sqrt(num_games)) if num_games > 1 else float("nan")
    return SoloResult(_name(bot), num_games, float(scores.mean()), se, optimum, scores)


@dataclass
class GoStats:
    """How one bot of a match used Go (games with Go / Stop calls, i.e. Go-Stop).

    Over the ``deals`` it played to a decision (deals decided before any decision do not
    count): ``called_go`` deals in which it called Go at least once, ``gos`` its Go calls in
    all, and how the deals with a Go ended for it: ``won_after_go``, ``lost_after_go`` (the
    opponent stopped, go-bak) and ``nagari_after_go`` (nobody stopped).  ``points_after_go``
    is its mean result in the deals with a Go (0 when there is none).
    """

    deals: int
    called_go: int
    gos: int
    won_after_go: int
    lost_after_go: int
    nagari_after_go: int
    points_after_go: float

    @classmethod
    def of(cls, gos: np.ndarray, mine: np.ndarray, theirs: np.ndarray) -> "GoStats":
        """From a bot's Go calls, results and its opponent's results in each deal ((N,) each)."""
        went = gos > 0
        return cls(deals=int(gos.size), called_go=int(went.sum()), gos=int(gos.sum()),
                   won_after_go=int((went & (mine > theirs)).sum()),
                   lost_after_go=int((went & (mine < theirs)).sum()),
                   nagari_after_go=int((went & (mine == theirs)).sum()),
                   points_after_go=float(mine[went].mean()) if went.any() else 0.0)

    @property
    def go_rate(self) -> float:
        """Share of the deals in which the bot called Go."""
        return self.called_go / self.deals if self.deals else 0.0

    def as_dict(self) -> dict:
        """A JSON-compatible dict."""
        return dict(asdict(self), go_rate=self.go_rate)


@dataclass
class MatchResult:
    """A seat-swapped match of bot A against bot B, from A's side.

    ``games`` counts every game: two per deal pair, plus the Go-Stop deals decided before
    any decision.  ``mean_a`` / ``mean_b`` are each bot's mean result per game (Go-Stop:
    points per deal), ``margin`` the mean of A's minus B's result; the ``ci95`` half-widths
    come from the spread of the deal pairs' totals (the pairs are independent).
    ``nagari`` counts the draws that were nagari (Go-Stop).  ``go_a`` / ``go_b`` are the
    bots' :class:`GoStats` (None for games without Go calls).  ``values_a`` / ``values_b``
    hold every game's results and ``pair_index`` each game's deal pair (not in :meth:`as_dict`).
    """

    game: str
    bot_a: str
    bot_b: str
    pairs: int
    paired: bool
    games: int
    wins: int
    losses: int
    draws: int
    nagari: int
    mean_a: float
    mean_b: float
    ci95_a: float
    margin: float
    margin_ci95: float
    go_a: GoStats | None = None
    go_b: GoStats | None = None
    values_a: np.ndarray = field(repr=False, default=None)
    values_b: np.ndarray = field(repr=False, default=None)
    score_rate_ci95: float = 0.0
    """Half-width of the 95 % CI of :attr:`score_rate`, from the spread of the deal pairs."""
    pair_index: np.ndarray = field(repr=False, default=None)

    @property
    def win_rate(self) -> float:
        """A's share of games won."""
        return self.wins / self.games

    @property
    def score_rate(self) -> float:
        """A's share of games won, draws counting one half."""
        return (self.wins + 0.5 * self.draws) / self.games

    @property
    def decided_win_rate(self) -> float:
        """A's share of the decided games (wins and losses, draws left out)."""
        decided = self.wins + self.losses
        return self.wins / decided if decided else 0.5

    def as_dict(self) -> dict:
        """A JSON-compatible dict (``--json``)."""
        d = {k: v for k, v in asdict(self).items()
             if k not in ("values_a", "values_b", "pair_index", "go_a", "go_b")}
        gos = {k: getattr(self, k).as_dict() for k in ("go_a", "go_b") if getattr(self, k) is not None}
        return dict(d, win_rate=self.win_rate, score_rate=self.score_rate, decided_win_rate=self.decided_win_rate,
                    **gos)


def seat_swapped_match(game_name: str, bot_a, bot_b, pairs: int, seed: int = 0, paired: bool = True, *,
                       shard_games: int = SHARD_GAMES, runner=None, progress=None, **game_config) -> MatchResult:
    """Bot A against bot B over ``pairs`` deal pairs: each deal twice, A in seat 0 then in seat 1.

    Deal ``j`` uses seed ``seed + j`` in both seatings (``paired=False``: the second seating
    gets fresh seeds ``seed + pairs + j``, so every game has its own deal); in both seatings
    the bots of the shard starting at deal ``k`` draw from ``default_rng(seed + k)``.  Bots are
    instances or names.  Shards, ``runner`` and ``progress`` as in :func:`play_match`.
    """
    shards, finish = _match_plan(game_name, bot_a, bot_b, pairs, seed, paired, shard_games, game_config)
    return finish((runner or LocalRunner()).map(shards, progress))


def _match_plan(game_name: str, bot_a, bot_b, pairs: int, seed: int, paired: bool, shard_games: int,
                game_config: dict):
    """The shards of a seat-swapped match and the function that turns their outputs into its result."""
    if pairs < 1:
        raise ValueError(f"a match needs at least one deal pair, got {pairs}")
    bot_a, bot_b = _bot(bot_a), _bot(bot_b)
    first = seed_range(seed, pairs)
    second = first if paired else seed_range(normalize_seed(seed) + pairs, pairs)
    shards_a = _shards(game_name, [bot_a, bot_b], first, seed, game_config, shard_games)
    shards_b = _shards(game_name, [bot_b, bot_a], second, seed, game_config, shard_games)

    def finish(outputs: list) -> MatchResult:
        return _match_result(game_name, bot_a, bot_b, pairs, paired, _joined(outputs[:len(shards_a)]),
                             _joined(outputs[len(shards_a):]))

    return shards_a + shards_b, finish


def _match_result(game_name: str, bot_a, bot_b, pairs: int, paired: bool, seating_a, seating_b) -> MatchResult:
    """A seat-swapped match from the joined outputs of its two seatings (A in seat 0, then 1)."""
    va, nag_a, skip_a, gos_a = seating_a
    vb, nag_b, skip_b, gos_b = seating_b
    go_a = go_b = None
    if gos_a is not None:  # the deals played to a decision (skipped ones have no Go)
        go_a = GoStats.of(np.concatenate([gos_a[:, 0], gos_b[:, 1]]), np.concatenate([va[:, 0], vb[:, 1]]),
                          np.concatenate([va[:, 1], vb[:, 0]]))
        go_b = GoStats.of(np.concatenate([gos_a[:, 1], gos_b[:, 0]]), np.concatenate([va[:, 1], vb[:, 0]]),
                          np.concatenate([va[:, 0], vb[:, 1]]))
    # A's and B's result in every game, and each game's deal pair.
    mine = [va[:, 0], vb[:, 1]]
    theirs = [va[:, 1], vb[:, 0]]
    pair_of = [np.arange(pairs), np.arange(pairs)]
    for seat_a, skipped in ((0, skip_a), (1, skip_b)):
        rows = [(j, v) for j, vals in enumerate(skipped) for v in vals]
        if rows:
            mine.append(np.array([v[seat_a] for _, v in rows]))
            theirs.append(np.array([v[1 - seat_a] for _, v in rows]))
            pair_of.append(np.array([j for j, _ in rows]))
    a, b, pair = np.concatenate(mine), np.concatenate(theirs), np.concatenate(pair_of)
    games = a.size

    def mean_ci(x):
        totals = np.bincount(pair, weights=x, minlength=pairs)
        sd = totals.std(ddof=1) if pairs > 1 else 0.0
        return float(x.sum() / games), float(Z95 * sd * np.sqrt(pairs) / games)

    mean_a, ci_a = mean_ci(a)
    margin, margin_ci = mean_ci(a - b)
    _, score_ci = mean_ci((a > b) + 0.5 * (a == b))
    return MatchResult(
        game=game_name, bot_a=_name(bot_a), bot_b=_name(bot_b), pairs=pairs, paired=paired, games=games,
        wins=int((a > b).sum()), losses=int((a < b).sum()), draws=int((a == b).sum()),
        nagari=int(nag_a.sum() + nag_b.sum()), mean_a=mean_a, mean_b=float(b.mean()), ci95_a=ci_a,
        margin=margin, margin_ci95=margin_ci, go_a=go_a, go_b=go_b, values_a=a, values_b=b,
        score_rate_ci95=score_ci, pair_index=pair,
    )


@dataclass
class Tournament:
    """Round-robin results: per bot mean result, CI, win rate; pairwise wins and matches; Elo."""

    bots: list
    games_per_pair: int
    mean: dict = field(default_factory=dict)
    ci95: dict = field(default_factory=dict)
    win_rate: dict = field(default_factory=dict)
    wins: np.ndarray | None = None  # wins[i, j]: games bot i won against bot j (ties count 1/2)
    elo: dict = field(default_factory=dict)
    matches: list = field(default_factory=list)  # one MatchResult per pair of bots

    def markdown(self) -> str:
        """The results as a Markdown table, best Elo first."""
        lines = ["| bot | Elo | mean | 95 % CI | win rate |", "|---|---:|---:|---:|---:|"]
        for b in sorted(self.bots, key=lambda b: -self.elo[b]):
            lines.append(
                f"| {b} | {self.elo[b]:.0f} | {self.mean[b]:.2f} | ± {self.ci95[b]:.2f} | {self.win_rate[b]:.3f} |"
            )
        return "\n".join(lines)

    def as_dict(self) -> dict:
        """A JSON-compatible dict (``--json``): per-bot figures, best Elo first, and the matches."""
        order = sorted(self.bots, key=lambda b: -self.elo[b])
        return {
            "games_per_pair": self.games_per_pair,
            "bots": [{"bot": b, "elo": self.elo[b], "mean": self.mean[b], "ci95": self.ci95[b],
                      "win_rate": self.win_rate[b]} for b in order],
            "matches": [m.as_dict() for m in self.matches],
        }


def round_robin(game_name: str, bots: list, games_per_pair: int, seed: int = 0, paired: bool = True, *,
                shard_games: int = SHARD_GAMES, runner=None, progress=None, **game_config) -> Tournament:
    """Every two bots play a :func:`seat_swapped_match` of ``games_per_pair`` deal pairs.

    A bot's win rate counts draws as halves; its mean and CI are over all its games.  The
    shards of all the matches go to ``runner`` together (default :class:`LocalRunner`);
    ``progress(done, total)`` follows them.
    """
    if len(bots) < 2:
        raise ValueError("a tournament needs at least two bots")
    names = [_name(b) for b in bots]
    if len(set(names)) != len(names):
        raise ValueError(f"a tournament needs distinct bots, got {names}")
    loaded = [_bot(b) for b in bots]
    n = len(bots)
    results: dict = {b: [] for b in names}
    outcomes: dict = {b: [] for b in names}
    wins = np.zeros((n, n))
    t = Tournament(names, games_per_pair, wins=wins)
    pairs = list(itertools.combinations(range(n), 2))
    plans = [_match_plan(game_name, loaded[i], loaded[j], games_per_pair, seed, paired, shard_games, game_config)
             for i, j in pairs]
    outputs = (runner or LocalRunner()).map([s for shards, _ in plans for s in shards], progress)
    start = 0
    for (i, j), (shards, finish) in zip(pairs, plans):
        m = finish(outputs[start:start + len(shards)])
        start += len(shards)
        m.bot_a, m.bot_b = names[i], names[j]
        t.matches.append(m)
        score_a = np.where(m.values_a > m.values_b, 1.0, np.where(m.values_a < m.values_b, 0.0, 0.5))
        wins[i, j] += score_a.sum()
        wins[j, i] += (1 - score_a).sum()
        results[names[i]].extend(m.values_a)
        results[names[j]].extend(m.values_b)
        outcomes[names[i]].extend(score_a)
        outcomes[names[j]].extend(1 - score_a)
    for b in names:
        r = np.asarray(results[b])
        t.mean[b] = float(r.mean())
        t.ci95[b] = float(Z95 * r.std(ddof=1) / np.sqrt(r.size))
        t.win_rate[b] = float(np.mean(outcomes[b]))
    t.elo = dict(zip(names, bradley_terry_elo(wins)))
    return t


def bradley_terry_elo(wins: np.ndarray, iterations: int = 2000, anchor: float = 1500.0) -> np.ndarray:
    """Elo ratings from a pairwise win matrix by the Bradley–Terry MM algorithm.

    ``wins[i, j]`` counts i's wins over j (ties as halves).  A small prior (half a win
    each way against a virtual average player) keeps undefeated bots finite.  Ratings
    are on the Elo scale (400 log10 strength) with mean ``anchor``.
    """
    wins = np.asarray(wins, dtype=np.float64)
    n = wins.shape[0]
    games = wins + wins.T
    p = np.ones(n)
    for _ in range(iterations):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1) + 1.0 / (p + 1.0)
        new = (wins.sum(axis=1) + 0.5) / denom
        new /= np.exp(np.log(new).mean())
        if np.allclose(new, p, rtol=1e-10):
            p = new
            break
        p = new
    elo = 400 * np.log10(p)
    return elo - elo.mean() + anchor


def plot_tournament(t: Tournament, path: str, title: str = "") -> None:
    """Save a bar chart of Elo ratings and mean results to ``path`` (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = sorted(t.bots, key=lambda b: -t.elo[b])
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    axes[0].bar(order, [t.elo[b] for b in order], color="tab:blue")
    axes[0].set_ylabel("Elo (Bradley–Terry)")
    axes[1].bar(order, [t.mean[b] for b in order], yerr=[t.ci95[b] for b in order], color="tab:orange", capsize=4)
    axes[1].set_ylabel("mean result (95 % CI)")
    for ax in axes:
        ax.tick_params(axis="x", rotation=30)
    fig.suptitle(title or f"{len(t.bots)} bots, {t.games_per_pair} games per pair and seat order")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_solo(results: list[SoloResult], path: str, title: str = "") -> None:
    """Save the distribution of each bot's solitaire scores (one step histogram per bot, its
    mean dashed, the exact optimum dotted where the game has one) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    edges = np.histogram_bin_edges(np.concatenate([r.scores for r in results]), bins="auto")
    if edges.size > 101:
        edges = np.linspace(edges[0], edges[-1], 101)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for r, colour in zip(results, itertools.cycle(plt.rcParams["axes.prop_cycle"].by_key()["color"])):
        ax.hist(r.scores, bins=edges, histtype="step", color=colour,
                label=f"{r.bot}: {r.mean:.2f} ± {r.se:.2f} (s.e.)")
        ax.axvline(r.mean, color=colour, linestyle="--", linewidth=1)
    if results[0].optimum is not None:
        ax.axvline(results[0].optimum, color="black", linestyle=":", label=f"optimum {results[0].optimum:.2f}")
    ax.set_xlabel("score per game")
    ax.set_ylabel("games")
    ax.legend()
    ax.set_title(title or f"solitaire scores over {results[0].games} games per bot")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def yacht_regret(bot, num_games: int, seed: int = 0) -> dict:
    """Where a bot loses points against the exact solver in solitaire Yacht.

    For every decision the bot makes, the regret is the solver's expected final score of
    its best action minus that of the bot's action.  The regrets add up, in expectation,
    to the optimum minus the bot's mean score.  Returns the regret per game split into
    reroll and category decisions, the share of each that lose more than 0.01 points,
    and the regret per game of each round.
    """
    from agents.yacht_solver import YachtSolverBot
    from envs.yacht import SCORE_START, Yacht

    bot = _bot(bot)
    solver = YachtSolverBot()
    game = Yacht(num_players=1)
    state = game.init(seed_range(seed, num_games))
    rng = np.random.default_rng(normalize_seed(seed))
    total = {"reroll": 0.0, "score": 0.0}
    count = {"reroll": 0, "score": 0}
    lossy = {"reroll": 0, "score": 0}
    by_round = np.zeros(12)
    while not state.done.all():
        live = np.flatnonzero(~state.done)
        sub = state.take(live)
        obs, mask = game.observe(sub), game.legal_mask(sub)
        actions = bot.act(obs, mask, rng)
        q = np.where(mask, solver.action_values(obs), -np.inf)
        regret = q.max(axis=1) - q[np.arange(live.size), actions]
        scoring = actions >= SCORE_START
        for kind, rows in (("score", scoring), ("reroll", ~scoring)):
            total[kind] += float(regret[rows].sum())
            count[kind] += int(rows.sum())
            lossy[kind] += int((regret[rows] > 0.01).sum())
        np.add.at(by_round, sub.round.astype(np.int64) - 1, regret)
        game.step(sub, actions)
        state.put(live, sub)
    return {
        "games": num_games,
        "mean_score": float(game.totals(state)[:, 0].mean()),
        "regret_per_game": (total["reroll"] + total["score"]) / num_games,
        "reroll_regret_per_game": total["reroll"] / num_games,
        "score_regret_per_game": total["score"] / num_games,
        "lossy_reroll_share": lossy["reroll"] / max(count["reroll"], 1),
        "lossy_score_share": lossy["score"] / max(count["score"], 1),
        "regret_per_game_by_round": (by_round / num_games).round(3).tolist(),
    }

"""One game between a person and bots, on the batched rules core at batch size 1.

:class:`Session` is what both front-ends play: the terminal game (:mod:`.terminal`) and the
web app (:mod:`.web`).  The person sits in one seat, bots (any of :func:`frontends.games.game_bots`:
the catalog's and the game's own, or a user's own policies the front-end loaded) in the others.  Every move goes through the
core's validation; the bots move as soon as it is their turn.  Everything a session shows comes from the person's seat view
(``game.seat_view``): the board, the legal moves and a log of every move explained in words
from public information only, so nothing hidden from that seat (the other Go-Stop hand, the
stock) ever leaves it.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable, Sequence

import numpy as np

import agents
from envs.adapters.actions import parse_action
from envs.core.match import Match
from envs.core.rng import normalize_seed, resolve_seed
from envs.registration import GAMES, game_class, game_spec

from ..games import game_bots


@functools.lru_cache(maxsize=None)
def shared_bot(name: str):
    """The bot ``name``, loaded once per process (bots keep no state between ``act`` calls)."""
    return agents.load(name)


def user_bots(specs) -> dict:
    """The bots among ``specs`` that are not catalog names (a path or ``module:attr``: a user's own
    policies), each loaded once: name -> bot.  ``ValueError`` names a spec that does not load."""
    catalog = set(agents.available())
    return {s: agents.load(s) for s in dict.fromkeys(specs) if s not in catalog}


_WARM_LOCKS: dict[str, threading.Lock] = {}
_WARM_LOCKS_LOCK = threading.Lock()
_warm: set[tuple[str, str]] = set()


def warm_up(game: str, bots: Iterable[str]) -> None:
    """Make each bot of ``bots`` ready to play ``game`` at full speed, once per process.

    Loads the bot and lets it make the first moves of a throwaway game, which builds what
    the bot and the game's observation build on first use (solver and reach tables, compiled
    kernels).  One lock per game: concurrent callers wait for one build instead of repeating
    it.  Raises ``ValueError`` for an unknown game or bot.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; games: {', '.join(sorted(GAMES))}")
    with _WARM_LOCKS_LOCK:  # a game registered after import gets its lock on first use
        lock = _WARM_LOCKS.setdefault(game, threading.Lock())
    with lock:
        for name in bots:
            if (game, name) not in _warm:
                Session(game, [name], seat=1, seed=0)  # the bot moves first
                _warm.add((game, name))


def seat_range(game: str) -> tuple[int, int]:
    """(fewest, most) seats of ``game``."""
    cls = game_class(game)
    return cls.min_players, cls.max_players


class Session:
    """A person in seat ``seat`` against ``bots`` (names, in seat order around the person).

    ``Session("yacht", ["yacht-greedy", "random"], seat=1, seed=7)``: three seats, the person
    second.  ``seed`` (default: fresh entropy) fixes the dice or the deal and the bots' choices;
    like every madang seed it is any int, reduced modulo 2**64 (so -1 and 2**64 - 1 are one game).
    :meth:`public` shows it once the game is over (or from the start when the person chose it),
    so that a game can be replayed without telling the dice or the cards to come.
    Raises ``ValueError`` naming the problem for an unknown game or bot, a bot of another game,
    a wrong number of bots for the game, or a bad seat or seed.  ``extra_bots`` (name -> bot,
    e.g. from :func:`user_bots`) are the bots a session may seat besides the catalog's.
    """

    def __init__(self, game: str, bots: Sequence[str], seat: int = 0, seed: int | None = None,
                 load_bot=shared_bot, extra_bots: dict | None = None):
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; games: {', '.join(sorted(GAMES))}")
        if isinstance(bots, str) or not all(isinstance(b, str) for b in bots):
            raise ValueError(f"bots must be a list of bot names, got {bots!r}")
        low, high = seat_range(game)
        if not low <= len(bots) + 1 <= high:
            n = f"{low - 1}" if low == high else f"{low - 1}..{high - 1}"
            raise ValueError(f"{game_spec(game).title} takes {n} bot(s) besides you, got {len(bots)}")
        extra = {n: b for n, b in (extra_bots or {}).items() if getattr(b, "game", None) in (None, game)}
        known = game_bots(game) + list(extra)
        for b in bots:
            if b not in known:
                raise ValueError(f"unknown bot {b!r} for {game}; bots for {game}: {', '.join(known)}")
        players = len(bots) + 1
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be an int in 0..{players - 1} for {players} players, got {seat!r}")
        if seed is not None:
            normalize_seed(seed)  # the one seed rule: any int (reduced modulo 2**64), else ValueError
        self.game_name = game
        self.game = game_class(game)(num_players=players)
        self.text = self.game.view_module
        self.seat = seat
        names = list(bots)
        self.players = [
            {"seat": s, "name": "you", "human": True} if s == seat
            else {"seat": s, "name": names.pop(0), "human": False}
            for s in range(players)
        ]
        self.bots = {p["seat"]: extra[p["name"]] if p["name"] in extra else load_bot(p["name"])
                     for p in self.players if not p["human"]}
        self.names = [p["name"] for p in self.players]
        self.seed_chosen = seed is not None
        seed = self.seed = resolve_seed(seed)
        self.state = self.game.init([seed])
        self.rng = np.random.default_rng(seed)
        self.log: list[dict] = []
        self._version = 0  # moves made; the cached view and moves below belong to one version
        self._cached: dict[str, tuple[int, object]] = {}
        self._advance()

    # --------------------------------------------------------------- reading
    @property
    def over(self) -> bool:
        """The game has ended."""
        return bool(self.state.done[0])

    @property
    def to_move(self) -> int:
        """The seat whose decision is pending (the last mover once over)."""
        return int(self.state.to_move[0])

    def view(self) -> dict:
        """The person's seat view (``game.seat_view``; computed once per position: do not change it)."""
        return self._once("view", lambda: self.game.seat_view(self.state, 0, self.seat))

    def moves(self) -> list[dict]:
        """The person's legal moves now (empty when the game is over or a bot is to move)."""
        return self._once("moves", lambda: [] if self.over or self.to_move != self.seat
                          else self.game.legal_moves(self.state, 0))

    def _once(self, key: str, make):
        version, value = self._cached.get(key, (-1, None))
        if version != self._version:
            value = make()
            self._cached[key] = (self._version, value)
        return value

    def render(self) -> str:
        """The board and the person's moves as plain text."""
        return self.text.render(self.view(), self.moves() or None, self.names)

    def hint(self) -> str:
        """What the person may type now (the view module's ``hint``)."""
        return self.text.hint(self.view(), self.moves())

    def standings(self) -> list[dict] | None:
        """Final results in seat order, ``{"seat", "player", "points", "winner"}``; None before the end.

        Dice games: ``points`` is the final score and every top scorer is a winner; Go-Stop:
        ``points`` is the signed payout (0 each on nagari, where nobody wins).
        """
        if not self.over:
            return None
        result = self.game.result(self.state, 0)
        if "scores" in result:
            points = result["scores"]
            won = [p == max(points) for p in points]
        else:
            w, pay = result["winner"], result["payout"]
            points = [0 if w is None else (pay if s == w else -pay) for s in range(2)]
            won = [s == w for s in range(2)]
        return [{"seat": p["seat"], "player": p["name"], "points": points[p["seat"]],
                 "winner": bool(won[p["seat"]])} for p in self.players]

    def result(self) -> dict | None:
        """The finished game's result, the fields its descriptor's ``result_fields`` name (public
        once the game is over); None before the end."""
        if not self.over:
            return None
        result = self.game.result(self.state, 0)
        return {k: result[k] for k in game_spec(self.game_name).result_fields if k in result}

    def public(self) -> dict:
        """Everything the person's screen shows, JSON-compatible, built from their seat view only.

        ``seed`` is a decimal string (it can exceed what a JavaScript number holds exactly),
        None while the game runs on a seed the person did not choose.  ``text`` is the seat
        view as plain text (the view module's ``render``, what a page without a board of its
        own shows) and ``hint`` what the person may do now (its ``hint``; None once over).
        """
        return {
            "game": self.game_name,
            "title": game_spec(self.game_name).title,
            "seat": self.seat,
            "players": self.players,
            "to_move": self.to_move,
            "your_turn": not self.over,
            "over": self.over,
            "view": self.view(),
            "text": self.text.render(self.view(), None, self.names),
            "hint": None if self.over else self.hint(),
            "moves": self.moves(),
            "log": self.log,
            "standings": self.standings(),
            "result": self.result(),
            "seed": str(self.seed) if self.seed_chosen or self.over else None,
        }

    # --------------------------------------------------------------- playing
    def parse(self, text: str) -> int:
        """The move id a typed text names (an id or a short name); ``ValueError`` with the reason."""
        if self.over:
            raise ValueError("the game is over")
        return self.text.parse(text, self.view(), self.moves())

    def play(self, action: int) -> list[dict]:
        """Make the person's move ``action`` (an int id), then let the bots move until it is the
        person's turn again or the game ends.  Returns the new log entries.

        Raises ``ValueError`` (and changes nothing) when the game is over or the move is not legal.
        """
        if self.over:
            raise ValueError("the game is over")
        action = parse_action(action, self.game.num_actions)
        start = len(self.log)
        self._step(action)
        self._advance()
        return self.log[start:]

    def _step(self, action: int) -> None:
        mover = self.to_move
        before = self.view()
        self.game.step(self.state, np.array([action]))  # validates first: nothing changes on error
        self._logged(mover, action, before)

    def _logged(self, mover: int, action: int, before: dict) -> None:
        """Log the move ``action`` that ``mover`` just made from the view ``before``."""
        self._version += 1
        after = self.view()
        info = self.text.explain(before, action, after, self.names)
        move = self.text.move(before, action)
        self.log.append({
            "n": len(self.log), "seat": mover, "player": self.players[mover]["name"],
            "human": mover == self.seat, "action": action, "kind": move["kind"],
            "text": info.pop("text"), "details": info,
        })

    def _advance(self) -> None:
        """Let the bots move (the match loop) until it is the person's turn or the game is over."""
        before = [self.view()]

        def log(move) -> None:
            self._logged(int(move.seats[0]), int(move.actions[0]), before[0])
            before[0] = self.view()

        bots = [self.bots[s] for s in sorted(self.bots)]  # in seat order around the person
        Match(self.game, bots).play(self.state, self.rng, learner_seat=self.seat, on_move=log)

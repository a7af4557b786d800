"""The descriptor of one game: everything the rest of madang needs to know about it.

Each game's package holds one :class:`GameSpec` named ``SPEC`` in its ``spec`` module
(``envs/yacht/spec.py``); :mod:`envs.registration` finds every such module under ``envs``
and registers it, and :func:`envs.registration.register_game` adds a game from anywhere
else (a plugin, a test game).  Registration, the adapters, the benchmarks and the
conformance tests read games only through these records, so a new game joins by writing
its package and its spec, with no edit elsewhere.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Mapping

from .game import Game

_HOOKS = ("demo_text", "demo_turn_over", "demo_turn_end", "solo_optimum")
"""The fields that name a function as ``module:attr``."""
_BOT_REF_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/")


@dataclasses.dataclass(frozen=True, eq=False)
class GameSpec:
    """One game's descriptor (immutable, compared by identity; ``ValueError`` naming the problem if
    malformed).

    What the game's class already declares is read from it, not repeated here: ``name``
    (the registry key, ``"yacht"``), ``env_id`` (the Gymnasium id), the observation and
    action layouts (``obs_size``, ``obs_slices``, ``num_actions``, ``action_slices``), the
    seats (``min_players``..``max_players``), the reward modes, the view module (the text
    protocol of :mod:`envs.yacht.view`) and :attr:`config_schema` (the class's keywords).

    Fields:

    * ``game_cls``: the batched rules, a :class:`~envs.core.game.Game` subclass whose
      ``name`` and ``env_id`` are set; ``game_cls()`` must build a game (every keyword has
      a default) and its package must export ``ACTION_SLICES`` (the class's
      ``action_slices``).
    * ``title``: the name people read (``"Go-Stop"``); ``summary``: one line about it.
    * ``result_fields``: the keys of :meth:`Game.result
      <envs.core.game.Game.result>` of a finished game, in order (``("scores",)``);
      ``result_reasons``: the values its ``"reason"`` may take (empty: it names none).
    * ``score_label``: what the result's number is called in tables (``"score"``,
      ``"payout"``).
    * ``default_bot``: the opponent a person plays when none is named; ``demo_bots``: the
      bots a demo seats, one per seat; ``test_bot``: a deterministic bot (no randomness
      drawn) the conformance tests compare batched and single envs with.  Bots are named
      as ``agents.load`` takes them (a catalog name or ``module:attr``): ``envs`` never
      imports ``agents``.  ``None``: none (tests then use seeded random play).
    * ``test_configs``: the configurations the conformance harness exercises, the first
      the default one (each a mapping of ``game_cls`` keywords).
    * ``board``: the web front-end's board for this game (its key in the page's board
      table), or ``None`` for the text view (:meth:`Game.render_text
      <envs.core.game.Game.render_text>`).
    * ``demo_text``: ``module:attr`` of a function ``(position dict) -> str`` a demo shows
      at the start of each turn and after each move that changes it (Rainbow Dice: the
      dice), or ``None``.
    * ``demo_turn_over``: ``module:attr`` of a function ``(before, after) -> bool`` on the
      position dicts around one move: whether that move ended the mover's turn, for a game
      whose turns can end with the same seat to move (solitaire Rainbow Dice); ``None``:
      a turn ends when the seat to move changes or the game ends.
    * ``demo_turn_end``: ``module:attr`` of a function ``(before, after, seat) -> str`` a
      demo adds at the end of a turn of ``seat`` (Go-Stop: the cards it captured), from the
      positions at the turn's start and end, or ``None``.
    * ``solo_optimum``: ``module:attr`` of a function ``() -> float``, the best expected
      solitaire score (evaluations report a bot's share of it), or ``None``.
    """

    game_cls: type
    title: str
    summary: str
    result_fields: tuple[str, ...]
    test_configs: tuple[Mapping, ...] = ({},)
    result_reasons: tuple[str, ...] = ()
    score_label: str = "score"
    default_bot: str | None = None
    demo_bots: tuple[str, ...] = ()
    test_bot: str | None = None
    board: str | None = None
    demo_text: str | None = None
    demo_turn_over: str | None = None
    demo_turn_end: str | None = None
    solo_optimum: str | None = None

    def __post_init__(self):
        cls = self.game_cls
        if not (isinstance(cls, type) and issubclass(cls, Game)) or cls is Game:
            raise ValueError(f"GameSpec.game_cls must be a Game subclass, got {cls!r}")
        for attr in ("name", "env_id"):
            if not isinstance(getattr(cls, attr), str) or not getattr(cls, attr):
                raise ValueError(f"GameSpec: {cls.__name__}.{attr} must be a non-empty string")
        for field in ("title", "summary", "score_label"):
            _text(field, getattr(self, field))
        for field in ("result_fields", "result_reasons", "demo_bots"):
            value = getattr(self, field)
            if not isinstance(value, tuple) or not all(isinstance(v, str) and v for v in value):
                raise ValueError(f"GameSpec.{field} must be a tuple of non-empty strings, got {value!r}")
        if not self.result_fields:
            raise ValueError("GameSpec.result_fields must name at least one result key")
        for field, bot in (("default_bot", self.default_bot), ("test_bot", self.test_bot),
                           *(("demo_bots", b) for b in self.demo_bots)):
            _bot_ref(field, bot)
        for field in ("board", *_HOOKS):
            if getattr(self, field) is not None:
                _text(field, getattr(self, field))
        for field in _HOOKS:
            ref = getattr(self, field)
            if ref is not None and ref.count(":") != 1:
                raise ValueError(f"GameSpec.{field} must be 'module:attr', got {ref!r}")
        configs = self.test_configs
        if not isinstance(configs, tuple) or not configs or not all(isinstance(c, Mapping) for c in configs):
            raise ValueError(f"GameSpec.test_configs must be a non-empty tuple of mappings, got {configs!r}")
        schema = self.config_schema
        for config in configs:
            unknown = sorted(set(config) - set(schema))
            if unknown:
                raise ValueError(f"GameSpec.test_configs: {unknown} not keywords of {cls.__name__} "
                                 f"(accepted: {sorted(schema)})")

    @property
    def name(self) -> str:
        """The registry key: the game class's ``name`` (``"yacht"``)."""
        return self.game_cls.name

    @property
    def env_id(self) -> str:
        """The Gymnasium id (``"madang/Yacht-v0"``): the game class's ``env_id``."""
        return self.game_cls.env_id

    @property
    def config_schema(self) -> dict[str, object]:
        """The game's config keywords and their defaults (``inspect.Parameter.empty``: none),
        read from the game class's constructor."""
        params = inspect.signature(self.game_cls.__init__).parameters.values()
        return {p.name: p.default for p in params
                if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}

    def make(self, **config) -> Game:
        """``game_cls(**config)``: a game of this kind."""
        return self.game_cls(**config)


def _text(field: str, value) -> None:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"GameSpec.{field} must be a non-empty string, got {value!r}")


def _bot_ref(field: str, value) -> None:
    """A bot named as ``agents.load`` takes it (or None)."""
    if value is None:
        return
    if not isinstance(value, str) or not value or not set(value) <= _BOT_REF_CHARS:
        raise ValueError(f"GameSpec.{field} must name a bot (a catalog name or module:attr), got {value!r}")

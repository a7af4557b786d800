"""The identity of the game configuration that made a state.

Every state a :class:`~envs.core.game.Game` hands out carries ``state.identity``: the
game's public class and the options that shape its states (seats, Rainbow Dice's market
and starting tokens).  Every public call checks it, so a state can only be stepped,
observed or reset by a game whose configuration made it.  The reward mode is not part of
it: it changes what a step pays, not what a state may hold.

Identities are interned: every game with the same class and options shares one
:class:`GameIdentity` object, so the check is an ``is`` comparison.
"""

from __future__ import annotations

import threading

_INTERNED: dict[tuple, "GameIdentity"] = {}
_LOCK = threading.Lock()


class GameIdentity:
    """Immutable identity of a game configuration: its public class and state-shaping options.

    Build it with :meth:`of`; compare with ``is`` (interned) or ``==``.  ``label`` names it
    in messages (``"RainbowDice(num_players=2, copies_per_hand=10, start_tokens=0)"``);
    :meth:`game` is a game of that configuration (the default reward mode).
    """

    __slots__ = ("game_cls", "options", "label", "_game")

    def __init__(self, game_cls: type, options: tuple[tuple[str, object], ...]):
        object.__setattr__(self, "game_cls", game_cls)
        object.__setattr__(self, "options", options)
        args = ", ".join(f"{k}={v!r}" for k, v in options)
        object.__setattr__(self, "label", f"{game_cls.__name__}({args})")
        object.__setattr__(self, "_game", None)

    @classmethod
    def of(cls, game_cls: type, options: tuple[tuple[str, object], ...]) -> "GameIdentity":
        """The interned identity of ``game_cls`` with ``options`` ((name, value) pairs, in order)."""
        key = (game_cls, options)
        found = _INTERNED.get(key)
        if found is None:
            with _LOCK:
                found = _INTERNED.setdefault(key, cls(game_cls, options))
        return found

    def game(self):
        """A game of this configuration (built once)."""
        if self._game is None:
            object.__setattr__(self, "_game", self.game_cls(**dict(self.options)))
        return self._game

    def __setattr__(self, name, value):
        raise AttributeError("a GameIdentity is immutable")

    def __eq__(self, other) -> bool:
        if self is other:
            return True
        if not isinstance(other, GameIdentity):
            return NotImplemented
        return self.game_cls is other.game_cls and self.options == other.options

    def __hash__(self) -> int:
        return hash((self.game_cls, self.options))

    def __reduce__(self):
        return (GameIdentity.of, (self.game_cls, self.options))

    def __repr__(self) -> str:
        return f"GameIdentity({self.label})"

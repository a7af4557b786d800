"""Pig, the dice game, as a madang game that lives outside ``envs`` (a test of the descriptor).

Two to four players take turns.  On a turn a player rolls one die as often as they like:
each roll adds its value to the turn total, except a 1, which loses the turn total and ends
the turn; holding banks the turn total into the player's score and ends the turn.  The first
player whose banked score (score plus a turn total counts as banked the moment it gets
there) reaches the target (default 30) wins.

Public names: :class:`Pig`, :class:`PigState`, the action ids ``ROLL``/``HOLD`` and
``ACTION_SLICES``, and ``SPEC`` (its :class:`~envs.core.spec.GameSpec`, registered by the
tests with :func:`envs.register_game`).
"""

from .rules import ACTION_SLICES, HOLD, NUM_ACTIONS, ROLL, Pig, PigState
from .spec import SPEC

__all__ = ["ACTION_SLICES", "HOLD", "NUM_ACTIONS", "Pig", "PigState", "ROLL", "SPEC"]

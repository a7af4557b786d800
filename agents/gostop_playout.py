"""Compiled ``gostop-greedy`` and compiled play-outs for Go-Stop search (numba).

:func:`greedy_choice` is the heuristic of :mod:`agents.gostop_greedy` as scalar code over
one game's plain values (the mover's hand, the layout, both captured sets, ...): it reads
the state directly, with no observation round trip, and picks exactly the action the
Python bot picks from the mover's observation (the differential test checks this on random
states of both seats and every phase).  Its only parameters are the Go rule: Go while the
opponent's threat is at most ``go_max`` and the mover holds at least ``go_min_hand`` cards.

:func:`play_out` plays every game of a state to the end of its deal with it, each seat with
its own Go rule, inside one compiled loop calling the rules' own step (``step_one``): what
``agents.play.play_out`` does with two ``GoStopGreedyBot`` s, without decoding, validating
or copying anything between plies.  Like the greedy bot it is deterministic.
"""

from __future__ import annotations

import numpy as np

from envs.core.kernels import kernel
from envs.gostop import GoStop
from envs.gostop import cards as C
from envs.gostop import kernels as K
from envs.gostop.actions import CHOOSE_START, GO, STOP
from envs.gostop.state import GO_STOP, PLAY, GoStopState

from . import gostop_greedy as G

# The heuristic's tables (frozen into the compiled code).
_BASE, _GROUP, _WEIGHT = G._BASE, G._GROUP, G._WEIGHT
_SET_MASKS, _SET_POINTS = G._SET_MASKS, G._SET_POINTS
_MONTH_MASKS = C.MONTH_MASKS
_M_BRIGHTS, _M_SINGLE, _M_DOUBLE = C.M_BRIGHTS, C.M_SINGLE_JUNK, C.M_DOUBLE_JUNK
_ALL = C.ALL_CARDS
_Z = np.uint64(0)
_popcount = K.popcount


@kernel(inline=True)
def _set_gain(own, other, j):
    """The progress gain of set ``j`` for ``own`` (as ``gostop_greedy._progress``)."""
    have = _popcount(own & _SET_MASKS[j])
    g = _SET_POINTS[j] + 1.0 if have == 2 else (1.0 if have == 1 else 0.3)
    return g * (1.0 if (other & _SET_MASKS[j]) == _Z else 0.0)


@kernel(inline=True)
def _set_threat(own, other, j):
    """The blocking gain of set ``j`` against ``own`` (as ``gostop_greedy._threat``)."""
    near = _popcount(own & _SET_MASKS[j]) == 2 and (other & _SET_MASKS[j]) == _Z
    return _SET_POINTS[j] if near else 0.0


@kernel(inline=True)
def card_values(cap_me, cap_op, out):
    """Fill ``out[:48]`` (float64) with the mover's value of capturing each card
    (``gostop_greedy.card_values``, the same float operations in the same order)."""
    b = _popcount(cap_me & _M_BRIGHTS)
    units = _popcount(cap_me & _M_SINGLE) + 2 * _popcount(cap_me & _M_DOUBLE)
    mine = (_set_gain(cap_me, cap_op, 0), _set_gain(cap_me, cap_op, 1), _set_gain(cap_me, cap_op, 2),
            _set_gain(cap_me, cap_op, 3), 3.0 if b >= 2 else (0.8 if b == 1 else 0.0),
            0.8 if units >= 7 else 0.0, 0.0)
    deny = (_set_threat(cap_op, cap_me, 0), _set_threat(cap_op, cap_me, 1), _set_threat(cap_op, cap_me, 2),
            _set_threat(cap_op, cap_me, 3), 3.0 if _popcount(cap_op & _M_BRIGHTS) >= 2 else 0.0, 0.0, 0.0)
    for c in range(48):
        gr = _GROUP[c]
        out[c] = (_BASE[c] + mine[gr] * _WEIGHT[c]) + 0.8 * deny[gr]


@kernel(inline=True)
def _threat_of(cap_op, cap_me, score_op):
    """The opponent's threat (``gostop_greedy.opponent_threat``)."""
    near = 0
    for j in range(4):
        if _popcount(cap_op & _SET_MASKS[j]) == 2 and (cap_me & _SET_MASKS[j]) == _Z:
            near += 1
    if _popcount(cap_op & _M_BRIGHTS) >= 2:
        near += 1
    return score_op + 3.0 * near


@kernel(inline=True)
def _play_score(a, hand, layout, cap_me, cap_op, own_stack, values):
    """The heuristic's preference for playing the hand card ``a``."""
    m = a // 4
    v = values[a]
    month = layout & _MONTH_MASKS[m]
    n = _popcount(month)
    if n == 0:  # placed: cheap cards of months with no unseen card left first
        unseen = ~(hand | layout | cap_me | cap_op) & _ALL
        exposed = (unseen & _MONTH_MASKS[m]) != _Z
        return -(0.6 * v if exposed else 0.0) - 0.01 * v
    total, top = 0.0, 0.0
    for c in range(4 * m, 4 * m + 4):
        lv = values[c] if (month >> np.uint64(c)) & np.uint64(1) else 0.0
        total += lv
        top = max(top, lv)
    if n == 1:
        return v + total
    if n == 2:
        return v + top
    return v + (total + (2.0 if own_stack else 1.0) * 1.5)


@kernel(inline=True)
def greedy_choice(ph, hand, layout, cap_me, cap_op, played, flipped, own_stacks, score_op,
                  go_max, go_min_hand, values):
    """The action ``gostop-greedy`` takes for the mover of one live game.

    ``hand``, ``cap_me`` / ``cap_op`` are the mover's hand and both captured sets, ``own_stacks``
    the months (bit ``m``) of the mover's ppuk stacks, ``score_op`` the opponent's score;
    ``go_max`` / ``go_min_hand`` the Go rule; ``values`` a (48,) float64 work buffer.
    Ties go to the lowest action id, as ``np.argmax`` does.
    """
    card_values(cap_me, cap_op, values)
    if ph == GO_STOP:
        safe = _threat_of(cap_op, cap_me, score_op) <= go_max and _popcount(hand) >= go_min_hand
        return GO if safe else STOP
    x, base = K.legal_cards(ph, hand, layout, played, flipped)
    best, best_score = -1, -np.inf
    while x != _Z:
        c = np.int64(K.trailing_zeros(x))
        x &= x - np.uint64(1)
        if ph == PLAY:
            s = _play_score(c, hand, layout, cap_me, cap_op, (own_stacks >> (c // 4)) & 1, values)
        else:
            s = values[c]
        if s > best_score:
            best, best_score = c, s
    return base + best


@kernel(inline=True)
def _own_stacks(ppuk_owner, i, p):
    """Bit ``m`` set for each month whose ppuk stack seat ``p`` owns."""
    bits = 0
    for m in range(12):
        if ppuk_owner[i, m] == p:
            bits |= 1 << m
    return bits


@kernel(inline=True)
def _greedy_row(i, go_max, go_min, s, values):
    """:func:`greedy_choice` for game ``i``'s mover, with that seat's Go rule (``s``: the state's
    arrays, ``envs.gostop.kernels.unpack``)."""
    p = s.to_move[i]
    q = 1 - p
    return greedy_choice(s.phase[i], s.hands[i, p], s.layout[i], s.captured[i, p], s.captured[i, q],
                         s.played[i], s.flipped[i], _own_stacks(s.ppuk_owner, i, p), s.score[i, q],
                         go_max[i, p], go_min[i, p], values)


@kernel
def greedy_rows(go_max, go_min, buf, values, out):
    """``out[i]``: :func:`greedy_choice` for the mover of each live game ``i`` of the state
    buffer ``buf``."""
    s = K.unpack(buf)
    for i in range(out.shape[0]):
        out[i] = _greedy_row(i, go_max, go_min, s, values)


@kernel
def play_out_rows(first, go_max, go_min, buf, rewards, values):
    """Play every game ``i`` of the state buffer ``buf`` to its end: its legal action ``first[i]``
    (none when negative), then :func:`greedy_choice` for both seats (seat ``s`` with
    ``go_max[i, s]``, ``go_min[i, s]``).  The deal's final rewards go to ``rewards[i]`` (zeroed by
    the caller)."""
    s = K.unpack(buf)
    for i in range(first.shape[0]):
        a = first[i]
        while not s.done[i]:
            if a < 0:
                a = _greedy_row(i, go_max, go_min, s, values)
            K.step_one(i, a, i, s, rewards, 0)
            a = -1


_RULES = GoStop()


def _go_rules(go_rules, B: int):
    """(B, 2) float64 and int64 arrays of each seat's (go_max, go_min_hand)."""
    rules = np.asarray(go_rules, dtype=np.float64)
    if rules.shape == (2, 2):
        rules = np.broadcast_to(rules, (B, 2, 2))
    if rules.shape != (B, 2, 2) or not np.isfinite(rules).all() or (rules[..., 1] != np.rint(rules[..., 1])).any():
        raise ValueError(f"go_rules must be (2, 2) or ({B}, 2, 2) (go_max, go_min_hand) per seat "
                         f"with whole go_min_hand, got shape {rules.shape}")
    return np.ascontiguousarray(rules[..., 0]), np.ascontiguousarray(rules[..., 1]).astype(np.int64)


DEFAULT_RULES = ((G.GO_MAX_OPP_SCORE, G.GO_MIN_HAND),) * 2
"""Both seats Go by ``gostop-greedy``'s own rule."""


def greedy_actions(state: GoStopState, go_rules=DEFAULT_RULES, check: bool = True) -> np.ndarray:
    """(B,) int64: the compiled greedy's action for the mover of each game of ``state`` (none over).

    ``go_rules`` (2, 2) or (B, 2, 2): each seat's ``(go_max, go_min_hand)``.  Raises
    ``ValueError`` for a bad state, a finished game or bad rules.
    """
    if check:
        _RULES.check_state(state)
        if state.done.any():
            raise ValueError(f"game {int(np.flatnonzero(state.done)[0])} is over: it has no action")
    go_max, go_min = _go_rules(go_rules, state.batch_size)
    out = np.empty(state.batch_size, np.int64)
    greedy_rows(go_max, go_min, state.buffer, np.empty(48), out)
    return out


def play_out(state: GoStopState, go_rules=DEFAULT_RULES, first=None, check: bool = True) -> np.ndarray:
    """Play every game of ``state`` to its end (mutating it); return (B, 2) float32 rewards.

    ``first`` (B,) optional: each game's first action (-1: none), legal in its state; then the
    compiled greedy plays both seats, seat ``s`` of game ``i`` with ``go_rules[i, s]`` (see
    :func:`greedy_actions`).  The rewards are the deal's final payouts (finished games: 0).
    With ``check`` the state and the first actions are validated first (``ValueError``, nothing
    changed).
    """
    B = state.batch_size
    first = np.full(B, -1, np.int64) if first is None else np.asarray(first)
    if check:
        _RULES.check_state(state)
        if first.shape != (B,) or not np.issubdtype(first.dtype, np.integer):
            raise ValueError(f"first must be ({B},) integer actions, got {first.shape} {first.dtype}")
        given = np.flatnonzero(first >= 0)
        if given.size:
            _RULES.check_actions(state.take(given, check=False), first[given])
    go_max, go_min = _go_rules(go_rules, B)
    rewards = np.zeros((B, 2), np.float32)
    play_out_rows(first.astype(np.int64), go_max, go_min, state.buffer, rewards, np.empty(48))
    return rewards

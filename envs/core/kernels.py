"""Compiled building blocks shared by every game's kernels (numba, cached on disk).

Each game's rules run as numba kernels: scalar code for one game, called in a compiled
loop over the batch, reading and writing the ``BatchState`` arrays in place.  This module
holds what all games share: the :func:`kernel` decorator, the counter-based random streams
of :mod:`envs.core.rng` as scalar functions with bit-identical draws, and the loops behind
``Game.check_actions``, ``Game.observer_seats`` and ``sample_legal``.

The pattern (``envs/yacht/kernels.py`` + ``envs/yacht/rules.py`` are the template)
----------------------------------------------------------------------------------
1. **Kernels**: ``envs/<game>/kernels.py`` holds only functions decorated with
   :func:`kernel` (``njit(cache=True, _nrt=False)``).  Per-game helpers
   (``_pass_turn(i, seat, s)``) are ``@kernel(inline=True)``, take the unpacked state ``s``
   (below) and indices, never its arrays one by one (``tests/test_kernel_signatures.py``
   checks every kernel), and read like the rules.  Three
   public per-game functions, also inline, are the rules of one game ``i`` for compiled
   callers (a search's play-out) as for the batch loops: ``step_one(i, a, r, s, rewards,
   cfg)`` applies action ``a`` (rewards into row ``r``; ``cfg`` the game's step options),
   ``mask_one(i, s, row)`` and ``observe_one(i, seat, s, row, cfg)`` fill one row of a mask
   or an observation (``cfg`` the game's observation options, None for most games).  The
   exported kernels (``new_games``, ``legal_mask``, ``step``, ``step_rows``, ``observe``)
   are the batch loops of this module (:func:`step_all`,
   :func:`step_rows_all`, :func:`mask_all`, :func:`observe_all`) over them.  They take
   the state as one argument, its buffer (``state._buf``, see :mod:`envs.core.state`),
   and rebuild the field views inside with the game's ``unpack(buf)`` (a namedtuple
   ``Arrays`` of the fields, in order, written with :func:`block`); the scalar rules take
   that namedtuple ``s`` and mutate its arrays in place (``s.dice[i] = ...``).  ``new_games(buf,
   rows, ...)`` writes fresh games into the rows ``rows`` of a state buffer, each continuing
   its row's stream: the game's ``new_games`` fills a ``state_cls.empty(B, P)`` holding the
   streams, and its ``_reset_rows`` writes straight into the state being reset.
2. **No allocation inside kernels** (``_nrt=False``): the Python side allocates every
   output (masks, observations, rewards) and scratch buffer and passes it in.  With
   numba's runtime on, each call of a helper from the batch loop pays atomic reference
   counts on every array argument: Yacht's step ran 5-10x slower that way.
3. **Tables are module globals** of the kernel module (numba freezes them into the
   compiled code; passing them as arguments costs ~0.1 µs each per call).  The disk cache
   is keyed on the source files of every module the kernel's module imports names from
   (:func:`~envs.core.numba_cache.dependency_files`), so changing a table's module
   recompiles the kernels that read it.
4. **uint64 arithmetic**: numba turns ``uint64 op int64`` into float64.  Keep every
   operand of a stream computation uint64 (``np.uint64(...)``, the ``_S*`` shift
   constants).  Draw with :func:`draw_u64`, :func:`draw_int`, :func:`draw_ints` and
   :func:`draw_permutation`, and advance ``rng_counter[i]`` by exactly as many draws as
   the numpy code did, so streams stay bit-identical.
5. **Floats**: compute each observation value as the oracle does (the same float32
   tables, or float64 then one rounding); avoid sums whose order may differ (a BLAS dot
   product rounds differently on different CPUs).
6. **The Game class** (``rules.py``) fills in :class:`~envs.core.game.Game`'s hooks:
   ``new_games``, ``_legal_mask``, ``_apply``, ``_apply_rows`` (``step_where`` without
   copies) and ``_observe`` allocate outputs and call one kernel each; the public methods
   around them validate, and ``ValueError`` messages stay in Python (kernels return
   indices or codes, as :func:`first_bad_action`).  ``state_cls`` names the state class
   and ``checker`` its check: ``envs/<game>/checks.py`` lists the state's arrays
   (``FIELDS``: name, dtype, shape after the batch axis) and one kernel that checks their
   shapes and every invariant of a game (``RULES``), compiled for exactly those dtypes
   (:class:`~envs.core.state_check.StateChecker`).  Every state the rules reach and every
   loaded position must pass it; the random-play and position tests check that.  The checked
   ``step``, ``legal_mask`` and ``observe`` each validate and act in one dispatch: ``checks.py``
   holds those kernels (the check's rules inlined before the batch loops, the step's action
   check in :func:`step_checked_all`), named with their trailing arguments by the game's
   ``_fused_call(kind)``.
7. **The oracle**: move the former numpy implementation to
   ``tests/oracles/<game>_numpy.py`` as a subclass of the game overriding those methods,
   with ``ORACLE = ThatClass`` (``madang bench`` finds it there).  Write
   ``tests/test_<game>_compiled.py``: both cores with the same seeds and actions,
   comparing masks, observations (every seat), rewards, ``to_move``, ``done`` and the
   whole state (``BatchState.equals``) at every step, through ``step``, ``step_where``
   and ``reset_where``, from fresh games and from positions: a CI-sized sample, and 10^5
   games as a ``@pytest.mark.soak`` test.  Check that the test fails on a planted bug.
8. **Compile cache**: ``tests/test_compile_cache.py`` runs ``tests/compile_workload.py``
   (every game through the public API) in two fresh processes and checks that the second
   loads every kernel of ``envs/<game>/kernels.py`` and the state check from the cache
   (numba's dispatcher statistics); nothing to add per game.
9. **No JIT**: under ``NUMBA_DISABLE_JIT=1`` the kernels run as Python (for debugging);
   numba intrinsics need a Python stand-in (Go-Stop's ``trailing_zeros``), and
   ``tests/test_no_jit.py`` checks that every game plays the same games that way.
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import config as _numba_config
from numba import njit

from .numba_cache import guard_cache
from .state import HEADER
from .rng import _GAMMA, _M1, _M2, _S27, _S30, _S31, _S32  # the uint64 constants of the streams


def jit_disabled() -> bool:
    """True under ``NUMBA_DISABLE_JIT=1`` (for debugging): kernels run as Python, unchecked."""
    return bool(_numba_config.DISABLE_JIT)


if jit_disabled():  # as Python, the streams' uint64 arithmetic wraps around with numpy's warnings
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning, r"envs\.")


def kernel(fn=None, *, inline: bool = False):
    """``numba.njit(cache=True, _nrt=False)``: the decorator of every game kernel.

    Its disk cache recovers from corrupted files (:func:`~envs.core.numba_cache.guard_cache`).

    Kernels cannot allocate arrays (callers pass outputs and scratch buffers in), and
    calling one kernel from another costs no reference counting.  ``inline=True`` inlines
    a per-game helper into its callers (numba's ``inline="always"``).
    """
    options = dict(cache=True, _nrt=False, inline="always" if inline else "never")
    if fn is None:
        return lambda f: guard_cache(njit(**options)(f))
    return guard_cache(njit(**options)(fn))


def compiled_for(dispatcher, *signatures) -> None:
    """Compile (or load from the disk cache) ``dispatcher`` for exactly ``signatures`` (tuples of
    numba argument types) and for nothing else: a call with any other argument types (another
    dtype, a read-only or strided array) raises ``TypeError`` instead of compiling a new
    version, so a caller may rely on numba's dispatch to check its arguments' types."""
    if jit_disabled():
        return
    missing = [tuple(sig) for sig in signatures if tuple(sig) not in dispatcher.overloads]
    if missing:
        dispatcher.disable_compile(False)
        try:
            for sig in missing:
                dispatcher.compile(sig)
        finally:
            dispatcher.disable_compile()


# ------------------------------------------------------------- random streams
@kernel(inline=True)
def mix(z):
    """The splitmix64 finaliser of one uint64 (as :func:`envs.core.rng._mix`)."""
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@kernel(inline=True)
def draw_u64(key, counter):
    """Raw draw number ``counter`` of the stream ``key`` (uint64; as ``rng.draw_u64``).

    Does not advance anything: the caller adds the draws it consumed to ``rng_counter``.
    """
    return mix(np.uint64(key) + np.uint64(counter) * _GAMMA)


@kernel(inline=True)
def draw_int(key, counter, high):
    """Draw number ``counter`` as an int64 uniform in ``[0, high)`` (as ``rng.draw_index`` and
    element ``j`` of ``rng.draw_ints`` at ``counter + j``): multiply-shift of the top 32 bits."""
    top = draw_u64(key, counter) >> _S32
    return np.int64((top * np.uint64(high)) >> _S32)


@kernel
def draw_ints(key, counter, high, out):
    """Fill ``out`` (n,) with draws ``counter .. counter + n - 1`` uniform in ``[0, high)``
    (as ``rng.draw_ints(key, counter, n, high)`` for one game)."""
    c = np.uint64(counter)
    for j in range(out.shape[0]):
        out[j] = draw_int(key, c + np.uint64(j), high)


@kernel
def draw_permutation(key, counter, scratch, out):
    """Fill ``out`` (n,) with a uniform permutation of ``0..n-1`` from draws ``counter ..``
    (as ``rng.draw_permutations``: the stable argsort of the n raw draws).

    ``scratch`` is a uint64 buffer of at least n entries (overwritten).  The draws of one
    stream are distinct (splitmix64 is a bijection), so every correct sort gives this order;
    this one is an insertion sort, quick for a deck of cards.
    """
    n = out.shape[0]
    c = np.uint64(counter)
    for j in range(n):
        v = draw_u64(key, c + np.uint64(j))
        k = j
        while k > 0 and scratch[k - 1] > v:
            scratch[k] = scratch[k - 1]
            out[k] = out[k - 1]
            k -= 1
        scratch[k] = v
        out[k] = j


@kernel(inline=True)
def key_from_seed(seed):
    """The stream key of one seed already reduced to uint64 (as ``rng.keys_from_seeds``)."""
    s = np.uint64(seed)
    return mix(s * _GAMMA + _GAMMA)


# ------------------------------------------------------------- the state buffer
@kernel(inline=True)
def dims(buf):
    """``(B, P)``: the batch size and the number of seats of a state buffer (its header)."""
    h = buf[:HEADER].view(np.int64)
    return h[0], h[1]


@kernel(inline=True)
def block(buf, o, n, size, dtype):
    """The field of ``n`` items of ``dtype`` (``size`` bytes each) at byte ``o`` of a state
    buffer, as a 1-d view, and the byte where the next field starts (blocks are padded to 8
    bytes, as :mod:`envs.core.state` lays them out).  A game's ``unpack`` reshapes it."""
    nbytes = n * size
    return buf[o:o + nbytes].view(dtype), o + (nbytes + 7) // 8 * 8


# ---------------------------------------------------------------- batch loops
# Every game's exported kernels are these loops over its scalar rules, each a thin entry
# point: ``step(buf, actions, rewards, cfg)`` is ``step_all(step_one, unpack(buf), ...)``.
# They are inlined into the entry points rather than compiled as kernels taking the rules
# as an argument: numba keys a compiled function's disk cache on its argument types, and a
# function argument's type is its dispatcher object, new in every process, so such a
# kernel would compile afresh in every process.
@kernel(inline=True)
def step_all(step_one, s, actions, rewards, cfg):
    """``step_one(i, actions[i], i, s, rewards, cfg)`` for every game ``i`` of the batch."""
    for i in range(actions.shape[0]):
        step_one(i, actions[i], i, s, rewards, cfg)


@kernel(inline=True)
def step_rows_all(step_one, s, rows, actions, rewards, cfg):
    """``step_one(rows[j], actions[j], j, s, rewards, cfg)`` for every ``j``: rewards row ``j``."""
    for j in range(rows.shape[0]):
        step_one(rows[j], actions[j], j, s, rewards, cfg)


@kernel(inline=True)
def mask_all(mask_one, s, out):
    """``mask_one(i, s, out[i])`` for every game ``i``: the (B, A) legal mask."""
    for i in range(out.shape[0]):
        mask_one(i, s, out[i])


@kernel(inline=True)
def observe_all(observe_one, s, seats, out, cfg=None):
    """``observe_one(i, seats[i], s, out[i], cfg)`` for every game ``i``: the (B, O) observations
    (``cfg``: the game's observation options, as the step's; None for a game with none)."""
    for i in range(out.shape[0]):
        observe_one(i, seats[i], s, out[i], cfg)


MASK_BLOCK = 64
"""Games per block of the checked step's action check (:func:`step_checked_all`)."""


@kernel(inline=True)
def no_touch(i, s):
    """The ``touch_one`` of a game whose masks read no large table: nothing to read ahead."""
    return np.uint64(0)


@kernel(inline=True)
def step_checked_all(step_one, mask_one, touch_one, s, actions, rewards, row, cfg):
    """The action check of ``Game.step`` then the step, in one pass of the caller's kernel:
    ``(kind, i, touched)``, ``(kind, i)`` as :func:`first_bad_action` (``row`` (A,) bool is
    scratch for one game's mask); the games are stepped only when every action is fine
    (``kind`` 0).

    The masks go in blocks of :data:`MASK_BLOCK` games: ``touch_one(i, s)`` first reads, for
    every game of the block in a loop of its own, the table entries its mask reads at random
    (a uint64 of them, xored into ``touched``), so that their cache misses overlap
    (``no_touch`` for a game whose masks read no large table).  The caller returns
    ``touched``, which keeps those reads.

    A game's checked step kernel (``envs/<game>/checks.py``) runs the state check first, so
    one dispatch validates and steps.
    """
    B = actions.shape[0]
    touched = np.uint64(0)
    for i in range(B):
        if s.done[i]:
            return 1, i, touched
    A = row.shape[0]
    for i in range(B):
        if actions[i] < 0 or actions[i] >= A:
            return 2, i, touched
    for start in range(0, B, MASK_BLOCK):
        stop = min(B, start + MASK_BLOCK)
        for i in range(start, stop):
            touched ^= touch_one(i, s)
        for i in range(start, stop):
            mask_one(i, s, row)
            if not row[actions[i]]:
                return 3, i, touched
    step_all(step_one, s, actions, rewards, cfg)
    return 0, -1, touched


# ------------------------------------------------------------ batch validation
@kernel
def first_bad_action(actions, done, mask):
    """Validation of a batch of actions, in the order of ``Game.check_actions``.

    Returns ``(kind, i)``: ``kind`` 0 when every action is fine, 1 when game ``i`` is done
    (the first done game), 2 when action ``i`` is out of range (the first one), 3 when
    action ``i`` is illegal (the first one); ``i`` is -1 when ``kind`` is 0.
    """
    B = actions.shape[0]
    A = mask.shape[1]
    for i in range(B):
        if done[i]:
            return 1, i
    for i in range(B):
        if actions[i] < 0 or actions[i] >= A:
            return 2, i
    for i in range(B):
        if not mask[i, actions[i]]:
            return 3, i
    return 0, -1


@kernel
def first_bad_row(actions, mask):
    """The first row whose action is out of range or illegal: ``(kind, i)`` with ``kind`` 2
    (out of range) or 3 (illegal), or ``(0, -1)`` when every action is legal."""
    A = mask.shape[1]
    for i in range(actions.shape[0]):
        if actions[i] < 0 or actions[i] >= A:
            return 2, i
        if not mask[i, actions[i]]:
            return 3, i
    return 0, -1


@kernel
def first_out_of_range(values, low, high):
    """Index of the first entry of ``values`` outside ``low..high-1``, or -1."""
    for i in range(values.shape[0]):
        if values[i] < low or values[i] >= high:
            return i
    return -1


# ------------------------------------------------------------------- sampling
@guard_cache
@njit(cache=True)
def accept_candidates(mask, todo, cand, actions):
    """One rejection round of ``sample_legal``: rows ``todo`` take ``cand`` where legal.

    Writes the accepted actions, returns the rows still to do (in order).
    """
    left = np.empty(todo.shape[0], dtype=np.int64)
    n = 0
    for j in range(todo.shape[0]):
        row = todo[j]
        if mask[row, cand[j]]:
            actions[row] = cand[j]
        else:
            left[n] = row
            n += 1
    return left[:n]


@kernel(inline=True)
def legal_count(mask, row):
    """The number of legal actions in row ``row`` of a (B, A) bool mask."""
    k = 0
    for a in range(mask.shape[1]):
        k += mask[row, a]
    return k


@kernel(inline=True)
def nth_legal(mask, row, r):
    """The ``r``-th legal action (counting from 0) of row ``row`` of a (B, A) bool mask, for
    ``r`` below :func:`legal_count`; -1 otherwise."""
    seen = 0
    for a in range(mask.shape[1]):
        seen += mask[row, a]
        if seen > r:
            return a
    return -1


@kernel
def pick_legal(mask, row, u):
    """The ``int(u * k)``-th legal action of row ``row`` of a (B, A) bool mask with ``k`` legal
    actions (``u`` in [0, 1)); 0 for a row with none."""
    k = legal_count(mask, row)
    return nth_legal(mask, row, np.int64(u * k)) if k else 0


@kernel
def pick_nth_legal(mask, todo, u, actions):
    """The fallback of ``sample_legal``: row ``todo[j]`` takes its ``int(u[j] * k)``-th legal
    action (``k`` legal actions; rows with none keep their action)."""
    for j in range(todo.shape[0]):
        row = todo[j]
        k = legal_count(mask, row)
        if k:
            actions[row] = nth_legal(mask, row, np.int64(u[j] * k))

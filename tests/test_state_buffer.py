"""The state object: every state's fields are views of one buffer, the buffer is what the kernels take."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from numba import njit

from envs.core.sampling import sample_legal
from envs.gostop import kernels as gostop_kernels
from envs.gostop.rules import GoStop
from envs.rainbow_dice import kernels as rainbow_kernels
from envs.rainbow_dice.rules import RainbowDice
from envs.yacht import kernels as yacht_kernels
from envs.yacht.rules import Yacht

GAMES = [(Yacht(3), yacht_kernels), (RainbowDice(3), rainbow_kernels), (GoStop(), gostop_kernels)]


def _played(game, seeds, steps: int = 7):
    state = game.init(seeds)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        live = ~state.done
        game.step_where(state, live, sample_legal(game.legal_mask(state), rng)[live])
    return state


def _unpacker(kernels):
    return njit(lambda buf: kernels.unpack(buf))


@pytest.mark.parametrize("game, kernels", GAMES, ids=lambda g: getattr(g, "name", ""))
def test_the_kernels_read_the_fields_where_python_sees_them(game, kernels):
    state = _played(game, np.arange(5))
    inside = _unpacker(kernels)(state._buf)
    fields = state._arrays()
    assert len(inside) == len(fields)
    for (name, view), seen in zip(fields.items(), inside):
        assert view.flags.c_contiguous and view.flags.writeable, name
        assert np.shares_memory(view, state._buf), name
        assert seen.dtype == view.dtype and seen.shape == view.shape, name
        assert seen.__array_interface__["data"][0] == view.__array_interface__["data"][0], name


@pytest.mark.parametrize("game, kernels", GAMES, ids=lambda g: getattr(g, "name", ""))
def test_assigning_fields_copies_into_what_the_kernels_read(game, kernels):
    a, b = _played(game, np.arange(4)), _played(game, np.arange(4) + 50)
    buf = a._buf
    for name, value in b._arrays().items():
        setattr(a, name, value.copy())
    assert a._buf is buf and a.equals(b)
    assert np.array_equal(game.observe(a), game.observe(b))
    assert np.array_equal(game.legal_mask(a), game.legal_mask(b))
    actions = sample_legal(game.legal_mask(b), np.random.default_rng(1))
    live = ~b.done
    assert np.array_equal(game.step_where(a, live, actions[live]), game.step_where(b, live, actions[live]))
    assert a.equals(b)


def test_an_assignment_of_another_dtype_or_shape_is_refused_and_changes_nothing():
    game = Yacht(2)
    state = _played(game, np.arange(3))
    before = state.copy()
    for value in (state.sheets.astype(np.int32), state.sheets[:2].copy(), state.sheets.tolist(), None):
        with pytest.raises(ValueError, match="state field sheets must be a int16 array of shape"):
            state.sheets = value
        assert state.equals(before)


@pytest.mark.parametrize("game, kernels", GAMES, ids=lambda g: getattr(g, "name", ""))
def test_copies_pickles_and_slices_own_their_buffers(game, kernels):
    state = _played(game, np.arange(4))
    for other in (state.copy(), pickle.loads(pickle.dumps(state)), copy.deepcopy(state), state.take([0, 1, 2, 3]),
                  type(state).concat([state.take([0, 1]), state.take([2, 3])])):
        assert other.equals(state) and other._buf is not state._buf
        assert all(np.shares_memory(v, other._buf) for v in other._arrays().values())
        live = ~other.done
        actions = sample_legal(game.legal_mask(other), np.random.default_rng(2))[live]
        game.step_where(other, live, actions)  # the kernels write the copy's own buffer
        game.check_state(other)
        assert not other.equals(state) or not live.any()
    target = game.init(np.arange(4) + 9)
    state.copy_into(target)
    assert target.equals(state) and target._buf is not state._buf

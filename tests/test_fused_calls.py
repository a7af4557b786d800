"""The checked calls' one-dispatch path: what it caches cannot go stale, every argument it does
not take goes the general way, and the new games it writes in place are the generic ones."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from envs.core.game import Game
from envs.core.sampling import sample_legal
from envs.core.state import HEADER
from envs.gostop import GoStop
from envs.rainbow_dice import RainbowDice
from envs.yacht import Yacht

GAMES = [Yacht(2), RainbowDice(3, copies_per_hand=None, start_tokens=2), GoStop()]


def _played(game, batch=4, steps=9):
    state = game.init(np.arange(batch) + 3)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        live = ~state.done
        game.step_where(state, live, sample_legal(game.legal_mask(state), rng)[live])
    return state


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@pytest.mark.parametrize("name", ["num_players", "num_actions", "obs_size", "reward"])
def test_a_games_configuration_is_fixed_once_made(game, name):
    """Setting or deleting a game's public attribute after its constructor raises, changing nothing
    (the kernels' output sizes, seats and rewards come from it: a change could send them past an
    array); a state it made keeps working."""
    state = _played(game)
    value = getattr(game, name)
    with pytest.raises(AttributeError, match="fixed when it is made"):
        setattr(game, name, 40)
    with pytest.raises(AttributeError, match="cannot be deleted"):
        delattr(game, name)
    assert getattr(game, name) == value
    game.legal_mask(state)
    game.observe(state)


def test_a_subclass_of_a_game_is_sealed_after_its_own_constructor():
    class Wider(Yacht):
        def __init__(self):
            super().__init__(2)
            self.extra = 1  # still constructing: allowed

    g = Wider()
    assert g.extra == 1 and g.num_players == 2
    with pytest.raises(AttributeError):
        g.extra = 2


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_buffer_header_rewritten_through_state_buffer_is_refused(game):
    state = _played(game)
    before = state.copy(check=False)
    header = state.buffer[:16].view(np.int64)
    for value in (0, 1, state.batch_size - 1):
        header[0] = value
        for call in (lambda: game.legal_mask(state), lambda: game.observe(state), lambda: game.check_state(state),
                     lambda: game.step(state, np.zeros(state.batch_size, np.int64)),
                     lambda: game.reset_where(state, np.ones(state.batch_size, bool))):
            with pytest.raises(ValueError, match="header"):
                call()
    header[0] = state.batch_size
    assert state.equals(before)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_reshaped_done_view_is_refused(game):
    state = _played(game)
    state.done.shape = (2, state.batch_size // 2)
    for call in (lambda: game.legal_mask(state), lambda: game.observe(state), lambda: game.check_state(state)):
        with pytest.raises(ValueError):
            call()


def test_a_state_of_another_class_with_this_games_identity_is_refused():
    rainbow, yacht = RainbowDice(2), Yacht(2)
    state = rainbow.init([0, 1])
    state.identity = yacht.identity
    before = state.copy(check=False)
    for call in (lambda: yacht.reset_where(state, np.ones(2, bool)), lambda: yacht.legal_mask(state),
                 lambda: yacht.check_state(state)):
        with pytest.raises(ValueError, match="expected a YachtState"):
            call()
    assert state.equals(before)


def test_the_layout_template_is_read_only():
    from envs.core.state import layout_of
    from envs.rainbow_dice.rules import RainbowState

    template = layout_of(RainbowState, 4, 2)[4]
    with pytest.raises(ValueError):
        template[:8] = 0
    assert RainbowDice(2).init(np.arange(4)).buffer.flags.writeable


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_state_changed_after_a_call_is_checked_again(game):
    state = _played(game)
    game.step(state, sample_legal(game.legal_mask(state), np.random.default_rng(1)))  # the fused path ran
    state.to_move[0] = 9
    before = state.copy(check=False)
    for call in (lambda: game.step(state, np.zeros(4, np.int64)), lambda: game.legal_mask(state),
                 lambda: game.observe(state), lambda: game.reset_where(state, np.zeros(4, bool))):
        with pytest.raises(ValueError, match="to_move must be a seat"):
            call()
        assert state.equals(before)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_arguments_the_fused_kernels_do_not_take_give_the_same_results(game):
    state = _played(game)
    while state.done.any():
        game.reset_where(state, state.done)
    actions = sample_legal(game.legal_mask(state), np.random.default_rng(2))
    read_only = actions.copy()
    read_only.flags.writeable = False
    strided = np.repeat(actions, 2)[::2]
    for given in (read_only, strided, actions.astype(np.int32), actions.tolist()):
        a, b = state.copy(), state.copy()
        np.testing.assert_array_equal(game.step(a, given), game.step(b, actions, check=False))
        assert a.equals(b)
    seats = np.zeros(4, np.int64)
    seats.flags.writeable = False
    np.testing.assert_array_equal(game.observe(state, seats), game.observe(state, np.zeros(4, int), check=False))
    where = np.array([True, False, True, False])
    where.flags.writeable = False
    a, b = state.copy(), state.copy()
    assert game.reset_where(a, where).tolist() == [0, 2]
    game.reset_where(b, np.array([0, 2]), check=False)
    assert a.equals(b)


@pytest.mark.parametrize("game", GAMES[:2], ids=lambda g: g.name)
def test_new_games_written_in_place_are_the_generic_new_games(game):
    state = _played(game, batch=5, steps=40)
    rows = np.array([4, 0, 2])
    generic, in_place = state.copy(), state.copy()
    Game._reset_rows(game, generic, rows)  # new_games from the rows' streams, then put
    game._reset_rows(in_place, rows)
    assert in_place.equals(generic) and not in_place.equals(state)
    game.check_state(in_place)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_one_layout_for_empty_states_built_states_copies_and_pickles(game):
    state = _played(game, batch=3)
    empty = type(state).empty(3, game.num_players)
    assert empty._buf.shape == state._buf.shape and not empty._buf[HEADER:].any()
    assert empty._buf[:HEADER].tobytes() == state._buf[:HEADER].tobytes()
    for other in (empty, state.copy(), pickle.loads(pickle.dumps(state)), state.take([0, 1, 2]),
                  type(state)(**{k: v.copy() for k, v in state._arrays().items()})):
        assert other._layout[3] == state._layout[3]
        for (name, view), mine in zip(other._arrays().items(), state._arrays().values()):
            assert view.dtype == mine.dtype and view.shape == mine.shape and np.shares_memory(view, other._buf), name

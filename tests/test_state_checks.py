"""The public core API checks the states it is given (identity, structure, contents) and its
``where`` / index arguments, and a call that raises changes nothing.

Each finding of the hostile pass that crashed the process or gave silent wrong numbers is a
case here; ``tests/test_fuzz_core.py`` covers every field at every dtype extreme in
subprocesses.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from envs.core.sampling import sample_legal
from envs.gostop import GoStop
from envs.rainbow_dice import RainbowDice
from envs.registration import GAMES, game_class
from envs.yacht import Yacht

GAMES_UNDER_TEST = [Yacht(2), RainbowDice(2), GoStop()]


def _played(game, batch=6, steps=15, seed=0):
    state = game.init(np.arange(batch) + seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        live = ~state.done
        actions = sample_legal(game.legal_mask(state), rng)
        game.step_where(state, live, actions[live])
    return state


def _raw(state) -> dict:
    return {k: (v.dtype.str, v.shape, v.tobytes()) if isinstance(v, np.ndarray) else repr(v)
            for k, v in vars(state).items()}


def _refused(call, match: str | None, state) -> None:
    """``call()`` raises ValueError matching ``match`` and leaves ``state`` bit-identical."""
    before = _raw(state)
    with pytest.raises(ValueError, match=match):
        call()
    assert _raw(state) == before


# ------------------------------------------------------------------ identity
def test_a_state_must_fit_the_game_that_steps_it():
    four = RainbowDice(4).init(np.arange(8))
    two = RainbowDice(2)
    _refused(lambda: two.step_where(four, ~four.done, np.zeros(8, int)),
             r"made by RainbowDice\(num_players=4, .*\); this game is RainbowDice\(num_players=2", four)
    yacht4 = Yacht(4).init(np.arange(3))
    _refused(lambda: Yacht(2).step(yacht4, np.full(3, 32)), r"made by Yacht\(num_players=4\)", yacht4)
    unlimited = RainbowDice(2, copies_per_hand=None).init([0])
    _refused(lambda: RainbowDice(2).observe(unlimited), "copies_per_hand=None", unlimited)
    tokens = RainbowDice(2, start_tokens=2).init([0])
    _refused(lambda: RainbowDice(2).legal_mask(tokens), "start_tokens=2", tokens)


def test_games_of_one_configuration_share_one_identity():
    assert Yacht(2).identity is Yacht(2, reward="win").identity is Yacht(2).init([0]).identity
    assert Yacht(2).identity is not Yacht(3).identity
    state = RainbowDice(3, copies_per_hand=4).init([1, 2])
    again = pickle.loads(pickle.dumps(state))
    assert again.identity is state.identity and again.equals(state)
    RainbowDice(3, copies_per_hand=4).step(again, sample_legal(RainbowDice(3, copies_per_hand=4).legal_mask(again),
                                                               np.random.default_rng(0)))


def test_a_state_of_another_game_is_a_value_error_not_an_attribute_error():
    yacht = Yacht(2).init([0, 1])
    for game in (RainbowDice(2), GoStop()):
        for call in (lambda: game.step(yacht, [0, 0]), lambda: game.legal_mask(yacht), lambda: game.observe(yacht),
                     lambda: game.reset_where(yacht, [0]), lambda: game.to_position(yacht, 0),
                     lambda: game.result(yacht, 0)):
            _refused(call, "this state was made by Yacht", yacht)
    with pytest.raises(ValueError, match="expected a GoStopState"):
        GoStop().observe({"done": np.zeros(1, bool)})


def test_arrays_must_have_the_games_dtypes_shapes_and_layout():
    game = GoStop()
    base = game.init(np.arange(3))
    read_only = base.copy()
    read_only._buf.flags.writeable = False  # the buffer is what the kernels write
    _refused(lambda: game.step(read_only, game.legal_mask(base).argmax(1)), "buffer is read-only", read_only)
    for name, value, match in (  # a field is a view of the state's buffer: assigning copies into it
        ("score", base.score.astype(np.int64), r"score must be a int16 array of shape \(3, 2\).*got a int64"),
        ("layout", base.layout[:2].copy(), r"layout must be a uint64 array of shape \(3,\).*shape \(2,\)"),
        ("stock", base.stock[:, :40].copy(), r"stock must be a int8 array of shape \(3, 48\)"),
        ("phase", [0, 0, 0], "phase must be a int8 array of shape .*got list"),
    ):
        state = base.copy()
        with pytest.raises(ValueError, match=match):
            setattr(state, name, value)
        assert state.equals(base)
    state = base.copy()
    state.hands = np.repeat(base.hands[::-1], 2, axis=0)[::2]  # strided, of the right dtype and shape
    assert state.hands.flags.c_contiguous and np.array_equal(state.hands, base.hands[::-1])
    assert np.shares_memory(state.hands, state._buf)
    bare = type(base)(**{k: v.copy() for k, v in base._arrays().items()})
    _refused(lambda: game.legal_mask(bare), "carries no game identity", bare)


# ------------------------------------------------------------------ contents
CONTENT_CASES = [
    # (game, field, index, value, what the message names)
    (Yacht(2), "dice", (0,), -32768, "dice must index"),
    (Yacht(2), "dice", (2,), 32767, "dice must index"),
    (Yacht(2), "to_move", (0,), 127, "to_move must be a seat in 0..1"),
    (Yacht(2), "sheets", (2, 1, 0), 7, "a score its category can take"),
    (Yacht(2), "rolls_left", (0,), -1, "rolls_left"),
    (RainbowDice(2), "to_move", (0,), 127, "to_move must be a seat"),
    (RainbowDice(2), "to_move", (0,), -128, "to_move must be a seat"),
    (RainbowDice(2), "free_rerolls", (0,), 127, "free_rerolls"),
    (RainbowDice(2), "die_actions", (0,), 127, "die_actions"),
    (RainbowDice(2), "tokens", (0, 1), np.iinfo(np.int32).min, "tokens must be in"),
    (RainbowDice(2), "cards", (0, 0, 3), np.iinfo(np.int16).min, "card counts"),
    (RainbowDice(2), "rank_cards", (0, 0, 0), np.iinfo(np.int32).min, "rank_cards"),
    (RainbowDice(2), "score", (0, 0), np.iinfo(np.int32).min, "score must be"),
    (RainbowDice(2), "code", (0,), 46656, "dice code"),
    (RainbowDice(2), "piles", (0,), 0, "piles"),
    (GoStop(), "stock_top", (0,), 127, "stock_top"),
    (GoStop(), "stock_end", (0,), -128, "stock_top"),
    (GoStop(), "go_count", (0, 0), -1, "go_count"),
    (GoStop(), "score", (0, 1), -32768, "score must be the combination score"),
    (GoStop(), "layout", (0,), np.uint64(2**63), "bits 48..63"),
    (GoStop(), "stock", (0, 5), 48, "card ids 0..47"),
    (GoStop(), "reason", (0,), 9, "result fields"),
]


@pytest.mark.parametrize("case", CONTENT_CASES, ids=lambda c: f"{c[0].name}-{c[1]}={c[3]}")
def test_state_contents_written_from_outside_are_checked(case):
    game, field, index, value, match = case
    state = game.init(np.arange(3))
    legal = game.legal_mask(state).argmax(axis=1)
    getattr(state, field)[index] = value
    for call in (lambda: game.check_state(state), lambda: game.step(state, legal), lambda: game.legal_mask(state),
                 lambda: game.observe(state), lambda: game.step_where(state, np.array([0, 2]), legal[[0, 2]]),
                 lambda: game.reset_where(state, np.array([(index[0] + 1) % 3]))):
        _refused(call, match, state)


def test_a_live_yacht_game_whose_mover_has_no_open_category_is_refused():
    game = Yacht(2)
    state = game.init([0])
    state.to_move[0] = 1  # a seat, but one whose sheet is full: no legal move in a live game
    state.sheets[0, 1] = [0] * 6 + [5] + [0] * 5
    _refused(lambda: game.legal_mask(state), "the seat to move in a live game has an open category", state)


def test_reset_where_replaces_games_whatever_they_hold_and_checks_the_others():
    game = GoStop()
    state = _played(game, batch=4)
    state.stock_top[2] = 127  # game 2 is broken
    fresh = game.init(np.arange(4))
    game.reset_where(state, np.array([2]))  # replacing it is fine
    game.check_state(state)
    state.stock_top[1] = 127
    _refused(lambda: game.reset_where(state, np.array([2])), "game 1", state)
    assert fresh.batch_size == 4


def test_reset_where_with_a_bool_mask_checks_the_games_it_keeps_whatever_the_mask_layout():
    game = GoStop()
    state = _played(game, batch=4)
    state.stock_top[2] = 127  # game 2 is broken
    read_only = np.array([False, False, True, False])
    read_only.flags.writeable = False
    strided = np.array([[False, 0], [False, 0], [True, 0], [False, 0]], dtype=bool)[:, 0]
    for where in (np.array([False, False, True, False]), read_only, strided):
        broken = state.copy()
        assert game.reset_where(broken, where).tolist() == [2]  # replacing the broken game is fine
        game.check_state(broken)
        broken.stock_top[1] = 127
        _refused(lambda: game.reset_where(broken, where), "game 1", broken)
    _refused(lambda: game.reset_where(state, np.zeros(4, bool)), "game 2", state)


# ---------------------------------------------------------------- where rule
@pytest.mark.parametrize("game", GAMES_UNDER_TEST, ids=lambda g: g.name)
def test_one_where_rule_for_step_where_and_reset_where(game):
    state = game.init(np.arange(4))
    legal = game.legal_mask(state).argmax(axis=1)
    bad = {
        "longer": np.ones(64, bool), "shorter": np.ones(3, bool), "two-d": np.ones((4, 1), bool),
        "negative": np.array([-1]), "duplicate": np.array([1, 1]), "out of range": np.array([4]),
        "float": np.array([0.0]), "int flags": np.array([1, 0, 1, 1]),
    }
    for name, where in bad.items():
        n = int(np.asarray(where).sum()) if np.asarray(where).dtype == bool else len(where)
        _refused(lambda: game.step_where(state, where, legal[:n] if n <= 4 else legal), "where must", state)
        _refused(lambda: game.reset_where(state, where), "where must", state)
    # Indices and masks select the same games in both.
    a, b = state.copy(), state.copy()
    game.reset_where(a, np.array([3, 1]))
    game.reset_where(b, np.array([False, True, False, True]))
    assert a.equals(b) and not a.equals(state)
    game.step_where(a, np.array([0, 2]), legal[[0, 2]])
    game.step_where(b, np.array([True, False, True, False]), legal[[0, 2]])
    assert a.equals(b)


# ------------------------------------------------------------ atomicity
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_public_call_that_raises_changes_nothing(name):
    game = game_class(name)(num_players=2)
    state = _played(game, batch=5)
    other = game.init(np.arange(2))
    legal = sample_legal(game.legal_mask(state), np.random.default_rng(1))
    live = ~state.done
    illegal = np.where(game.legal_mask(state), -1, np.arange(game.num_actions)).max(axis=1)  # an illegal id
    calls = {
        "step illegal": lambda: game.step(state, np.where(live, illegal, legal)),
        "step short": lambda: game.step(state, legal[:-1]),
        "step_where bad": lambda: game.step_where(state, np.array([0, 0]), legal[:2]),
        "step_where illegal": lambda: game.step_where(state, np.flatnonzero(live)[:1], illegal[live][:1]),
        "reset_where bad": lambda: game.reset_where(state, np.ones(6, bool)),
        "observe seats": lambda: game.observe(state, np.full(5, 7)),
        "put wrong count": lambda: state.put(np.array([0, 1, 2]), other),
        "put other game": lambda: state.put(np.array([0, 1]), Yacht(3).init([0, 1]) if name != "yacht"
                                            else GoStop().init([0, 1])),
        "copy_into other size": lambda: other.copy_into(state),
        "take bad": lambda: state.take(np.array([9])),
        "clone bad seeds": lambda: state.clone(np.zeros((5, 2))),
        "to_position index": lambda: game.to_position(state, 5),
        "seat_view seat": lambda: game.seat_view(state, 0, 9),
        "forfeit penalty": lambda: game.forfeit_result(state, 0, 0, float("nan")),
    }
    for label, call in calls.items():
        _refused(call, None, state)
    dead = np.flatnonzero(state.done)
    if dead.size:
        _refused(lambda: game.step_where(state, dead[:1], np.zeros(1, int)), "is over", state)


def test_a_go_stop_state_that_passes_the_check_stays_valid_after_a_go():
    """Found by the fuzz soak: a mover at its Go/Stop decision with go_count plus hand size at
    the bound would pass it after a Go; the bound is one lower once the turn's card is played."""
    game = GoStop()
    state = game.init(np.arange(64))
    rng = np.random.default_rng(0)
    while not (state.phase == 3).any():
        live = ~state.done
        game.step_where(state, live, sample_legal(game.legal_mask(state), rng)[live])
        game.reset_where(state, state.done)
    i = int(np.flatnonzero(state.phase == 3)[0])
    mover = int(state.to_move[i])
    hand = int(np.bitwise_count(state.hands[i, mover]))
    state.go_score[i, mover] = state.score[i, mover]
    state.go_count[i, mover] = 48 - hand  # a position loaded at a play decision never gets here
    _refused(lambda: game.step_where(state, np.array([i]), np.array([96])), "go_count", state)
    state.go_count[i, mover] = 47 - hand
    game.step_where(state, np.array([i]), np.array([96]))  # Go
    assert state.go_count[i, mover] == 48 - hand
    game.check_state(state)

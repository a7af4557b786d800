"""The match loop (:mod:`envs.core.match`): stop conditions, seating, validation, rollback,
rewards, the per-move callback, and batch N playing the games of N batches of one."""

from __future__ import annotations

import numpy as np
import pytest

import envs.core.match as match_module
from envs.core.match import Match, OpponentError
from envs.registration import GAMES, game_class
from tests.conformance import seated_config

GAME_NAMES = sorted(GAMES)


class FirstLegal:
    """Deterministic: the lowest legal action."""

    name = "first-legal"

    def act(self, obs, mask, rng):
        return np.argmax(mask, axis=1)


class LastLegal:
    """Deterministic: the highest legal action."""

    name = "last-legal"

    def act(self, obs, mask, rng):
        return mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)


class RandomLegal:
    """Draws from the generator (so that a rollback that forgets it shows)."""

    name = "random-legal"

    def act(self, obs, mask, rng):
        return np.array([rng.choice(np.flatnonzero(m)) for m in mask])


class Failing:
    """Plays like ``inner`` for ``after`` calls, then fails as ``how`` says; draws from the
    generator first when it has one (so that a rollback that forgets it shows)."""

    name = "failing-bot"

    def __init__(self, inner, after: int, how: str = "raise"):
        self.inner, self.after, self.how, self.calls = inner, after, how, 0

    def act(self, obs, mask, rng):
        if rng is not None:
            rng.random()
        good = self.inner.act(obs, mask, rng)
        self.calls += 1
        if self.calls <= self.after:
            return good
        if self.how == "raise":
            raise RuntimeError("the bot crashed")
        if self.how == "interrupt":
            raise KeyboardInterrupt
        if self.how == "illegal":
            return np.array([int(np.flatnonzero(~np.asarray(m, bool))[0]) for m in mask])
        if self.how == "float":
            return good.astype(np.float64)
        return good[:0]  # wrong shape


def _game(name):
    return game_class(name)(**seated_config(name))


def _has_illegal(game, state) -> bool:
    return bool((~game.legal_mask(state)[~state.done]).any())


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_bots_stop_at_the_learners_turn_or_the_end(game_name):
    game = _game(game_name)
    P = game.num_players
    state = game.init(np.arange(6))
    seats = np.arange(6) % P
    moves = []
    Match(game, [FirstLegal()] * (P - 1)).play(state, None, learner_seat=seats, on_move=moves.append)
    assert (state.done | (state.to_move == seats)).all()
    for m in moves:  # no bot ever moved at the learner's seat
        assert (m.seats != seats[m.rows]).all()
    total = Match(game, [FirstLegal()] * P).play(state, None)
    assert state.done.all()
    assert total.shape == (6, P) and total.dtype == np.float32


@pytest.mark.parametrize("batch", [1, 4])
def test_a_ply_limit_stops_every_game_after_that_many_bot_decisions(batch):
    game = _game("yacht")
    state = game.init(np.arange(batch))
    before = state.copy()
    Match(game, [FirstLegal()] * 2).play(state, None, max_plies=0)
    assert state.equals(before)
    decisions = np.zeros(batch, dtype=int)

    def count(move):
        decisions[move.rows] += 1

    Match(game, [FirstLegal()] * 2).play(state, None, max_plies=3, on_move=count)
    assert (decisions == 3).all() and not state.done.any()


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_batch_n_plays_the_games_of_n_batches_of_one(game_name):
    """Same seeds, same deterministic bots, a learner seat and a seating per game: each game of
    the batch ends where the same game played alone ends, with the same rewards."""
    game = _game(game_name)
    P, n = game.num_players, 5
    bots = [FirstLegal(), LastLegal()]
    rng = np.random.default_rng(0)
    seats = rng.integers(P, size=n)
    seating = rng.integers(len(bots), size=(n, P - 1))
    every = rng.integers(len(bots), size=(n, P))
    batch = game.init(np.arange(n) + 40)
    singles = [game.init([40 + i]) for i in range(n)]
    match = Match(game, bots)
    got = match.play(batch, None, learner_seat=seats, seating=seating)
    want = [match.play(s, None, learner_seat=seats[i], seating=seating[i:i + 1]) for i, s in enumerate(singles)]
    for _ in range(6):  # the learner (lowest legal action) and the bots answering, while no game is over
        if batch.done.any():
            break
        actions = FirstLegal().act(None, game.legal_mask(batch), None)
        got += match.play(batch, None, learner_seat=seats, seating=seating, learner_actions=actions)
        for i, s in enumerate(singles):
            want[i] += match.play(s, None, learner_seat=seats[i], seating=seating[i:i + 1],
                                  learner_actions=actions[i:i + 1])
    got += match.play(batch, None, seating=every)  # then the bots play every seat to the end
    for i, s in enumerate(singles):
        want[i] += match.play(s, None, seating=every[i:i + 1])
        assert batch.take([i]).equals(s), f"game {i}"
    np.testing.assert_array_equal(got, np.concatenate(want))
    assert batch.done.all()


@pytest.mark.parametrize("batch", [1, 6])
def test_seating_puts_the_named_bot_in_each_seat(batch):
    game = game_class("yacht")(num_players=3)
    bots = [FirstLegal(), LastLegal(), RandomLegal()]
    seats = (np.arange(batch) + 2) % 3  # game 0: two bots move first
    seating = np.random.default_rng(1).integers(3, size=(batch, 2))
    state = game.init(np.arange(batch))
    seen = []
    Match(game, bots).play(state, np.random.default_rng(0), learner_seat=seats, seating=seating,
                           on_move=lambda m: seen.append((m.rows.copy(), m.seats.copy(), m.bots.copy(), m.actions,
                                                          m.mask)))
    assert seen
    for rows, movers, which, actions, mask in seen:
        j = np.where(movers < seats[rows], movers, movers - 1)  # the j-th bot seat, skipping the learner's
        np.testing.assert_array_equal(which, seating[rows, j])
        first, last = np.argmax(mask, axis=1), mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)
        assert (actions[which == 0] == first[which == 0]).all() and (actions[which == 1] == last[which == 1]).all()


@pytest.mark.parametrize("batch", [1, 5])
def test_rewards_are_what_each_step_paid(batch):
    """The learner's step and every bot step, summed per seat; over a whole game of Yacht
    (score rewards) they add up to the final totals."""
    game = game_class("yacht")(num_players=2)
    state = game.init(np.arange(batch))
    paid, moves = np.zeros((batch, 2), dtype=np.float32), []

    def add(move):
        paid[move.rows] += move.rewards
        moves.append(move.rows)

    actions = LastLegal().act(None, game.legal_mask(state), None)  # scores a category: the bot's turn
    twin = state.copy()
    learner = game.step(twin, actions)
    total = Match(game, [FirstLegal()]).play(state, None, learner_seat=0, learner_actions=actions, on_move=add)
    assert moves and (state.to_move == 0).all()
    np.testing.assert_array_equal(total, learner + paid)
    rest = Match(game, [LastLegal(), FirstLegal()]).play(state, None)
    np.testing.assert_array_equal(total + rest, game.totals(state))


@pytest.mark.parametrize("how", ["raise", "illegal", "float", "shape"])
@pytest.mark.parametrize("batch", [1, 4])
def test_a_failing_bot_is_named_with_its_seat(batch, how):
    game = game_class("yacht")(num_players=3)
    bad = Failing(FirstLegal(), after=2, how=how)
    state = game.init(np.arange(batch))
    with pytest.raises(OpponentError, match=r"bot 'failing-bot' \(seat 2\)") as info:
        Match(game, [FirstLegal(), FirstLegal(), bad]).play(state, None)
    assert info.value.bot is bad and info.value.seat == 2
    assert not isinstance(info.value, ValueError)


@pytest.mark.parametrize("how", ["raise", "interrupt"])
@pytest.mark.parametrize("batch", [1, 4])
def test_rollback_leaves_state_and_generator_as_they_were(batch, how):
    game = game_class("yacht")(num_players=2)
    state = game.init(np.arange(batch))
    rng = np.random.default_rng(3)
    error = KeyboardInterrupt if how == "interrupt" else OpponentError
    actions = LastLegal().act(None, game.legal_mask(state), None)  # scores: the bot's turn follows
    for after in range(3):  # the bot fails at its first, second or third decision of the turn
        before, rng_state = state.copy(), rng.bit_generator.state
        bot = Failing(FirstLegal(), after=after, how=how)  # two rerolls, then a score
        with pytest.raises(error):
            Match(game, [bot]).play(state, rng, learner_seat=0, learner_actions=actions, rollback=True)
        assert state.equals(before) and rng.bit_generator.state == rng_state
    match = Match(game, [RandomLegal()])
    match.play(state, rng, learner_seat=0, learner_actions=actions, rollback=True)
    assert not state.equals(before)
    match.undo(state)  # the caller's own follow-up failed: back to before the call
    assert state.equals(before) and rng.bit_generator.state == rng_state


def test_an_interrupt_in_the_callback_rolls_back_too():
    game = game_class("gostop")()
    state = game.init(np.arange(3))
    before = state.copy()
    calls = []

    def interrupted(move):
        calls.append(move)
        if len(calls) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Match(game, [FirstLegal(), FirstLegal()]).play(state, None, on_move=interrupted, rollback=True)
    assert state.equals(before)


def test_without_rollback_a_failure_leaves_the_moves_made():
    game = game_class("yacht")(num_players=2)
    state = game.init([0])
    before = state.copy()
    with pytest.raises(OpponentError):
        Match(game, [Failing(FirstLegal(), after=2), FirstLegal()]).play(state, None)
    assert not state.equals(before)


def test_undo_after_a_refused_call_changes_nothing():
    game = game_class("yacht")(num_players=2)
    state = game.init([0, 1])
    match = Match(game, [FirstLegal()])
    match.play(state, None, learner_seat=0, rollback=True)
    after = state.copy()
    with pytest.raises(ValueError):
        match.play(state, None, learner_seat=5, rollback=True)
    match.undo(state)  # the refused call took no snapshot: nothing to undo
    assert state.equals(after)


def test_arguments_are_checked_with_nothing_changed():
    game = game_class("yacht")(num_players=3)
    state = game.init([0, 1])
    before = state.copy()
    match = Match(game, [FirstLegal(), LastLegal()])
    legal = FirstLegal().act(None, game.legal_mask(state), None)
    bad = [
        (dict(learner_seat=3), "learner_seat must be in 0..2"),
        (dict(learner_seat=[0, 1, 2]), "learner_seat must be an int or"),
        (dict(learner_seat=0.5), "learner_seat must be integers"),
        (dict(learner_seat=0, seating=np.zeros((2, 3), int)), r"seating must be \(B, P - 1\)"),
        (dict(seating=np.full((2, 3), 2)), "indices into the 2 bot"),
        (dict(), "3 bot seat"),
        (dict(learner_seat=1, learner_actions=legal), "not the learner's"),
        (dict(learner_actions=legal, seating=np.zeros((2, 3), int)), "need a learner_seat"),
        (dict(learner_seat=0, learner_actions=np.full(2, game.num_actions)), "out of range"),
        (dict(learner_seat=0, max_plies=-1), "max_plies"),
    ]
    for kwargs, message in bad:
        with pytest.raises(ValueError, match=message):
            match.play(state, None, **kwargs)
        assert state.equals(before), kwargs
    with pytest.raises(ValueError):
        match.play(game_class("gostop")().init([0]), None)


def test_validate_false_trusts_the_bots(monkeypatch):
    calls = []
    real = match_module.first_bad_row
    monkeypatch.setattr(match_module, "first_bad_row", lambda a, m: calls.append(1) or real(a, m))
    game = game_class("yacht")(num_players=2)
    seating = np.zeros((2, 2), int)
    Match(game, [FirstLegal()], validate=False).play(game.init([0, 1]), None, seating=seating, max_plies=4)
    assert not calls
    Match(game, [FirstLegal()]).play(game.init([0, 1]), None, seating=seating, max_plies=4)
    assert calls

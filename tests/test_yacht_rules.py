"""Yacht rules: golden tables against an independent scorer, scenarios, positions, properties."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.play import play_out
from agents.random_bot import RandomBot
from envs.yacht import SCORE_START, Yacht, category_scores
from envs.yacht.rules import REROLL_BITS


def reference_scores(dice):
    """docs/rules/yacht.md §2 in plain Python, written independently of the engine."""
    c = Counter(dice)
    total = sum(dice)
    upper = [v * c[v] for v in range(1, 7)]
    four = total if max(c.values()) >= 4 else 0
    full = total if sorted(c.values()) == [2, 3] else 0
    little = 30 if sorted(dice) == [1, 2, 3, 4, 5] else 0
    big = 30 if sorted(dice) == [2, 3, 4, 5, 6] else 0
    yacht = 50 if len(c) == 1 else 0
    return upper + [total, four, full, little, big, yacht]


def test_all_252_multisets_match_reference():
    multisets = list(itertools.combinations_with_replacement(range(1, 7), 5))
    assert len(multisets) == 252
    got = category_scores(np.array(multisets))
    for dice, row in zip(multisets, got):
        assert row.tolist() == reference_scores(list(dice)), dice


@pytest.mark.parametrize(
    "dice,cat,score",
    [
        ((4, 4, 4, 4, 1), 7, 17),  # seed: 4-4-4-4-1 scores 17 as Four of a Kind
        ((6, 6, 6, 6, 6), 7, 30),  # five of a kind counts as four of a kind
        ((3, 3, 3, 6, 6), 8, 21),  # seed: full house 3-3-3-6-6 = 21
        ((6, 6, 6, 6, 6), 8, 0),  # five of a kind is not a full house
        ((5, 4, 3, 2, 1), 9, 30), ((2, 3, 4, 5, 6), 9, 0),
        ((6, 5, 4, 3, 2), 10, 30), ((1, 2, 3, 4, 6), 10, 0),
        ((2, 2, 2, 2, 2), 11, 50), ((2, 2, 2, 2, 3), 11, 0),
        ((1, 2, 2, 4, 6), 1, 4), ((1, 2, 2, 4, 6), 6, 15),
    ],
)
def test_scoring_examples(dice, cat, score):
    assert category_scores(dice)[cat] == score


def test_category_scores_shapes_and_errors():
    assert category_scores(np.ones((2, 3, 5), np.int8)).shape == (2, 3, 12)
    for bad in ([1, 2, 3], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7], [1.0] * 5, [True] * 5):
        with pytest.raises(ValueError):
            category_scores(bad)


def _pos(**kw):
    base = {"round": 1, "to_move": 0, "dice": [1, 2, 2, 4, 6], "rolls_left": 2, "sheets": [[None] * 12]}
    base.update(kw)
    return base


def test_seed_example_turn_and_dice_sorted():
    """Ana's turn from the seed: rolls 1-2-2-4-6, keeps the 2s, ... scores Four of a Kind."""
    g = Yacht()
    s = g.from_position(_pos(dice=[6, 2, 4, 1, 2]), seed=0)
    assert g.to_position(s)["dice"] == [1, 2, 2, 4, 6]
    reroll_others = 1 | 8 | 16  # dice 0 (the 1), 3 (the 4), 4 (the 6)
    g.step(s, np.array([reroll_others]))
    d = g.dice(s)[0]
    assert (d == np.sort(d)).all() and list(d).count(2) >= 2
    assert s.rolls_left[0] == 1
    s = g.from_position(_pos(dice=[1, 4, 4, 4, 4], rolls_left=0), seed=0)
    mask = g.legal_mask(s)[0]
    assert not mask[:SCORE_START].any() and mask[SCORE_START:].all()
    r = g.step(s, np.array([SCORE_START + 7]))
    assert r[0, 0] == 17 and s.sheets[0, 0, 7] == 17 and s.rolls_left[0] == 2 and s.round[0] == 2


def test_kept_dice_survive_reroll():
    g = Yacht()
    rng = np.random.default_rng(0)
    for seed in range(200):
        s = g.init([seed])
        rid = int(rng.integers(1, 32))
        kept = Counter(g.dice(s)[0][~REROLL_BITS[rid]].tolist())
        g.step(s, np.array([rid]))
        after = Counter(g.dice(s)[0].tolist())
        assert all(after[v] >= n for v, n in kept.items())


def test_turn_order_rounds_and_game_end():
    g = Yacht(num_players=3)
    s = g.init([4])
    seen = []
    while not s.done[0]:
        seen.append((int(s.round[0]), int(s.to_move[0])))
        mask = g.legal_mask(s)[0]
        g.step(s, np.array([SCORE_START + int(np.flatnonzero(mask[SCORE_START:])[0])]))
    assert seen == [(r, p) for r in range(1, 13) for p in range(3)]
    assert (s.sheets[0] >= 0).all() and not g.legal_mask(s).any()
    assert g.to_position(s)["game_over"] is True


def test_uneven_sheets_skip_full_seats():
    g = Yacht(num_players=3)
    full = [0] * 6 + [5] + [0] * 5  # Choice is at least 5
    s = g.from_position(
        {"round": 12, "to_move": 0, "dice": [1, 1, 1, 1, 1], "rolls_left": 0,
         "sheets": [[None] + full[1:], full, [None, None] + full[2:]]}, seed=1)
    g.step(s, np.array([SCORE_START + 0]))
    assert s.to_move[0] == 2 and not s.done[0]
    g.step(s, np.array([SCORE_START + 0]))
    assert s.to_move[0] == 2  # only seat 2 still has an open category
    g.step(s, np.array([SCORE_START + 1]))
    assert s.done[0]


def test_win_rewards_shared_and_ties():
    g = Yacht(num_players=3, reward="win")
    np.testing.assert_allclose(g.win_rewards(np.array([[10, 10, 5]])), [[0.5, 0.5, -1.0]])
    np.testing.assert_allclose(g.win_rewards(np.array([[3, 10, 5]])), [[-0.5, 1.0, -0.5]])
    np.testing.assert_allclose(g.win_rewards(np.array([[7, 7, 7]])), [[0, 0, 0]])
    with pytest.raises(ValueError):
        Yacht(num_players=1, reward="win")


def test_score_rewards_sum_to_final_scores():
    g = Yacht(num_players=2)
    s = g.init(np.arange(50))
    total = play_out(g, s, [RandomBot()] * 2, np.random.default_rng(0))
    np.testing.assert_array_equal(total, g.totals(s))


@pytest.mark.parametrize(
    "change,msg",
    [
        (dict(dice=[1, 2, 3, 4]), "dice"), (dict(dice=[0, 1, 2, 3, 4]), "dice"),
        (dict(dice=[1, 2, 3, 4, 7]), "dice"), (dict(dice=[1, 2, 3, 4, 5.0]), "dice"),
        (dict(rolls_left=3), "rolls_left"), (dict(rolls_left=-1), "rolls_left"),
        (dict(round=0), "round"), (dict(round=13), "round"), (dict(round=True), "round"),
        (dict(sheets=[[None] * 12, [None] * 12]), "sheets"), (dict(sheets=[[None] * 11]), "sheets"),
        (dict(sheets=[[6] + [None] * 11]), "Ones"), (dict(sheets=[[None] * 8 + [5] + [None] * 3]), "Full House"),
        (dict(sheets=[[None] * 11 + [49]]), "Yacht"), (dict(sheets=[[-1] + [None] * 11]), "sheets"),
        (dict(to_move=1), "to_move"), (dict(sheets=[[0] * 6 + [5] + [0] * 5]), "open category"),
        (dict(game_over=True), "game_over"),
    ],
)
def test_invalid_positions_name_the_problem(change, msg):
    with pytest.raises(ValueError, match=msg):
        Yacht().from_position(_pos(**change))


def test_unreachable_but_consistent_position_accepted():
    g = Yacht(num_players=2)
    s = g.from_position(_pos(round=7, sheets=[[None] * 12, [5, 10, 15] + [None] * 9]))
    assert g.to_position(s)["sheets"][1][:3] == [5, 10, 15]


@given(seed=st.integers(0, 2**63 - 1), players=st.integers(1, 4), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=80))
def test_property_random_play(seed, players, picks):
    """Masks never empty while live; sheets fill once each; rewards are the written points."""
    g = Yacht(num_players=players)
    s = g.init([seed])
    for p in picks:
        if s.done[0]:
            break
        mask = g.legal_mask(s)[0]
        legal = np.flatnonzero(mask)
        assert legal.size > 0
        a = int(legal[p % legal.size])
        seat = int(s.to_move[0])
        before = s.sheets[0].copy()
        r = g.step(s, np.array([a]))[0]
        if a >= SCORE_START:
            c = a - SCORE_START
            assert before[seat, c] == -1 and s.sheets[0, seat, c] == r[seat] >= 0
            changed = (before != s.sheets[0]).sum()
            assert changed == 1
        else:
            assert (before == s.sheets[0]).all() and r.sum() == 0
        assert 0 <= s.rolls_left[0] <= 2 and 1 <= s.round[0] <= 12

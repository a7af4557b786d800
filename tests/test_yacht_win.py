"""``yacht-win`` and the exact endgame tables it uses (agents/yacht_win.py, agents/yacht_endgame.py)."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.play import play_out
from agents.yacht_endgame import LEAD, lead_values, turn_outcomes
from agents.yacht_threshold import SIZE, solve_distribution, solve_threshold
from agents.yacht_turn import SCORES
from agents.yacht_win import YachtWinBot
from envs.yacht import Yacht
from envs.yacht.scoring import NUM_CATEGORIES

pytestmark = pytest.mark.slow


def _two_player(n: int, seed: int, mine: dict, theirs: dict, to_move: int):
    """``n`` two-player games (seeds ``seed..``) whose sheets hold ``mine`` (seat ``to_move``)
    and ``theirs`` (the other seat) as category -> score, at the start of ``to_move``'s turn."""
    g = Yacht(num_players=2)
    s = g.init(np.arange(seed, seed + n))
    for seat, sheet in ((to_move, mine), (1 - to_move, theirs)):
        for c, v in sheet.items():
            s.sheets[:, seat, c] = v
    s.to_move[:] = to_move
    s.round[:] = 1 + min(len(mine), len(theirs))
    return g, s


def test_win_bot_is_exact_when_the_opponent_is_done():
    """The opponent (seat 0) has finished: the chance of winning is a threshold probability."""
    from agents.yacht_win import YachtWinBot

    g = Yacht(num_players=2)
    s = g.init(np.arange(40))
    s.sheets[:, 0, :] = SCORES[100]  # every category written
    s.sheets[:, 1, :10] = SCORES[200, :10]  # the bot: Big Straight and Yacht open
    s.to_move[:] = 1
    s.round[:] = 12
    values = YachtWinBot().action_values(g.observe(s))
    gap = int(SCORES[100].sum() - SCORES[200, :10].sum())  # points the bot needs to tie
    v = solve_threshold()
    for b in range(40):
        d = int(s.dice[b])
        for c, rest in ((11, 1 << 10), (10, 1 << 11)):  # score one now, the other is left
            n = gap - SCORES[d, c]  # a tie needs exactly n more, a win n + 1
            exact = 0.5 * (v[rest, np.clip(n, 0, SIZE - 1)] + v[rest, np.clip(n + 1, 0, SIZE - 1)])
            assert values[b, 32 + c] == pytest.approx(exact, abs=1e-12)


def test_best_opponent_pmf_is_the_shifted_solver_distribution():
    from agents.yacht_win import best_opponent_pmf

    pmf = solve_distribution()
    present = np.array([[True, False, False], [True, True, False]])
    masks = np.array([[0b111, 0, 0], [0b111, 0b1, 0]])
    totals = np.array([[250, 0, 0], [250, 260, 0]])
    out = best_opponent_pmf(present, masks, totals)
    np.testing.assert_allclose(out[0, 250:], pmf[0b111, :54], atol=1e-15)
    assert out[0, :250].sum() == 0
    # Two opponents: the best of the two totals.
    cdf_a = np.cumsum(out[0])
    cdf_b = np.cumsum(np.concatenate([np.zeros(260), pmf[0b1, :44]]))
    np.testing.assert_allclose(np.cumsum(out[1]), cdf_a * cdf_b, atol=1e-12)


def test_turn_outcomes_add_up_to_the_distribution():
    q = turn_outcomes()
    pmf = solve_distribution()
    np.testing.assert_allclose(q[1:].sum(axis=(1, 2)), 1.0, atol=1e-12)
    for o in (0b1, 0b100000100101, 0b111111111111):
        acc = np.zeros(SIZE)
        for c in range(NUM_CATEGORIES):
            for s in np.flatnonzero(q[o, c]):
                acc[s:] += q[o, c, s] * pmf[o & ~(1 << c)][: SIZE - s]
        np.testing.assert_allclose(acc, pmf[o], atol=1e-12)


def test_endgame_values_are_bounded_by_the_threshold_values():
    """Knowing the opponent's final total in advance can only help: the exact chance of winning
    lies below the threshold bound and above the expected-score policy's chance."""
    a, o = (1 << 8) | (1 << 11), (1 << 3) | (1 << 10)
    exact = lead_values(a, o)
    v, pmf = solve_threshold()[a], solve_distribution()
    opp = pmf[o]
    mine = np.cumsum(pmf[a][::-1])[::-1]  # P(R >= n) for the expected-score policy
    for x in range(-60, 61, 3):
        r = np.arange(SIZE)
        need = r - x  # a tie needs exactly this many more points
        upper = (opp * 0.5 * (v[np.clip(need, 0, SIZE - 1)] + v[np.clip(need + 1, 0, SIZE - 1)])).sum()
        lower = (opp * 0.5 * (mine[np.clip(need, 0, SIZE - 1)] + mine[np.clip(need + 1, 0, SIZE - 1)])).sum()
        assert lower - 1e-12 <= exact[x + LEAD] <= upper + 1e-12, x


@pytest.mark.parametrize("opp_yacht", [0, 50])
def test_endgame_value_matches_play(opp_yacht):
    """Round 11, first seat to move, two categories open on each sheet: the bot plays the exact
    endgame, and its share of wins (ties half) over many games is the table's value."""
    mine = {0: 3, 1: 6, 2: 9, 3: 12, 4: 15, 5: 18, 6: 22, 7: 0, 9: 30, 10: 0}  # Full House, Yacht open
    theirs = {0: 3, 1: 6, 2: 9, 4: 15, 5: 18, 6: 22, 7: 0, 8: 0, 9: 30, 11: opp_yacht}  # Fours, Big Straight
    lead = sum(mine.values()) - sum(theirs.values())
    n = 6000
    g, s = _two_player(n, 100 + opp_yacht, mine, theirs, to_move=0)
    play_out(g, s, [agents.load("yacht-win"), agents.load("yacht-solver")], np.random.default_rng(0))
    t = g.totals(s)
    rate = ((t[:, 0] > t[:, 1]) + 0.5 * (t[:, 0] == t[:, 1])).mean()
    p = lead_values((1 << 8) | (1 << 11), (1 << 3) | (1 << 10))[lead + LEAD]
    assert 0.05 < p < 0.95
    assert abs(rate - p) < 4 * np.sqrt(p * (1 - p) / n), (rate, p)


@pytest.mark.parametrize("name", ["yacht-solver-threshold", "yacht-win"])
def test_new_bots_reject_other_games_observations(name):
    with pytest.raises(ValueError, match="observations of size"):
        agents.load(name).act(np.zeros((2, 7), np.float32), np.ones((2, 9), bool), np.random.default_rng())


def test_win_bot_options_are_checked():
    with pytest.raises(ValueError, match="blend"):
        agents.load("yacht-win", blend=1.5)
    with pytest.raises(ValueError, match="exact_rounds"):
        agents.load("yacht-win", exact_rounds=4)
    with pytest.raises(ValueError, match="takes no option"):
        agents.load("yacht-win", target=3)


@pytest.mark.parametrize("a, o", [(-1, 3), (4096, 3), (3, 1.5), (True, 3)])
def test_endgame_tables_refuse_bad_sets(a, o):
    with pytest.raises(ValueError, match="mask"):
        lead_values(a, o)

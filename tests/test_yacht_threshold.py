"""The exact Yacht tables beyond the mean: one turn, the threshold solver, the solver's score
distribution, and the threshold bot (``yacht-solver-threshold``)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import agents
from agents.play import play_out
from agents.yacht_dp import NUM_MASKS, solve
from agents.yacht_solver import solver_action_values
from agents.yacht_threshold import MAX_REMAINING, SIZE, solve_distribution, solve_threshold
from agents.yacht_turn import FRESH_ROLL, SCORES, plan_turn, turn_action_values
from envs.yacht import Yacht
from envs.yacht.dice import FULL_REROLL, KEEP_OF, transition_matrix
from envs.yacht.scoring import NUM_CATEGORIES

FULL = NUM_MASKS - 1
BITS = 1 << np.arange(NUM_CATEGORIES)

pytestmark = pytest.mark.slow


@functools.lru_cache(maxsize=1)
def _matrix_turn():
    """The transition matrix and, per multiset, its distinct keeps (the matrix method of yacht_dp)."""
    trans = transition_matrix()
    return trans, [sorted(set(row)) for row in KEEP_OF]


def reference_turn(v0: np.ndarray) -> float:
    """Value of a turn from a fresh roll when dice worth ``v0`` (252,) end it, by matrix products."""
    trans, subs = _matrix_turn()
    v = v0
    for _ in range(2):
        k = trans @ v
        v = np.array([k[s].max() for s in subs])
    return float(trans[FULL_REROLL] @ v)


def tail(pmf: np.ndarray) -> np.ndarray:
    return np.cumsum(pmf[..., ::-1], axis=-1)[..., ::-1]


# ------------------------------------------------------------------------ one turn
def test_turn_values_match_the_transition_matrix():
    rng = np.random.default_rng(0)
    leaf = rng.random((3, 252, NUM_CATEGORIES))
    leaf[:, :, 4] = -np.inf  # a closed category
    v0, k1, k2 = plan_turn(leaf)
    trans, subs = _matrix_turn()
    for b in range(3):
        np.testing.assert_allclose(k1[b], trans @ v0[b], atol=1e-12)
        v1 = np.array([max(v0[b, d], (trans @ v0[b])[subs[d]].max()) for d in range(252)])
        np.testing.assert_allclose(k2[b], trans @ v1, atol=1e-12)
    np.testing.assert_allclose(FRESH_ROLL, trans[FULL_REROLL])


def test_turn_with_expected_score_leaves_is_the_solver():
    t = solve()
    rng = np.random.default_rng(1)
    m = rng.integers(1, NUM_MASKS, 64)
    d = rng.integers(0, 252, 64)
    r = rng.integers(0, 3, 64)
    is_open = (m[:, None] & BITS) > 0
    leaf = np.where(is_open[:, None, :], t.scores[None] + t.expected[m[:, None] & ~BITS][:, None, :], -np.inf)
    mine = turn_action_values(leaf, d, r)
    theirs = solver_action_values(t, d, r, m)
    assert np.array_equal(np.isneginf(mine[:, 1:]), np.isneginf(theirs[:, 1:]))
    finite = np.isfinite(theirs)
    np.testing.assert_allclose(mine[finite], theirs[finite], atol=1e-3)  # the solver keeps float32


# ------------------------------------------------------------------- the tables
def test_threshold_table_shape_and_bounds():
    v = solve_threshold()
    assert v.shape == (NUM_MASKS, SIZE)
    assert (v[:, 0] == 1).all() and (v[0, 1:] == 0).all()
    assert (np.diff(v, axis=1) <= 1e-12).all()  # harder targets are never likelier
    n = np.arange(SIZE)
    assert (v[n[None, :] > MAX_REMAINING[:, None]] == 0).all()
    assert (v[np.arange(1, NUM_MASKS), MAX_REMAINING[1:]] > 0).all()  # the maximum is reachable


def test_threshold_small_sheets_match_matrix_method():
    v = solve_threshold()
    for m in (1 << 11, (1 << 0) | (1 << 9), (1 << 6) | (1 << 8) | (1 << 10)):
        for n in range(0, MAX_REMAINING[m] + 2, 7):
            open_c = [c for c in range(NUM_CATEGORIES) if m >> c & 1]
            v0 = np.max([v[m ^ (1 << c), np.clip(n - SCORES[:, c], 0, SIZE - 1)] for c in open_c], axis=0)
            assert reference_turn(v0) == pytest.approx(v[m, n], abs=1e-12), (m, n)


def test_distribution_is_the_solver_distribution():
    pmf = solve_distribution()
    t = solve()
    assert pmf.shape == (NUM_MASKS, SIZE) and (pmf >= -1e-15).all()
    np.testing.assert_allclose(pmf.sum(axis=1), 1.0, atol=1e-12)
    s = np.arange(SIZE)
    np.testing.assert_allclose(pmf @ s, t.expected, atol=1e-5)  # the solver's own values (float32 keeps)
    assert f"{pmf[FULL] @ s:.4f}" == "169.7739"
    assert 35.2 < np.sqrt(pmf[FULL] @ s**2 - (pmf[FULL] @ s) ** 2) < 35.4
    assert (pmf[s[None, :] > MAX_REMAINING[:, None]] == 0).all()
    # The threshold policy is the best for each target, so it dominates the solver's tail.
    assert (solve_threshold() >= tail(pmf) - 1e-12).all()


# ------------------------------------------------------------ Monte-Carlo checks
def _solitaire(bot, n: int, seed: int, filled: dict | None = None) -> np.ndarray:
    """Final totals of ``n`` solitaire games played by ``bot``, the categories in ``filled``
    (category -> score) already written before the first roll."""
    g = Yacht(num_players=1)
    s = g.init(np.arange(seed, seed + n))
    for c, score in (filled or {}).items():
        s.sheets[:, 0, c] = score
    s.round[:] = 1 + len(filled or {})
    play_out(g, s, [bot], np.random.default_rng(seed))
    return g.totals(s)[:, 0]


def test_solver_monte_carlo_matches_its_distribution():
    n = 6000
    totals = _solitaire(agents.load("yacht-solver"), n, seed=5)
    ecdf = (totals[:, None] >= np.arange(SIZE)[None, :]).mean(axis=0)
    # Kolmogorov-Smirnov at 0.1 % (conservative for a discrete distribution).
    assert np.abs(ecdf - tail(solve_distribution()[FULL])).max() < 1.95 / np.sqrt(n)


def test_solver_distribution_from_a_late_sheet_matches_play():
    filled = {0: 3, 1: 6, 2: 9, 3: 12, 4: 15, 5: 18, 6: 20, 7: 0}  # Full House, straights, Yacht open
    m = sum(1 << c for c in range(NUM_CATEGORIES) if c not in filled)
    n = 8000
    rest = _solitaire(agents.load("yacht-solver"), n, seed=9, filled=filled) - sum(filled.values())
    pmf = solve_distribution()[m]
    for s in (10, 30, 50, 60, 80, 100):
        p = tail(pmf)[s]
        assert abs((rest >= s).mean() - p) < 4 * np.sqrt(max(p * (1 - p), 0.0) / n) + 1e-9, s


@pytest.mark.parametrize("target", [120, 150])
def test_threshold_bot_reaches_its_target_as_often_as_the_table_says(target):
    filled = {0: 3, 1: 6, 2: 6, 6: 22, 7: 0, 9: 30}  # six categories open, 67 written
    m = sum(1 << c for c in range(NUM_CATEGORIES) if c not in filled)
    need = target - sum(filled.values())
    n = 4000
    totals = _solitaire(agents.load("yacht-solver-threshold", target=target), n, seed=target, filled=filled)
    p = solve_threshold()[m, need]
    assert abs((totals >= target).mean() - p) < 4 * np.sqrt(p * (1 - p) / n), (p, (totals >= target).mean())
    # ... and more often than the expected-score solver's policy does.
    assert p > tail(solve_distribution()[m])[need] + 0.01


@pytest.mark.soak
def test_threshold_bot_full_games():
    n = 20000
    totals = _solitaire(agents.load("yacht-solver-threshold", target=200), n, seed=3)
    p = solve_threshold()[FULL, 200]
    assert abs((totals >= 200).mean() - p) < 4 * np.sqrt(p * (1 - p) / n)


# ------------------------------------------------------------------------ bots
def test_threshold_bot_options_and_values():
    with pytest.raises(ValueError, match="target"):
        agents.load("yacht-solver-threshold", target=-1)
    with pytest.raises(ValueError, match="target"):
        agents.load("yacht-solver-threshold", target=2.5)
    bot = agents.load("yacht-solver-threshold", target=200)
    g = Yacht(num_players=1)
    s = g.init(np.arange(252))
    s.dice[:] = np.arange(252)  # every first roll
    # The chance at each first roll, weighted by how likely that roll is, is the table's value.
    p = bot.probability(g.observe(s))
    assert p @ FRESH_ROLL == pytest.approx(solve_threshold()[FULL, 200], abs=1e-12)


@pytest.mark.parametrize("name", ["yacht-solver-threshold", "yacht-win"])
@pytest.mark.parametrize("players", [1, 2, 3])
def test_new_bots_play_legal_games(name, players):
    g = Yacht(num_players=players)
    s = g.init(np.arange(12))
    totals = play_out(g, s, [agents.load(name)], np.random.default_rng(0), np.zeros((12, players), int))
    np.testing.assert_array_equal(totals, g.totals(s))


def test_threshold_probability_refuses_other_observations():
    with pytest.raises(ValueError, match="observations"):
        agents.load("yacht-solver-threshold").probability(np.zeros((2, 7), np.float32))

"""The one evaluation module: fixed-seat matches, solo means, seat-swapped matches, tournaments."""

from __future__ import annotations

import json

import numpy as np
import pytest

from envs.gostop import GoStop
from training.evaluate import (
    Z95, evaluate_solo, play_match, round_robin, seat_swapped_match,
)

pytestmark = pytest.mark.slow


def test_seat_swapped_gostop_match_counts_every_deal():
    r = seat_swapped_match("gostop", "gostop-greedy", "random", 300, seed=5)
    # Deals decided before any decision (chongtong) are games too: count them independently.
    state = GoStop().init(5 + np.arange(300))
    skipped = int(state.skipped.sum())
    assert skipped > 0 and r.games == 2 * 300 + 2 * skipped
    assert r.wins + r.losses + r.draws == r.games and r.nagari <= r.draws
    assert r.win_rate > 0.65 and r.mean_a > 5.0 and r.mean_b == -r.mean_a  # zero-sum
    assert r.margin == pytest.approx(2 * r.mean_a) and 0 < r.ci95_a < r.mean_a
    json.dumps(r.as_dict())


def test_match_between_identical_bots_is_symmetric():
    r = seat_swapped_match("gostop", "gostop-greedy", "gostop-greedy", 200, seed=1)
    assert r.mean_a == 0.0 and r.wins == r.losses  # same deal, same play, seats swapped


def test_nagari_are_counted_as_draws():
    r = seat_swapped_match("gostop", "random", "random", 4000, seed=3, paired=False)
    assert r.nagari > 0 and r.draws == r.nagari  # a Go-Stop draw is a nagari


def test_ci_comes_from_the_deal_pairs():
    r = seat_swapped_match("yacht", "yacht-greedy", "random", 40, seed=2)
    totals = r.values_a[:40] + r.values_a[40:]  # game j and game 40 + j share deal j
    assert r.mean_a == pytest.approx(r.values_a.mean())
    assert r.ci95_a == pytest.approx(Z95 * totals.std(ddof=1) * np.sqrt(40) / 80)
    assert r.mean_b == pytest.approx(r.values_b.mean()) and r.wins > 70


def test_share_of_wins_with_draws_half_has_a_ci_from_the_deal_pairs():
    r = seat_swapped_match("yacht", "yacht-greedy", "yacht-solver", 60, seed=4)
    share = (r.values_a > r.values_b) + 0.5 * (r.values_a == r.values_b)
    totals = share[:60] + share[60:]
    assert r.score_rate == pytest.approx(share.mean())
    assert r.score_rate_ci95 == pytest.approx(Z95 * totals.std(ddof=1) * np.sqrt(60) / 120) and r.score_rate_ci95 > 0
    assert r.as_dict()["score_rate_ci95"] == r.score_rate_ci95


def test_paired_deals_share_seeds_and_unpaired_do_not():
    fixed = play_match("yacht", ["yacht-greedy", "yacht-solver"], 30, seed=7)
    r = seat_swapped_match("yacht", "yacht-solver", "yacht-greedy", 30, seed=7)
    np.testing.assert_array_equal(r.values_a[30:], fixed[:, 1])  # the solver in seat 1
    u = seat_swapped_match("yacht", "yacht-solver", "yacht-greedy", 30, seed=7, paired=False)
    np.testing.assert_array_equal(u.values_a[:30], r.values_a[:30])
    assert not np.array_equal(u.values_a[30:], r.values_a[30:])
    assert play_match("yacht", ["yacht-greedy", "yacht-solver"], 30, seed=37)[:, 1].tolist() == \
        u.values_a[30:].tolist()


def test_round_robin_is_the_seat_swapped_matches():
    t = round_robin("yacht", ["random", "yacht-greedy", "yacht-solver"], 10, seed=4)
    assert len(t.matches) == 3 and t.wins.sum() == 3 * 20
    # The same figures as the two seat orders played by hand with the same seeds.
    a = play_match("yacht", ["random", "yacht-greedy"], 10, seed=4)
    b = play_match("yacht", ["yacht-greedy", "random"], 10, seed=4)
    c = play_match("yacht", ["yacht-greedy", "yacht-solver"], 10, seed=4)
    d = play_match("yacht", ["yacht-solver", "yacht-greedy"], 10, seed=4)
    greedy = np.concatenate([a[:, 1], b[:, 0], c[:, 0], d[:, 1]])
    assert t.mean["yacht-greedy"] == pytest.approx(greedy.mean())
    assert t.elo["yacht-solver"] > t.elo["yacht-greedy"] > t.elo["random"]
    json.dumps(t.as_dict())
    with pytest.raises(ValueError, match="distinct"):
        round_robin("yacht", ["random", "random"], 2)


def test_solo_mode_takes_rules_options_and_refuses_two_player_games():
    r = evaluate_solo("rainbow_dice", "rainbow-simple", 20, seed=1, copies_per_hand=None)
    assert r.games == 20 and r.mean > 100 and r.ci95 == pytest.approx(Z95 * r.se)
    assert r.fraction_of_optimum is None
    json.dumps(r.as_dict())
    y = evaluate_solo("yacht", "yacht-greedy", 30)
    assert 0.4 < y.fraction_of_optimum < 1
    with pytest.raises(ValueError, match="no solo mode"):
        evaluate_solo("gostop", "gostop-greedy", 4)
    with pytest.raises(ValueError, match="num_players"):
        play_match("yacht", ["random"], 2, num_players=2)


def test_in_training_evaluation_of_a_multi_player_config():
    """The trainer's evaluator passes the config's num_players through play_match (it used to
    raise TypeError: num_players given twice)."""
    import agents
    from training.ppo import PPOConfig
    from training.run import make_evaluator

    config = PPOConfig(game="rainbow_dice", game_config={"num_players": 2}, opponents=["rainbow-simple"],
                       eval_games=6)
    out = make_evaluator(config)(agents.load("random"))
    assert set(out) == {"eval_mean", "eval_win_rate"} and 0 <= out["eval_win_rate"] < 0.5


def test_evaluation_seeds_follow_the_one_seed_rule():
    a = seat_swapped_match("yacht", "random", "yacht-greedy", 3, seed=-1)
    b = seat_swapped_match("yacht", "random", "yacht-greedy", 3, seed=2**64 - 1)
    np.testing.assert_array_equal(a.values_a, b.values_a)  # seeds -1, 0, 1 wrap like 2**64 - 1, ...
    np.testing.assert_array_equal(play_match("yacht", ["random"], 2, seed=2**64 + 4),
                                  play_match("yacht", ["random"], 2, seed=4))


def test_a_shard_is_the_evaluation_of_its_games_on_their_own():
    """The shard starting at game k plays games seed + k, ... with its bots on default_rng(seed + k)."""
    from training.evaluate import LocalRunner

    seen = []
    whole = play_match("gostop", ["random", "gostop-greedy"], 20, seed=3, shard_games=6, runner=LocalRunner(),
                       progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    for k in range(0, 20, 6):
        alone = play_match("gostop", ["random", "gostop-greedy"], min(6, 20 - k), seed=3 + k)
        np.testing.assert_array_equal(whole[k:k + 6], alone)
    assert not np.array_equal(whole, play_match("gostop", ["random", "gostop-greedy"], 20, seed=3))


def test_shards_of_a_tournament_follow_its_matches():
    """round_robin sends the shards of every match together; each match is its seat-swapped match."""
    bots = ["random", "yacht-greedy", "yacht-ppo"]
    t = round_robin("yacht", bots, 10, seed=1, shard_games=4)
    for match in t.matches:
        alone = seat_swapped_match("yacht", match.bot_a, match.bot_b, 10, seed=1, shard_games=4)
        np.testing.assert_array_equal(match.values_a, alone.values_a)
        np.testing.assert_array_equal(match.values_b, alone.values_b)
    with pytest.raises(ValueError, match="shard_games"):
        play_match("yacht", ["random"], 4, shard_games=0)


def test_call_with_timeout_returns_raises_or_gives_up():
    import threading
    import time

    from training.evaluate import call_with_timeout

    assert call_with_timeout(lambda: 7, 5.0, "a quick call") == 7
    with pytest.raises(KeyError, match="its own error"):
        call_with_timeout(lambda: {}["its own error"], 5.0, "a failing call")
    never = threading.Event()
    start = time.monotonic()
    with pytest.raises(ConnectionError, match=r"a call that blocks did not answer within 0.2 s"):
        call_with_timeout(never.wait, 0.2, "a call that blocks")
    assert time.monotonic() - start < 5
    never.set()  # lets the abandoned thread finish


def test_the_solo_result_keeps_every_score_out_of_its_json():
    r = evaluate_solo("yacht", "yacht-greedy", 12, seed=4)
    assert r.scores.shape == (12,) and r.scores.mean() == pytest.approx(r.mean)
    assert "scores" not in r.as_dict() and json.dumps(r.as_dict())

"""Go-Stop positions (docs/rules/gostop.md §12.5), reset options, hidden information, invariants under random
play, bots."""

from __future__ import annotations

import copy

import gymnasium as gym
import numpy as np
import pytest

import agents
import envs  # noqa: F401  (registers madang/GoStop-v0)
from envs.core.sampling import sample_legal
from envs.gostop import GoStop, env as aec_env
from envs.gostop import cards as C
from envs.gostop.observation import View
from envs.gostop.scoring import scores, settle
from tests.gostop_positions import redeal_hidden

G = GoStop()
CHONGTONG_DEAL = [0, 1, 2, 3, 9, 13, 17, 21, 25, 29] + [6, 10, 14, 18, 22, 26, 30, 34, 38, 42] + \
    [4, 7, 8, 11, 12, 15, 16, 19] + [c for c in range(48) if c not in
                                      {0, 1, 2, 3, 9, 13, 17, 21, 25, 29, 6, 10, 14, 18, 22, 26, 30, 34,
                                       38, 42, 4, 7, 8, 11, 12, 15, 16, 19}]
PLAIN_DEAL = [4 * m + k for k in range(4) for m in range(12)]  # no quad anywhere


def base_position():
    return {
        "to_move": 0, "hands": [[2, 6], [10]], "layout": [0, 20, 21, 23], "ppuk_owner": {"6": 1},
        "stock": [24, 5], "captured": [[4], [14, 15]], "go_count": [1, 0], "go_score": [3, 0],
        "ppuk_count": [0, 1],
    }


# ------------------------------------------------------------------ positions
def test_position_round_trip_and_unlisted_cards_go_to_the_stock_bottom():
    pos = base_position()
    s = G.from_position(copy.deepcopy(pos), seed=1)
    out = G.to_position(s, 0)
    listed = {c for k in ("layout", "stock") for c in pos[k]} | {2, 6, 10, 4, 14, 15}
    assert out["stock"] == [24, 5] + [c for c in range(48) if c not in listed]
    for k in pos:
        if k != "stock":
            assert out[k] == pos[k], k
    assert G.to_position(G.from_position(out, seed=2), 0) == out


def test_position_accepts_int_month_keys_and_unreachable_states():
    pos = base_position()
    pos["ppuk_owner"] = {6: 0}  # an int key, and a stack whose owner has ppuk_count 0
    pos["hands"] = [[2, 6, 7, 11], [10]]  # unequal hands
    s = G.from_position(pos, seed=0)
    assert G.to_position(s, 0)["ppuk_owner"] == {"6": 0}


def _broken(**changes):
    pos = base_position()
    pos.update(changes)
    return pos


@pytest.mark.parametrize(
    "pos,words",
    [
        (_broken(hands=[[2, 6]]), "hands"),
        (_broken(hands=[[2, 48], [10]]), "hands[0][1]"),
        (_broken(hands=[[2, 6.0], [10]]), "hands[0][1]"),
        (_broken(layout=[0, 20, 21, 23, 2]), "twice"),
        (_broken(stock=[24, 24]), "twice"),
        (_broken(layout=[20, 21, 22, 23], ppuk_owner={}), "month 6"),
        (_broken(ppuk_owner={"1": 0}), "ppuk_owner month 1"),
        (_broken(ppuk_owner={"6": 2}), "ppuk_owner"),
        (_broken(ppuk_owner={"13": 0}), "ppuk_owner"),
        (_broken(ppuk_owner={"x": 0}), "ppuk_owner"),
        (_broken(ppuk_owner=[6]), "ppuk_owner"),
        (_broken(to_move=2), "to_move"),
        (_broken(to_move=True), "to_move"),
        (_broken(hands=[[], [10]]), "to_move seat 0"),
        (_broken(go_count=[-1, 0]), "go_count"),
        (_broken(go_count=[0, 0]), "go_score[0]"),
        (_broken(go_score=[-2, 0]), "go_score"),
        (_broken(go_count=[1, 0, 0]), "go_count"),
        (_broken(ppuk_count=[3, 0]), "ppuk_count"),
        (_broken(ppuk_count=[0, -1]), "ppuk_count"),
        (_broken(captured=[[4]]), "captured"),
        (_broken(extra=1), "unknown"),
        (_broken(result={"winner": 0, "payout": 5}), "result"),
        (_broken(result={"winner": None, "payout": 3, "reason": "nagari"}), "nagari"),
        (_broken(result={"winner": 0, "payout": 5, "reason": "bored"}), "reason"),
        (_broken(result={"winner": 2, "payout": 5, "reason": "stop"}), "winner"),
        (_broken(result={"winner": 0, "payout": -5, "reason": "stop"}), "payout"),
    ],
)
def test_bad_positions_name_the_problem(pos, words):
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        G.from_position(pos)


def test_finished_position_loads_as_terminal():
    pos = _broken(hands=[[], []], ppuk_count=[3, 1], result={"winner": 0, "payout": 5, "reason": "three_ppuk"})
    s = G.from_position(pos, seed=0)
    assert s.done[0] and not G.legal_mask(s).any() and G.result(s, 0)["reason"] == "three_ppuk"
    assert G.to_position(s, 0)["result"] == pos["result"]


def test_loading_never_runs_setup_checks():
    pos = _broken(hands=[[0, 1, 2, 3], [10]], layout=[20, 21, 23], ppuk_owner={})
    s = G.from_position(pos, seed=0)
    assert not s.done[0] and int(s.redeals[0]) == 0


# -------------------------------------------------------------- observations
def _random_states(n=64, steps=30, seed=0):
    s = G.init(np.arange(seed, seed + n))
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        G.reset_where(s, s.done)
        G.step(s, sample_legal(G.legal_mask(s), rng))
    return s


def test_observation_shows_the_right_cards():
    s = _random_states()
    for seat in (0, 1):
        seats = np.full(s.batch_size, seat)
        v = View(G.observe(s, seats))
        ar = np.arange(s.batch_size)
        assert (v.hand == s.hands[:, seat]).all() and (v.layout == s.layout).all()
        assert (v.captured_self == s.captured[:, seat]).all()
        assert (v.captured_opp == s.captured[:, 1 - seat]).all()
        stock = np.array([C.mask_of(s.stock[i, s.stock_top[i]:s.stock_end[i]]) for i in ar], np.uint64)
        assert (v.unseen == (s.hands[:, 1 - seat] | stock)).all()
        assert (v.played == s.played).all() and (v.flipped == s.flipped).all()
        assert (v.picked == s.hand_pick).all()
        assert (v.decision == np.where(s.done, -1, s.phase)).all()
        assert (v.observer_moves == ((s.to_move == seat) & ~s.done)).all()
        pair = [seat, 1 - seat]
        assert (v.score == scores(s.captured[ar][:, pair])).all()
        assert (v.go_count == s.go_count[:, pair]).all() and (v.go_score == s.go_score[:, pair]).all()
        assert (v.ppuk_count == s.ppuk_count[:, pair]).all()
        assert (v.hand_size_opp == C.popcount(s.hands[:, 1 - seat])).all()
        assert (v.stock_size == s.stock_end - s.stock_top).all()



def test_hidden_cards_do_not_change_the_observation():
    s = _random_states(n=48, steps=25, seed=3)
    rng = np.random.default_rng(0)
    checked = 0
    for i in range(s.batch_size):
        if s.done[i] or s.phase[i] != 0:
            continue
        pos = G.to_position(s, i)
        me = pos["to_move"]
        a, b = G.from_position(pos, seed=0), G.from_position(redeal_hidden(pos, rng), seed=5)
        assert G.to_position(a, 0) != G.to_position(b, 0) or not pos["hands"][1 - me]
        np.testing.assert_array_equal(G.observe(a, [me]), G.observe(b, [me]))
        np.testing.assert_array_equal(G.legal_mask(a), G.legal_mask(b))
        # the same PLAY in both: the flips differ, but before them the view is the same
        card = int(np.flatnonzero(G.legal_mask(a)[0])[0])
        G.step(a, np.array([card]))
        G.step(b, np.array([card]))
        if a.phase[0] == b.phase[0] == 1:  # a HAND_CHOICE comes before the flip
            np.testing.assert_array_equal(G.observe(a, [me]), G.observe(b, [me]))
        checked += 1
    assert checked > 10


# -------------------------------------------------------- invariants (soak)
def check_invariants(state, before, rewards):
    """Rules invariants between two consecutive batched states (all games)."""
    B = state.batch_size
    stock = np.zeros(B, np.uint64)
    for j in range(48):  # cards still in the stock
        live = j >= state.stock_top
        live &= j < state.stock_end
        stock |= np.where(live, C.BIT[state.stock[:, j]], np.uint64(0))
    choosing = (state.phase == 1) | (state.phase == 2)  # this turn's cards are still in transit
    in_transit = np.where(choosing, C.BIT[state.played] | C.BIT[state.flipped], np.uint64(0))
    parts = [state.hands[:, 0], state.hands[:, 1], state.layout, state.captured[:, 0],
             state.captured[:, 1], stock, in_transit]
    total = sum(C.popcount(p).astype(np.int64) for p in parts)
    union = np.bitwise_or.reduce(np.stack(parts), axis=0)
    assert (total == 48).all() and (union == C.ALL_CARDS).all(), "cards lost or duplicated"
    assert (state.score == scores(state.captured)).all(), "stale score cache"
    per_month = C.month_counts(state.layout)
    assert (per_month <= 3).all()
    assert ((state.ppuk_owner < 0) | (per_month == 3)).all(), "ppuk owner without a stack"
    for seat in (0, 1):  # captured sets only lose transferable junk, and only to the other seat
        lost = before.captured[:, seat] & ~state.captured[:, seat]
        assert ((lost & ~(C.M_SINGLE_JUNK | C.M_DOUBLE_JUNK)) == 0).all()
        assert ((lost & ~state.captured[:, 1 - seat]) == 0).all()
    assert (rewards.sum(axis=1) == 0).all(), "not zero-sum"
    ended = state.done & ~before.done
    w = state.winner[ended].astype(np.int64)
    got = rewards[ended]
    expect = np.zeros_like(got)
    won = w >= 0
    expect[np.flatnonzero(won), w[won]] = state.payout[ended][won]
    expect[np.flatnonzero(won), 1 - w[won]] = -state.payout[ended][won]
    np.testing.assert_array_equal(got, expect)
    stops = np.flatnonzero(ended & (state.reason == 1))
    if stops.size:
        ws = state.winner[stops].astype(np.int64)
        paid = settle(state.captured[stops, ws], state.captured[stops, 1 - ws], state.go_count[stops, ws])
        np.testing.assert_array_equal(paid.payout, state.payout[stops])
    assert (rewards[~ended] == 0).all()
    assert (state.go_count >= before.go_count).all() and (state.ppuk_count >= before.ppuk_count).all()


def test_random_play_soak_keeps_every_invariant():
    s = G.init(np.arange(4000))
    rng = np.random.default_rng(7)
    reasons = np.zeros(5, np.int64)
    while not s.done.all():
        before = s.copy()
        mask = G.legal_mask(s)
        assert mask[~s.done].any(axis=1).all() and not mask[s.done].any()
        rewards = G.step(s, np.where(s.done, 0, sample_legal(mask, rng)), check=False)
        check_invariants(s, before, rewards)
    np.add.at(reasons, s.reason, 1)
    assert reasons[1] > 0 and reasons[3] + reasons[4] > 0  # stops and some three-ppuk / nagari


@pytest.mark.soak
def test_long_random_play_soak():
    s = G.init(np.arange(20000))
    rng = np.random.default_rng(11)
    for _ in range(2000):
        before = s.copy()
        rewards = G.step(s, sample_legal(G.legal_mask(s), rng))
        check_invariants(s, before, rewards)
        G.reset_where(s, s.done)


# ------------------------------------------------------------- reset options
def test_plain_reset_skips_chongtong_deals_and_reports_them():
    core = G.init(np.arange(300))  # the batched core deals the same from the same seed
    seeds = np.flatnonzero(core.skipped.sum(axis=1) > 0)[:6]
    compared = 0
    for seed in seeds.tolist():
        env = gym.make("madang/GoStop-v0")
        _, info = env.reset(seed=seed)
        assert len(info["skipped_deals"]) == int(core.skipped[seed].sum()) > 0
        for d in info["skipped_deals"]:
            assert d["payout"] == 5 and d["reason"] == "chongtong" and d["winner"] in (0, 1)
        assert isinstance(info["redeals"], int) and info["action_mask"].any()
        if info["learner_seat"] == core.to_move[seed]:  # no opponent move yet
            assert core.take([seed]).equals(env.unwrapped.state)
            compared += 1
    assert compared > 0


def test_reset_with_a_chongtong_deal_is_terminal():
    env = gym.make("madang/GoStop-v0")
    _, info = env.reset(seed=0, options={"deal": CHONGTONG_DEAL, "first_player": 1})
    assert info["winner"] == 1 and info["payout"] == 5 and info["reason"] == "chongtong"
    assert info["redeals"] == 0 and not info["action_mask"].any()
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    aec = aec_env()
    aec.reset(options={"deal": CHONGTONG_DEAL, "first_player": 0})
    assert all(aec.terminations.values())
    assert aec._cumulative_rewards == {"player_0": 5.0, "player_1": -5.0}
    assert aec.infos["player_1"]["winner"] == 0 and aec.infos["player_1"]["reason"] == "chongtong"


def test_reset_with_a_deal_and_first_player():
    env = gym.make("madang/GoStop-v0", learner_seat=1)
    env.reset(seed=0, options={"deal": PLAIN_DEAL, "first_player": 1})
    p = env.unwrapped.to_position()
    assert p["hands"][1] == sorted(PLAIN_DEAL[:10]) and p["layout"] == sorted(PLAIN_DEAL[20:28])
    firsts = set()
    for seed in range(12):  # first_player defaults to a random seat
        env = gym.make("madang/GoStop-v0", learner_seat=0, opponents="gostop-greedy")
        env.reset(seed=seed, options={"deal": PLAIN_DEAL})
        firsts.add(env.unwrapped.to_position()["hands"][0] == sorted(PLAIN_DEAL[:10]))
    assert firsts == {True, False}


def test_reset_option_errors():
    env = gym.make("madang/GoStop-v0")
    for options in ({"deal": PLAIN_DEAL, "position": base_position()}, {"deal": PLAIN_DEAL[:-1]},
                    {"deal": PLAIN_DEAL, "first_player": 2}, {"first_player": "0"}):
        with pytest.raises(ValueError):
            env.reset(seed=0, options=options)


def test_plain_reset_honours_first_player():
    env = gym.make("madang/GoStop-v0", learner_seat=0, opponents="gostop-greedy")
    for seed in range(5):
        env.reset(seed=seed, options={"first_player": 1})
        # seat 1 moved first: it has played one card more than seat 0
        p = env.unwrapped.to_position()
        assert len(p["hands"][1]) == len(p["hands"][0]) - 1 or env.unwrapped.state.done[0]


def test_redeal_inside_reset_with_a_given_deal():
    quad_layout = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13] + [14, 15, 16, 17, 18, 19, 20, 21, 22, 23] + \
        [0, 1, 2, 3, 24, 25, 26, 27] + list(range(28, 48))
    env = gym.make("madang/GoStop-v0")
    _, info = env.reset(seed=4, options={"deal": quad_layout, "first_player": 0})
    assert info["redeals"] >= 1


def test_learner_seat_is_random_by_default():
    env = gym.make("madang/GoStop-v0")
    seats = {env.reset(seed=s)[1]["learner_seat"] for s in range(10)}
    assert seats == {0, 1}


def test_single_env_rewards_are_the_signed_payout():
    env = gym.make("madang/GoStop-v0", opponents="gostop-greedy")
    rng = np.random.default_rng(0)
    for seed in range(6):
        _, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            _, r, done, _, info = env.step(int(sample_legal(info["action_mask"][None], rng)[0]))
            total += r
        seat = info["learner_seat"]
        sign = 0 if info["winner"] is None else (1 if info["winner"] == seat else -1)
        assert total == sign * info["payout"]


def test_illegal_action_lose_pays_the_other_seat():
    aec = aec_env(illegal_action="lose", illegal_penalty=2)
    aec.reset(seed=0)
    agent = aec.agent_selection
    mask = aec.observe(agent)["action_mask"]
    aec.step(int(np.flatnonzero(mask == 0)[0]))
    other = "player_1" if agent == "player_0" else "player_0"
    assert aec._cumulative_rewards == {agent: -2.0, other: 2.0}
    assert aec.infos[other]["reason"] == "illegal" and aec.infos[other]["winner"] == int(other[-1])


def test_position_reset_in_both_envs():
    pos = base_position()
    env = gym.make("madang/GoStop-v0", learner_seat=0)
    env.reset(options={"position": pos})
    assert env.unwrapped.to_position()["hands"][0] == [2, 6]
    aec = aec_env()
    aec.reset(options={"position": pos})
    assert aec.agent_selection == "player_0" and aec.unwrapped.to_position()["layout"] == pos["layout"]


def test_text_helpers():
    s = G.from_position(base_position(), seed=0)
    assert G.describe_action(2) == "play 2 Jan junk"
    assert G.describe_action(48 + 21) == "take 21 Jun blue ribbon"
    assert (G.describe_action(96), G.describe_action(97)) == ("go", "stop")
    text = G.render_text(s, 0)  # seat 0 to move: its own hand, the other one only counted
    assert "seat 0 (you) to move: play a card" in text and "[ppuk of seat 1]" in text
    assert "your hand: 2 Jan junk, 6 Feb junk" in text and "seat 1: 1 card in hand" in text
    assert "Mar junk" not in text  # seat 1's card
    other = G.render_text(s, 0, seat=1)
    assert "your hand: 10 Mar junk" in other and "Feb junk" not in other and "moves:" not in other


# ----------------------------------------------------------------------- bots
def test_greedy_bot_is_legal_and_deterministic():
    bot = agents.load("gostop-greedy")
    s = _random_states(n=200, steps=20, seed=9)
    live = np.flatnonzero(~s.done)
    sub = s.take(live)
    obs, mask = G.observe(sub), G.legal_mask(sub)
    a1 = bot.act(obs, mask.astype(np.int8), np.random.default_rng(0))
    a2 = bot.act(obs, mask, np.random.default_rng(1))
    assert mask[np.arange(live.size), a1].all() and (a1 == a2).all()
    with pytest.raises(ValueError):
        bot.check_game("yacht")


def test_reset_where_deals_the_same_games_as_new_games():
    from envs.core.game import Game

    a = _random_states(n=300, steps=40, seed=2)
    b = a.copy()
    where = a.done | (np.arange(300) % 7 == 0)
    rows = G.reset_where(a, where)  # Go-Stop deals straight into the state
    Game._reset_rows(G, b, rows)  # the generic way: new_games, then put
    assert a.equals(b) and not a.done[where].any()

"""The shipped Rainbow Dice PPO bot: it loads offline, its metadata holds its evaluation, it plays
legally at every kind of decision and every table size, and it beats rainbow-simple clearly."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from envs.rainbow_dice import RainbowDice
from envs.rainbow_dice.hands import SATISFIED, dice_code
from training.evaluate import evaluate_solo

PHASES = ("rolling", "final", "second_card")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bot():
    return agents.load("rainbow-ppo")


def random_position(rng: np.random.Generator, players: int, phase: str, copies: int | None = 10) -> dict:
    """A random valid position of the given phase (second-card offers get what they need)."""
    dice = rng.integers(1, 7, size=6)
    cards = rng.integers(0, 3, size=(players, 30)) * (rng.random((players, 30)) < 0.15)
    tokens = rng.integers(0, 10, size=players)
    to_move = int(rng.integers(players))
    if copies is None:
        supply = None
    else:
        cards = np.minimum(cards, copies // players)
        supply = copies - cards.sum(axis=0) - rng.integers(0, 3, size=30)
        supply = np.maximum(supply, 0) * (rng.random(30) > 0.05)
    if phase == "second_card":
        tokens[to_move] = max(tokens[to_move], 3)
        if supply is not None:
            sat = np.flatnonzero(SATISFIED[dice_code(dice)])
            supply[sat[0]] = max(supply[sat[0]], 1)  # the offer needs a satisfied hand with a copy left
    return {
        "round": int(rng.integers(1, 13)), "to_move": to_move, "phase": phase, "dice": dice.tolist(),
        "free_rerolls_left": int(rng.integers(1, 3)) if phase == "rolling" else 0,
        "die_actions_used": int(rng.integers(0, 4)), "tokens": tokens.tolist(), "cards": cards.tolist(),
        "supply": None if supply is None else supply.tolist(),
    }


def test_shipped_bot_loads_and_records_its_evaluation(bot):
    meta = bot.metadata
    assert meta["env_id"] == RainbowDice.env_id and meta["obs_size"] == RainbowDice.obs_size
    shipped = meta["shipped_evaluation"]
    assert shipped["games"] >= 2000 and shipped["mean"] > 0
    measured = meta["measured"]  # training/runs/rainbow-ppo/measure.py --into
    assert measured["solo"]["games"] >= 2000 and measured["two_player_vs_greedy"]["pairs"] >= 2000
    assert measured["solo"]["bot"]["mean"] > measured["solo"]["rainbow-greedy"]["mean"] * 0.8


def test_legal_at_every_decision_kind_over_1000_random_positions(bot):
    rng = np.random.default_rng(2024)
    seen = set()
    for players in (1, 2, 3, 4):
        game = RainbowDice(num_players=players)
        obs, masks = [], []
        for k in range(250):
            pos = random_position(rng, players, PHASES[k % 3])
            state = game.from_position(pos, seed=k)
            obs.append(game.observe(state))
            masks.append(game.legal_mask(state))
            can_act = pos["tokens"][pos["to_move"]] >= 1 and pos["die_actions_used"] < 3
            seen.add((pos["phase"], can_act))
        obs, masks = np.concatenate(obs), np.concatenate(masks)
        actions = bot.act(obs, masks, rng)
        assert masks[np.arange(len(actions)), actions].all(), f"illegal action at {players} seats"
    assert seen == {(p, c) for p in PHASES for c in (True, False)}


def test_beats_rainbow_simple_clearly_in_fresh_solo_games(bot):
    seed = 424_242  # not the seeds of the shipped evaluation
    ppo = evaluate_solo("rainbow_dice", bot, 200, seed=seed)
    simple = evaluate_solo("rainbow_dice", "rainbow-simple", 200, seed=seed)
    # rainbow-simple averages about 480 (sd about 160, so s.e. about 11 over 200 games).
    assert ppo.mean > simple.mean + 200, (ppo.mean, simple.mean)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_plays_every_table_size(bot, players):
    from training.evaluate import play_match

    res = play_match("rainbow_dice", [bot] + ["rainbow-simple"] * (players - 1), 40, seed=5)
    assert res.shape == (40, players) and res[:, 0].mean() > res[:, 1:].mean()

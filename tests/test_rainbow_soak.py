"""Random-play soak: 10**4 Rainbow Dice games in one batched run, invariants checked every step."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.sampling import sample_legal
from envs.rainbow_dice import RainbowDice
from envs.rainbow_dice.hands import NUM_OUTCOMES
from envs.rainbow_dice.position import pile_bits
from envs.rainbow_dice.scoring import RANK_ONEHOT, totals

GAMES, PLAYERS, COPIES = 10_000, 3, 4

pytestmark = pytest.mark.soak


def test_soak_ten_thousand_random_games():
    g = RainbowDice(num_players=PLAYERS, copies_per_hand=COPIES)
    s = g.init(np.arange(GAMES))
    rng = np.random.default_rng(2024)
    rows = np.arange(GAMES)
    collected = np.zeros((GAMES, PLAYERS))
    turns = np.zeros((GAMES, PLAYERS), dtype=np.int64)
    steps = 0
    while not s.done.all():
        mask = g.legal_mask(s)
        live = ~s.done
        assert mask[live].any(axis=1).all(), "a live game has an empty mask"
        assert not mask[~live].any(), "a finished game has legal actions"
        if steps % 10 == 0:
            obs = g.observe(s)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
        idx = np.flatnonzero(live)
        sub = s.take(idx)
        mover, rnd = sub.to_move.copy(), sub.round.copy()
        collected[idx] += g.step(sub, sample_legal(mask[idx], rng))
        s.put(idx, sub)
        ended = (sub.to_move != mover) | sub.done
        np.add.at(turns, (idx[ended], mover[ended]), 1)
        assert (sub.round >= rnd).all()
        steps += 1
        assert steps < 2000, "games did not finish"

        # State invariants over the whole batch.
        assert (s.tokens >= 0).all()
        assert ((s.die_actions >= 0) & (s.die_actions <= 3)).all()
        assert ((s.round >= 1) & (s.round <= 12)).all()
        assert ((s.code >= 0) & (s.code < NUM_OUTCOMES)).all()
        assert ((s.phase == 0) == (s.free_rerolls > 0)).all()
        second = s.phase == 2
        assert (s.tokens[rows[second], s.to_move[second]] >= 3).all()
        assert (s.cards.sum(axis=1) + s.supply == COPIES).all()
        assert (s.supply >= 0).all()
        np.testing.assert_array_equal(s.piles, pile_bits(s.supply))
        np.testing.assert_array_equal(s.score, totals(s.cards, s.tokens))
        np.testing.assert_array_equal(s.rank_cards, s.cards.astype(np.int64) @ RANK_ONEHOT)
        np.testing.assert_array_equal(collected, s.score)

    assert (turns == 12).all(), "every seat plays exactly 12 turns"
    assert (s.round == 12).all() and (s.phase == 3).all() and (s.to_move == PLAYERS - 1).all()
    results = [g.result(s, i)["scores"] for i in range(0, GAMES, 997)]
    assert all(r == s.score[i].tolist() for r, i in zip(results, range(0, GAMES, 997)))
    assert (s.supply == 0).any(axis=1).mean() > 0.5  # piles do run out under contention

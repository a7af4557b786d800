"""Determinized Monte-Carlo search for Go-Stop (``gostop-search``, PIMC).

For every game of the batch that has more than one legal action, the bot samples ``D``
full states consistent with its observation (:meth:`envs.core.game.Game.sample_states`:
the unseen cards dealt at random into the opponent's hand and the stock), applies each
legal action to each of them (the same ``D`` samples for every action: common random
numbers) and plays every copy to the end of the deal with a fast rollout policy for both
seats.  It picks the action with the highest mean payout for itself (signed points, 0 on
nagari); ties go to the lowest action id.  PLAY, both choices and Go/Stop all go through
the same machinery; Stop is just a candidate whose play-out ends at once.

Every play-out of every candidate of every game in the batch runs in one batched call on
the core (``agents.play.play_out``), through the public ``Game`` API only.  The bot reads
nothing but ``(observation, mask, rng)``: it cannot see hidden cards.

Options (``agents.load("gostop-search", **options)``):

* ``determinizations`` (D): samples per decision;
* ``rollouts`` (R): play-outs per sample and action; within a deal Go-Stop has no chance
  left once the cards are dealt, so R > 1 needs a stochastic rollout policy
  (``epsilon`` > 0);
* ``rollout``: ``"greedy"`` (``gostop-greedy`` for both seats) or ``"random"``;
* ``epsilon``: probability that a rollout move is uniformly random instead;
* ``time_budget_ms``: instead of a fixed D, size D per call from the measured cost of
  earlier play-outs so that a call takes about this long (the choices then depend on the
  machine's speed).
"""

from __future__ import annotations

import time

import numpy as np

from envs.core.sampling import sample_legal
from envs.gostop import GoStop
from envs.gostop.actions import CHOOSE_START, GO, NUM_ACTIONS
from envs.gostop.observation import OBS_SIZE

from .base import Bot, as_batch
from .gostop_greedy import GoStopGreedyBot
from .play import play_out
from .random_bot import RandomBot

DEFAULT_DETERMINIZATIONS = 24
DEFAULT_CHOICE_DETERMINIZATIONS = 64
DEFAULT_GO_STOP_DETERMINIZATIONS = 128
DEFAULT_MARGIN = 0.0
DEFAULT_CANDIDATES = 10
ROLLOUT_POLICIES = ("greedy", "random")
OWN_ROLLOUTS = ("same", "bold")
DEFAULT_OWN_ROLLOUT = "same"
BOLD_GO = (7, 1)  # the searching seat's play-outs Go while the opponent's threat is <= 7, to the last card
MAX_PLAYOUTS = 1 << 16  # play-outs per batched call (bounds memory; larger batches run in chunks)


class EpsilonBot(Bot):
    """``base``'s action, replaced by a uniformly random legal one with probability ``epsilon``."""

    name = "epsilon"

    def __init__(self, base: Bot, epsilon: float):
        self.base, self.epsilon = base, float(epsilon)
        self.game = base.game

    def act(self, observation, mask, rng):
        actions = self.base.act(observation, mask, rng)
        flip = rng.random(actions.shape[0]) < self.epsilon
        if flip.any():
            actions[flip] = sample_legal(np.asarray(mask)[flip], rng)
        return actions


class GoStopSearchBot(Bot):
    """PIMC search over sampled deals with batched play-outs (see the module docstring)."""

    name = "gostop-search"
    game = "gostop"

    def __init__(self, determinizations: int = DEFAULT_DETERMINIZATIONS,
                 choice_determinizations: int = DEFAULT_CHOICE_DETERMINIZATIONS,
                 go_stop_determinizations: int = DEFAULT_GO_STOP_DETERMINIZATIONS,
                 rollouts: int = 1, rollout: str = "greedy", own_rollout: str = DEFAULT_OWN_ROLLOUT,
                 epsilon: float = 0.0,
                 margin: float = DEFAULT_MARGIN, candidates: int = DEFAULT_CANDIDATES,
                 time_budget_ms: float | None = None):
        self.determinizations = _count(determinizations, "determinizations", 0)
        self.choice_determinizations = _count(choice_determinizations, "choice_determinizations", 0)
        self.go_stop_determinizations = _count(go_stop_determinizations, "go_stop_determinizations", 0)
        self.rollouts = _count(rollouts, "rollouts", 1)
        if rollout not in ROLLOUT_POLICIES:
            raise ValueError(f"rollout must be one of {ROLLOUT_POLICIES}, got {rollout!r}")
        self.epsilon = _number(epsilon, "epsilon", 0, 1)
        self.margin = _number(margin, "margin", 0, None)
        self.candidates = _count(candidates, "candidates", 1)
        if self.rollouts > 1 and self.epsilon == 0 and rollout == "greedy":
            raise ValueError("rollouts > 1 repeat identical play-outs with the deterministic greedy "
                             "policy; set epsilon > 0 or rollout='random'")
        if time_budget_ms is not None and _number(time_budget_ms, "time_budget_ms", 0, None) == 0:
            raise ValueError("time_budget_ms must be positive")
        self.time_budget_ms = None if time_budget_ms is None else float(time_budget_ms)
        if own_rollout not in OWN_ROLLOUTS:
            raise ValueError(f"own_rollout must be one of {OWN_ROLLOUTS}, got {own_rollout!r}")
        self.greedy = GoStopGreedyBot()
        base = self.greedy if rollout == "greedy" else RandomBot()
        own = base
        if own_rollout == "bold":
            own = GoStopGreedyBot() if rollout == "greedy" else RandomBot()
            own.go_max_opp_score, own.go_min_hand = BOLD_GO
        # play-out policies of the searching seat (0 in every sample) and of its opponent
        self.policies = [EpsilonBot(b, self.epsilon) if self.epsilon > 0 else b for b in (own, base)]
        self.rules = GoStop()
        self._seconds_per_playout = None  # measured, for time_budget_ms

    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        prefs = self.greedy.scores(obs, m)
        actions = np.argmax(prefs, axis=1).astype(np.int64)
        # Candidates: the greedy heuristic's `candidates` favourite legal actions (legal ones
        # first, then by preference, ties to the lower id; an unsafe Go is legal at -inf).
        order = np.lexsort((-prefs, ~m), axis=1)
        rank = np.empty_like(order)
        np.put_along_axis(rank, order, np.arange(m.shape[1])[None, :], axis=1)
        cand = m & (rank < self.candidates)
        go_stop, choice = m[:, GO], m[:, CHOOSE_START:GO].any(axis=1)
        d = np.select([go_stop, choice], [self.go_stop_determinizations, self.choice_determinizations],
                      self.determinizations)
        margin = np.where(go_stop, 0.0, self.margin)
        todo = np.flatnonzero((cand.sum(axis=1) > 1) & (d > 0))
        per_sample = cand[todo].sum(axis=1) * self.rollouts
        D = np.minimum(self._budget(d[todo], cand[todo]), MAX_PLAYOUTS // per_sample)
        for sel in _chunks(D * per_sample, MAX_PLAYOUTS):
            g = todo[sel]
            actions[g] = self._search(obs[g], cand[g], actions[g], D[sel], margin[g], rng)
        return actions

    def _search(self, obs, mask, prior, D, margin, rng):
        """The chosen action of each game: ``D[b]`` samples per candidate of game ``b``."""
        G = self.rules
        B, R = obs.shape[0], self.rollouts
        k = int(D.max())
        seeds = rng.integers(0, 2**63 - 1, size=(B, k), dtype=np.int64)
        samples, seats = G.sample_states(obs, seeds)
        # One play-out per (game b, sample j < D[b], candidate c of b, rollout), in that order.
        game_of, act_of = np.nonzero(mask)  # candidates, in action order within each game
        n_cand = mask.sum(axis=1)
        first = np.cumsum(n_cand) - n_cand  # each game's first candidate
        per_game = n_cand * D * R
        g = np.repeat(np.arange(B), per_game)
        within = np.arange(g.size) - np.repeat(np.cumsum(per_game) - per_game, per_game)
        j = within // (n_cand[g] * R)
        c = first[g] + (within // R) % n_cand[g]
        src = g * k + j
        state = samples.take(src)
        if R > 1:
            state = state.clone(rng.integers(0, 2**63 - 1, size=state.batch_size, dtype=np.int64))
        me = seats[src]
        ar = np.arange(state.batch_size)
        start = time.perf_counter()
        payout = G.step(state, act_of[c], check=False)[ar, me].astype(np.float64)
        seating = np.where(np.arange(2)[None, :] == me[:, None], 0, 1)  # policies[0] plays seat me
        payout += play_out(G, state, self.policies, rng, seating)[ar, me]
        self._seconds_per_playout = (time.perf_counter() - start) / state.batch_size
        # R consecutive rows are the rollouts of one (sample, candidate) pair.
        pair_value = payout.reshape(-1, R).mean(axis=1)
        return self._choose(pair_value, src[::R], c[::R], game_of, act_of, mask, prior, D, margin)

    def _choose(self, value, sample, cand, game_of, act_of, mask, prior, D, margin):
        """The best mean payout, leaving the prior (greedy) action only for a clear gain.

        ``value[i]`` is the payout of candidate ``cand[i]`` on sample ``sample[i]``.  A
        candidate qualifies when its mean gain over the prior action, paired over the same
        samples, exceeds ``margin[b]`` standard errors (the prior always qualifies); the best
        qualifying mean wins, ties going to the prior, then to the lowest action id.
        """
        n_c = game_of.size
        n = D[game_of].astype(np.float64)
        is_prior = act_of == prior[game_of]
        prior_value = np.zeros(sample.max() + 1)
        on_prior = is_prior[cand]
        prior_value[sample[on_prior]] = value[on_prior]
        gain = value - prior_value[sample]
        mean_gain = np.bincount(cand, weights=gain, minlength=n_c) / n
        var = np.bincount(cand, weights=gain**2, minlength=n_c) / n - mean_gain**2
        se = np.sqrt(np.maximum(var, 0) / np.maximum(n - 1, 1))
        ok = is_prior | (mean_gain > margin[game_of] * se)
        score = np.full(mask.shape, -np.inf)
        score[game_of, act_of] = np.where(ok, mean_gain, -np.inf)
        best = score.max(axis=1, keepdims=True)
        choice = np.argmax(score, axis=1)
        tie_prior = score[np.arange(mask.shape[0]), prior] == best[:, 0]
        return np.where(tie_prior, prior, choice).astype(np.int64)

    def _budget(self, d, mask) -> np.ndarray:
        """Samples per game: the fixed counts, or sized to ``time_budget_ms`` once costs are known."""
        if self.time_budget_ms is None or self._seconds_per_playout is None:
            return d
        playouts = self.time_budget_ms / 1000 / self._seconds_per_playout
        share = d / d.sum()  # keep the ratio between Go/Stop and other decisions
        return np.maximum(1, (playouts * share / (mask.sum(axis=1) * self.rollouts))).astype(np.int64)


def _chunks(costs: np.ndarray, cap: int) -> list[np.ndarray]:
    """Consecutive index ranges whose costs sum to at most ``cap`` (each cost is <= cap)."""
    out, start, total = [], 0, 0
    for i, c in enumerate(costs.tolist()):
        if total + c > cap:
            out.append(np.arange(start, i))
            start, total = i, 0
        total += c
    if start < costs.size:
        out.append(np.arange(start, costs.size))
    return out


def _count(value, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
    return int(value)


def _number(value, name: str, low: float, high: float | None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not np.isfinite(value) or value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be a number {bound}, got {value!r}")
    return float(value)

"""Determinized Monte-Carlo search for Go-Stop, frozen as ``gostop-search-v1`` (PIMC).

The first ``gostop-search``, kept as it was (code path and budgets) as a fixed reference
opponent: the benchmark ladder and later bots are measured against it.  ``gostop-search``
is now :mod:`agents.gostop_search`.

For every game of the batch with a real choice, the bot samples ``D`` full states
consistent with its observation (:meth:`envs.core.game.Game.sample_states`: the unseen
cards dealt at random into the opponent's hand and the stock), applies each candidate
action to each of them (the same ``D`` samples for every candidate: common random numbers)
and plays every copy to the end of the deal: its own seat with ``gostop-greedy`` (by
default one that also goes Go while the opponent's threat is at most 7, down to its last
card, as the search itself does), the opponent with ``gostop-greedy``.  A candidate's value
is its mean payout for the bot (signed points, 0 on nagari).

The greedy heuristic is the prior: its ``candidates`` favourite actions are searched, and
the bot leaves the greedy choice only for a candidate whose mean gain over it, paired over
the same samples, exceeds ``margin`` standard errors (the best such candidate wins).  Payouts
of single samples vary by about 14 points between two candidates, so without that margin the
noise of a few hundred samples picks worse moves more often than better ones.  Go/Stop
decisions are searched the same way with no margin: Stop is the candidate whose play-out
ends at once, and its payout is exact.

Every play-out of every candidate of every game in the batch runs in one batched call on
the core (``agents.play.play_out``; batches beyond ``MAX_PLAYOUTS`` play-outs run in
chunks), through the public ``Game`` API only.  The bot reads nothing but ``(observation,
mask, rng)``: it cannot see hidden cards.

Options (``agents.load("gostop-search-v1", **options)``; 0 determinizations leave that decision
to the greedy heuristic):

* ``determinizations``: samples D per PLAY decision (default 128);
* ``choice_determinizations``: per HAND_CHOICE / STOCK_CHOICE decision (default 32);
* ``go_stop_determinizations``: per GO_STOP decision (default 64);
* ``candidates``: how many of the heuristic's favourite actions are searched (default 2);
* ``margin``: standard errors a PLAY or choice candidate must gain over the heuristic's
  choice (default 1.5);
* ``own_rollout``: ``"bold"`` (default, the Go rule above) or ``"same"`` (plain greedy);
* ``rollout``: ``"greedy"`` (default) or ``"random"`` play-outs;
* ``rollouts`` (R, default 1) and ``epsilon`` (default 0): play-outs per sample and
  candidate, each rollout move uniformly random with probability ``epsilon``; once dealt, a
  Go-Stop deal has no chance left, so R > 1 needs ``epsilon`` > 0 or random play-outs;
* ``time_budget_ms``: scale the sample counts per call so that the play-outs take about this
  long per decision, by the cost measured in the previous call (the choices then depend on
  the machine's speed).
"""

from __future__ import annotations

import time

import numpy as np

from envs.core.sampling import sample_legal
from envs.gostop import GoStop
from envs.gostop.actions import CHOOSE_START, GO, NUM_ACTIONS
from envs.gostop import cards as C
from envs.gostop.observation import OBS_SIZE, View

from .base import BaseBot, Bot, as_batch
from .gostop_greedy import GoStopGreedyBot
from .play import play_out
from .random_bot import RandomBot

DEFAULT_DETERMINIZATIONS = 128
DEFAULT_CHOICE_DETERMINIZATIONS = 32
DEFAULT_GO_STOP_DETERMINIZATIONS = 64
DEFAULT_MARGIN = 1.5
DEFAULT_CANDIDATES = 2
ROLLOUT_POLICIES = ("greedy", "random")
OWN_ROLLOUTS = ("same", "bold")
DEFAULT_OWN_ROLLOUT = "bold"
BOLD_GO = (7, 1)  # the searching seat's play-outs Go while the opponent's threat is <= 7, to the last card
MAX_PLAYOUTS = 1 << 16  # play-outs per batched call (bounds memory; larger batches run in chunks)


class EpsilonBot(BaseBot):
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


class GoStopSearchV1Bot(BaseBot):
    """PIMC search over sampled deals with batched play-outs (see the module docstring)."""

    name = "gostop-search-v1"
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
        self._seconds_per_turn = None  # measured cost of one play-out turn, for time_budget_ms

    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        prefs = self.greedy.scores(obs, m)
        actions = np.argmax(prefs, axis=1).astype(np.int64)
        cand = favourites(prefs, m, self.candidates)
        go_stop, choice = m[:, GO], m[:, CHOOSE_START:GO].any(axis=1)
        d = np.select([go_stop, choice], [self.go_stop_determinizations, self.choice_determinizations],
                      self.determinizations)
        margin = np.where(go_stop, 0.0, self.margin)
        todo = np.flatnonzero((cand.sum(axis=1) > 1) & (d > 0))
        per_sample = cand[todo].sum(axis=1) * self.rollouts
        turns = _turns_left(obs[todo])
        D = np.minimum(self._budget(d[todo], per_sample, turns, todo.size), MAX_PLAYOUTS // per_sample)
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
        state = samples.take(src, check=False)  # a deal holds no chance once dealt: R copies differ only
        me = seats[src]  # through the play-out policies' own random moves
        ar = np.arange(state.batch_size)
        start = time.perf_counter()
        payout = G.step(state, act_of[c], check=False)[ar, me].astype(np.float64)
        seating = np.where(np.arange(2)[None, :] == me[:, None], 0, 1)  # policies[0] plays seat me
        payout += play_out(G, state, self.policies, rng, seating)[ar, me]
        turns = np.repeat(_turns_left(obs), D * mask.sum(axis=1) * R)
        self._seconds_per_turn = (time.perf_counter() - start) / turns.sum()
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
        is_prior = act_of == prior[game_of]
        mean_gain, se = paired_gains(value, sample, cand, is_prior, D[game_of])
        ok = is_prior | (mean_gain > margin[game_of] * se)
        score = np.full(mask.shape, -np.inf)
        score[game_of, act_of] = np.where(ok, mean_gain, -np.inf)
        best = score.max(axis=1, keepdims=True)
        choice = np.argmax(score, axis=1)
        tie_prior = score[np.arange(mask.shape[0]), prior] == best[:, 0]
        return np.where(tie_prior, prior, choice).astype(np.int64)

    def _budget(self, d, per_sample, turns, decisions) -> np.ndarray:
        """Samples per game: the fixed counts, or, with ``time_budget_ms``, scaled together so
        that the call's play-outs should take ``decisions`` times the budget (by the cost per
        play-out turn measured in the previous call; the fixed counts until there is one)."""
        if self.time_budget_ms is None or self._seconds_per_turn is None:
            return d
        work = (d * per_sample * turns).sum() * self._seconds_per_turn  # seconds at the fixed counts
        scale = self.time_budget_ms / 1000 * decisions / max(work, 1e-9)
        return np.maximum(1, np.floor(d * scale)).astype(np.int64)


def favourites(prefs: np.ndarray, mask: np.ndarray, k: int) -> np.ndarray:
    """(B, A) bool: the ``k`` favourite legal actions of each game by the preferences ``prefs``
    (legal ones first, then by preference, ties to the lower id; an unsafe Go is legal at -inf)."""
    order = np.lexsort((-prefs, ~mask), axis=1)
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(mask.shape[1])[None, :], axis=1)
    return mask & (rank < k)


def paired_gains(value, sample, cand, is_prior, n):
    """Each candidate's mean gain over its game's prior action and its standard error.

    ``value[i]`` is the payout of candidate ``cand[i]`` on sample ``sample[i]`` (sample ids
    unique across games); ``is_prior[c]`` marks the prior candidates (one per game) and
    ``n[c]`` the samples of candidate ``c``.  Returns two float64 arrays over the candidates.
    """
    n = np.asarray(n, dtype=np.float64)
    prior_value = np.zeros(sample.max() + 1)
    on_prior = is_prior[cand]
    prior_value[sample[on_prior]] = value[on_prior]
    gain = value - prior_value[sample]
    mean_gain = np.bincount(cand, weights=gain, minlength=n.size) / n
    var = np.bincount(cand, weights=gain**2, minlength=n.size) / n - mean_gain**2
    return mean_gain, np.sqrt(np.maximum(var, 0) / np.maximum(n - 1, 1))


def _turns_left(obs: np.ndarray) -> np.ndarray:
    """(B,) turns a play-out from each observation lasts at most (cards in both hands, plus one)."""
    view = View(obs)
    return C.popcount(view.hand).astype(np.int64) + view.hand_size_opp + 1


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

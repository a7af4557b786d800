"""Determinized Monte-Carlo search for Go-Stop with compiled play-outs (``gostop-search``).

The search of :mod:`agents.gostop_search_v1` (``gostop-search-v1``), with what compiled
play-outs (:mod:`agents.gostop_playout`, about 50x faster than the Python loop) buy within
a similar time per decision:

* **More determinizations.**  Per decision the bot samples ``D`` full states consistent
  with its own observation (:meth:`envs.core.game.Game.sample_states`: the unseen cards
  dealt at random into the opponent's hand and the stock) and plays every candidate on each
  of them (common random numbers) to the end of the deal: its own seat by ``gostop-greedy``
  with the bold Go rule (Go while the opponent's threat is at most 7, down to the last
  card), the opponent by ``gostop-greedy``.  A candidate's value is its mean payout for the
  bot (signed points, 0 on nagari).
* **Every legal move searched** (up to ``candidates``, by the heuristic's preference), not
  just the heuristic's two favourites; the bot leaves the heuristic's choice only for a
  candidate whose mean gain over it, paired over the same samples, exceeds ``margin``
  standard errors.
* **Go/Stop by the value of the deal**: Stop is worth its exact payout now, Go the mean
  payout of the deal played on (its points, and the risk that the opponent reverses it),
  with no margin.
* **More samples where the top moves are close**: when the best candidate's mean leads the
  runner-up's by less than ``close`` standard errors, the two are played out again on
  ``close_determinizations`` fresh samples, and the runner-up replaces the first choice only
  for a gain of ``margin`` standard errors there (none at Go/Stop).

:meth:`GoStopSearchBot.action_values` gives the first pass's values of every legal move
(the mean payouts, on common samples) instead of a choice: the targets expert iteration
distils (:mod:`training.gostop_distill`).

Every play-out of every candidate of every game in the batch runs in one compiled call (in
chunks of ``MAX_PLAYOUTS``).  The bot reads nothing but ``(observation, mask, rng)``: it
cannot see hidden cards.  Options (``agents.load("gostop-search", **options)``; 0
determinizations leave that decision to the heuristic): ``determinizations`` (PLAY, default
512), ``choice_determinizations`` (HAND_CHOICE / STOCK_CHOICE, 256),
``go_stop_determinizations`` (1024), ``candidates`` (10), ``margin`` (1.0), ``close`` (1.0)
and ``close_determinizations`` (1024; 0 turns the second look off).
"""

from __future__ import annotations

import numpy as np

from envs.gostop import GoStop
from envs.gostop.actions import CHOOSE_START, GO, NUM_ACTIONS
from envs.gostop.observation import OBS_SIZE

from .base import BaseBot, as_batch
from .gostop_greedy import GO_MAX_OPP_SCORE, GO_MIN_HAND, GoStopGreedyBot
from .gostop_playout import play_out
from .gostop_search_v1 import BOLD_GO, MAX_PLAYOUTS, _chunks, _count, _number, favourites, paired_gains

PLAYOUT_RULES = (BOLD_GO, (GO_MAX_OPP_SCORE, GO_MIN_HAND))
"""The Go rules of the play-outs: the searching seat (0 in every sample), its opponent."""


class GoStopSearchBot(BaseBot):
    """PIMC search with compiled play-outs (see the module docstring)."""

    name = "gostop-search"
    game = "gostop"

    def __init__(self, determinizations: int = 512, choice_determinizations: int = 256,
                 go_stop_determinizations: int = 1024, candidates: int = 10, margin: float = 1.0,
                 close: float = 1.0, close_determinizations: int = 1024):
        self.determinizations = _count(determinizations, "determinizations", 0)
        self.choice_determinizations = _count(choice_determinizations, "choice_determinizations", 0)
        self.go_stop_determinizations = _count(go_stop_determinizations, "go_stop_determinizations", 0)
        self.candidates = _count(candidates, "candidates", 1)
        self.margin = _number(margin, "margin", 0, None)
        self.close = _number(close, "close", 0, None)
        self.close_determinizations = _count(close_determinizations, "close_determinizations", 0)
        self.greedy = GoStopGreedyBot()
        self.rules = GoStop()

    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        prefs = self.greedy.scores(obs, m)
        actions = np.argmax(prefs, axis=1).astype(np.int64)
        cand = favourites(prefs, m, self.candidates)
        d = self._budgets(m)
        margin = np.where(m[:, GO], 0.0, self.margin)
        todo = np.flatnonzero((cand.sum(axis=1) > 1) & (d > 0))
        if todo.size == 0:
            return actions
        best, runner, lead = self._search(obs[todo], cand[todo], actions[todo], d[todo], margin[todo], rng)
        actions[todo] = best
        again = np.flatnonzero((runner >= 0) & (lead < self.close))
        if again.size and self.close_determinizations > 0:
            g = todo[again]
            pair = np.zeros_like(m[g])
            pair[np.arange(g.size), best[again]] = True
            pair[np.arange(g.size), runner[again]] = True
            D = np.full(g.size, self.close_determinizations)
            actions[g] = self._search(obs[g], pair, best[again], D, margin[g], rng)[0]
        return actions

    def _search(self, obs, cand, prior, D, margin, rng):
        """Each game's choice, runner-up (-1 if none) and the choice's lead over it in standard
        errors, from ``D[b]`` samples per candidate of game ``b`` (chunks of play-outs)."""
        out = np.full((3, obs.shape[0]), -1.0)
        for sel in _chunks(D * cand.sum(axis=1), MAX_PLAYOUTS):
            out[:, sel] = self._search_chunk(obs[sel], cand[sel], prior[sel], D[sel], margin[sel], rng)
        return out[0].astype(np.int64), out[1].astype(np.int64), out[2]

    def action_values(self, observation, mask, rng) -> np.ndarray:
        """(B, 98) float64: each legal move's mean payout for the bot's seat (signed points, 0 on
        nagari) over the search's determinizations, every legal move played out on the same
        samples (common random numbers; the first pass of :meth:`act`, with no second look and
        no candidate limit); NaN where illegal.  The samples per move follow the bot's budgets:
        ``go_stop_determinizations`` at Go/Stop, ``choice_determinizations`` at a hand or stock
        choice, ``determinizations`` otherwise; a game whose budget is 0 gets NaN everywhere."""
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        d = self._budgets(m)
        values = np.full(m.shape, np.nan)
        todo = np.flatnonzero(d > 0)
        for sel in _chunks(d[todo] * m[todo].sum(axis=1), MAX_PLAYOUTS):
            g = todo[sel]
            value, _, c, game_of, act_of = self._play_outs(obs[g], m[g], d[g], rng)
            values[g[game_of], act_of] = np.bincount(c, weights=value, minlength=act_of.size) / d[g][game_of]
        return values

    def _budgets(self, m):
        """(B,) determinizations per candidate of each game, by its decision kind."""
        go_stop, choice = m[:, GO], m[:, CHOOSE_START:GO].any(axis=1)
        return np.select([go_stop, choice], [self.go_stop_determinizations, self.choice_determinizations],
                         self.determinizations)

    def _play_outs(self, obs, cand, D, rng):
        """Every candidate of each game ``b`` played out on the same ``D[b]`` samples of its
        hidden cards: ``(value, src, c, game_of, act_of)``, one ``value`` (the searching seat's
        payout) per (game b, sample j < D[b], candidate c of b), in that order, with its sample
        id ``src`` and candidate index ``c`` into the candidates' ``game_of`` / ``act_of``."""
        B = obs.shape[0]
        k = int(D.max())
        seeds = rng.integers(0, 2**63 - 1, size=(B, k), dtype=np.int64)
        samples, _ = self.rules.sample_states(obs, seeds)
        game_of, act_of = np.nonzero(cand)
        n_cand = cand.sum(axis=1)
        first = np.cumsum(n_cand) - n_cand
        per_game = n_cand * D
        g = np.repeat(np.arange(B), per_game)
        within = np.arange(g.size) - np.repeat(np.cumsum(per_game) - per_game, per_game)
        c = first[g] + within % n_cand[g]
        src = g * k + within // n_cand[g]
        state = samples.take(src, check=False)
        value = play_out(state, PLAYOUT_RULES, first=act_of[c], check=False)[:, 0].astype(np.float64)
        return value, src, c, game_of, act_of

    def _search_chunk(self, obs, cand, prior, D, margin, rng):
        B = obs.shape[0]
        value, src, c, game_of, act_of = self._play_outs(obs, cand, D, rng)

        is_prior = act_of == prior[game_of]
        mean_gain, se = paired_gains(value, src, c, is_prior, D[game_of])
        ok = is_prior | (mean_gain > margin[game_of] * se)
        score = np.full(cand.shape, -np.inf)
        score[game_of, act_of] = np.where(ok, mean_gain, -np.inf)
        best = np.argmax(score, axis=1)
        best = np.where(score[np.arange(B), prior] == score.max(axis=1), prior, best)
        # The runner-up by mean (qualified or not) and how far the choice leads it.
        mean = np.full(cand.shape, -np.inf)
        mean[game_of, act_of] = mean_gain
        spread = np.zeros(cand.shape)
        spread[game_of, act_of] = se
        mean_best = mean[np.arange(B), best]
        mean[np.arange(B), best] = -np.inf
        runner = np.argmax(mean, axis=1)
        se_pair = np.maximum(spread[np.arange(B), best], spread[np.arange(B), runner])
        lead = (mean_best - mean[np.arange(B), runner]) / np.maximum(se_pair, 1e-9)
        runner = np.where(np.isfinite(mean[np.arange(B), runner]), runner, -1)
        return best, runner, lead

"""What the policy-file loaders share: naming the game a network plays, and a bot over action scores."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from envs.registration import GAMES, game_class

from ..base import BaseBot, as_batch


def game_sizes() -> dict[str, tuple[int, int]]:
    """Each game module's (observation size, number of actions)."""
    return {g: (game_class(g).obs_size, game_class(g).num_actions) for g in sorted(GAMES)}


def _sizes_text() -> str:
    return ", ".join(f"{g} {o} and {a}" for g, (o, a) in game_sizes().items())


def resolve_game(source: str, given, obs_size, num_actions) -> str:
    """The game module a network with these input and output widths plays.

    ``given`` (the ``game`` option, or what a metadata file says) wins and is checked
    against the widths that are known (``None`` for a width the file leaves open);
    without it the widths must match exactly one game.  ``ValueError`` names ``source``
    and what does not fit.
    """
    if given is not None:
        if given not in GAMES:
            raise ValueError(f"{source}: unknown game {given!r}; known games: {sorted(GAMES)}")
        want = game_sizes()[given]
        for what, got, need in (("observation size", obs_size, want[0]), ("number of actions", num_actions, want[1])):
            if got is not None and got != need:
                raise ValueError(f"{source}: its {what} is {got}, but {given} has {need}")
        return given
    if obs_size is None or num_actions is None:
        raise ValueError(f"{source}: its input or output width is not fixed, so the game cannot be told from "
                         f"it; name the game (the option game=GAME, e.g. --bot-option game=yacht)")
    fits = [g for g, sizes in game_sizes().items() if sizes == (obs_size, num_actions)]
    if not fits:
        raise ValueError(f"{source}: observations of size {obs_size} and {num_actions} actions fit no madang game "
                         f"(observation size and number of actions: {_sizes_text()})")
    if len(fits) > 1:
        raise ValueError(f"{source}: observations of size {obs_size} and {num_actions} actions fit {fits}; "
                         "name the game (the option game=GAME)")
    return fits[0]


def check_file(path: str | Path, what: str) -> Path:
    """``path`` as a ``Path`` if it is a readable file, else ``ValueError`` naming it as ``what``."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"{path}: no such {what} file")
    return p


class ScoresBot(BaseBot):
    """A bot that picks, among the legal actions, the one its network scores highest.

    ``scores(observations, masks)`` returns (B, A) float scores (logits, log-probabilities
    or action values).  Illegal actions never win, whatever their score; ties go to the
    lowest action id.  ``greedy=False`` samples instead, from the softmax of the legal
    scores, drawing from ``rng`` (Gumbel-max) so that seeded runs repeat.  ``files`` are
    the files the policy was read from (its identity in benchmark results).
    """

    def __init__(self, name: str, game: str, scores, files, greedy: bool = True, kind: str = ""):
        if not isinstance(greedy, bool):
            raise ValueError(f"{name}: greedy must be true or false, got {greedy!r}")
        cls = game_class(game)
        self.name, self.game, self.greedy, self.kind = name, game, greedy, kind
        self.obs_size, self.num_actions = cls.obs_size, cls.num_actions
        self.files = tuple(Path(f) for f in files)
        self._scores = scores

    def act(self, observations, masks, rng):
        obs, m = as_batch(observations, masks, self.obs_size, self.num_actions)
        scores = np.asarray(self._scores(obs, m), dtype=np.float64)
        if scores.shape != m.shape:
            raise ValueError(f"{self.name}: the network gave scores of shape {scores.shape}, {m.shape} expected")
        scores = np.where(np.isnan(scores), -np.inf, scores)  # a NaN score never wins
        if not self.greedy:
            scores = scores + -np.log(-np.log(rng.random(m.shape)))
        # Legal actions first (even a -inf legal score beats any illegal one), then the highest score.
        best = np.where(m, scores, -np.inf)
        pick = best.argmax(axis=1)
        none = ~np.isfinite(best[np.arange(len(pick)), pick])
        if none.any():  # every legal score is -inf or NaN: the lowest legal id
            pick[none] = m[none].argmax(axis=1)
        return pick.astype(np.int64)

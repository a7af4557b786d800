"""Yacht batched rules (``docs/rules/yacht.md``): 5 dice, 12 categories, 1..4 players.

Action layout, one flat ``Discrete(44)`` (docs/rules/yacht.md §5.1)::

    0 ............ 31 | 32 ........... 43
    reroll dice whose |  score category
    bit is set in id  |  id - 32
    (id 0 never legal)|  (open on the mover's sheet)

The rules run compiled (:mod:`envs.yacht.kernels`, numba); this module is their Python
API.  Dice are kept sorted ascending after every roll, so die ``i`` is the ``i``-th
smallest; the state holds them as an index into the 252 sorted multisets
(:mod:`envs.yacht.dice`).  A turn is the initial roll plus up to two rerolls
(``rolls_left`` counts the rerolls still allowed); scoring a category ends the
turn, and the next seat with an open category rolls at once.  Every step draws
one code of five fresh dice from the game's own counter-based stream (a reroll
uses as many of them as it rerolls), so a game's dice depend only on its seed
and its actions.

Rewards: ``reward="score"`` (default) gives the mover the points it writes;
``reward="win"`` (2+ players) gives 0 until the end, then +1 shared by the
winners and -1 shared by the losers (0 for all when every seat ties).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..core.game import Game
from ..core.state import BatchState
from . import checks, kernels, observation, position, view
from .dice import NUM_REROLL_IDS, REROLL_BITS
from .observation import OBS_SIZE
from .scoring import CATEGORY_NAMES, MULTISETS, NUM_CATEGORIES, NUM_DICE

REROLL_START = 0  # ids 0..31: reroll mask (bit i = die i)
SCORE_START = REROLL_START + NUM_REROLL_IDS  # ids 32..43: score category id - 32
NUM_ACTIONS = SCORE_START + NUM_CATEGORIES
ACTION_SLICES = {"reroll": slice(REROLL_START, SCORE_START), "score": slice(SCORE_START, NUM_ACTIONS)}
"""The action layout as named slices of the flat action ids (tile 0..NUM_ACTIONS exactly)."""
ROLLS_PER_TURN = kernels.ROLLS_PER_TURN  # rerolls after the first roll
NUM_ROUNDS = kernels.NUM_ROUNDS


@dataclasses.dataclass
class YachtState(BatchState):
    """Batched Yacht state (B games, P seats); see :class:`envs.core.state.BatchState`.

    ``dice`` (B,) int16 index of the sorted dice in ``scoring.MULTISETS`` (use
    :meth:`Yacht.dice` for the five values); ``rolls_left`` (B,) int8 in 0..2; ``round``
    (B,) int8 in 1..12; ``sheets`` (B, P, 12) int16 with -1 for an open category.
    """

    to_move: np.ndarray
    done: np.ndarray
    rng_key: np.ndarray
    rng_counter: np.ndarray
    dice: np.ndarray
    rolls_left: np.ndarray
    round: np.ndarray
    sheets: np.ndarray

    FIELDS = checks.FIELDS  # the buffer header's seat count P: the trailing axis "P" of sheets


class Yacht(Game):
    """Batched Yacht rules; ``Yacht(num_players=1..4, reward="score"|"win")``."""

    name = "yacht"
    env_id = "madang/Yacht-v0"
    num_actions = NUM_ACTIONS
    obs_size = observation.OBS_SIZE
    obs_slices = observation.OBS_SLICES
    action_slices = ACTION_SLICES
    min_players, max_players = 1, 4
    zero_sum = False
    reward_modes = ("score", "win")
    view_module = view
    state_cls = YachtState
    checker = checks.CHECKER

    # ------------------------------------------------------------ new games
    def new_games(self, key, counter):
        state = YachtState.empty(key.shape[0], self.num_players)
        state.rng_key[:] = key
        state.rng_counter[:] = counter
        kernels.new_games(state._buf, np.arange(key.shape[0]))
        return state

    def _reset_rows(self, state, rows):
        """As :meth:`Game._reset_rows` (the same new games), written straight into ``state``."""
        kernels.new_games(state._buf, rows)

    # ------------------------------------------------------ masks and steps
    def _legal_mask(self, state):
        mask = np.empty((state.batch_size, NUM_ACTIONS), dtype=bool)
        kernels.legal_mask(state._buf, mask)
        return mask

    def _apply(self, state, actions):
        rewards = np.zeros((state.batch_size, self.num_players), dtype=np.float32)
        kernels.step(state._buf, actions, rewards, self.reward == "score")
        return rewards

    def _apply_rows(self, state, rows, actions):
        rewards = np.zeros((rows.shape[0], self.num_players), dtype=np.float32)
        kernels.step_rows(state._buf, rows, actions, rewards, self.reward == "score")
        return rewards

    def _fused_call(self, kind):
        if kind == "step":
            return checks.step_checked, (self.reward == "score", self.num_players)
        return (checks.legal_mask_checked if kind == "mask" else checks.observe_checked), (self.num_players,)

    # ---------------------------------------------------------- observation
    def _observe(self, state, seats):
        out = np.empty((state.batch_size, OBS_SIZE), dtype=np.float32)
        seats = state.to_move if seats is None else seats
        kernels.observe(state._buf, seats, out)
        return out

    def observation_position(self, obs_row):
        """The position an observation of the seat to move shows (:func:`.observation.position_of`)."""
        return observation.position_of(obs_row, self.num_players)

    # -------------------------------------------------------------- results
    @staticmethod
    def dice(state) -> np.ndarray:
        """(B, 5) int64 sorted dice values of every game (of a checked Yacht state)."""
        _game_of(state).check_state(state)
        return MULTISETS[state.dice]

    @staticmethod
    def totals(state) -> np.ndarray:
        """(B, P) int64 sheet totals (open categories count 0) of a checked Yacht state."""
        _game_of(state).check_state(state)
        return _totals(state)

    def _result(self, state, index):
        return {"scores": [int(x) for x in _totals(state)[index]]}

    def _to_position(self, state, index):
        return position.to_position(state, index)

    def _from_position(self, position_dict, key):
        return position.from_position(position_dict, self.num_players, key, YachtState)

    def _describe_action(self, action):
        if REROLL_START <= action < SCORE_START:
            dice = [i for i in range(NUM_DICE) if REROLL_BITS[action, i]]
            return f"reroll dice {dice}"
        if SCORE_START <= action < NUM_ACTIONS:
            return f"score {CATEGORY_NAMES[action - SCORE_START]}"
        return f"out-of-range action {action}"



def _totals(state) -> np.ndarray:
    return np.where(state.sheets < 0, 0, state.sheets).sum(axis=2, dtype=np.int64)


def _game_of(state) -> Yacht:
    """The Yacht game that made ``state`` (``ValueError`` for anything else)."""
    identity = getattr(state, "identity", None)
    if identity is None or not issubclass(identity.game_cls, Yacht):
        raise ValueError(f"expected a Yacht state, got {type(state).__name__}"
                         + ("" if identity is None else f" of {identity.label}"))
    return identity.game()

"""Rainbow Dice batched rules (``docs/rules/rainbow_dice.md``): 6 coloured dice, 30 hand cards,
a shared market and tokens; 1..4 players, 12 rounds.

The action layout (``Discrete(145)``) is drawn in :mod:`.actions`; the observation layout
in :mod:`.observation`; positions in :mod:`.position`.  The rules run compiled
(:mod:`.kernels`, numba); this module is their Python API.

A turn: the dice are rolled (2 free rerolls, no die actions used).  In the rolling phase
the mover may adjust a die by +-1 (1 token), free-reroll any non-empty set of dice, stop
rolling, or end the dice phase at once by buying a satisfied card or taking tokens.  Once
no free reroll is left (used or forfeited) the final phase allows adjustments, single-die
token rerolls and the buy/take choice.  At most 3 die actions (adjustments plus token
rerolls) per turn.  After a buy, a second card for 3 tokens is offered when the mover
holds at least 3 tokens and some satisfied hand still has a copy; then the turn ends with
+1 token and the next seat rolls.

Dice are stored as one base-6 code per game (``code``; Red is the lowest digit), so the
satisfied hands are one table lookup.  Every step draws one
46656-outcome throw from the game's own counter-based stream; rerolled dice (all six for a
new turn) take their values from it, so a game depends only on its seed and its actions.
``score`` caches each seat's final score (docs/rules/rainbow_dice.md §7), which the rewards are differences of.

Rewards: ``reward="score"`` (default) gives the mover the change of its final score
(docs/rules/rainbow_dice.md §7) after
each action (tokens count 3 each, so spending one costs 3 and the end-of-turn token pays
3); a seat's rewards sum to its final score (less 3 per starting token when
``start_tokens`` > 0: those points are in the total before the first action).  ``reward="win"`` (2+ players) gives 0 until
the end, then +1 shared by the winners and -1 shared by the losers (0 for all on a full tie).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..core.game import Game
from ..core.state import BatchState
from ..core.validate import require_int
from . import checks, kernels, observation, position, view
from .actions import ACTION_SLICES, NUM_ACTIONS, describe_action
from .hands import ALL_DICE
from .observation import OBS_SIZE
from .position import UNLIMITED_SUPPLY
from .position import LATE_ROUND  # noqa: F401 - imported from here by the bots
from .turn_dp import reach_table


@dataclasses.dataclass
class RainbowState(BatchState):
    """Batched Rainbow Dice state (B games, P seats); see :class:`envs.core.state.BatchState`.

    ``code`` (B,) int64 dice code (:func:`envs.rainbow_dice.hands.dice_code`); ``phase`` (B,)
    int8 0 rolling, 1 final, 2 second card, 3 game over; ``free_rerolls`` (B,) int8 0..2;
    ``die_actions`` (B,) int8 0..3; ``round`` (B,) int8 1..12; ``tokens`` (B, P) int32;
    ``cards`` (B, P, 30) int16; ``supply`` (B, 30) int16 copies left (an unlimited supply is
    stored as :data:`~envs.rainbow_dice.position.UNLIMITED_SUPPLY` and never decremented);
    ``piles`` (B,) uint64 (bit h set while hand h has a copy left), ``rank_cards`` (B, P, 6)
    int32 and ``score`` (B, P) int32 cache the non-empty piles, the cards held per rank and
    the final scores (docs/rules/rainbow_dice.md §7).
    """

    to_move: np.ndarray
    done: np.ndarray
    rng_key: np.ndarray
    rng_counter: np.ndarray
    code: np.ndarray
    phase: np.ndarray
    free_rerolls: np.ndarray
    die_actions: np.ndarray
    round: np.ndarray
    tokens: np.ndarray
    cards: np.ndarray
    supply: np.ndarray
    piles: np.ndarray
    rank_cards: np.ndarray
    score: np.ndarray

    FIELDS = checks.FIELDS  # the buffer header's seat count P: the trailing axis "P" of tokens

    @property
    def dice(self) -> np.ndarray:
        """(B, 6) int8 dice in rainbow order (decoded from ``code``; ``ValueError`` for a code out of range)."""
        code = np.asarray(self.code)
        if code.dtype.kind not in "iu" or code.ndim != 1 or (code.size and not (
                0 <= code.min() and code.max() < ALL_DICE.shape[0])):
            raise ValueError(f"code must be (B,) dice codes in 0..{ALL_DICE.shape[0] - 1}")
        return ALL_DICE.take(code, axis=0)


class RainbowDice(Game):
    """Batched Rainbow Dice rules.

    ``RainbowDice(num_players=1..4, copies_per_hand=10 (int >= 1, or None for unlimited),
    start_tokens=0, reward="score"|"win")``.
    """

    name = "rainbow_dice"
    env_id = "madang/RainbowDice-v0"
    num_actions = NUM_ACTIONS
    obs_size = observation.OBS_SIZE
    obs_slices = observation.OBS_SLICES
    action_slices = ACTION_SLICES
    min_players, max_players = 1, 4
    zero_sum = False
    reward_modes = ("score", "win")
    view_module = view
    state_cls = RainbowState
    checker = checks.CHECKER

    def __init__(self, num_players: int = 1, copies_per_hand: int | None = 10, start_tokens: int = 0,
                 reward: str | None = None):
        super().__init__(num_players, reward)
        if copies_per_hand is not None:
            copies_per_hand = require_int(copies_per_hand, "copies_per_hand", 1, position.MAX_COUNT)
        self.copies_per_hand = copies_per_hand
        self.start_tokens = require_int(start_tokens, "start_tokens", 0, position.MAX_TOKENS)
        self._limited = copies_per_hand is not None
        self._step_cfg = (self.reward == "score", self._limited)  # the step kernels' ``cfg``

    def identity_options(self):
        return (("num_players", self.num_players), ("copies_per_hand", self.copies_per_hand),
                ("start_tokens", self.start_tokens))

    def _check_params(self):
        return (self.num_players, self._limited, self.copies_per_hand or 0)

    # ------------------------------------------------------------ new games
    def new_games(self, key, counter):
        state = RainbowState.empty(key.shape[0], self.num_players)
        state.rng_key[:] = key
        state.rng_counter[:] = counter
        self._reset_rows(state, np.arange(key.shape[0]))
        return state

    def _reset_rows(self, state, rows):
        """As :meth:`Game._reset_rows` (the same new games), written straight into ``state``."""
        supply = self.copies_per_hand if self._limited else UNLIMITED_SUPPLY
        kernels.new_games(state._buf, rows, self.start_tokens, supply)

    # ------------------------------------------------------ masks and steps
    def _legal_mask(self, state):
        mask = np.empty((state.batch_size, NUM_ACTIONS), dtype=bool)
        kernels.legal_mask(state._buf, mask)
        return mask

    def _apply(self, state, actions):
        rewards = np.zeros((state.batch_size, self.num_players), dtype=np.float32)
        kernels.step(state._buf, actions, rewards, self._step_cfg)
        return rewards

    def _apply_rows(self, state, rows, actions):
        rewards = np.zeros((rows.shape[0], self.num_players), dtype=np.float32)
        kernels.step_rows(state._buf, rows, actions, rewards, self._step_cfg)
        return rewards

    def _fused_call(self, kind):
        params = self._check_params()
        if kind == "step":
            return checks.step_checked, (self._step_cfg, *params)
        if kind == "mask":
            return checks.legal_mask_checked, params
        return checks.observe_checked, (reach_table(), *params)

    # ---------------------------------------------------------- observation
    def _observe(self, state, seats):
        out = np.empty((state.batch_size, OBS_SIZE), dtype=np.float32)
        seats = state.to_move if seats is None else seats
        kernels.observe(state._buf, seats, reach_table(), out)
        return out

    def observation_position(self, obs_row):
        """The position an observation of the seat to move shows (:func:`.observation.position_of`)."""
        return observation.position_of(obs_row, self.num_players, self.copies_per_hand)

    # -------------------------------------------------------------- results
    def _result(self, state, index):
        return {"scores": [int(x) for x in state.score[index]]}

    def _to_position(self, state, index):
        return position.to_position(state, index, self.copies_per_hand)

    def _from_position(self, position_dict, key):
        return position.from_position(position_dict, self.num_players, self.copies_per_hand, key, RainbowState)

    def _describe_action(self, action):
        return describe_action(action)

    def __repr__(self):
        return (f"RainbowDice(num_players={self.num_players}, copies_per_hand={self.copies_per_hand}, "
                f"start_tokens={self.start_tokens}, reward={self.reward!r})")

"""Pig's batched rules: the Python API over its compiled rules (:mod:`.kernels`, numba).

Actions, one flat ``Discrete(2)``: ``0`` rolls the die, ``1`` holds (legal once the turn
total is above 0).  Every roll draws one die from the game's own counter-based stream, so
a game's rolls depend only on its seed and its actions.  Rewards (``reward="win"``, the
only mode): 0 until the end, then +1 to the winner and -1 shared by the others.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from envs.core.game import Game
from envs.core.state import BatchState

from . import checks, kernels, view
from .kernels import HOLD, MAX_PLAYERS, OBS_SIZE, OBS_SLICES, ROLL

NUM_ACTIONS = 2
ACTION_SLICES = {"roll": slice(ROLL, ROLL + 1), "hold": slice(HOLD, HOLD + 1)}
"""The action layout as named slices of the flat action ids."""
TARGETS = range(10, 101)


@dataclasses.dataclass
class PigState(BatchState):
    """Batched Pig state: ``scores`` (B, P) int16 banked, ``turn_total`` (B,) int16 at stake,
    ``last_roll`` (B,) int8 the die last rolled this turn (0 before the first roll)."""

    to_move: np.ndarray
    done: np.ndarray
    rng_key: np.ndarray
    rng_counter: np.ndarray
    scores: np.ndarray
    turn_total: np.ndarray
    last_roll: np.ndarray

    FIELDS = checks.FIELDS  # the buffer header's seat count P: the trailing axis "P" of scores


class Pig(Game):
    """Batched Pig; ``Pig(num_players=2..4, target=30)``."""

    name = "pig"
    env_id = "madang/Pig-v0"
    num_actions = NUM_ACTIONS
    obs_size = OBS_SIZE
    obs_slices = OBS_SLICES
    action_slices = ACTION_SLICES
    min_players, max_players = 2, MAX_PLAYERS
    zero_sum = True
    reward_modes = ("win",)
    view_module = view
    state_cls = PigState
    checker = checks.CHECKER

    def __init__(self, num_players: int = 2, target: int = 30, reward: str | None = None):
        if isinstance(target, bool) or not isinstance(target, (int, np.integer)) or target not in TARGETS:
            raise ValueError(f"pig: target must be an int in {TARGETS.start}..{TARGETS.stop - 1}, got {target!r}")
        super().__init__(num_players, reward)
        self.target = int(target)

    def identity_options(self):
        return (("num_players", self.num_players), ("target", self.target))

    def _check_params(self):
        return (self.num_players, self.target)

    def new_games(self, key, counter):
        B = key.shape[0]
        return PigState(
            to_move=np.zeros(B, np.int8), done=np.zeros(B, bool),
            rng_key=key.astype(np.uint64), rng_counter=counter.astype(np.uint64),
            scores=np.zeros((B, self.num_players), np.int16), turn_total=np.zeros(B, np.int16),
            last_roll=np.zeros(B, np.int8),
        )

    def _legal_mask(self, state):
        mask = np.empty((state.batch_size, NUM_ACTIONS), dtype=bool)
        kernels.legal_mask(state.buffer, mask)
        return mask

    def _apply(self, state, actions):
        rewards = np.zeros((state.batch_size, self.num_players), dtype=np.float32)
        kernels.step(state.buffer, actions, rewards, self.target)
        return rewards

    def _apply_rows(self, state, rows, actions):
        rewards = np.zeros((rows.shape[0], self.num_players), dtype=np.float32)
        kernels.step_rows(state.buffer, rows, actions, rewards, self.target)
        return rewards

    def _observe(self, state, seats):
        out = np.empty((state.batch_size, OBS_SIZE), dtype=np.float32)
        kernels.observe(state.buffer, state.to_move if seats is None else seats, out, self.target)
        return out

    def _result(self, state, index):
        return {"scores": [int(x) for x in state.scores[index]]}

    def _to_position(self, state, index):
        return {
            "to_move": int(state.to_move[index]), "scores": [int(x) for x in state.scores[index]],
            "turn_total": int(state.turn_total[index]), "last_roll": int(state.last_roll[index]),
            "game_over": bool(state.done[index]),
        }

    def _from_position(self, position, key):
        keys = ("to_move", "scores", "turn_total", "last_roll", "game_over")
        if not isinstance(position, dict) or set(position) != set(keys):
            raise ValueError(f"a Pig position is a dict with exactly the keys {list(keys)}")
        scores = position["scores"]
        if not isinstance(scores, list) or len(scores) != self.num_players:
            raise ValueError(f"scores must be a list of {self.num_players} ints")
        for name, value in [(k, position[k]) for k in ("to_move", "turn_total", "last_roll")] + \
                [("scores", v) for v in scores]:
            if isinstance(value, bool) or not isinstance(value, int) or not -1 < value < 1000:
                raise ValueError(f"{name} must hold ints in 0..999, got {value!r}")
        if not isinstance(position["game_over"], bool):
            raise ValueError(f"game_over must be a bool, got {position['game_over']!r}")
        state = self._made(PigState(
            to_move=np.array([position["to_move"]], np.int8), done=np.array([position["game_over"]]),
            rng_key=key.astype(np.uint64), rng_counter=np.zeros(1, np.uint64),
            scores=np.array([scores], np.int16), turn_total=np.array([position["turn_total"]], np.int16),
            last_roll=np.array([position["last_roll"]], np.int8),
        ))
        self._check(state)
        return state

    def _describe_action(self, action):
        return {ROLL: "roll", HOLD: "hold"}.get(action, f"out-of-range action {action}")

"""Go-Stop (two-player Matgo, CARDAVIA rules; ``docs/rules/gostop.md``) on the shared batched core.

Action layout (one flat ``Discrete(98)``, docs/rules/gostop.md §12.1; offsets in :mod:`.actions`)::

    0 ........ 47 | 48 ........ 95 | 96 | 97
    PLAY hand card | choose layout  | GO | STOP
    with this id   | card id - 48   |    |

Exactly one decision is pending in a live game (``state.phase``): PLAY, HAND_CHOICE,
STOCK_CHOICE or GO_STOP, always the mover's (``state.to_move``).  The rules run compiled
(:mod:`.kernels`, numba: the turn procedure, the deals, masks and observations); this module
is their Python API, dealing's Python side is :mod:`.deal`.

Batched API beyond the :class:`~envs.core.game.Game` basics::

    game = GoStop()
    state = game.init(seeds)                     # random deals; chongtong deals skipped
    state = game.deal(orders, first_players, seeds)   # given (B, 48) deals; chongtong -> done
    game.pending(state, i)                       # decision kind, played / flipped card, legal ids
    game.to_position(state, i); game.from_position(dict, seed)
    game.result(state, i)                        # {"winner", "payout", "reason"} once done

Rewards: ``+payout`` to the winner and ``-payout`` to the loser at the step that ends the
deal (0 on nagari and before the end).
"""

from __future__ import annotations

import numpy as np

from ..core import rng
from ..core.game import Game
from . import checks, determinize, kernels, observation, position, text, view
from . import deal as D
from .actions import ACTION_SLICES, NUM_ACTIONS
from .scoring import CHONGTONG_PAYOUT
from .state import PHASE_NAMES, GoStopState


class GoStop(Game):
    """Batched two-player Go-Stop; ``GoStop()`` (``num_players`` must be 2, ``reward="payout"``)."""

    name = "gostop"
    env_id = "madang/GoStop-v0"
    num_actions = NUM_ACTIONS
    obs_size = observation.OBS_SIZE
    obs_slices = observation.OBS_SLICES
    action_slices = ACTION_SLICES
    min_players, max_players = 2, 2
    zero_sum = True
    reward_modes = ("payout",)
    default_learner_seat = None  # the single-agent env draws the learner's seat per deal
    view_module = view
    state_cls = GoStopState
    checker = checks.CHECKER

    def __init__(self, num_players: int = 2, reward: str | None = None):
        super().__init__(num_players=num_players, reward=reward)

    def _check_params(self):
        return ()

    # ------------------------------------------------------------- new games
    def new_games(self, key, counter):
        return D.new_games(key, counter)

    def _reset_rows(self, state, rows):
        """As :meth:`Game._reset_rows` (same new games), dealing straight into ``state``."""
        D.deal_random_into(state, rows)

    def deal(self, orders, first_players, seeds=None) -> GoStopState:
        """B games from given deal orders ((B, 48) permutations) and first players ((B,) seats).

        Redeals reshuffle from each game's stream (seeded by ``seeds``, default ``0..B-1``);
        ``state.redeals`` counts them.  A chongtong deal comes back finished (``state.done``).
        """
        orders = np.asarray(orders)
        if orders.ndim != 2:
            raise ValueError(f"orders must have shape (B, 48), got {orders.shape}")
        orders = np.stack([D.check_order(o) for o in orders]) if orders.size else orders.reshape(0, 48)
        B = orders.shape[0]
        first = np.asarray(first_players)
        if first.shape != (B,) or first.dtype == bool or not np.issubdtype(first.dtype, np.integer) \
                or ((first != 0) & (first != 1)).any():
            raise ValueError(f"first_players must be {B} seats (0 or 1), got {first_players!r}")
        seeds = np.arange(B) if seeds is None else np.asarray(seeds)
        if seeds.shape != (B,):
            raise ValueError(f"seeds must have shape ({B},), got {seeds.shape}")
        key = rng.keys_from_seeds(seeds)
        return self._made(self._given_deals(orders, first, key, np.zeros(B, np.uint64)))

    def _given_deals(self, orders, first, key, counter) -> GoStopState:
        """Deal checked orders (:func:`.deal.given_deals`)."""
        return D.given_deals(orders, first, key, counter)

    def _random_deals(self, key, counter, first_player=None):
        """Random deals and their skipped results (:func:`.deal.random_deals`)."""
        return D.random_deals(key, counter, first_player=first_player)

    def new_episode(self, options, seed, previous):
        """A single env's ``reset``: ``position``, ``deal`` (+ ``first_player``) or a random deal.

        Info: ``redeals`` (how many reshuffles the reset went through); for a random deal
        ``skipped_deals`` (results of deals that ended before any decision, which are dealt
        again); for a given deal that ends at once (chongtong), the result fields.
        """
        if "position" in options:
            if "deal" in options:
                raise ValueError("reset options 'deal' and 'position' cannot be combined")
            s = rng.resolve_seed(seed)
            return self.from_position(options["position"], seed=s), {}
        if seed is not None or previous is None:
            key = rng.keys_from_seeds([rng.resolve_seed(seed)])
            counter = np.zeros(1, np.uint64)
        else:
            self._check(previous, 0, 0)
            key, counter = previous.rng_key.copy(), previous.rng_counter.copy()
        first = options.get("first_player")
        if first is not None:
            first = _seat(first, "first_player")
        if "deal" in options:
            order = D.check_order(options["deal"])
            state = D.blank(key, counter)
            if first is None:
                first = int(D.draw_first(state, np.arange(1))[0])
            state = self._made(self._given_deals(order[None], np.array([first]), state.rng_key, state.rng_counter))
            info = {"redeals": int(state.redeals[0])}
            if state.done[0]:
                info.update(self._result(state, 0))
            return state, info
        state, skipped = self._random_deals(key, counter, first_player=first)
        return self._made(state), {"redeals": int(state.redeals[0]), "skipped_deals": skipped[0]}

    # ---------------------------------------------------------------- masks
    def _legal_mask(self, state):
        mask = np.empty((state.batch_size, NUM_ACTIONS), dtype=bool)
        kernels.legal_mask(state._buf, mask)
        return mask

    # ----------------------------------------------------------------- step
    def _apply(self, state, actions):
        rewards = np.zeros((state.batch_size, 2), dtype=np.float32)
        kernels.step(state._buf, actions, rewards)
        return rewards

    def _apply_rows(self, state, rows, actions):
        rewards = np.zeros((rows.shape[0], 2), dtype=np.float32)
        kernels.step_rows(state._buf, rows, actions, rewards)
        return rewards

    def _fused_call(self, kind):
        if kind == "step":
            return checks.step_checked, (0,)
        return (checks.legal_mask_checked if kind == "mask" else checks.observe_checked), ()

    # ---------------------------------------------------------- observation
    def _observe(self, state, seats):
        out = np.empty((state.batch_size, observation.OBS_SIZE), dtype=np.float32)
        if seats is None:
            seats = state.to_move.astype(np.int64)
        kernels.observe(state._buf, seats, out)
        return out

    def _sample_states(self, observations, seeds):
        """Deal the unseen cards at random (:func:`.determinize.sample_states`)."""
        key = rng.keys_from_seeds(seeds.reshape(-1))
        return determinize.sample_states(observations, key, np.zeros(key.shape[0], np.uint64))

    # ------------------------------------------------------- positions etc.
    def _to_position(self, state, index):
        return position.to_position(state, index)

    def _from_position(self, position_dict, key):
        return position.from_position(position_dict, key)

    def pending(self, state, index=0) -> dict:
        """The decision of game ``index``: ``{"decision", "to_move", "played", "flipped", "legal"}``.

        ``decision`` is ``"play"``, ``"hand_choice"``, ``"stock_choice"``, ``"go_stop"`` or
        None once the deal is over; ``played`` / ``flipped`` are this turn's hand card and
        flipped stock card (None when there is none yet); ``legal`` the legal action ids.
        """
        i = self._checked_index(state, index)
        played, flipped = int(state.played[i]), int(state.flipped[i])
        return {
            "decision": PHASE_NAMES[state.phase[i]],
            "to_move": int(state.to_move[i]),
            "played": None if played < 0 else played,
            "flipped": None if flipped < 0 else flipped,
            "legal": np.flatnonzero(self._legal_mask(state.take([i], check=False))[0]).tolist(),
        }

    def _result(self, state, index):
        if not state.done[index]:
            raise ValueError(f"game {index} is not over")
        return position.result_of(state, index)

    def _skipped_results(self, state, index):
        """The chongtong deals that the (re)deal of slot ``index`` settled and dealt again."""
        return [{"winner": seat, "payout": CHONGTONG_PAYOUT, "reason": "chongtong"}
                for seat in range(2) for _ in range(int(state.skipped[index, seat]))]

    def _reset_info(self, state, index):
        """``redeals`` and ``skipped_deals`` of slot ``index``'s deal (the skipped deals in seat
        order; a single env's ``reset`` lists them in the order they were dealt)."""
        return {"redeals": int(state.redeals[index]), "skipped_deals": self._skipped_results(state, index)}

    def _final_rewards(self, state, index):
        r = np.zeros(2, dtype=np.float32)
        w = int(state.winner[index])
        if state.done[index] and w >= 0:
            r[w], r[1 - w] = state.payout[index], -state.payout[index]
        return r

    def _forfeit_result(self, state, index, loser, penalty):
        return {"winner": 1 - loser, "payout": int(penalty) if penalty.is_integer() else penalty}

    def _describe_action(self, action):
        return text.describe_action(action)


def _seat(value, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value not in (0, 1):
        raise ValueError(f"{name} must be a seat (0 or 1), got {value!r}")
    return int(value)

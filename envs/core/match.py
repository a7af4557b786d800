"""The match loop: the one place where bots play their seats of a batch of games.

A :class:`Match` seats bots (objects with ``act(obs, mask, rng)``, injected by the caller: this
module imports no bots) at a game and plays their turns over a :class:`~envs.core.state.BatchState`
until, in every game, it is the learner's turn, the game is over, or a ply limit is reached.
Every room that lets bots move calls it: the single-agent and vector envs (their opponent
seats), the trainer's tables (:mod:`training.mix`), the bots' play-outs behind evaluation and
search (:func:`agents.play.play_out`), imitation's recordings, the demo and the play front-ends.

It sits with the core (numpy only, no gymnasium) so that every floor above can import it.

Options of :meth:`Match.play`: the learner's own actions to apply first; a per-row
``seating`` of the bots; a ply limit; an ``on_move`` callback that sees every decision (the
demo's transcript, imitation's recordings, play's log); ``rollback`` (on any exception, the
state and the generator are put back as they were); and ``check`` (validate the arguments).
The bots' actions are validated as they come (``validate``): a bot that raises or returns
anything but legal actions raises :class:`OpponentError` naming it and its seat.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .kernels import first_bad_row


class OpponentError(RuntimeError):
    """A bot failed while a match played its seat: it raised, or its action was malformed or
    illegal.  ``bot`` is the bot, ``seat`` its seat; the message names both.

    The envs roll the whole ``step`` / ``reset`` back before raising it, so nothing changed.
    Not a ``ValueError``: the learner's own action was fine.
    """

    def __init__(self, message: str, bot, seat: int):
        super().__init__(message)
        self.bot, self.seat = bot, seat


def bot_name(bot) -> str:
    """The name a bot goes by in messages (its ``name``, else its class name)."""
    return str(getattr(bot, "name", "") or type(bot).__name__)


@dataclass
class Move:
    """One decision of the bots in some games of a batch, as :meth:`Match.play` hands it to
    ``on_move`` right after the step.

    ``rows`` (n,) are the games of the batch that moved, ``seats`` (n,) the seat that moved in
    each and ``bots`` (n,) the index of its bot in :attr:`Match.bots`; ``obs`` (n, O) and
    ``mask`` (n, A) are what the bots saw, ``actions`` (n,) int64 what they chose and
    ``rewards`` (n, P) float32 what the step paid every seat.  ``state`` holds those games
    after the move (the batch itself when every game moved), valid during the callback only:
    read it, never change it.
    """

    rows: np.ndarray
    seats: np.ndarray
    bots: np.ndarray
    obs: np.ndarray
    mask: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    state: object


_ROW0 = np.zeros(1, dtype=np.int64)


class Match:
    """``bots`` seated at ``game``, ready to play their turns over batches of games.

    ``bots`` is a sequence of bots (objects with ``act(obs, mask, rng)`` returning one integer
    action per row); it is read at every :meth:`play`, so a list that grows (a training run's
    opponent pool) is seen as it grows.  With ``validate`` (the default) every batch of actions
    a bot returns is checked against the legal mask, and a bot that raises, returns anything
    but ``(n,)`` integer actions, or picks an illegal action raises :class:`OpponentError`;
    ``validate=False`` trusts the bots (actions replayed from a checked recording).
    """

    def __init__(self, game, bots, *, validate: bool = True):
        self.game, self.bots, self.validate = game, bots, validate
        self._spare = None  # the snapshot of the last play with rollback (a reused buffer)
        self._saved = None  # (generator, its state) of that snapshot; None: nothing to undo

    def play(self, state, rng, *, learner_seat=None, seating=None, learner_actions=None, max_plies=None,
             on_move=None, rollback: bool = False, check: bool = True) -> np.ndarray:
        """Let the bots move in every game of ``state`` until it is the learner's turn or the
        game is over (or each game made ``max_plies`` bot decisions); return the (B, P) float32
        rewards every seat collected during the call.

        ``learner_seat``: None (bots play every seat), an int, or (B,) ints: the learner's seat
        per game, whose turn stops the bots.  The bot seats of a game are its seats in order,
        skipping the learner's; ``bots[j]`` sits in the j-th bot seat of every game, or, with
        ``seating`` ((B, S) ints, S the number of bot seats), ``bots[seating[b, j]]`` does in
        game ``b``.  ``learner_actions`` ((B,) ints): the learner's actions, applied first to
        every game (each must be the learner's turn).  ``rng`` is the generator the bots draw
        from (one for the batch).  ``on_move(move)`` is called after every bot step with its
        :class:`Move`.  Mutates ``state``.

        ``rollback``: if anything raises during the call (a bot, ``on_move``, an interrupt such
        as ``KeyboardInterrupt``), ``state`` (in place) and ``rng`` are put back as they were
        before it, and the exception is re-raised; until the next call, :meth:`undo` does the
        same for a caller whose own work after the call fails.  ``check`` (the default)
        validates ``state`` and the arguments first, raising ``ValueError`` with nothing
        changed; ``check=False`` trusts them (the envs and the trainer, whose states only the
        core wrote).
        """
        self._saved = None
        game = self.game
        if check:
            learner_seat, seating = self._checked(state, learner_seat, seating, learner_actions, max_plies)
        elif learner_seat is not None and not isinstance(learner_seat, (int, np.integer)):
            learner_seat = np.asarray(learner_seat)
        if rollback:
            self._save(state, rng)
        try:
            if learner_actions is None:
                total = np.zeros((state.batch_size, game.num_players), dtype=np.float32)
            else:  # the step's fresh (B, P) float32 rewards start the total
                total = game.step(state, learner_actions, check=False)
            if len(total) == 1:
                self._play_one(state, rng, learner_seat, seating, max_plies, on_move, total)
            else:
                self._play_batch(state, rng, learner_seat, seating, max_plies, on_move, total)
        except BaseException:
            if rollback:
                self.undo(state)
            raise
        return total

    def undo(self, state) -> None:
        """Put ``state`` (in place) and the generator back as they were before the last
        :meth:`play` with ``rollback``; nothing when there is none to undo (no ``rollback``,
        or that play refused its arguments)."""
        if self._saved is None:
            return
        rng, rng_state = self._saved
        self._spare.copy_into(state, check=False)
        if rng is not None:
            rng.bit_generator.state = rng_state

    def _save(self, state, rng) -> None:
        spare = self._spare
        if spare is None or spare.identity is not state.identity or spare.done.shape != state.done.shape:
            self._spare = state.copy(check=False)  # identities are interned: ``is`` is the cheap test
        else:
            state.copy_into(spare, check=False)
        if self.bots and rng is not None:
            self._saved = (rng, rng.bit_generator.state)
        else:  # no bots: nothing draws from the generator
            self._saved = (None, None)

    def _checked(self, state, learner_seat, seating, learner_actions, max_plies):
        """The arguments of :meth:`play` validated (``ValueError``): ``(learner_seat, seating)``
        as arrays (or None)."""
        game = self.game
        game.check_state(state)
        B, P = state.batch_size, game.num_players
        if learner_seat is not None:
            learner_seat = _int_array(learner_seat, "learner_seat")
            try:
                learner_seat = np.broadcast_to(learner_seat, (B,))
            except ValueError:
                raise ValueError(f"learner_seat must be an int or ({B},) ints, got shape "
                                 f"{learner_seat.shape}") from None
            if learner_seat.size and (learner_seat.min() < 0 or learner_seat.max() >= P):
                raise ValueError(f"learner_seat must be in 0..{P - 1}, got {learner_seat.tolist()}")
        S = P if learner_seat is None else P - 1
        if seating is not None:
            seating = _int_array(seating, "seating")
            if seating.shape != (B, S):
                raise ValueError(f"seating must be (B, {'P' if learner_seat is None else 'P - 1'}) = ({B}, {S}) "
                                 f"bot indices, got shape {seating.shape}")
            if seating.size and (seating.min() < 0 or seating.max() >= len(self.bots)):
                raise ValueError(f"seating must hold indices into the {len(self.bots)} bot(s), got values "
                                 f"{int(seating.min())}..{int(seating.max())}")
        elif S > len(self.bots):
            raise ValueError(f"{S} bot seat(s) but {len(self.bots)} bot(s): give one bot per seat or a seating")
        if learner_actions is not None:
            if learner_seat is None:
                raise ValueError("learner_actions need a learner_seat")
            waiting = state.done | (state.to_move != learner_seat)
            if waiting.any():
                i = int(np.flatnonzero(waiting)[0])
                why = "over" if state.done[i] else f"at seat {int(state.to_move[i])}'s turn, not the learner's"
                raise ValueError(f"game {i} is {why}: learner_actions need the learner to move in every game")
            game.check_actions(state, learner_actions)
        if max_plies is not None and (isinstance(max_plies, bool) or not isinstance(max_plies, (int, np.integer))
                                      or max_plies < 0):
            raise ValueError(f"max_plies must be None or an int >= 0, got {max_plies!r}")
        return learner_seat, seating

    def _play_one(self, state, rng, learner_seat, seating, max_plies, on_move, total) -> None:
        """:meth:`play` for one game (a single env's step): scalars instead of batch bookkeeping;
        the bots see the same observations, masks and generator as in a batch."""
        game, bots = self.game, self.bots
        if learner_seat is None:
            learner = -1
        else:
            learner = int(learner_seat) if isinstance(learner_seat, (int, np.integer)) else int(learner_seat[0])
        plies = 0
        while not state.done[0] and plies != max_plies:
            seat = int(state.to_move[0])
            if seat == learner:
                break
            j = seat - 1 if 0 <= learner < seat else seat
            if seating is not None:
                j = int(seating[0, j])
            obs, mask = game.observe(state, check=False), game.legal_mask(state, check=False)
            actions = self._actions(bots[j], state.to_move, obs, mask, rng)
            rewards = game.step(state, actions, check=False)
            total += rewards
            plies += 1
            if on_move is not None:
                on_move(Move(_ROW0, np.array([seat]), np.array([j]), obs, mask, actions, rewards, state))

    def _play_batch(self, state, rng, learner_seat, seating, max_plies, on_move, total) -> None:
        game, bots = self.game, self.bots
        B = state.batch_size
        all_rows = np.arange(B)
        if learner_seat is not None:
            learner_seat = np.broadcast_to(learner_seat, (B,))
        plies = 0
        while plies != max_plies:
            pending = ~state.done if learner_seat is None else ~state.done & (state.to_move != learner_seat)
            if not pending.any():
                return
            every = bool(pending.all())  # then step the state itself, without copies
            rows = all_rows if every else np.flatnonzero(pending)
            sub = state if every else state.take(rows, check=False)
            seat = sub.to_move.astype(np.int64)
            if learner_seat is None:
                which = seat
            else:
                which = np.where(seat < learner_seat[rows], seat, seat - 1)
            if seating is not None:
                which = seating[rows, which]
            obs = game.observe(sub, check=False)
            mask = game.legal_mask(sub, check=False)
            if rows.size == 1 or len(bots) == 1:
                actions = self._actions(bots[int(which[0])], seat, obs, mask, rng)
            else:
                actions = np.empty(rows.size, dtype=np.int64)
                for j in np.unique(which):
                    pick = which == j
                    actions[pick] = self._actions(bots[j], seat[pick], obs[pick], mask[pick], rng)
            rewards = game.step(sub, actions, check=False)  # checked against the mask (validate)
            if not every:
                state.put(rows, sub, check=False)
            total[rows] += rewards
            plies += 1
            if on_move is not None:
                on_move(Move(rows, seat, np.asarray(which), obs, mask, actions, rewards, sub))

    def _actions(self, bot, seats: np.ndarray, obs, mask, rng) -> np.ndarray:
        """The bot's actions for its rows (at ``seats``), checked against ``mask`` (``validate``).

        Raises :class:`OpponentError` if the bot raises or returns anything but legal actions.
        """
        if not self.validate:
            return np.asarray(bot.act(obs, mask, rng), dtype=np.int64)

        def fail(message: str, row: int = 0, cause=None):
            seat = int(seats[row])
            raise OpponentError(f"bot {bot_name(bot)!r} (seat {seat}) {message}", bot, seat) from cause

        try:
            chosen = bot.act(obs, mask, rng)
        except Exception as e:
            fail(f"failed: {type(e).__name__}: {e}", cause=e)
        arr = np.asarray(chosen)
        if arr.dtype.kind not in "iu" or arr.shape != (mask.shape[0],):
            fail(f"returned {arr.dtype} actions of shape {arr.shape}; a bot returns "
                 f"({mask.shape[0]},) integer actions")
        arr = arr.astype(np.int64, copy=False)
        kind, i = first_bad_row(arr, mask)
        if kind:
            a = int(arr[i])
            what = f"illegal action {a} ({self.game.describe_action(a)})" if kind == 3 else f"out-of-range action {a}"
            fail(f"chose {what}; legal actions: {np.flatnonzero(mask[i]).tolist()}", row=i)
        return arr


def _int_array(value, name: str) -> np.ndarray:
    """``value`` as an int64 array, or ``ValueError`` naming ``name``."""
    arr = np.asarray(value)
    if arr.dtype.kind not in "iu" or isinstance(value, bool):
        raise ValueError(f"{name} must be integers, got {arr.dtype}")
    return arr.astype(np.int64)

"""Hostile inputs through the public core API of one game, in a process of its own.

``python tests/fuzz_core.py GAME [--soak]`` throws at every public call of the batched core
(``Game`` methods, ``BatchState`` methods, positions, search support):

* every field of the game's state set to every extreme of its dtype (and the values next to
  the game's bounds), in one game of a batch of fresh, mid-game and finished games;
* arrays of the wrong dtype, shape or batch size, strided, read-only, or not arrays at all;
* states of another configuration or another game, and states without an identity;
* wrong ``where``, index, seat, action, seed, observation and position arguments.

Every call must either work or raise ``ValueError`` with every array of the state unchanged;
a call that works must leave a valid state (``check_state``), observations in [0, 1] and a
legal action in every live game.  Each case is printed before it runs, so a crash (an exit
by a signal) is attributed to the last line printed.  The last line is a JSON summary
``{"cases": n, "failures": [...]}``; the exit status is 0 when nothing failed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

import numpy as np

from envs.core.sampling import sample_legal
from envs.registration import GAMES, game_class

CONFIGS = {name: [dict(c) for c in spec.test_configs] for name, spec in GAMES.items()}
BATCH = 4


class Fuzz:
    """Runs cases, counts them and collects failures."""

    def __init__(self):
        self.cases = 0
        self.failures: list[str] = []

    def fail(self, label: str, why: str) -> None:
        self.failures.append(f"{label}: {why}")
        print(f"FAILED {label}: {why}", flush=True)

    def call(self, label: str, game, state, fn, expect_error: bool = False):
        """Run ``fn()``; ValueError must leave ``state`` unchanged, success must leave it valid.

        Returns the result, or None when ``fn`` raised ``ValueError``.
        """
        self.cases += 1
        print(label, flush=True)
        before = _raw(state)
        try:
            out = fn()
        except ValueError:
            if _raw(state) != before:
                self.fail(label, "raised ValueError but changed the state")
            return None
        except Exception as e:  # noqa: BLE001 - any other exception is what we look for
            self.fail(label, f"{type(e).__name__}: {str(e)[:300]}")
            return None
        if expect_error:
            self.fail(label, "accepted")
        elif _raw(state) != before:
            try:
                game.check_state(state)
            except ValueError as e:
                self.fail(label, f"left an invalid state: {e}")
        return out


def _raw(state) -> tuple:
    """Every field of ``state`` as bytes (or its repr, for what is not an array)."""
    out = []
    for f in dataclasses.fields(state) if dataclasses.is_dataclass(state) else []:
        v = state.__dict__.get(f.name, "<missing>")
        out.append((f.name, v.dtype.str, v.shape, v.tobytes()) if isinstance(v, np.ndarray) else (f.name, repr(v)))
    return tuple(out)


def _valid_outputs(fuzz: Fuzz, label: str, game, state, mask=None, obs=None) -> None:
    if obs is not None and not (np.isfinite(obs).all() and (obs >= 0).all() and (obs <= 1).all()):
        fuzz.fail(label, f"observation outside [0, 1]: min {np.nanmin(obs)}, max {np.nanmax(obs)}")
    if mask is not None:
        live = ~np.asarray(state.done, dtype=bool)
        if mask.shape != (state.batch_size, game.num_actions) or not mask[live].any(axis=1).all():
            fuzz.fail(label, "a live game without a legal action")


# ------------------------------------------------------------------- states
def base_states(game, rng, soak: bool) -> list:
    """Fresh, mid-game and finished batches of ``BATCH`` games (one of each kind, or many)."""
    out = []
    seeds = range(3 if soak else 1)
    for seed in seeds:
        state = game.init(np.arange(BATCH) + 10 * seed)
        out.append(state.copy())
        stops = (11, 400) if not soak else tuple(rng.integers(1, 300, size=4)) + (1000,)
        steps = 0
        for stop in sorted(stops):
            while steps < stop and not state.done.all():
                live = ~state.done
                actions = sample_legal(game.legal_mask(state), rng)
                game.step_where(state, live, actions[live])
                steps += 1
            out.append(state.copy())
    return out


def extremes(dtype) -> list:
    """Values that probe a field of ``dtype``: its limits, around 0, and near the game's bounds."""
    if dtype == np.bool_:
        return [False, True]
    info = np.iinfo(dtype)
    near = [-2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 12, 13, 29, 30, 47, 48, 49, 63, 64, 251, 252, 255, 256, 1000,
            9999, 10000, 46655, 46656, 10**6 + 40]
    vals = [info.min, info.min + 1, info.max - 1, info.max] + [v for v in near if info.min <= v <= info.max]
    if dtype == np.uint64:
        vals += [2**48 - 1, 2**48, 2**63, (1 << 48) - 2]
    return sorted({int(v) for v in vals})


def _elements(shape, rng, soak: bool) -> list:
    """Element positions (after the batch axis) to mutate: all of a small row, or some."""
    if not shape:
        return [()]
    every = list(np.ndindex(*shape))
    if len(every) <= 4:
        return every
    picked = [every[0], every[-1], every[len(every) // 2]]
    if soak:
        picked += [every[i] for i in rng.choice(len(every), min(5, len(every)), replace=False)]
    return picked


# ----------------------------------------------------------------- the calls
CALLS = {  # name -> call(game, state, c) with c the arguments that fit the valid state it came from
    "check_state": lambda g, s, c: g.check_state(s),
    "legal_mask": lambda g, s, c: g.legal_mask(s),
    "observe": lambda g, s, c: g.observe(s),
    "observe_seats": lambda g, s, c: g.observe(s, np.arange(BATCH) % g.num_players),
    "step": lambda g, s, c: g.step(s, c.legal),
    "step_where": lambda g, s, c: g.step_where(s, c.live, c.legal[c.live]),
    "step_where_row": lambda g, s, c: g.step_where(s, np.array([c.row]), c.legal[[c.row]]),
    "reset_where_row": lambda g, s, c: g.reset_where(s, np.array([c.row])),
    "reset_where_done": lambda g, s, c: g.reset_where(s, ~c.live),
    "check_actions": lambda g, s, c: g.check_actions(s, c.legal),
    "to_position": lambda g, s, c: g.to_position(s, c.row),
    "result": lambda g, s, c: g.result(s, c.row),
    "seat_view": lambda g, s, c: g.seat_view(s, c.row),
    "legal_moves": lambda g, s, c: g.legal_moves(s, c.row),
    "render_text": lambda g, s, c: g.render_text(s, c.row, seat=0),
    "skipped_results": lambda g, s, c: g.skipped_results(s, c.row),
    "final_rewards": lambda g, s, c: g.final_rewards(s, c.row),
    "forfeit_result": lambda g, s, c: g.forfeit_result(s, c.row, 0, 1.0),
    "copy": lambda g, s, c: s.copy(),
    "take": lambda g, s, c: s.take([c.row]),
    "clone": lambda g, s, c: s.clone(np.arange(BATCH)),
    "put_into": lambda g, s, c: s.put([c.row], c.fresh.take([c.row])),
    "put_from": lambda g, s, c: c.fresh.copy(check=False).put([c.row], s.take([c.row])),
    "copy_into": lambda g, s, c: c.fresh.copy_into(s),
    "copy_from": lambda g, s, c: s.copy_into(c.fresh.copy(check=False)),
    "concat": lambda g, s, c: type(c.fresh).concat([c.fresh, s]),
    "equals": lambda g, s, c: s.equals(c.fresh),
    "dice": lambda g, s, c: g.dice(s),
    "totals": lambda g, s, c: g.totals(s),
    "pending": lambda g, s, c: g.pending(s, c.row),
}
QUICK = ("check_state", "legal_mask", "observe_seats", "step", "step_where_row", "reset_where_row", "to_position",
         "seat_view", "put_into", "copy_into")
"""The calls of the field cases (every call checks through the same path; the other cases run all)."""
STATE_METHODS = {"copy", "take", "clone", "equals", "dice", "totals"}
"""Calls that use only the state and the game that made it (any well-formed state may make them)."""


@dataclasses.dataclass
class Args:
    """Arguments of the calls that fit a valid state: a legal action per game, its live games,
    the game mutated, and a fresh state of the same game."""

    legal: np.ndarray
    live: np.ndarray
    row: int
    fresh: object


def call_names(game, quick: bool = False) -> list[str]:
    names = QUICK if quick else [n for n in CALLS if n not in ("dice", "totals", "pending")]
    extra = {"yacht": ["dice", "totals"], "gostop": ["pending"]}.get(game.name, []) if not quick else []
    return list(names) + extra


def run_calls(fuzz: Fuzz, label: str, game, make_state, args: Args, expect_error: bool = False,
              well_formed: bool = False, quick: bool = False) -> None:
    """Every public call, each on a state of its own from ``make_state()``.  ``expect_error``:
    each must raise ``ValueError``, except the state's own methods when the state is
    ``well_formed`` (a valid state of another game) and ``equals``."""
    for name in call_names(game, quick):
        state = make_state()
        refused = expect_error and name != "equals" and not (well_formed and name in STATE_METHODS)
        out = fuzz.call(f"{label} {name}", game, state, lambda: CALLS[name](game, state, args), expect_error=refused)
        if out is None:
            continue
        if name == "legal_mask":
            _valid_outputs(fuzz, f"{label} {name}", game, state, mask=out)
        elif name.startswith("observe"):
            _valid_outputs(fuzz, f"{label} {name}", game, state, obs=out)
        elif name.startswith("step") and not np.isfinite(out).all():
            fuzz.fail(f"{label} {name}", "non-finite rewards")


def _args(game, base, rng, row: int) -> Args:
    return Args(sample_legal(game.legal_mask(base), rng), ~base.done, row, game.init(np.arange(BATCH) + 99))


# -------------------------------------------------------------- the cases
def field_cases(fuzz: Fuzz, game, bases, rng, soak: bool) -> None:
    """Every field of every base state at every extreme of its dtype, in one game."""
    for b, base in enumerate(bases):
        for f in dataclasses.fields(base):
            arr = getattr(base, f.name)
            rows = range(BATCH) if soak else [b % BATCH]
            for row in rows:
                args = _args(game, base, rng, row)
                for pos in _elements(arr.shape[1:], rng, soak):
                    for v in extremes(arr.dtype):
                        def make(name=f.name, at=(row,) + pos, v=v):
                            state = base.copy()
                            getattr(state, name)[at] = v
                            return state

                        where = "".join(f", {p}" for p in pos)
                        run_calls(fuzz, f"{game!r} base {b} {f.name}[{row}{where}]={v}", game, make, args,
                                  quick=True)


def structure_cases(fuzz: Fuzz, game, bases, rng) -> None:
    """Arrays of the wrong dtype, shape or batch size, strided, read-only or not arrays at all."""
    base = bases[len(bases) // 2]
    args = _args(game, base, rng, 1)
    for f in dataclasses.fields(base):
        arr = getattr(base, f.name)
        other = np.int32 if arr.dtype != np.int32 else np.int64
        variants = {  # each makes a fresh value
            "dtype": lambda a=arr: a.astype(other),
            "float": lambda a=arr: a.astype(np.float64),
            "byteswapped": lambda a=arr: a.astype(a.dtype.newbyteorder(">" if a.dtype.itemsize > 1 else "=")
                                                  if a.dtype.itemsize > 1 else other),
            "strided": lambda a=arr: np.repeat(a, 2, axis=0)[::2],
            "batch+1": lambda a=arr: np.concatenate([a, a[:1]]),
            "batch-1": lambda a=arr: a[1:].copy(),
            "empty": lambda a=arr: a[:0].copy(),
            "trailing": lambda a=arr: np.concatenate([a, a], axis=-1) if a.ndim > 1 else a[:, None].copy(),
            "0-d": lambda a=arr: np.array(a.flat[0]),
            "list": lambda a=arr: a.tolist(),
            "none": lambda a=arr: None,
            "int": lambda a=arr: 3,
            "read-only": lambda a=arr: _read_only(a),
        }
        for kind, value in variants.items():  # assigning a field copies into the state's buffer
            label = f"{game!r} {f.name} {kind}"
            state = base.copy()
            try:
                setattr(state, f.name, value())
            except ValueError:
                fuzz.cases += 1
                if not state.equals(base):
                    fuzz.fail(label, "a refused assignment changed the state")
                continue
            if not np.shares_memory(getattr(state, f.name), state._buf):
                fuzz.fail(label, "an accepted assignment replaced the view of the state's buffer")
            run_calls(fuzz, label, game, lambda s=state: s.copy(), args)

        def deleted(name=f.name):
            state = base.copy()
            del state.__dict__[name]
            return state

        run_calls(fuzz, f"{game!r} {f.name} deleted", game, deleted, args, expect_error=True)

    def read_only_buffer():
        state = base.copy()
        state._buf.flags.writeable = False
        return state

    run_calls(fuzz, f"{game!r} read-only buffer", game, read_only_buffer, args, expect_error=True)


def identity_cases(fuzz: Fuzz, game, bases, rng, others) -> None:
    """States of other configurations and other games, and states without an identity."""
    base = bases[0]
    args = _args(game, base, rng, 0)
    legal = args.legal
    for other in others:
        if other.identity is game.identity:
            continue
        run_calls(fuzz, f"{game!r} given a state of {other!r}", game, lambda: other.init(np.arange(BATCH)), args,
                  expect_error=True, well_formed=True)

    def bare():
        return type(base)(**{f.name: getattr(base, f.name).copy() for f in dataclasses.fields(base)})

    run_calls(fuzz, f"{game!r} a state without identity", game, bare, args, expect_error=True)
    for thing in (None, {}, np.zeros(3), "state"):
        for name, fn in (("legal_mask", lambda: game.legal_mask(thing)), ("observe", lambda: game.observe(thing)),
                         ("step", lambda: game.step(thing, legal)), ("check_state", lambda: game.check_state(thing)),
                         ("reset_where", lambda: game.reset_where(thing, [0])),
                         ("to_position", lambda: game.to_position(thing, 0))):
            fuzz.call(f"{game!r} {name} of {thing!r}", game, base, fn, expect_error=True)


def _read_only(a: np.ndarray) -> np.ndarray:
    a = a.copy()
    a.flags.writeable = False
    return a


BAD_WHERE = {
    "longer": lambda B: np.ones(B + 60, bool),
    "shorter": lambda B: np.ones(B - 1, bool),
    "int flags": lambda B: np.ones(B, np.int64),
    "negative": lambda B: np.array([-1]),
    "duplicate": lambda B: np.array([0, 0]),
    "out of range": lambda B: np.array([B]),
    "huge uint64": lambda B: np.array([2**64 - 1], np.uint64),
    "float": lambda B: np.array([0.0, 1.0]),
    "2-d": lambda B: np.ones((B, 1), bool),
    "object": lambda B: np.array([None, 1], dtype=object),
    "string": lambda B: "0",
    "none": lambda B: None,
    "ragged": lambda B: [[0], [1, 2]],
}


def argument_cases(fuzz: Fuzz, game, bases, rng) -> None:
    """Wrong where, index, seat, action, seed and observation arguments."""
    base = bases[1]
    B = base.batch_size
    legal = sample_legal(game.legal_mask(base), rng)
    for kind, make in BAD_WHERE.items():
        w = make(B)
        state = base.copy()
        for name, fn in (("step_where", lambda: game.step_where(state, w, legal[:1])),
                         ("step_where_all", lambda: game.step_where(state, w, legal)),
                         ("reset_where", lambda: game.reset_where(state, w)),
                         *([] if kind in ("int flags", "duplicate") else [("take", lambda: state.take(w))]),
                         ("put", lambda: state.put(w, base.take([0, 1])))):
            fuzz.call(f"{game!r} {name} where={kind}", game, state, fn, expect_error=True)
    bad_actions = [legal[:-1], legal.astype(np.float64), np.full(B, -1), np.full(B, game.num_actions),
                   np.full(B, 2**63 - 1), np.full(B, 2**64 - 1, np.uint64), legal[:, None], None, "a"]
    for i, actions in enumerate(bad_actions):
        state = base.copy()
        fuzz.call(f"{game!r} step actions #{i}", game, state, lambda: game.step(state, actions), expect_error=True)
    for i, seats in enumerate([-1, game.num_players, np.full(B, 2**64 - 1, np.uint64), 0.5, np.zeros((B, 2), int),
                               "x", np.zeros(B + 1, int)]):
        fuzz.call(f"{game!r} observe seats #{i}", game, base, lambda: game.observe(base, seats), expect_error=True)
    for i, index in enumerate([-1, B, True, 0.0, "0", None, 2**70, [0]]):
        for name, fn in (("to_position", lambda: game.to_position(base, index)),
                         ("result", lambda: game.result(base, index)),
                         ("seat_view", lambda: game.seat_view(base, index)),
                         ("render_text", lambda: game.render_text(base, index)),
                         ("final_rewards", lambda: game.final_rewards(base, index))):
            fuzz.call(f"{game!r} {name} index #{i}", game, base, fn, expect_error=True)
    for i, seat in enumerate([-1, game.num_players, True, 0.0]):
        fuzz.call(f"{game!r} seat_view seat #{i}", game, base, lambda: game.seat_view(base, 0, seat),
                  expect_error=True)
    for i, seeds in enumerate([[1.5], [[1, 2]], ["a"], None, [True], np.zeros((B, 2, 2), int)]):
        fuzz.call(f"{game!r} init seeds #{i}", game, base, lambda: game.init(seeds), expect_error=True)
        fuzz.call(f"{game!r} clone seeds #{i}", game, base, lambda: base.clone(seeds), expect_error=True)
    for i, action in enumerate([None, 1.5, "3", True]):
        fuzz.call(f"{game!r} describe_action #{i}", game, base, lambda: game.describe_action(action),
                  expect_error=True)
    obs = game.observe(base)
    garbage = [np.full_like(obs, np.nan), np.full_like(obs, np.inf), -obs, obs + 1, obs[:, :-1],
               rng.random(obs.shape).astype(np.float32), obs[:, rng.permutation(obs.shape[1])],
               np.round(rng.random(obs.shape)).astype(np.float32), [["x"] * obs.shape[1]]]
    for i, o in enumerate(garbage):
        seeds = np.zeros((np.shape(o)[0], 2), int)
        fuzz.call(f"{game!r} sample_states garbage #{i}", game, base, lambda: game.sample_states(o, seeds))
    for i, seeds in enumerate([np.zeros((B, 2)), np.zeros(B, int), np.zeros((B + 1, 2), int), [["a", "b"]] * B]):
        fuzz.call(f"{game!r} sample_states seeds #{i}", game, base, lambda: game.sample_states(obs, seeds),
                  expect_error=True)


def _valid(game, state):
    """``state`` if it passes ``check_state``; an AssertionError (a failure, not a refusal) if not."""
    try:
        game.check_state(state)
    except ValueError as e:
        raise AssertionError(f"made an invalid state: {e}") from None
    return state


POSITION_VALUES = (None, True, 1.5, float("nan"), "x", -1, -(2**63), 2**64, 10**30, [], {}, [None], [[1] * 60],
                   [-1] * 48, list(range(48)), {"1": 2}, {"13": 0})


def position_cases(fuzz: Fuzz, game, bases) -> None:
    """``from_position`` of each key of real positions set to hostile values, and not-dicts."""
    base = bases[0]
    positions = []
    for state in bases:
        for i in range(state.batch_size):
            try:
                positions.append(game.to_position(state, i))
            except ValueError:  # Go-Stop positions exist at play decisions and at the end only
                pass
    for pos in positions[:3]:
        for key in pos:
            for value in POSITION_VALUES:
                bad = dict(pos, **{key: value})
                fuzz.call(f"{game!r} from_position {key}={value!r:.40}", game, base,
                          lambda: _valid(game, game.from_position(bad, seed=0)))
            fuzz.call(f"{game!r} from_position without {key}", game, base,
                      lambda: game.from_position({k: v for k, v in pos.items() if k != key}), expect_error=True)
    for thing in (None, [], "position", 3, {"x": 1}):
        fuzz.call(f"{game!r} from_position {thing!r}", game, base, lambda: game.from_position(thing),
                  expect_error=True)
    for seed in (1.5, "a", None, True):
        if positions and seed is not None:
            fuzz.call(f"{game!r} from_position seed={seed!r}", game, base,
                      lambda: game.from_position(positions[0], seed=seed), expect_error=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--soak", action="store_true", help="more states, every game of the batch, more elements")
    parser.add_argument("--part", choices=("fields", "other", "all"), default="all")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    fuzz = Fuzz()
    cls = game_class(args.game)
    others = [game_class(g)(**c) for g in sorted(GAMES) for c in CONFIGS[g]]
    for config in CONFIGS[args.game]:
        game = cls(**config)
        bases = base_states(game, rng, args.soak)
        if args.part in ("fields", "all"):
            field_cases(fuzz, game, bases, rng, args.soak)
        if args.part in ("other", "all"):
            structure_cases(fuzz, game, bases, rng)
            identity_cases(fuzz, game, bases, rng, others)
            argument_cases(fuzz, game, bases, rng)
            position_cases(fuzz, game, bases)
    print(json.dumps({"cases": fuzz.cases, "failures": fuzz.failures[:200]}))
    return 1 if fuzz.failures else 0


if __name__ == "__main__":
    sys.exit(main())

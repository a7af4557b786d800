"""What one numba call costs at batch 1, by the way a game state of 20 arrays is passed.

The kernels' Python-side cost at batch 1 is mostly numba's dispatch: unboxing each
argument.  This benchmark times one call of a tiny kernel (it touches one entry of every
field of game 0) with the state passed as

* **loose**: 20 separate arrays (the kernels' former signatures);
* **namedtuple**: one namedtuple of the 20 arrays;
* **record**: one structured array of B records, a field per array (subarray fields for
  the per-seat ones);
* **structref**: one numba ``StructRef`` holding the 20 arrays;
* **one buffer**: one uint8 buffer holding the 20 arrays one after another (each padded to 8
  bytes), passed with B; the kernel rebuilds the C-contiguous field views (``view`` +
  ``reshape``, no allocation), so the public fields could stay C-contiguous views into it;

and, for scale, a call with no argument and with one array.  Run it as
``python -m benchmarks.state_passing [--calls N] [--rounds R]``; the variants alternate in
rounds so that each sees the same machine load, and the best round is reported.
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np
from numba import njit, types
from numba.experimental import structref

NUM_FIELDS = 20
_SHAPES = [(), (), (), (), (2,), (), (2,), (48,), (), (), (12,), (2,), (2,), (2,), (2,), (), (), (), (), ()]
_DTYPES = [np.int8, np.bool_, np.uint64, np.uint64, np.uint64, np.uint64, np.uint64, np.int8, np.int8, np.int8,
           np.int8, np.int16, np.int16, np.int8, np.int16, np.int8, np.int8, np.int8, np.int8, np.int64]
NAMES = tuple(f"f{k}" for k in range(NUM_FIELDS))
RECORD = np.dtype([(n, dt, sh) for n, dt, sh in zip(NAMES, _DTYPES, _SHAPES)], align=True)
Fields = collections.namedtuple("Fields", NAMES)


def arrays(batch: int = 1) -> list[np.ndarray]:
    """The 20 loose arrays of a batch."""
    return [np.zeros((batch,) + sh, dt) for dt, sh in zip(_DTYPES, _SHAPES)]


@njit(cache=True)
def _none():
    return 0


@njit(cache=True)
def _one(a):
    a[0] += 1
    return 0


@njit(cache=True)
def _loose(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19):
    f0[0] += 1
    f19[0] += 1
    return f4[0, 1] + f7[0, 3] + f10[0, 2] + f14[0, 1]


@njit(cache=True)
def _tuple(s):
    s.f0[0] += 1
    s.f19[0] += 1
    return s.f4[0, 1] + s.f7[0, 3] + s.f10[0, 2] + s.f14[0, 1]


@njit(cache=True)
def _record(s):
    g = s[0]
    g.f0 += 1
    g.f19 += 1
    return g.f4[1] + g.f7[3] + g.f10[2] + g.f14[1]


@structref.register
class _StateType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class _StateProxy(structref.StructRefProxy):
    pass


structref.define_proxy(_StateProxy, _StateType, list(NAMES))


@njit(cache=True)
def _structref(s):
    s.f0[0] += 1
    s.f19[0] += 1
    return s.f4[0, 1] + s.f7[0, 3] + s.f10[0, 2] + s.f14[0, 1]


def _offsets(batch: int) -> list[int]:
    """Byte offset of each field in the one buffer (each block padded to 8 bytes), and the end."""
    out, o = [], 0
    for dt, sh in zip(_DTYPES, _SHAPES):
        out.append(o)
        o += -(-batch * int(np.prod(sh, dtype=np.int64)) * np.dtype(dt).itemsize // 8) * 8
    return out + [o]


@njit(cache=True, inline="always")
def _block(buf, o, n):
    return buf[o:o + n]


@njit(cache=True)
def _buffer(buf, B):
    # some of _loose's fields, rebuilt at their offsets: f0, f1 (one byte a game, padded to
    # 8 bytes) and f2, f3 (8 bytes a game) come before f4; f19 (8 bytes a game) is last
    o4 = 2 * ((B + 7) // 8 * 8) + 16 * B
    f0 = _block(buf, 0, B).view(np.int8)
    f4 = _block(buf, o4, 16 * B).view(np.uint64).reshape((B, 2))
    f19 = _block(buf, buf.shape[0] - 8 * B, 8 * B).view(np.int64)
    f0[0] += 1
    f19[0] += 1
    return f4[0, 1] + f0[0]


def _time(call, calls: int) -> float:
    """Microseconds per call of ``call()`` over ``calls`` calls."""
    t = time.perf_counter()
    for _ in range(calls):
        call()
    return 1e6 * (time.perf_counter() - t) / calls


def variants(batch: int = 1) -> dict:
    """Each variant's zero-argument call (warmed up: compiled and run once)."""
    loose = arrays(batch)
    nt = Fields(*arrays(batch))
    rec = np.zeros(batch, RECORD)
    sr = _StateProxy(*arrays(batch))
    buf = np.zeros(_offsets(batch)[-1], np.uint8)
    out = {
        "no argument": lambda: _none(),
        "one array": lambda: _one(loose[0]),
        "loose (20 arrays)": lambda: _loose(*loose),
        "namedtuple of 20 arrays": lambda: _tuple(nt),
        "record array (20 fields)": lambda: _record(rec),
        "structref of 20 arrays": lambda: _structref(sr),
        "one buffer + B": lambda: _buffer(buf, batch),
    }
    for call in out.values():
        call()
    return out


def run(calls: int = 20000, rounds: int = 5, batch: int = 1) -> dict[str, float]:
    """Best-of-``rounds`` microseconds per call of each variant (alternating)."""
    calls_of = variants(batch)
    best = {name: float("inf") for name in calls_of}
    for _ in range(rounds):
        for name, call in calls_of.items():
            best[name] = min(best[name], _time(call, calls))
    return best


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=20000)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args(argv)
    for name, us in run(args.calls, args.rounds).items():
        print(f"{name:<28}{us:8.3f} µs per call")


if __name__ == "__main__":
    main()

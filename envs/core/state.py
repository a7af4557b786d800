"""Batched game state: numpy arrays with a leading batch dimension, all views of one buffer.

Every state keeps its arrays one after another in one uint8 buffer (``_buf``): a header of
two int64 (the batch size B and the number of seats P), then each field's bytes in field
order, each block padded to 8 bytes.  The fields are C-contiguous views into it, and the
compiled kernels take the buffer alone and rebuild the same views inside
(:func:`envs.core.kernels.block`), so one kernel argument carries the whole state.
Assigning a field copies the new values into its view (the same dtype and shape only), so
what Python reads and what the kernels read never drift apart.  A state class's layout for a
batch size and seat count (:class:`Layout`) is computed once: a new state is one copy of its
header-filled template buffer plus the field views (:meth:`BatchState.empty`).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from . import rng
from .identity import GameIdentity
from .state_check import rows_of

HEADER = 16
"""Bytes before the first field in a state's buffer: int64 B, int64 P."""

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""The field names of each state class (``dataclasses.fields`` is slow for a per-step copy)."""


def _field_names(state) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(type(state))
    if names is None:
        names = _FIELD_NAMES[type(state)] = tuple(f.name for f in dataclasses.fields(state))
    return names


def _padded(nbytes: int) -> int:
    return -(-nbytes // 8) * 8


def _seats(cls, arrays: dict) -> int:
    """The number of seats P of a state's arrays: the first ``"P"`` axis of the class's
    ``FIELDS`` (its game's ``checks.FIELDS``; 0 for a state class without one, whose
    kernels do not read P)."""
    for name, _, trail in getattr(cls, "FIELDS", ()):
        if "P" in trail:
            a = arrays.get(name)
            axis = 1 + tuple(trail).index("P")
            return int(a.shape[axis]) if isinstance(a, np.ndarray) and a.ndim > axis else 0
    return 0


class Layout(tuple):
    """Where the fields of a state lie in its buffer: ``(size, B, P, entries, header, head)`` with
    ``entries`` ``((name, offset, dtype, shape), ...)`` in field order (after the header, blocks
    padded to 8 bytes), ``header`` a zeroed read-only buffer of ``size`` bytes holding the header
    alone (a new buffer is a copy of it: one allocation) and ``head`` the header's bytes (what
    a checked call compares a state's buffer with, since the kernels size the fields by it)."""

    __slots__ = ()

    def __new__(cls, B: int, P: int, fields):
        entries, o = [], HEADER
        for name, dtype, shape in fields:
            dtype = np.dtype(dtype).newbyteorder("=")
            entries.append((name, o, dtype, shape))
            o += _padded(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize)
        header = np.zeros(o, np.uint8)
        header[:HEADER].view(np.int64)[:] = (B, P)
        header.flags.writeable = False
        return super().__new__(cls, (o, B, P, tuple(entries), header, header[:HEADER].tobytes()))

    def views(self, buf: np.ndarray) -> dict:
        """The field views of ``buf`` (a buffer of this layout)."""
        nd = np.ndarray
        return {name: nd(shape, dtype, buf, o) for name, o, dtype, shape in self[3]}


_LAYOUTS: dict = {}
"""Cached layouts: of a state class's own fields by ``(cls, B, P)``, of other arrays by their
dtypes and shapes."""


def _remember(key, layout: Layout) -> Layout:
    if len(_LAYOUTS) > 4096:
        _LAYOUTS.clear()
    _LAYOUTS[key] = layout
    return layout


def layout_of(cls, B: int, P: int) -> Layout:
    """The layout of a state of class ``cls`` (whose ``FIELDS`` list its game's fields) holding
    ``B`` games of ``P`` seats, built once."""
    key = (cls, B, P)
    layout = _LAYOUTS.get(key)
    if layout is None:
        if not any("P" in trail for _, _, trail in cls.FIELDS):
            P = 0  # the header's P of a class without a seat axis (see _seats)
        layout = _remember(key, Layout(B, P, [
            (name, dtype, (B,) + tuple(P if d == "P" else d for d in trail)) for name, dtype, trail in cls.FIELDS]))
    return layout


def _layout(cls, names, arrays: dict) -> Layout:
    """The layout of a buffer holding ``arrays`` (one per field ``names`` of ``cls``): the class's
    own (:func:`layout_of`) when they have its dtypes and shapes."""
    try:
        key = (cls,) + tuple((arrays[k].dtype, arrays[k].shape) for k in names)
    except (KeyError, AttributeError):
        key = None
    layout = _LAYOUTS.get(key)
    if layout is not None:
        return layout
    for name in names:
        a = arrays.get(name)
        if not isinstance(a, np.ndarray) or a.ndim == 0 or a.dtype.hasobject:
            raise ValueError(f"state field {name} must be a numpy array with a batch axis, "
                             f"got {type(a).__name__}" + (f" of shape {a.shape}" if isinstance(a, np.ndarray) else ""))
    B = int(arrays[names[0]].shape[0])
    for name in names:
        if arrays[name].shape[0] != B:
            raise ValueError(f"state field {name} holds {arrays[name].shape[0]} games, {names[0]} {B}")
    P = _seats(cls, arrays)
    layout = Layout(B, P, [(name, arrays[name].dtype, arrays[name].shape) for name in names])
    if getattr(cls, "FIELDS", None) is not None and layout[3] == layout_of(cls, B, P)[3]:
        layout = layout_of(cls, B, P)
    return layout if key is None else _remember(key, layout)


def _packed(cls, arrays: dict) -> tuple[Layout, np.ndarray, dict]:
    """The layout of ``arrays`` (one per field of ``cls``), one new buffer holding a copy of them,
    and its views."""
    names = _FIELD_NAMES.get(cls) or _FIELD_NAMES.setdefault(cls, tuple(f.name for f in dataclasses.fields(cls)))
    layout = _layout(cls, names, arrays)
    buf = layout[4].copy()
    views = layout.views(buf)
    for name, v in views.items():
        v[...] = arrays[name]
    return layout, buf, views


@dataclasses.dataclass
class BatchState:
    """Base class of every game's state.

    Subclasses are dataclasses whose every field is a numpy array with the
    batch as its first axis.  Every game state has at least these fields:

    * ``to_move`` (B,) int8: the seat whose decision is pending (the last mover once done);
    * ``done`` (B,) bool: the game is over;
    * ``rng_key``, ``rng_counter`` (B,) uint64: the game's counter-based random stream
      (see :mod:`envs.core.rng`).

    Besides its arrays, a state carries ``identity``
    (:class:`~envs.core.identity.GameIdentity`): the game configuration that made it.  Every
    state a game hands out has one, and copies keep it; every public call of a game checks it
    (:meth:`~envs.core.game.Game.check_state`).  The batch size B is the length of the arrays.

    The generic operations below (copy, take, put, concat) work for every subclass without
    game-specific code.  With ``check=True`` (the default) they first check the arrays'
    structure (:meth:`check_structure`) and their arguments, and raise ``ValueError``
    before changing anything; ``check=False`` is for trusted internal callers.
    """

    __slots__ = ("_layout",)  # the buffer's Layout (outside __dict__, which holds the fields)
    identity = None  # set on every state a game makes (not a dataclass field)

    def __post_init__(self):
        d = self.__dict__
        layout, buf, views = _packed(type(self), {k: d[k] for k in _field_names(self)})
        d.update(views)
        d["_buf"] = buf
        object.__setattr__(self, "_layout", layout)

    @classmethod
    def empty(cls, batch: int, seats: int):
        """A state of ``batch`` games of ``seats`` seats with every field zero, over one new buffer
        laid out for the class's ``FIELDS`` (for a game's kernels to fill; no identity yet)."""
        return cls._over(layout_of(cls, batch, seats), None)

    @classmethod
    def _over(cls, layout: Layout, buf, identity=None, views=None):
        """A state of ``cls`` over ``buf`` (laid out as ``layout``; None: a new zeroed buffer),
        with ``views`` of it when they are already made."""
        if buf is None:
            buf = layout[4].copy()
        out = object.__new__(cls)
        d = out.__dict__
        d.update(layout.views(buf) if views is None else views)
        d["_buf"] = buf
        d["identity"] = identity
        object.__setattr__(out, "_layout", layout)
        return out

    def __setattr__(self, name, value):
        d = self.__dict__
        if "_buf" not in d or name not in _field_names(self):
            if name == "_buf" and "_buf" in d:
                raise ValueError("a state's buffer cannot be replaced; assign its fields instead")
            object.__setattr__(self, name, value)
            return
        view = d.get(name)
        if view is None:
            raise ValueError(f"state field {name} was deleted; this state is broken")
        if not isinstance(value, np.ndarray) or value.dtype != view.dtype or value.shape != view.shape:
            got = (f"a {value.dtype} array of shape {value.shape}" if isinstance(value, np.ndarray)
                   else type(value).__name__)
            raise ValueError(f"state field {name} must be a {view.dtype} array of shape {view.shape} "
                             f"(assigning copies into the state's buffer), got {got}")
        if value is not view:
            view[...] = value

    def __delattr__(self, name):
        if name == "_buf" or name in _field_names(self):
            raise ValueError(f"state field {name} cannot be deleted")
        object.__delattr__(self, name)

    def __getstate__(self):  # the views are rebuilt over the unpickled buffer
        spec = tuple((k, v.dtype.str, v.shape[1:]) for k, v in self._arrays().items())
        return {"_buf": self._buf, "identity": self.identity, "spec": spec}

    def __setstate__(self, d):
        B, P = (int(x) for x in d["_buf"][:HEADER].view(np.int64))
        layout = Layout(B, P, [(k, dt, (B,) + tuple(trail)) for k, dt, trail in d["spec"]])
        self.__dict__.update(layout.views(d["_buf"]))
        self.__dict__["_buf"] = d["_buf"]
        self.__dict__["identity"] = d["identity"]
        object.__setattr__(self, "_layout", layout)

    def _arrays(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in _field_names(self)}

    def _new(self, arrays: dict[str, np.ndarray]):
        """A state of this type and identity holding ``arrays`` (one per field, copied into a new
        buffer), without the dataclass constructor."""
        layout, buf, views = _packed(type(self), arrays)
        return self._over(layout, buf, self.identity, views)

    def _with_buffer(self, buf: np.ndarray):
        """A state of this type and identity over ``buf`` (laid out as this state's buffer)."""
        return self._over(self._layout, buf, self.identity)

    @property
    def buffer(self) -> np.ndarray:
        """The uint8 buffer that holds every field (the fields are views into it): what a compiled
        kernel takes as the whole state.  Code writing into it bypasses every check, so only
        trusted compiled callers (a game's kernels, a search's play-outs) use it."""
        return self._buf

    @property
    def batch_size(self) -> int:
        """Number of games B in the batch."""
        return int(self.done.shape[0])

    def check_structure(self) -> None:
        """Raise ``ValueError`` unless this state carries a game identity and its arrays have
        that game's dtypes and shapes, all of one batch size, writeable and C-contiguous.

        The values in the arrays are checked by the game's calls
        (:meth:`~envs.core.game.Game.check_state`).
        """
        if not isinstance(self.identity, GameIdentity):
            raise ValueError(f"this {type(self).__name__} carries no game identity: build states with "
                             "a game's init, from_position or the state methods, not from arrays")
        self.identity.game()._check(self, 0, 0)

    def copy(self, check: bool = True):
        """A deep copy (no array is shared with ``self``)."""
        if check:
            self.check_structure()
        return self._with_buffer(self._buf.copy())

    def copy_into(self, other: "BatchState", check: bool = True) -> None:
        """Overwrite every array of ``other`` (same game, same batch size) with this state's
        values: a copy into buffers that already exist (a single env's per-step snapshot)."""
        if check:
            self._check_partner(other, "copy_into")
            if other.batch_size != self.batch_size:
                raise ValueError(f"copy_into: this state holds {self.batch_size} games, the target "
                                 f"{other.batch_size}")
        other._buf[...] = self._buf

    def clone(self, seeds, check: bool = True):
        """Copies of every game, each with its own fresh random stream.

        ``seeds`` is (B, k) ints (or (B,) for one copy each): copy ``j`` of game ``i`` is game
        ``i k + j`` of the result, equal to game ``i`` except that its stream restarts from
        ``seeds[i, j]`` (:func:`envs.core.rng.keys_from_seeds`, counter 0).  Unlike
        :meth:`copy`, whose games reroll exactly as their sources do, copies with different
        seeds draw independent dice, shuffles and redeals from here on.
        """
        if check:
            self.check_structure()
        seeds = np.asarray(seeds)
        B = self.batch_size
        if seeds.ndim == 1:
            seeds = seeds[:, None]
        if seeds.ndim != 2 or seeds.shape[0] != B:
            raise ValueError(f"seeds must have shape ({B}, k) or ({B},), got {seeds.shape}")
        keys = rng.keys_from_seeds(seeds.reshape(-1))  # refuses non-integer seeds
        out = self.take(np.repeat(np.arange(B), seeds.shape[1]), check=False)
        out.rng_key[:] = keys
        out.rng_counter[:] = 0
        return out

    def take(self, index, check: bool = True):
        """A new state holding the games ``index``, in that order; copies.

        ``index`` is a game index (int), a slice, a (B,) bool mask or a 1-d array of game
        indices in ``0..B-1`` (repeats allowed).
        """
        if isinstance(index, (int, np.integer)) and not isinstance(index, (bool, np.bool_)):
            index = [int(index)]
        if check:
            self.check_structure()
            if isinstance(index, slice):
                index = np.arange(self.batch_size)[index]
            index = rows_of(index, self.batch_size, "index", distinct=False)
        return self._new({k: v[index].copy() for k, v in self._arrays().items()})

    def put(self, index, other: "BatchState", check: bool = True) -> None:
        """Overwrite the games ``index`` of ``self`` with the games of ``other`` (in order).

        ``index`` is a game index, a slice, a (B,) bool mask or distinct game indices: one
        game of ``self`` per game of ``other``.
        """
        if check:
            self._check_partner(other, "put")
            if isinstance(index, (int, np.integer)) and not isinstance(index, (bool, np.bool_)):
                index = [int(index)]
            elif isinstance(index, slice):
                index = np.arange(self.batch_size)[index]
            rows = rows_of(index, self.batch_size, "index")
            if rows.size != other.batch_size:
                raise ValueError(f"put: index selects {rows.size} games, the other state holds "
                                 f"{other.batch_size}")
            index = rows
        for k, v in self._arrays().items():
            v[index] = getattr(other, k)

    @classmethod
    def concat(cls, states, check: bool = True):
        """Stack several states of the same game along the batch axis."""
        states = list(states)
        if check:
            if not states:
                raise ValueError("concat needs at least one state")
            for s in states:
                if type(s) is not cls:
                    raise ValueError(f"concat: a {type(s).__name__} is not a {cls.__name__}")
                s.check_structure()
                if s.identity != states[0].identity:
                    raise ValueError(f"concat: states of {states[0].identity.label} and "
                                     f"{s.identity.label} cannot be stacked")
        names = [f.name for f in dataclasses.fields(cls)]
        return states[0]._new({k: np.concatenate([getattr(s, k) for s in states], axis=0) for k in names})

    def equals(self, other: "BatchState") -> bool:
        """True when ``other`` is a state of the same game whose every array equals this one's."""
        if type(other) is not type(self) or other.identity != self.identity:
            return False
        try:
            mine, theirs = self._arrays(), other._arrays()
            return all(
                mine[k].shape == theirs[k].shape and np.array_equal(mine[k], theirs[k]) for k in mine
            )
        except (AttributeError, TypeError, ValueError):
            return False

    def _check_partner(self, other, what: str) -> None:
        """Both states are well-formed states of the same game (``ValueError`` otherwise)."""
        if not isinstance(other, BatchState):
            raise ValueError(f"{what}: expected a {type(self).__name__}, got {type(other).__name__}")
        self.check_structure()
        other.check_structure()
        if other.identity != self.identity:
            raise ValueError(f"{what}: a state of {other.identity.label} does not fit a state of "
                             f"{self.identity.label}")

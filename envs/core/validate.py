"""Small validators for position dicts; each raises ``ValueError`` naming the field."""

from __future__ import annotations

import numpy as np


def require_int(value, name: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int (Python or numpy integer, not bool) within ``[low, high]``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an int, got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(f"{name} must be in {lo}..{hi}, got {value}")
    return value


def require_list(value, name: str, length: int | None = None, what: str = "") -> list:
    """``value`` as a list (list or tuple), optionally of exactly ``length`` entries."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{name} must be a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        extra = f" ({what})" if what else ""
        raise ValueError(f"{name} must have {length} entries{extra}, got {len(value)}")
    return list(value)

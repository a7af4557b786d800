"""Human-readable names of Go-Stop cards and actions (English, with the Korean month flowers)."""

from __future__ import annotations

from . import cards as C
from .actions import CHOOSE_START, GO, PLAY_START, STOP

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTH_FLOWERS = ("pine", "plum", "cherry", "wisteria", "iris", "peony", "bush clover", "pampas",
                 "chrysanthemum", "maple", "paulownia", "rain")
MONTH_FLOWERS_KO = ("송학", "매조", "벚꽃", "흑싸리", "난초", "모란", "홍싸리", "공산", "국화", "단풍",
                    "오동", "비")
"""The month's picture in English and its Korean name (docs/rules/gostop.md §2)."""
SETS = ((C.GODORI, "godori"), (C.HONGDAN, "hongdan"), (C.CHEONGDAN, "cheongdan"),
        (C.CHODAN, "chodan"))


def card_kind(card: int) -> str:
    """The card's kind for people: ``bright``, ``animal``, ``animal/cup`` (Sep cup), ``ribbon``,
    ``double junk`` or ``junk``."""
    return "animal/cup" if card == C.CUP else C.KIND_NAMES[C.KIND[card]]


def card_label(card: int) -> str:
    """``"Mar ★ bright"``-style label: month, a star for brights, and the kind."""
    star = "★ " if C.KIND[card] == C.BRIGHT else ""
    return f"{MONTHS[card // 4]} {star}{card_kind(card)}"


def card_picture(card: int) -> str:
    """What the card shows and the set it counts towards (``"warbler, godori"``), or ``""``."""
    picture = C.CARD_NAMES[card].split(" ", 1)[1]
    if card == C.CUP:
        return "sake cup, animal or 2 junk"
    parts = [] if picture in ("junk", "double junk") else [picture]
    parts += [name for members, name in SETS if card in members]
    return ", ".join(parts)


def card_text(card: int) -> str:
    """``"Mar ★ bright (curtain)"``: the label with the picture, for move lists and logs."""
    picture = card_picture(card)
    return f"{card_label(card)} ({picture})" if picture else card_label(card)


def card_name(card: int) -> str:
    """``"17 May red ribbon"``-style name of a card id."""
    return f"{card} {C.CARD_NAMES[card]}"


def describe_action(action: int) -> str:
    """A short name of a flat action id (docs/rules/gostop.md §12.1)."""
    a = int(action)
    if PLAY_START <= a < CHOOSE_START:
        return f"play {card_name(a - PLAY_START)}"
    if CHOOSE_START <= a < GO:
        return f"take {card_name(a - CHOOSE_START)}"
    if a == GO:
        return "go"
    if a == STOP:
        return "stop"
    return f"out-of-range action {a}"

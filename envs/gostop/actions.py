"""The flat ``Discrete(98)`` action layout of docs/rules/gostop.md §12.1, named once::

    0 ........ 47 | 48 ........ 95 | 96 | 97
    PLAY hand card | choose layout  | GO | STOP
    with this id   | card id - 48   |    |
                   | (HAND_CHOICE / |
                   |  STOCK_CHOICE) |
"""

PLAY_START = 0
CHOOSE_START = 48
GO = 96
STOP = 97
NUM_ACTIONS = 98
ACTION_SLICES = {
    "play": slice(PLAY_START, CHOOSE_START),
    "choose": slice(CHOOSE_START, GO),
    "go": slice(GO, GO + 1),
    "stop": slice(STOP, STOP + 1),
}
"""The action layout as named slices of the flat action ids (tile 0..NUM_ACTIONS exactly)."""

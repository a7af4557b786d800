"""The flat ``Discrete(98)`` action layout of spec §12, named once::

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

"""Pig's descriptor: all madang needs to register, test and play it (its bot by ``module:attr``,
and no board of its own: the web page draws it from the text view)."""

from envs.core.spec import GameSpec

from .rules import Pig

SPEC = GameSpec(
    game_cls=Pig,
    title="Pig",
    summary="one die, push your luck",
    result_fields=("scores",),
    test_configs=({}, {"num_players": 3, "target": 20}, {"num_players": 4, "target": 100}),
    default_bot="tests.games.pig.bot:hold_at_8",
    demo_bots=("tests.games.pig.bot:hold_at_8", "random"),
    test_bot="tests.games.pig.bot:hold_at_8",
    demo_text="tests.games.pig.view:stake_text",
)

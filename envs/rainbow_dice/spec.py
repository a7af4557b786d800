"""Rainbow Dice's descriptor (:class:`envs.core.spec.GameSpec`)."""

from ..core.spec import GameSpec
from .rules import RainbowDice

SPEC = GameSpec(
    game_cls=RainbowDice,
    title="Rainbow Dice",
    summary="six coloured dice, a market of hand cards",
    result_fields=("scores",),
    test_configs=(
        {"num_players": 1}, {"num_players": 1, "copies_per_hand": None, "start_tokens": 5},
        {"num_players": 3}, {"num_players": 4, "reward": "win", "copies_per_hand": 2},
    ),
    default_bot="rainbow-greedy",
    demo_bots=("rainbow-ppo", "rainbow-greedy"),
    test_bot="rainbow-simple",
    board="rainbow_dice",
    demo_text="envs.rainbow_dice.view:dice_text",
    demo_turn_over="envs.rainbow_dice.view:turn_over",
)

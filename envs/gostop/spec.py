"""Go-Stop's descriptor (:class:`envs.core.spec.GameSpec`)."""

from ..core.spec import GameSpec
from .rules import GoStop
from .state import REASONS

SPEC = GameSpec(
    game_cls=GoStop,
    title="Go-Stop",
    summary="two-player Matgo with the hwatu deck",
    result_fields=("winner", "payout", "reason"),
    result_reasons=REASONS[1:],
    score_label="payout",
    test_configs=({},),
    default_bot="gostop-greedy",
    demo_bots=("gostop-search", "gostop-ppo"),
    test_bot="gostop-greedy",
    board="gostop",
    demo_turn_end="envs.gostop.view:captured_text",
)

"""Yacht's descriptor (:class:`envs.core.spec.GameSpec`)."""

from ..core.spec import GameSpec
from .rules import Yacht

SPEC = GameSpec(
    game_cls=Yacht,
    title="Yacht",
    summary="five dice, twelve categories",
    result_fields=("scores",),
    test_configs=({"num_players": 1}, {"num_players": 2}, {"num_players": 4, "reward": "win"}),
    default_bot="yacht-solver",
    demo_bots=("yacht-ppo", "yacht-solver", "yacht-greedy"),
    test_bot="yacht-greedy",
    board="yacht",
    solo_optimum="agents.yacht_dp:optimal_score",
)

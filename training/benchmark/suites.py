"""The benchmark suites: fixed seeds, fixed game counts and, for two-player suites, a fixed ladder.

A suite's id ends in its version (``-v1``).  Everything that changes its figures (the game's
rules and observations, the seeds, the counts, the ladder) changes the version: a result
records the suite id and the hashes of the rules and seeds, so two results are comparable
exactly when those agree.

* A **solo** suite plays ``games`` solitaire games, game ``j`` seeded ``seed + j``; its figure
  is the mean score with its 95 % CI (and, where the game has one, the share of the exact
  optimum).
* A **ladder** suite plays ``games`` seat-swapped deal pairs against each bot of the ladder
  (each deal twice, the seats swapped), rung ``k`` on the deals ``seed + k * RUNG_STRIDE + j``;
  its figures are points per game (Go-Stop: per deal, the signed payout), the share of the
  decided games won, each with its 95 % CI, and an Elo on the ladder: the rating that
  explains the policy's scores against the rungs, whose ratings are frozen in the suite.
  The rungs are pinned by their identity hashes (``ladder_sha256``): a result records whether
  the rungs it met were those (``ladder_match``), and a rung that changes needs a new version.

``target`` is the half-width of the 95 % CI of the suite's main figure (the mean score, or
points per game) that the game count is chosen to reach; ``win_target`` that of the decided
win rate.  Results say whether they met them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RUNG_STRIDE = 1_000_000
"""Seed offset between the rungs of a ladder (more than any suite's deal pairs)."""


@dataclass(frozen=True)
class Suite:
    """One benchmark suite (see the module docstring)."""

    id: str
    game: str
    players: int
    games: int  # solo games, or deal pairs against each rung
    seed: int
    target: float  # half-width of the 95 % CI of the main figure
    unit: str  # what the main figure counts, e.g. "points per game"
    description: str
    ladder: tuple = ()  # bot names, weakest first
    ladder_elo: dict = field(default_factory=dict)  # frozen ratings of the rungs
    ladder_sha256: dict = field(default_factory=dict)  # the rungs' identity hashes (identity.policy_identity)
    win_target: float | None = None  # half-width of the decided win rate's CI (ladder suites)
    game_config: dict = field(default_factory=dict)  # rules options besides num_players
    shard_games: int = 4096  # games per batch of the core (the bots' random draws depend on it)
    rules_hash: str = ""  # the rules fingerprint the suite was defined on (identity.rules_hash)

    @property
    def solo(self) -> bool:
        """Whether the suite plays solitaire games (no ladder)."""
        return not self.ladder

    def rung_seed(self, k: int) -> int:
        """The seed of the first deal against rung ``k``."""
        return self.seed + k * RUNG_STRIDE


_RANDOM_SHA = "4df57a06520b6eb50ad4865c80a6d9890dfb9afb8f9caf1b8a38bc74e63c1c82"

SUITES = {s.id: s for s in [
    Suite("yacht-solo-v1", "yacht", 1, games=8192, seed=101_000_000, target=1.0, unit="points per game",
          rules_hash="9a82b6c5346510c1cc1949afac0f90ad7def7eccb7193ea86f2fa5e9ae33a8c5",
          description="solitaire Yacht: mean score and share of the exact optimum (169.77)"),
    Suite("yacht-2p-v1", "yacht", 2, games=1024, seed=102_000_000, target=1.0, win_target=0.02,
          unit="points per game", ladder=("random", "yacht-greedy", "yacht-ppo", "yacht-solver"),
          ladder_elo={"random": 607.0, "yacht-greedy": 1605.6, "yacht-ppo": 1890.2, "yacht-solver": 1897.2},
          ladder_sha256={"random": _RANDOM_SHA,
                         "yacht-greedy": "ad1b40e3361b3f4e90ebcbc571fb0e8578e5e5bfdcb7350865320ad03975a538",
                         "yacht-ppo": "a65449a2bf776c802b02985c8542e12fd05ff7f95789b6010b0f75493ab14a0f",
                         "yacht-solver": "7cae856df7c784b1c5dcaaf0015676a4574233f6119c12f2f4416779c8749a32"},
          rules_hash="4e8255e2d10bfc64c22d4b4885c015670f0170893ed6daf8b3a5a1574d67842c",
          description="two-player Yacht, seat-swapped against a ladder of four shipped bots"),
    Suite("rainbow-solo-v1", "rainbow_dice", 1, games=2048, seed=103_000_000, target=16.0,
          unit="points per game", rules_hash="260ec8b2b6e3b1cec02bae8d7f9bbf084c03ec6ecd315e8d87d29db2cf589576",
          description="solitaire Rainbow Dice (default rules): mean score"),
    Suite("rainbow-2p-v1", "rainbow_dice", 2, games=512, seed=104_000_000, target=15.0, win_target=0.025,
          unit="points per game", ladder=("random", "rainbow-simple", "rainbow-greedy", "rainbow-ppo"),
          ladder_elo={"random": 93.7, "rainbow-simple": 1422.0, "rainbow-greedy": 2131.7, "rainbow-ppo": 2352.7},
          ladder_sha256={"random": _RANDOM_SHA,
                         "rainbow-simple": "a06b64ddd3301e32bf3ec63f6347708dff0be90933bba8f68d7ef60a764e6817",
                         "rainbow-greedy": "863250ec4d42a8aa1109593cd8d4acb0425e73840954adddc86bb5b3fcbb3f73",
                         "rainbow-ppo": "7dcf436615563d69d2ce67e98b563642d2497c04081b445d5affb5215b7795ca"},
          rules_hash="4824b2991ca38ff2d4ee4c859ae5631a83c7df2301436a45efc233af361a15c5",
          description="two-player Rainbow Dice, seat-swapped against a ladder of four shipped bots"),
    Suite("gostop-v1", "gostop", 2, games=512, seed=105_000_000, target=2.5, win_target=0.03,
          unit="points per deal", ladder=("random", "gostop-greedy", "gostop-ppo-v1", "gostop-search-v1"),
          ladder_elo={"random": 1318.7, "gostop-greedy": 1552.8, "gostop-ppo-v1": 1559.2, "gostop-search-v1": 1569.3},
          ladder_sha256={"random": _RANDOM_SHA,
                         "gostop-greedy": "03a6f427f9ffd1ea3f9d6f20125b9063ca519060c89f8f1e7a8e448c30aa23f7",
                         "gostop-ppo-v1": "9a64b3e22244088df26df875d3e48bd139fc4dfe1f0f77e8ff9c78f48e2f6260",
                         "gostop-search-v1": "c64d5df7eff7c8007afbedc527ce86251eaae69fc806d1fc6a3bbe63aba21adc"},
          rules_hash="098d2552469e88abc1ee6f0acad25c4add3549a0c4aa2456dd0208407bd86306",
          description="Go-Stop (Matgo), seat-swapped against a ladder of four shipped bots"),
]}
"""Every suite by id."""


def suites_for(game: str) -> list[Suite]:
    """The suites of the game module ``game``, in their order in :data:`SUITES`."""
    return [s for s in SUITES.values() if s.game == game]


def get_suite(suite_id: str) -> Suite:
    """The suite ``suite_id``; ``ValueError`` listing the suites for an unknown id."""
    if suite_id not in SUITES:
        raise ValueError(f"unknown suite {suite_id!r}; suites: {', '.join(SUITES)}")
    return SUITES[suite_id]

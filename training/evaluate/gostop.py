"""Go-Stop's own figures of a match: how each bot used Go."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np


@dataclass
class GoStats:
    """How one bot of a match used Go (games with Go / Stop calls, i.e. Go-Stop).

    Over the ``deals`` it played to a decision (deals decided before any decision do not
    count): ``called_go`` deals in which it called Go at least once, ``gos`` its Go calls in
    all, and how the deals with a Go ended for it: ``won_after_go``, ``lost_after_go`` (the
    opponent stopped, go-bak) and ``nagari_after_go`` (nobody stopped).  ``points_after_go``
    is its mean result in the deals with a Go (0 when there is none).
    """

    deals: int
    called_go: int
    gos: int
    won_after_go: int
    lost_after_go: int
    nagari_after_go: int
    points_after_go: float

    @classmethod
    def of(cls, gos: np.ndarray, mine: np.ndarray, theirs: np.ndarray) -> "GoStats":
        """From a bot's Go calls, results and its opponent's results in each deal ((N,) each)."""
        went = gos > 0
        return cls(deals=int(gos.size), called_go=int(went.sum()), gos=int(gos.sum()),
                   won_after_go=int((went & (mine > theirs)).sum()),
                   lost_after_go=int((went & (mine < theirs)).sum()),
                   nagari_after_go=int((went & (mine == theirs)).sum()),
                   points_after_go=float(mine[went].mean()) if went.any() else 0.0)

    @property
    def go_rate(self) -> float:
        """Share of the deals in which the bot called Go."""
        return self.called_go / self.deals if self.deals else 0.0

    def as_dict(self) -> dict:
        """A JSON-compatible dict."""
        return dict(asdict(self), go_rate=self.go_rate)

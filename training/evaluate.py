"""Evaluation of bots: solitaire means and round-robin tournaments with Elo.

Everything runs on the batched cores: a match of N games between fixed seats is
one batch.  Solitaire mode gives mean ± standard error (and, for Yacht, the
fraction of the exact optimum); tournaments pair every two bots in both seat
orders with the same seeds, and report mean score or points, 95 % confidence
intervals, win rates and Elo ratings from a Bradley–Terry fit.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

import agents
from agents.play import play_out
from envs.registration import game_class

Z95 = 1.959964


def play_match(game_name: str, bots: list, num_games: int, seed: int = 0, **game_config) -> np.ndarray:
    """Play ``num_games`` games with ``bots[i]`` in seat ``i``; return (num_games, P) results.

    Results are final scores (dice games, from ``result()["scores"]``) or signed payouts
    (games whose result has ``winner``/``payout``).  Game ``j`` uses seed ``seed + j``.
    """
    bots = [agents.load(b) if isinstance(b, str) else b for b in bots]
    game = game_class(game_name)(num_players=len(bots), **game_config)
    for b in bots:
        if hasattr(b, "check_game"):
            b.check_game(game.name)
    state = game.init(seed + np.arange(num_games))
    play_out(game, state, bots, np.random.default_rng(seed))
    return np.array([_signed_result(game.result(state, i), len(bots)) for i in range(num_games)], dtype=np.float64)


def _signed_result(result: dict, num_players: int) -> list:
    if "scores" in result:
        return list(result["scores"])
    out = [0.0] * num_players
    if result.get("winner") is not None:
        w = int(result["winner"])
        out = [-float(result["payout"])] * num_players
        out[w] = float(result["payout"])
    return out


@dataclass
class SoloResult:
    """Solitaire evaluation of one bot."""

    bot: str
    games: int
    mean: float
    se: float
    optimum: float | None = None

    @property
    def fraction_of_optimum(self) -> float | None:
        """Mean divided by the exact optimum, where the game has one."""
        return None if self.optimum is None else self.mean / self.optimum


def evaluate_solo(game_name: str, bot, num_games: int, seed: int = 0, **game_config) -> SoloResult:
    """Mean ± standard error of a bot's solitaire score over ``num_games`` seeded games
    (``game_config``: rules options such as Rainbow Dice's ``copies_per_hand``)."""
    scores = play_match(game_name, [bot], num_games, seed, **game_config)[:, 0]
    optimum = None
    if game_name == "yacht":
        from agents.yacht_dp import solve

        optimum = solve().optimal_score
    name = bot if isinstance(bot, str) else bot.name
    return SoloResult(name, num_games, float(scores.mean()), float(scores.std(ddof=1) / np.sqrt(num_games)), optimum)


@dataclass
class Tournament:
    """Round-robin results: per bot mean result, CI, win rate; pairwise wins; Elo."""

    bots: list
    games_per_pair: int
    mean: dict = field(default_factory=dict)
    ci95: dict = field(default_factory=dict)
    win_rate: dict = field(default_factory=dict)
    wins: np.ndarray | None = None  # wins[i, j]: games bot i won against bot j (ties count 1/2)
    elo: dict = field(default_factory=dict)

    def markdown(self) -> str:
        """The results as a Markdown table, best Elo first."""
        lines = ["| bot | Elo | mean | 95 % CI | win rate |", "|---|---:|---:|---:|---:|"]
        for b in sorted(self.bots, key=lambda b: -self.elo[b]):
            lines.append(
                f"| {b} | {self.elo[b]:.0f} | {self.mean[b]:.2f} | ± {self.ci95[b]:.2f} | {self.win_rate[b]:.3f} |"
            )
        return "\n".join(lines)


def round_robin(game_name: str, bots: list[str], games_per_pair: int, seed: int = 0, **game_config) -> Tournament:
    """Every two bots play ``games_per_pair`` two-player games in each seat order (same seeds)."""
    if len(bots) < 2:
        raise ValueError("a tournament needs at least two bots")
    n = len(bots)
    results: dict = {b: [] for b in bots}
    outcomes: dict = {b: [] for b in bots}
    wins = np.zeros((n, n))
    for i, j in itertools.combinations(range(n), 2):
        for a, b in ((i, j), (j, i)):
            res = play_match(game_name, [bots[a], bots[b]], games_per_pair, seed, **game_config)
            diff = res[:, 0] - res[:, 1]
            score_a = np.where(diff > 0, 1.0, np.where(diff < 0, 0.0, 0.5))
            wins[a, b] += score_a.sum()
            wins[b, a] += (1 - score_a).sum()
            results[bots[a]].extend(res[:, 0])
            results[bots[b]].extend(res[:, 1])
            outcomes[bots[a]].extend(score_a)
            outcomes[bots[b]].extend(1 - score_a)
    t = Tournament(bots, games_per_pair, wins=wins)
    for b in bots:
        r = np.asarray(results[b])
        t.mean[b] = float(r.mean())
        t.ci95[b] = float(Z95 * r.std(ddof=1) / np.sqrt(r.size))
        t.win_rate[b] = float(np.mean(outcomes[b]))
    t.elo = dict(zip(bots, bradley_terry_elo(wins)))
    return t


def bradley_terry_elo(wins: np.ndarray, iterations: int = 2000, anchor: float = 1500.0) -> np.ndarray:
    """Elo ratings from a pairwise win matrix by the Bradley–Terry MM algorithm.

    ``wins[i, j]`` counts i's wins over j (ties as halves).  A small prior (half a win
    each way against a virtual average player) keeps undefeated bots finite.  Ratings
    are on the Elo scale (400 log10 strength) with mean ``anchor``.
    """
    wins = np.asarray(wins, dtype=np.float64)
    n = wins.shape[0]
    games = wins + wins.T
    p = np.ones(n)
    for _ in range(iterations):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1) + 1.0 / (p + 1.0)
        new = (wins.sum(axis=1) + 0.5) / denom
        new /= np.exp(np.log(new).mean())
        if np.allclose(new, p, rtol=1e-10):
            p = new
            break
        p = new
    elo = 400 * np.log10(p)
    return elo - elo.mean() + anchor


def plot_tournament(t: Tournament, path: str, title: str = "") -> None:
    """Save a bar chart of Elo ratings and mean results to ``path`` (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = sorted(t.bots, key=lambda b: -t.elo[b])
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    axes[0].bar(order, [t.elo[b] for b in order], color="tab:blue")
    axes[0].set_ylabel("Elo (Bradley–Terry)")
    axes[1].bar(order, [t.mean[b] for b in order], yerr=[t.ci95[b] for b in order], color="tab:orange", capsize=4)
    axes[1].set_ylabel("mean result (95 % CI)")
    for ax in axes:
        ax.tick_params(axis="x", rotation=30)
    fig.suptitle(title or f"{len(t.bots)} bots, {t.games_per_pair} games per pair and seat order")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def yacht_regret(bot, num_games: int, seed: int = 0) -> dict:
    """Where a bot loses points against the exact solver in solitaire Yacht.

    For every decision the bot makes, the regret is the solver's expected final score of
    its best action minus that of the bot's action.  The regrets add up, in expectation,
    to the optimum minus the bot's mean score.  Returns the regret per game split into
    reroll and category decisions, the share of each that lose more than 0.01 points,
    and the regret per game of each round.
    """
    from agents.yacht_solver import YachtSolverBot
    from envs.yacht import SCORE_START, Yacht

    bot = agents.load(bot) if isinstance(bot, str) else bot
    solver = YachtSolverBot()
    game = Yacht(num_players=1)
    state = game.init(seed + np.arange(num_games))
    rng = np.random.default_rng(seed)
    total = {"reroll": 0.0, "score": 0.0}
    count = {"reroll": 0, "score": 0}
    lossy = {"reroll": 0, "score": 0}
    by_round = np.zeros(12)
    while not state.done.all():
        live = np.flatnonzero(~state.done)
        sub = state.take(live)
        obs, mask = game.observe(sub), game.legal_mask(sub)
        actions = bot.act(obs, mask, rng)
        q = np.where(mask, solver.action_values(obs), -np.inf)
        regret = q.max(axis=1) - q[np.arange(live.size), actions]
        scoring = actions >= SCORE_START
        for kind, rows in (("score", scoring), ("reroll", ~scoring)):
            total[kind] += float(regret[rows].sum())
            count[kind] += int(rows.sum())
            lossy[kind] += int((regret[rows] > 0.01).sum())
        np.add.at(by_round, sub.round.astype(np.int64) - 1, regret)
        game.step(sub, actions)
        state.put(live, sub)
    return {
        "games": num_games,
        "mean_score": float(game.totals(state)[:, 0].mean()),
        "regret_per_game": (total["reroll"] + total["score"]) / num_games,
        "reroll_regret_per_game": total["reroll"] / num_games,
        "score_regret_per_game": total["score"] / num_games,
        "lossy_reroll_share": lossy["reroll"] / max(count["reroll"], 1),
        "lossy_score_share": lossy["score"] / max(count["score"], 1),
        "regret_per_game_by_round": (by_round / num_games).round(3).tolist(),
    }

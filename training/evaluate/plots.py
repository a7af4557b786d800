"""Pictures of evaluations: a tournament's Elo and means, bots' solitaire score distributions."""

from __future__ import annotations

import itertools

import numpy as np

from .matches import SoloResult, Tournament


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


def plot_solo(results: list[SoloResult], path: str, title: str = "") -> None:
    """Save the distribution of each bot's solitaire scores (one step histogram per bot, its
    mean dashed, the exact optimum dotted where the game has one) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    edges = np.histogram_bin_edges(np.concatenate([r.scores for r in results]), bins="auto")
    if edges.size > 101:
        edges = np.linspace(edges[0], edges[-1], 101)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for r, colour in zip(results, itertools.cycle(plt.rcParams["axes.prop_cycle"].by_key()["color"])):
        ax.hist(r.scores, bins=edges, histtype="step", color=colour,
                label=f"{r.bot}: {r.mean:.2f} ± {r.se:.2f} (s.e.)")
        ax.axvline(r.mean, color=colour, linestyle="--", linewidth=1)
    if results[0].optimum is not None:
        ax.axvline(results[0].optimum, color="black", linestyle=":", label=f"optimum {results[0].optimum:.2f}")
    ax.set_xlabel("score per game")
    ax.set_ylabel("games")
    ax.legend()
    ax.set_title(title or f"solitaire scores over {results[0].games} games per bot")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)

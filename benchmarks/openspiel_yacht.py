"""madang's Yacht against OpenSpiel's ``yacht`` (solitaire, uniform random play), in one run.

    .venv/bin/pip install -e ".[openspiel]"        # open-spiel 2.0.2 from its wheel
    .venv/bin/python -m benchmarks.openspiel_yacht [--seconds 2] [--repeats 3] [--json]

Both sides count **decisions**: player actions, never chance events (OpenSpiel rolls the
dice at chance nodes; madang draws them inside a step).  Measured, alternating so that both
sides share the machine's load, and reported as medians over the repeats:

* **batched core** (``madang bench``'s loop: random legal actions, new masks and
  observations every step, finished games replaced) at B=4096 and B=1, against OpenSpiel's
  C++ ``evaluate_bots`` loop with its uniform random bot (whole games in C++: legal
  actions, no observations).  ``evaluate_bots`` reports no counts, so its decisions per
  game are the mean over games played by the Python loop below with the same policy;
* **single env** (``gymnasium.make("madang/Yacht-v0")``, time inside ``step``/``reset``)
  against OpenSpiel's Python loop (``legal_actions``, ``observation_tensor`` and
  ``apply_action`` per decision; chance nodes sampled uniformly from ``legal_actions``, as
  yacht's outcomes are equally likely) and against its ``rl_environment`` (``reset``/``step``
  with observations, chance nodes sampled by the environment's own sampler).

OpenSpiel's yacht differs in rules detail (it asks for an explicit "keep all" decision
before scoring; madang scores directly), so decisions per game differ; the comparison is
per decision.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import numpy as np

from benchmarks.throughput import bench_batched, bench_single_env


def _pyspiel():
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print('openspiel_yacht: error: open-spiel is not installed\n'
              'hint: .venv/bin/pip install -e ".[openspiel]"', file=sys.stderr)
        sys.exit(2)
    return pyspiel


def openspiel_game():
    """OpenSpiel's solitaire yacht (the game defaults to two players)."""
    return _pyspiel().load_game("yacht", {"players": 1})


def openspiel_cpp_games_per_s(game, seconds: float, seed: int = 0) -> float:
    """Whole games per second of ``evaluate_bots`` with OpenSpiel's uniform random bot."""
    pyspiel = _pyspiel()
    bot = pyspiel.make_uniform_random_bot(0, seed)
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            pyspiel.evaluate_bots(game.new_initial_state(), [bot], seed + games)
            games += 1
    return games / (time.perf_counter() - start)


def openspiel_python_loop(game, seconds: float, seed: int = 0) -> dict:
    """OpenSpiel's Python loop: ``{"us_per_decision", "decisions_per_game", "games"}``."""
    rng = np.random.default_rng(seed)
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if not state.is_chance_node():
                state.observation_tensor(0)
                decisions += 1
            state.apply_action(legal[int(rng.random() * len(legal))])
        games += 1
    elapsed = time.perf_counter() - start
    return {"us_per_decision": 1e6 * elapsed / decisions, "decisions_per_game": decisions / games, "games": games}


def openspiel_rl_environment(seconds: float, seed: int = 0) -> float:
    """Microseconds per decision of ``rl_environment.Environment("yacht", players=1)``."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment("yacht", players=1,
                                     chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed),
                                     observation_type=rl_environment.ObservationType.OBSERVATION)
    rng = np.random.default_rng(seed)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        step = env.reset()
        while not step.last():
            legal = step.observations["legal_actions"][0]
            step = env.step([legal[int(rng.random() * len(legal))]])
            decisions += 1
    return 1e6 * (time.perf_counter() - start) / decisions


def measure(seconds: float, repeats: int) -> dict:
    """Every measurement ``repeats`` times, madang and OpenSpiel alternating; medians."""
    game = openspiel_game()
    rows: dict[str, list] = {k: [] for k in (
        "madang_core_4096", "madang_core_1", "openspiel_cpp", "madang_env_us", "openspiel_loop_us",
        "openspiel_rl_env_us", "openspiel_decisions_per_game")}
    for r in range(repeats):
        rows["madang_core_4096"].append(bench_batched("yacht", 4096, seconds, seed=r)[0])
        loop = openspiel_python_loop(game, seconds, seed=r)
        rows["openspiel_loop_us"].append(loop["us_per_decision"])
        rows["openspiel_decisions_per_game"].append(loop["decisions_per_game"])
        rows["madang_core_1"].append(bench_batched("yacht", 1, seconds, seed=r)[0])
        rows["openspiel_cpp"].append(openspiel_cpp_games_per_s(game, seconds, seed=r))
        rows["madang_env_us"].append(bench_single_env("yacht", seconds, seed=r)["env_us_per_step"])
        rows["openspiel_rl_env_us"].append(openspiel_rl_environment(seconds, seed=r))
    med = {k: statistics.median(v) for k, v in rows.items()}
    # Decisions per game of the C++ loop: the mean over every game the Python loop played.
    med["openspiel_cpp"] *= statistics.mean(rows["openspiel_decisions_per_game"])
    return med


def table(m: dict) -> str:
    """The Markdown table of one :func:`measure` result."""
    lines = [
        "| measure | madang | OpenSpiel | madang / OpenSpiel |",
        "|---|---:|---:|---:|",
        f"| batched core B=4096 vs `evaluate_bots` (C++) | {m['madang_core_4096'] / 1e6:.2f} M decisions/s "
        f"| {m['openspiel_cpp'] / 1e3:.0f} k decisions/s | {m['madang_core_4096'] / m['openspiel_cpp']:.0f}× |",
        f"| batched core B=1 vs `evaluate_bots` (C++) | {m['madang_core_1'] / 1e3:.0f} k decisions/s "
        f"| {m['openspiel_cpp'] / 1e3:.0f} k decisions/s | {m['madang_core_1'] / m['openspiel_cpp']:.2f}× |",
        f"| single env vs Python loop | {m['madang_env_us']:.1f} µs/decision | {m['openspiel_loop_us']:.1f} µs/decision "
        f"| {m['openspiel_loop_us'] / m['madang_env_us']:.1f}× faster |",
        f"| single env vs `rl_environment` | {m['madang_env_us']:.1f} µs/decision "
        f"| {m['openspiel_rl_env_us']:.0f} µs/decision | {m['openspiel_rl_env_us'] / m['madang_env_us']:.0f}× faster |",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="madang's Yacht against OpenSpiel's yacht, side by side")
    p.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    p.add_argument("--repeats", type=int, default=3, help="alternating repeats (medians are reported)")
    p.add_argument("--json", action="store_true", help="print the medians as one JSON object")
    args = p.parse_args(argv)
    m = measure(args.seconds, args.repeats)
    print(json.dumps(m) if args.json else table(m))
    return 0


if __name__ == "__main__":
    sys.exit(main())

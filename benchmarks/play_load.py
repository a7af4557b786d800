"""A bounded load test of ``madang serve`` on loopback: many players, plus cold first games.

Starts ``madang serve`` in a subprocess on a free port (it warms every bot up before it
listens), records its memory once it answers (the *warm size*), then for ``--seconds``:

* ``--clients`` players (threads), each on its own keep-alive connection, play whole games
  in a loop: a random game, a random bot of it, a random seat; a random legal move at a
  time, a read of the game and of the stylesheet now and then, and DELETE at the end;
* at the start, ``--cold`` simultaneous first games of ``--cold-bot`` (``rainbow-greedy``:
  the bot with the largest tables), the bot moving first, each then played to its end.

It prints every status seen (and the count of 5xx), the slowest *first move* (a new game in
which the bot moves first, and a game's first move; the cold games apart), latency
percentiles of reads and moves, the server's peak memory over its warm size, and the load
average before and after (the figures depend on what else the machine runs)::

    python -m benchmarks.play_load                      # 20 players for 60 s + 8 cold games
    python -m benchmarks.play_load --clients 4 --seconds 10 --cold 2
    python -m benchmarks.play_load --clients 0 --cold 8 --root ../main   # another checkout's server

No timed asserts: it prints the figures and whether each stayed within the issue's bounds
(no 5xx, no first move over 1 s, memory within 100 MB of the warm size).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Client:
    """One keep-alive connection; every answer's status and time are recorded."""

    def __init__(self, port: int, stats: "Stats"):
        self.port, self.stats = port, stats
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method: str, path: str, body=None, kind: str = "other"):
        data = None if body is None else json.dumps(body).encode()
        headers = {"content-type": "application/json"} if data is not None else {}
        t = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            r = self.conn.getresponse()
            raw = r.read()
        except (OSError, http.client.HTTPException) as e:
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            self.stats.add(kind, f"error {type(e).__name__}", time.perf_counter() - t)
            return None, None
        dt = time.perf_counter() - t
        self.stats.add(kind, r.status, dt)
        if r.getheader("connection", "").lower() == "close":
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        return r.status, (json.loads(raw) if raw and "json" in (r.getheader("content-type") or "") else None)


class Stats:
    """Statuses and latencies by request kind, thread-safe."""

    def __init__(self):
        self.lock = threading.Lock()
        self.statuses: Counter = Counter()
        self.times: dict[str, list[float]] = {}

    def add(self, kind: str, status, seconds: float) -> None:
        with self.lock:
            self.statuses[status] += 1
            self.times.setdefault(kind, []).append(seconds)


def play_game(client: Client, game: str, bot: str, seat: int, rng: random.Random, deadline: float | None,
              first_kind: str = "first") -> None:
    """One game to its end (or the deadline): new game, random legal moves, reads, DELETE."""
    status, g = client.call("POST", "/api/games", {"game": game, "bots": [bot], "seat": seat},
                            kind=f"{first_kind}-new" if seat else "new")
    if status != 201:
        return
    first = True
    while not g["over"] and (deadline is None or time.monotonic() < deadline):
        action = rng.choice(g["moves"])["id"]
        status, answer = client.call("POST", f"/api/games/{g['id']}/moves", {"action": action},
                                     kind=f"{first_kind}-move" if first else "move")
        first = False
        if status != 200:
            break
        g = answer
        if rng.random() < 0.2:
            client.call("GET", f"/api/games/{g['id']}", kind="read")
        if rng.random() < 0.05:
            client.call("GET", "/static/style.css", kind="static")
    client.call("DELETE", f"/api/games/{g['id']}", kind="delete")


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main(argv=None) -> dict:
    """Run the load test with the command-line options ``argv``; print and return its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--cold", type=int, default=8, help="simultaneous first games of --cold-bot at the start")
    ap.add_argument("--cold-bot", default="rainbow-greedy")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--root", type=Path, default=ROOT,
                    help="the checkout whose `madang serve` runs (default: this one), to compare versions")
    args = ap.parse_args(argv)

    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(args.root.resolve()), "OMP_NUM_THREADS": "1"}
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "frontends.cli", "serve", "--port", str(port)],
                              env=env, cwd=args.root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        probe = Client(port, Stats())
        while True:
            if server.poll() is not None:
                print(server.stdout.read())
                raise SystemExit("the server stopped")
            try:
                if probe.call("GET", "/api/games")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        started = time.perf_counter() - t0
        catalog = probe.call("GET", "/api/games")[1]
        bots = {g["name"]: [b["name"] for b in g["bots"]] for g in catalog["games"]}
        warm = rss_mb(server.pid)
        print(f"server up in {started:.1f} s; warm size {warm:.0f} MiB; "
              f"load average {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} before", flush=True)

        stats, peak, stop = Stats(), [warm], threading.Event()

        def sample():
            while not stop.is_set():
                peak[0] = max(peak[0], rss_mb(server.pid))
                stop.wait(0.25)

        def player(k: int):
            rng = random.Random(args.seed * 1000 + k)
            client = Client(port, stats)
            while time.monotonic() < deadline:
                game = rng.choice(sorted(bots))  # every game the server offers
                play_game(client, game, rng.choice(bots[game]), rng.randrange(2), rng, deadline)

        def cold(k: int):
            play_game(Client(port, stats), "rainbow_dice", args.cold_bot, 1, random.Random(k), None, "cold")

        deadline = time.monotonic() + args.seconds
        threads = [threading.Thread(target=sample)]
        threads += [threading.Thread(target=cold, args=(k,)) for k in range(args.cold)]
        threads += [threading.Thread(target=player, args=(k,)) for k in range(args.clients)]
        t1 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads[1:]:
            t.join()
        wall = time.perf_counter() - t1
        stop.set()
        threads[0].join()
        load_after = os.getloadavg()
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()

    total = sum(stats.statuses.values())
    fives = sum(n for s, n in stats.statuses.items() if isinstance(s, int) and s >= 500)
    errors = sum(n for s, n in stats.statuses.items() if not isinstance(s, int))
    print(f"{args.clients} players for {args.seconds:g} s + {args.cold} cold {args.cold_bot} games: "
          f"{total} requests in {wall:.1f} s ({total / wall:.0f}/s)")
    print("statuses: " + ", ".join(f"{s}: {n}" for s, n in sorted(stats.statuses.items(), key=str)))
    print(f"{'kind':<12}{'n':>7}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}")
    for kind in sorted(stats.times):
        xs = stats.times[kind]
        print(f"{kind:<12}{len(xs):>7}{percentile(xs, 0.5) * 1e3:>11.1f}{percentile(xs, 0.99) * 1e3:>9.1f}"
              f"{max(xs) * 1e3:>9.1f}")
    firsts = [x for k in ("first-new", "first-move", "cold-new", "cold-move") for x in stats.times.get(k, [])]
    slowest = max(firsts, default=float("nan"))
    grown = peak[0] - warm
    print(f"slowest first move {slowest * 1e3:.0f} ms; server memory: warm {warm:.0f} MiB, peak {peak[0]:.0f} MiB "
          f"(+{grown:.0f}); load average {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f} after")
    print(f"checks: 5xx {fives} ({'ok' if fives == 0 else 'OVER'}), transport errors {errors}, "
          f"first moves under 1 s {'ok' if slowest < 1 else 'OVER'}, "
          f"memory within 100 MB {'ok' if grown < 100 else 'OVER'}")
    return {"requests": total, "statuses": dict(stats.statuses), "server_errors": fives, "transport_errors": errors,
            "slowest_first_move_s": slowest, "warm_mib": warm, "peak_mib": peak[0],
            "load_before": load_before, "load_after": load_after}


if __name__ == "__main__":
    main()

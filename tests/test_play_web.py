"""The play web app's JSON API (Starlette's test client): games, bad requests, expiry, hidden cards."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from starlette.testclient import TestClient

import agents
from envs.gostop import cards as C
from envs.registration import GAMES, game_spec
from frontends.cli import build_parser
from frontends.play.guard import allowed_hosts
from frontends.play.session import Session
from frontends.play.web import create_app
from tests.play_pages import serving

ROOT = Path(__file__).resolve().parent.parent

CARD_KEYS = {"hand", "layout", "captured", "played", "flipped", "card"}

pytestmark = [pytest.mark.slow, pytest.mark.integration]


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


BASE = "http://127.0.0.1:8000"


@pytest.fixture
def client():
    return TestClient(create_app(max_games=3, expire_s=60.0, clock=Clock()), base_url=BASE)


def new_game(client, game="gostop", **body):
    r = client.post("/api/games", json={"game": game, "bots": [game_spec(game).test_bot], **body})
    assert r.status_code == 201, r.text
    return r.json()


def test_the_page_and_its_files_are_served_without_outside_links(client):
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for path in ("/static/app.js", "/static/style.css"):
        r = client.get(path)
        assert r.status_code == 200 and "http://" not in r.text and "https://" not in r.text
    assert "http" not in page.text.replace('href="/static', "")


def test_catalog_lists_every_bot_of_each_game(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert list(games) == list(GAMES) and set(games) >= {"yacht", "rainbow_dice", "gostop"}
    for name, g in games.items():
        spec = game_spec(name)
        assert [b["name"] for b in g["bots"]] == agents.available(name)
        assert g["default_bot"] == spec.default_bot in agents.available(name)
        assert (g["title"], g["summary"], g["score_label"], g["board"]) == (
            spec.title, spec.summary, spec.score_label, spec.board)
    assert (games["gostop"]["min_seats"], games["gostop"]["max_seats"]) == (2, 2)
    assert len(games["gostop"]["reference"]["cards"]) == 48
    assert games["gostop"]["reference"]["cards"][8]["label"] == "Mar ★ bright"
    assert len(games["rainbow_dice"]["reference"]["hands"]) == 30


@pytest.mark.parametrize("game", ["yacht", "rainbow_dice", "gostop"])
def test_a_whole_game_through_the_api(client, game):
    g = new_game(client, game, seed=4, seat=1)
    assert g["seat"] == 1 and [p["human"] for p in g["players"]] == [False, True]
    while not g["over"]:
        assert g["your_turn"] and g["moves"]
        r = client.post(f"/api/games/{g['id']}/moves", json={"action": g["moves"][-1]["id"]})
        assert r.status_code == 200, r.text
        g = r.json()
    assert g["moves"] == [] and [s["seat"] for s in g["standings"]] == [0, 1]
    nagari = game == "gostop" and g["view"]["result"]["winner"] is None
    assert any(s["winner"] for s in g["standings"]) != nagari
    assert client.get(f"/api/games/{g['id']}").json() == g
    r = client.post(f"/api/games/{g['id']}/moves", json={"action": 0})
    assert r.status_code == 409 and "over" in r.json()["error"]


def test_ids_are_unguessable_and_games_are_separate(client):
    a, b = new_game(client, seed=1), new_game(client, seed=1)
    assert a["id"] != b["id"] and len(a["id"]) >= 20
    client.post(f"/api/games/{a['id']}/moves", json={"action": a["moves"][0]["id"]})
    assert client.get(f"/api/games/{b['id']}").json() == b


BAD_MOVES = [
    (b"{", 400, "malformed JSON"),
    (b"\xff\xfe", 400, "malformed JSON"),
    (b"[1]", 400, "must be a JSON object"),
    (b"", 400, "must be a JSON object"),
    (b'{"action": "3"}', 400, "action must be an integer"),
    (b'{"action": 2.0}', 400, "action must be an integer"),
    (b'{"action": true}', 400, "action must be an integer"),
    (b'{"action": null}', 400, "action must be an integer"),
    (b'{}', 400, "missing field"),
    (b'{"action": 1, "x": 2}', 400, "unknown field"),
    (b'{"action": -1}', 409, "out of range"),
    (b'{"action": 98}', 409, "out of range"),
    (b'{"action": 123456789012345678901234567890}', 409, "out of range"),
    (b'{"action": 96}', 409, "illegal action 96"),
    (b'{"action": 1e999}', 400, "action must be an integer"),
    (b'{"action": 0}' + b" " * 20000, 413, "over 16384 bytes"),
]


@pytest.mark.parametrize("body, status, message", BAD_MOVES)
def test_bad_moves_are_refused_and_change_nothing(client, body, status, message):
    g = new_game(client, seed=2)
    r = client.post(f"/api/games/{g['id']}/moves", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status and message in r.json()["error"], r.text
    assert client.get(f"/api/games/{g['id']}").json() == g


def test_illegal_card_is_refused_with_the_legal_moves(client):
    g = new_game(client, seed=2)
    not_mine = next(c for c in range(48) if c not in g["view"]["hand"])
    r = client.post(f"/api/games/{g['id']}/moves", json={"action": not_mine})
    assert r.status_code == 409 and "legal actions" in r.json()["error"]
    assert client.get(f"/api/games/{g['id']}").json() == g


BAD_NEW_GAMES = [
    ({"game": "chess"}, "unknown game"),
    ({"bots": ["random"]}, "missing field"),
    ({"game": 3}, "game must be a string"),
    ({"game": "yacht", "bots": "random"}, "bots must be a list of strings"),
    ({"game": "yacht", "bots": [1]}, "bots must be a list of strings"),
    ({"game": "yacht", "bots": ["gostop-greedy"]}, "unknown bot 'gostop-greedy' for yacht"),
    ({"game": "yacht", "bots": ["random"] * 4}, "takes 0..3 bot(s)"),
    ({"game": "gostop", "bots": []}, "takes 1 bot(s)"),
    ({"game": "yacht", "seat": 2}, "seat must be an int in 0..1"),
    ({"game": "yacht", "seat": "0"}, "seat must be an integer"),
    ({"game": "yacht", "seed": 1.5}, "seed must be an int"),
    ({"game": "yacht", "seed": True}, "seed must be an int"),
    ({"game": "yacht", "seed": "1e5"}, "seed must be an int"),
    ({"game": "yacht", "seed": "\u00b2"}, "seed must be an int"),
    ({"game": "yacht", "seed": ""}, "seed must be an int"),
    ({"game": "yacht", "seed": "1" * 41}, "seed must be an int"),
    ({"game": "yacht", "seed": [1]}, "seed must be an integer or a string"),
    ({"game": "yacht", "colour": "red"}, "unknown field"),
]


@pytest.mark.parametrize("body, message", BAD_NEW_GAMES)
def test_bad_new_games_are_refused(client, body, message):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and message in r.json()["error"], r.text
    assert len(client.app.state.store) == 0


def test_unknown_ids_routes_and_methods(client):
    assert client.get("/api/games/nope").status_code == 404
    assert "no such game" in client.post("/api/games/nope/moves", json={"action": 1}).json()["error"]
    assert client.delete("/api/games/nope").status_code == 404
    assert client.get("/api/nothing").status_code == 404
    assert client.put("/api/games").status_code == 405 and "error" in client.put("/api/games").json()
    g = new_game(client)
    assert client.delete(f"/api/games/{g['id']}").status_code == 204
    assert client.get(f"/api/games/{g['id']}").status_code == 404


def test_live_game_limit_and_inactivity_expiry(client):
    clock = client.app.state.store.clock
    ids = [new_game(client, seed=s)["id"] for s in range(3)]
    r = client.post("/api/games", json={"game": "yacht"})
    assert r.status_code == 429 and "limit 3" in r.json()["error"]
    clock.now = 45.0
    assert client.get(f"/api/games/{ids[0]}").status_code == 200  # its clock restarts
    clock.now = 75.0  # the other two have been idle for 75 s > 60 s
    assert client.get(f"/api/games/{ids[1]}").status_code == 404
    assert client.get(f"/api/games/{ids[0]}").status_code == 200
    assert new_game(client)["id"]


def test_serve_binds_to_localhost_by_default():
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)


def _card_ids(node, key=None):
    """Every card id under a card-bearing key of a Go-Stop game's JSON."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _card_ids(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from _card_ids(v, key)
    elif isinstance(node, int) and not isinstance(node, bool) and key in CARD_KEYS:
        yield node


@pytest.mark.parametrize("seed", range(4))
def test_gostop_json_never_shows_the_other_hand_or_the_stock(client, seed):
    """At every step, compare the JSON with the server's true hidden state."""
    g = new_game(client, seed=seed, seat=seed % 2)
    store = client.app.state.store
    while True:
        state = store.get(g["id"]).session.state
        me = g["seat"]
        other_hand = set(C.ids_of(state.hands[0, 1 - me]))
        stock = [int(c) for c in state.stock[0, state.stock_top[0]:state.stock_end[0]]]
        assert set(_card_ids(g)).isdisjoint(other_hand | set(stock))
        assert g["view"]["hand"] == C.ids_of(state.hands[0, me])
        assert g["view"]["hand_sizes"][1 - me] == len(other_hand) and g["view"]["stock_size"] == len(stock)
        text = json.dumps(g)
        for word in ('"hands"', '"stock"', '"order"'):
            assert word not in text
        # The text view and the hint are drawn from the seat view the JSON carries, nothing else.
        session = store.get(g["id"]).session
        assert g["text"] == session.text.render(g["view"], None, session.names)
        assert g["hint"] == (None if g["over"] else session.text.hint(g["view"], g["moves"]))
        assert g["seed"] == str(seed)  # the person chose it
        if g["over"]:
            break
        g = client.post(f"/api/games/{g['id']}/moves", json={"action": g["moves"][0]["id"]}).json()


@pytest.mark.parametrize("game, bots, seat", [("rainbow_dice", [], 0), ("yacht", ["random"] * 3, 3)])
def test_solitaire_and_four_seats(client, game, bots, seat):
    g = client.post("/api/games", json={"game": game, "bots": bots, "seat": seat, "seed": 9}).json()
    assert len(g["players"]) == len(bots) + 1 and g["players"][seat]["human"]
    while not g["over"]:
        g = client.post(f"/api/games/{g['id']}/moves", json={"action": g["moves"][-1]["id"]}).json()
    assert [s["seat"] for s in g["standings"]] == list(range(len(bots) + 1))
    assert any(s["winner"] for s in g["standings"])


# ------------------------------------------------------------------ seeds
def test_a_seed_beyond_2_53_is_exact_as_a_string_and_replays_the_game(client):
    big = "9007199254740993"  # 2**53 + 1: a JavaScript number would make it ...992
    a = new_game(client, "gostop", seed=big)
    assert a["seed"] == big
    client.delete(f"/api/games/{a['id']}")
    b = new_game(client, "gostop", seed=int(big))
    assert b["view"] == a["view"] and b["seed"] == big


def test_seed_strings_follow_the_one_seed_rule(client):
    a = new_game(client, "yacht", seed="-1")
    assert a["seed"] == str(2**64 - 1)  # the seed that replays it
    b = new_game(client, "yacht", seed=str(2**64 - 1))
    assert b["view"] == a["view"]


def play_out(client, g):
    while not g["over"]:
        assert g["seed"] is None or g["seed"].isdigit()
        g = client.post(f"/api/games/{g['id']}/moves", json={"action": g["moves"][-1]["id"]}).json()
    return g


def test_an_unchosen_seed_is_shown_only_when_the_game_is_over(client):
    g = new_game(client, "yacht")
    assert g["seed"] is None  # it would tell the dice to come
    g = client.post(f"/api/games/{g['id']}/moves", json={"action": g["moves"][-1]["id"]}).json()
    assert g["seed"] is None
    g = play_out(client, g)
    assert g["seed"].isdigit()
    replay = play_out(client, new_game(client, "yacht", seed=g["seed"]))
    assert [e["text"] for e in replay["log"]] == [e["text"] for e in g["log"]]
    assert replay["standings"] == g["standings"]


# ------------------------------------------------------------------ parsing bounds
DEEP = [
    (b"[" * 1100 + b"]" * 1100, "nested too deeply"),
    (b'{"action": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested too deeply"),
    (b'{"action": ' + b"[" * 900 + b"]" * 900 + b"}", "action must be an integer, got a list"),
    (b'{"action": {"a": ' * 400 + b"1" + b"}" * 801, "malformed JSON"),
]


@pytest.mark.parametrize("body, message", DEEP)
def test_deep_json_is_a_400_not_a_500(client, body, message):
    g = new_game(client, seed=2)
    for path in (f"/api/games/{g['id']}/moves", "/api/games"):
        r = client.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "error" in r.json(), (path, r.status_code, r.text[:200])
    r = client.post(f"/api/games/{g['id']}/moves", content=body, headers={"content-type": "application/json"})
    assert message in r.json()["error"]
    assert client.get(f"/api/games/{g['id']}").json() == g


def test_a_chunked_body_over_the_limit_is_refused(client):
    g = new_game(client, seed=2)
    chunks = iter([b'{"action": 0' + b" " * 4000] + [b" " * 4096] * 10 + [b"}"])
    r = client.post(f"/api/games/{g['id']}/moves", content=chunks, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "over 16384 bytes" in r.json()["error"]
    assert r.headers["connection"] == "close"


# ------------------------------------------------------------------ hostile pages
def test_posts_must_be_json(client):
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {} if kind is None else {"content-type": kind}
        r = client.post("/api/games", content=b'{"game": "yacht"}', headers=headers)
        assert r.status_code == 415 and "application/json" in r.json()["error"], kind
    g = new_game(client, seed=1)
    r = client.post(f"/api/games/{g['id']}/moves", content=b'{"action": 0}', headers={"content-type": "text/plain"})
    assert r.status_code == 415
    assert len(client.app.state.store) == 1
    r = client.post("/api/games", content=b'{"game": "yacht"}', headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 201


def test_another_sites_page_is_refused(client):
    for origin in ("http://evil.example", "null", "http://127.0.0.1:9999", "https://localhost:8000"):
        r = client.post("/api/games", json={"game": "yacht"}, headers={"origin": origin})
        assert r.status_code == 403 and "another site" in r.json()["error"], origin
    g = new_game(client, seed=1)
    assert client.delete(f"/api/games/{g['id']}", headers={"origin": "http://evil.example"}).status_code == 403
    assert client.get(f"/api/games/{g['id']}", headers={"origin": "http://evil.example"}).status_code == 403
    assert len(client.app.state.store) == 1
    r = client.post("/api/games", json={"game": "yacht"}, headers={"origin": BASE})  # the page itself
    assert r.status_code == 201


def test_only_the_served_host_names_are_answered():
    app = create_app()
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", "192.168.1.5:8000"):
        r = TestClient(app, base_url=f"http://{host}").get("/api/games")
        assert r.status_code == 400 and "does not answer to the host" in r.json()["error"], host
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST"):
        assert TestClient(app, base_url=f"http://{host}").get("/api/games").status_code == 200, host
    served = create_app(hosts=allowed_hosts("play.lan"))
    assert TestClient(served, base_url="http://play.lan:8000").get("/").status_code == 200
    assert TestClient(served, base_url="http://evil.example:8000").get("/").status_code == 400
    anywhere = create_app(hosts=allowed_hosts("0.0.0.0"), any_ip=True)
    assert TestClient(anywhere, base_url="http://192.168.1.5:8000").get("/").status_code == 200
    assert TestClient(anywhere, base_url="http://evil.example:8000").get("/").status_code == 400


# ------------------------------------------------------------------ leaving
def test_a_left_game_frees_its_slot():
    client = TestClient(create_app(max_games=1), base_url=BASE)
    g = new_game(client, seed=1)
    assert client.post("/api/games", json={"game": "yacht"}).status_code == 429
    assert client.delete(f"/api/games/{g['id']}").status_code == 204
    assert new_game(client, seed=1)["id"] != g["id"]


# ------------------------------------------------------------------ on a real socket (uvicorn)
def call(base, method, path, body=None, headers=None, timeout=30.0):
    """(status, headers, JSON or None) of one request to the server at ``base``."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    data = None if body is None else json.dumps(body).encode()
    hdrs = {"content-type": "application/json", **(headers or {})} if data is not None else dict(headers or {})
    try:
        conn.request(method, path, body=data, headers=hdrs)
        r = conn.getresponse()
        raw = r.read()
        kind = r.getheader("content-type") or ""
        return r.status, dict(r.getheaders()), json.loads(raw) if raw and "json" in kind else None
    finally:
        conn.close()


def raw_exchange(base, head: bytes, send_body=None, timeout=20.0):
    """Send ``head`` (request line and headers) on a fresh socket, then ``send_body(sock)`` in a
    thread; return (the bytes the server answered until it closed, bytes of body sent)."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=timeout)
    sent = [0]

    def pump():
        try:
            send_body(sock, sent)
        except OSError:  # the server closed the connection: what a refusal should do
            pass

    sock.sendall(head)
    thread = threading.Thread(target=pump, daemon=True) if send_body else None
    if thread:
        thread.start()
    answer = b""
    try:
        while chunk := sock.recv(65536):
            answer += chunk
    except (ConnectionResetError, socket.timeout):
        pass
    finally:
        sock.close()
    if thread:
        thread.join(timeout)
    return answer, sent[0]


def rss_mb() -> float:
    from benchmarks.play_load import rss_mb as of_process

    return of_process(os.getpid())


def test_a_huge_content_length_is_refused_before_any_body_is_read():
    with serving(create_app()) as base:
        head = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 262144000\r\n\r\n")
        answer, _ = raw_exchange(base, head)  # no body is ever sent: the answer must not wait for it
    assert answer.startswith(b"HTTP/1.1 413") and b"over 16384 bytes" in answer
    assert b"connection: close" in answer.lower()


def test_a_chunked_body_is_read_only_up_to_the_limit():
    def endless(sock, sent):
        chunk = b"10000\r\n" + b" " * 0x10000 + b"\r\n"
        while sent[0] < 250 * 2**20:
            sock.sendall(chunk)
            sent[0] += len(chunk)

    with serving(create_app()) as base:
        before = rss_mb()
        head = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n")
        answer, sent = raw_exchange(base, head, endless)
        grown = rss_mb() - before
    assert answer.startswith(b"HTTP/1.1 413") and b"over 16384 bytes" in answer
    assert sent < 64 * 2**20, f"the server read on after refusing: {sent} bytes sent"
    assert grown < 50, f"memory grew by {grown:.0f} MB"


def test_a_body_that_never_comes_times_out():
    with serving(create_app(body_timeout_s=0.5)) as base:
        head = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{\"game\": ")
        answer, _ = raw_exchange(base, head)
        assert call(base, "GET", "/api/games")[0] == 200  # and the server goes on
    assert answer.startswith(b"HTTP/1.1 408") and b"did not arrive within 0.5 s" in answer


def test_bot_work_is_bounded_and_never_holds_up_reading(monkeypatch):
    app = create_app(workers=1, max_pending=1)
    with serving(app) as base:
        a = call(base, "POST", "/api/games", {"game": "yacht", "bots": ["random"], "seed": 1})[2]
        b = call(base, "POST", "/api/games", {"game": "yacht", "bots": ["random"], "seed": 2})[2]
        release, original = threading.Event(), Session.play

        def slow_play(self, action):
            release.wait(60)
            return original(self, action)

        monkeypatch.setattr(Session, "play", slow_play)
        results = []
        mover = threading.Thread(target=lambda: results.append(
            call(base, "POST", f"/api/games/{a['id']}/moves", {"action": a["moves"][-1]["id"]}, timeout=90)))
        mover.start()
        for _ in range(500):
            if app.state.pool.pending == 1:
                break
            time.sleep(0.01)
        assert app.state.pool.pending == 1
        # Reading a game, the page's files and the catalog do not wait for the bot thread.
        for path in (f"/api/games/{a['id']}", f"/api/games/{b['id']}", "/static/style.css", "/", "/api/games"):
            assert call(base, "GET", path)[0] == 200, path
        assert mover.is_alive()
        # One move in flight per game.
        status, _, data = call(base, "POST", f"/api/games/{a['id']}/moves", {"action": a["moves"][0]["id"]})
        assert status == 409 and "still being played" in data["error"]
        # The pool is full: another game's move, and a new game, get 503 with Retry-After.
        for path, body in ((f"/api/games/{b['id']}/moves", {"action": b["moves"][-1]["id"]}),
                           ("/api/games", {"game": "yacht"})):
            status, headers, data = call(base, "POST", path, body)
            assert status == 503 and int(headers["retry-after"]) >= 1 and "busy" in data["error"], path
        release.set()
        mover.join(60)
        assert results[0][0] == 200 and len(results[0][2]["log"]) > len(a["log"])
        assert call(base, "POST", f"/api/games/{b['id']}/moves", {"action": b["moves"][-1]["id"]})[0] == 200
        assert call(base, "GET", f"/api/games/{b['id']}")[2]["log"] != b["log"]


COLD_START = """
import json, sys, threading
from envs.rainbow_dice import turn_dp
builds = []
original = turn_dp.reach_probabilities
turn_dp.reach_probabilities = lambda: builds.append(1) or original()
from tests.play_pages import serving
from tests.test_play_web import call
from frontends.play.web import create_app, warm_all
if sys.argv[1] == "warm":
    warm_all()
statuses = []
with serving(create_app()) as base:
    body = {"game": "rainbow_dice", "bots": ["rainbow-greedy"], "seat": 1}
    threads = [threading.Thread(target=lambda: statuses.append(call(base, "POST", "/api/games", body, timeout=300)[0]))
               for _ in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
print(json.dumps({"statuses": statuses, "builds": len(builds)}))
"""


@pytest.mark.parametrize("start", ["cold", "warm"])
def test_eight_first_games_build_the_bot_tables_once(start):
    """8 simultaneous first rainbow-greedy games, in a fresh process: one build of the reach
    table (on the first game, or before the server starts with ``warm_all``)."""
    out = subprocess.run([sys.executable, "-c", COLD_START, start], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])},
                         cwd=ROOT)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result == {"statuses": [201] * 8, "builds": 1}


@pytest.mark.soak
def test_a_short_load_on_loopback_has_no_server_errors_and_flat_memory():
    """``benchmarks/play_load.py`` at a small size (its full size is a manual run)."""
    from benchmarks.play_load import main

    figures = main(["--clients", "4", "--seconds", "10", "--cold", "2"])
    assert figures["server_errors"] == 0 and figures["transport_errors"] == 0
    assert figures["peak_mib"] - figures["warm_mib"] < 100


def test_a_damaged_user_bot_is_reported_at_warm_up_and_refused(monkeypatch, tmp_path):
    from frontends.play.web import warm_all

    monkeypatch.setenv("MADANG_HOME", str(tmp_path))
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "broken.json").write_text(json.dumps({"game": "yacht", "description": "damaged"}))
    (tmp_path / "bots" / "broken.pt").write_bytes(b"not a torch file")
    warnings = []
    warm_all(warn=warnings.append)
    assert warnings and all("the bot 'broken' cannot play" in w for w in warnings)
    assert any("cannot play yacht" in w for w in warnings)
    client = TestClient(create_app(), base_url=BASE)
    r = client.post("/api/games", json={"game": "yacht", "bots": ["broken"]})
    assert r.status_code == 400 and "broken" in r.json()["error"]


class _IllegalBot:
    """An operator's bot that always answers an illegal action (the first action)."""

    name = "broken"
    game = None

    def act(self, obs, mask, rng):
        return np.array([int(np.flatnonzero(~m)[0]) for m in mask], dtype=np.int64)


def test_a_bot_that_answers_an_illegal_move_is_a_4xx_not_a_500():
    app = create_app(extra_bots={"broken": _IllegalBot()})
    client = TestClient(app, base_url=BASE, raise_server_exceptions=False)
    # the bot moves first (the person takes seat 1): the game cannot start
    r = client.post("/api/games", json={"game": "yacht", "bots": ["broken"], "seat": 1})
    assert r.status_code == 400, r.text
    assert "broken" in r.json()["error"] and "illegal" in r.json()["error"]
    # the person moves first: once the bot must answer, the move is refused (409) and nothing changes
    g = client.post("/api/games", json={"game": "yacht", "bots": ["broken"], "seat": 0}).json()
    while True:
        r = client.post(f"/api/games/{g['id']}/moves", json={"action": g["moves"][-1]["id"]})
        if r.status_code != 200:
            break
        g = r.json()
    assert r.status_code == 409, r.text
    assert "broken" in r.json()["error"] and "illegal" in r.json()["error"]
    assert client.get(f"/api/games/{g['id']}").json() == g

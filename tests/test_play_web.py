"""The play web app's JSON API (Starlette's test client): games, bad requests, expiry, hidden cards."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

import agents
from envs.gostop import cards as C
from training.cli import build_parser
from training.play.web import create_app

QUICK_BOT = {"yacht": "yacht-greedy", "rainbow_dice": "rainbow-simple", "gostop": "gostop-greedy"}
CARD_KEYS = {"hand", "layout", "captured", "played", "flipped", "card"}


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def client():
    return TestClient(create_app(max_games=3, expire_s=60.0, clock=Clock()))


def new_game(client, game="gostop", **body):
    r = client.post("/api/games", json={"game": game, "bots": [QUICK_BOT[game]], **body})
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
    assert list(games) == ["yacht", "rainbow_dice", "gostop"]
    for name, g in games.items():
        assert [b["name"] for b in g["bots"]] == agents.available(name)
        assert g["default_bot"] in agents.available(name)
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
        for word in ('"hands"', '"stock"', '"seed"', '"order"'):
            assert word not in text
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

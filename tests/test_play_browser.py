"""The play page in headless Chromium: a whole game of each title against a bot, by clicking
moves, and what the page must show or do (leaving, keyboard, seeds, each game's aids)."""

from __future__ import annotations

import re

import pytest

from tests.play_pages import (
    api, body_data, click_move, drive, full_page_screenshot, in_view, open_game, play_to_end, serving, start_game,
    wait_idle,
)
from envs.registration import game_spec
from frontends.play.web import create_app

APP = create_app()

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.integration]


@pytest.fixture(scope="module")
def base_url():
    with serving(APP) as url:
        yield url


def live_games() -> int:
    return len(APP.state.store)


def wait_for(browser, condition, timeout: float = 60.0):
    from selenium.webdriver.support.ui import WebDriverWait  # selenium only where a browser runs

    return WebDriverWait(browser, timeout).until(condition)


def standings(browser):
    rows = browser.find_elements("css selector", "table.standings tbody tr")
    return [r.text for r in rows], [r for r in rows if "winner" in r.get_attribute("class")]


@pytest.mark.parametrize("game", ["yacht", "rainbow_dice", "gostop"])
def test_play_a_whole_game_in_the_browser(browser, base_url, game, tmp_path):
    bot = game_spec(game).test_bot
    start_game(browser, base_url, game, [bot], seed=1)
    assert "Your turn" in browser.find_element("id", "status").text
    clicks = play_to_end(browser, game)
    assert body_data(browser, "over") == "1" and clicks >= 10
    rows, winners = standings(browser)
    assert len(rows) == 2 and any(bot in r for r in rows) and any("you" in r for r in rows)
    if game == "gostop":
        result = browser.find_element("id", "result").text
        assert "stopped" in result or "last card ended the deal" in result or "Nagari" in result
    else:
        assert len(winners) >= 1
    assert in_view(browser, "#result"), "the result must be scrolled into view"
    assert browser.find_element("id", "seed-shown").text == "seed 1"
    assert browser.find_element("id", "replay").text == "Replay seed 1"
    log = browser.find_element("id", "log").text
    assert "You: " in log and "you plays" not in log.lower() and not re.search(r"\b1 (tokens|points)\b", log)
    shot = tmp_path / f"play-{game}.png"
    full_page_screenshot(browser, shot)
    assert shot.stat().st_size > 10_000


def test_yacht_hold_dice_then_roll(browser, base_url):
    start_game(browser, base_url, "yacht", ["random"], seed=2)
    dice = browser.find_elements("css selector", ".die[role=button]")
    held = sorted(int(d.get_attribute("data-value")) for d in dice[:2])
    for k in (0, 1):  # each click redraws the board
        browser.find_elements("css selector", ".die[role=button]")[k].click()
    assert len(browser.find_elements("css selector", ".die.held")) == 2
    roll = browser.find_element("css selector", "button.move[data-kind=reroll]")
    assert roll.text.startswith("Roll 3 dice")
    before = body_data(browser, "moves")
    roll.click()
    wait_idle(browser, before)
    values = [int(d.get_attribute("data-value")) for d in browser.find_elements("css selector", ".die")]
    for v in held:
        values.remove(v)  # the held dice are still there
    assert "1 left" in browser.find_element("css selector", "button.move[data-kind=reroll]").text


def test_a_refused_move_shows_its_reason(browser, base_url):
    start_game(browser, base_url, "gostop", ["gostop-greedy"], seed=3)
    # Send a move the server refuses (the page itself only offers legal ones).
    browser.execute_script("send(96);")
    wait_idle(browser)
    assert "illegal action 96" in browser.find_element("id", "move-error").text
    assert browser.find_elements("css selector", "button.move[data-kind=play]")


# ------------------------------------------------------------------ leaving
def test_leave_deletes_the_game_and_new_game_replaces_it(browser, base_url):
    start_game(browser, base_url, "yacht", ["random"], seed=5)
    before = live_games()
    first = browser.execute_script("return ui.game.id;")
    browser.find_element("id", "new-game").click()
    wait_for(browser, lambda d: d.execute_script("return ui.game && ui.game.id;") not in (None, first))
    wait_idle(browser)
    assert live_games() == before  # the old one was deleted, a new one made
    assert browser.find_element("id", "seed-shown").text == "seed: shown at the end"  # a fresh deal
    browser.find_element("id", "leave").click()
    wait_for(browser, lambda d: d.find_element("id", "setup").is_displayed())
    assert live_games() == before - 1
    assert browser.find_element("id", "setup").is_displayed() and not browser.find_element("id", "play").is_displayed()


def test_a_game_gone_from_the_server_offers_a_new_one(browser, base_url):
    start_game(browser, base_url, "gostop", ["gostop-greedy"], seed=3)
    gid = browser.execute_script("return ui.game.id;")
    api(base_url, "DELETE", f"/api/games/{gid}")  # as an expiry would
    browser.find_element("css selector", "button.move[data-kind=play]").click()
    wait_idle(browser)
    assert "no such game" in browser.find_element("id", "move-error").text
    browser.find_element("id", "restart").click()
    wait_for(browser, lambda d: d.find_element("id", "setup").is_displayed())


# ------------------------------------------------------------------ keyboard and seeds
def test_enter_and_space_hold_the_dice(browser, base_url):
    from selenium.webdriver.common.keys import Keys

    start_game(browser, base_url, "yacht", ["random"], seed=2)
    first = browser.find_elements("css selector", ".die[role=button]")[0]
    first.send_keys(Keys.ENTER)
    assert browser.execute_script("return document.activeElement.dataset.index;") == "0"  # focus kept
    browser.switch_to.active_element.send_keys(Keys.TAB)
    browser.switch_to.active_element.send_keys(Keys.SPACE)
    held = browser.find_elements("css selector", ".die.held")
    assert [d.get_attribute("data-index") for d in held] == ["0", "1"]
    assert [d.get_attribute("aria-pressed") for d in browser.find_elements("css selector", ".die[role=button]")] == \
        ["true", "true", "false", "false", "false"]
    assert browser.find_element("css selector", "button.move[data-kind=reroll]").text.startswith("Roll 3 dice")
    browser.switch_to.active_element.send_keys(Keys.ENTER)  # and again: released
    assert len(browser.find_elements("css selector", ".die.held")) == 1


def test_a_large_seed_is_sent_exactly_and_shown(browser, base_url):
    big = "9007199254740993"  # 2**53 + 1
    start_game(browser, base_url, "gostop", ["gostop-greedy"], seed=int(big))
    assert browser.find_element("id", "seed-shown").text == f"seed {big}"
    gid = browser.execute_script("return ui.game.id;")
    assert APP.state.store.get(gid).session.seed == int(big)
    start_game(browser, base_url, "gostop", ["gostop-greedy"])
    assert browser.find_element("id", "seed-shown").text == "seed: shown at the end"


# ------------------------------------------------------------------ Go-Stop
def first_move(g):
    return g["moves"][0]["id"]


def test_gostop_hand_cards_that_match_the_table_are_marked(browser, base_url):
    start_game(browser, base_url, "gostop", ["gostop-greedy"], seed=4)
    view = browser.execute_script("return ui.game.view;")
    months = {c // 4 for c in view["layout"]}
    hand = browser.find_elements("css selector", ".hand .card")
    assert len(hand) == len(view["hand"])
    for el in hand:
        c = int(el.get_attribute("data-card"))
        assert ("matches" in el.get_attribute("class")) == (c // 4 in months), c
    assert any("matches" in el.get_attribute("class") for el in hand)


def test_gostop_piles_show_the_cup_and_the_thresholds(browser, base_url):
    g = drive(base_url, {"game": "gostop", "bots": ["gostop-greedy"], "seed": 0}, first_move,
              lambda g: any(t["cup"] for t in g["view"]["tallies"]))
    open_game(browser, base_url, g["id"])
    s = next(s for s, t in enumerate(g["view"]["tallies"]) if t["cup"])
    t = g["view"]["tallies"][s]
    side = browser.find_element("css selector", ".side.me" if s == g["seat"] else ".side.opp")
    cup_group = side.find_element("css selector", ".card[data-card='32']").find_element(
        "xpath", "ancestor::div[contains(@class, 'cap-group')]").get_attribute("data-group")
    assert cup_group == ("junk" if t["cup"] == "junk" else "animals")
    note = side.find_element("css selector", ".cup-note").text
    assert note == ("sake cup: counts as 2 junk now" if t["cup"] == "junk" else "sake cup: counts as an animal now")
    labels = {e.get_attribute("data-group"): e.find_element("css selector", ".label").text
              for e in side.find_elements("css selector", ".cap-group")}
    assert labels["brights"] == f"BRIGHTS {t['brights']}/3"
    assert labels["animals"].startswith(f"ANIMALS {t['animals']}/5 · MEONG-BAK")
    assert labels["ribbons"] == f"RIBBONS {t['ribbons']}/5"
    assert labels["junk"] == f"JUNK {t['junk']}/10 UNITS"


def test_gostop_says_1_point(browser, base_url):
    g = drive(base_url, {"game": "gostop", "bots": ["gostop-greedy"], "seed": 3}, first_move,
              lambda g: 1 in g["view"]["scores"])
    open_game(browser, base_url, g["id"])
    scores = [e.text for e in browser.find_elements("css selector", ".side-head .score")]
    assert "1 point" in scores and "1 points" not in browser.find_element("tag name", "body").text


def test_gostop_says_when_the_last_card_ended_the_deal(browser, base_url):
    def always_go(g):
        ids = [m["id"] for m in g["moves"]]
        return 96 if 96 in ids else ids[0]

    g = drive(base_url, {"game": "gostop", "bots": ["gostop-greedy"], "seed": 0}, always_go, lambda g: g["over"])
    assert g["view"]["result"]["last_card"]
    open_game(browser, base_url, g["id"])
    result = browser.find_element("id", "result").text
    assert "won when the last card ended the deal" in result and "stopped" not in result
    assert "gostop-greedy" in result or "You" in result


# ------------------------------------------------------------------ Rainbow Dice
def buy_or_take(g):
    """Buy the hand held most (a second copy earns a duplicate bonus), else take tokens."""
    held = g["view"]["cards"][g["seat"]]
    buys = [m for m in g["moves"] if m["kind"] == "buy"]
    if buys:
        return max(buys, key=lambda m: (held[m["hand"]], -m["hand"]))["id"]
    take = [m for m in g["moves"] if m["kind"] in ("take", "decline")]
    return (take or g["moves"])[0]["id"]


def rainbow_with_a_bonus(base_url):
    return drive(base_url, {"game": "rainbow_dice", "bots": ["random"], "seed": 6}, buy_or_take,
                 lambda g: any(m.get("duplicate_bonus") for m in g["moves"]))


def test_rainbow_players_table_lines_up(browser, base_url):
    g = rainbow_with_a_bonus(base_url)  # by now the players hold cards
    open_game(browser, base_url, g["id"])
    rows = browser.find_elements("css selector", "table.players tr")
    assert len(rows) == 3 and browser.find_elements("css selector", "table.players .chip")
    for row in rows:
        cells = row.find_elements("css selector", "th, td")
        assert [c.value_of_css_property("display") for c in cells] == ["table-cell"] * 4
        tops = {round(c.rect["y"]) for c in cells}
        heights = {round(c.rect["height"]) for c in cells}
        assert len(tops) == 1 and len(heights) == 1, (row.text, tops, heights)
    # Each column's heading sits over its cells: names and cards on the left, numbers on the right.
    columns = [[r.find_elements("css selector", "th, td")[k] for r in rows] for k in range(4)]
    for k, column in enumerate(columns):
        assert {c.value_of_css_property("text-align") for c in column} == {"right" if k in (1, 2) else "left"}, k


def test_rainbow_buys_explain_a_duplicate_bonus(browser, base_url):
    g = rainbow_with_a_bonus(base_url)
    m = next(m for m in g["moves"] if m.get("duplicate_bonus"))
    open_game(browser, base_url, g["id"])
    card = browser.find_element("css selector", f".hand-card[data-hand='{m['hand']}']")
    assert card.find_element("css selector", "button.buy").text == f"buy (+{m['points']})"
    note = card.find_element("css selector", ".bonus-note").text
    assert note.startswith(f"+{m['points']} = card {m['card_points']} + duplicate bonus {m['duplicate_bonus']}")


def test_rainbow_hand_rules_open_on_a_tap(browser, base_url):
    start_game(browser, base_url, "rainbow_dice", ["rainbow-simple"], seed=1)
    rules = browser.execute_script("return gameInfo('rainbow_dice').reference.hands.map((h) => h.text);")
    assert not browser.find_elements("css selector", ".hand-rule")
    for k in (0, 29):
        browser.find_element("css selector", f".hand-card[data-hand='{k}'] .rule-toggle").click()
        shown = browser.find_element("css selector", f".hand-card[data-hand='{k}'] .hand-rule")
        assert shown.is_displayed() and shown.text.startswith(rules[k])
        assert len(browser.find_elements("css selector", ".hand-rule")) == 1  # one at a time
    browser.find_element("css selector", ".hand-card[data-hand='29'] .rule-toggle").click()
    assert not browser.find_elements("css selector", ".hand-rule")


def test_rainbow_result_is_scrolled_into_view(browser, base_url):
    start_game(browser, base_url, "rainbow_dice", ["rainbow-simple"], seed=8)
    while body_data(browser, "over") != "1":  # a player reading the market, down the page
        browser.execute_script("window.scrollTo(0, document.body.scrollHeight);")
        click_move(browser, "rainbow_dice")
    assert in_view(browser, "#result")


def test_a_game_without_a_board_of_its_own_plays_on_the_generic_board(browser, pig):
    """Pig (registered by the ``pig`` fixture, with no ``board`` in its descriptor): the page
    lists it from the server's catalog and draws the seat view's text with a button per move."""
    with serving(create_app()) as url:  # built after Pig's registration, so it serves Pig
        start_game(browser, url, "pig", [pig.default_bot], seed=1)
        assert "Pig" in browser.find_element("id", "games-line").text
        assert browser.find_element("css selector", "#board pre.text-view").text.startswith("Pig to 30:")
        assert "Your turn: roll" in browser.find_element("id", "status").text
        assert [b.get_attribute("data-kind") for b in browser.find_elements("css selector", "#board button.move")] == ["roll"]
        clicks = play_to_end(browser, "pig")
        assert body_data(browser, "over") == "1" and clicks >= 1
        head = browser.find_elements("css selector", "table.standings th")
        assert [h.text for h in head][:3] == ["seat", "player", pig.score_label]
        rows, winners = standings(browser)
        assert len(rows) == 2 and len(winners) == 1 and any(pig.default_bot in r for r in rows)

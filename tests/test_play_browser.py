"""The play page in headless Chromium: a whole game of each title against a bot, by clicking moves."""

from __future__ import annotations

import pytest

from play_pages import body_data, full_page_screenshot, play_to_end, serving, start_game, wait_idle
from training.play.web import create_app

QUICK_BOTS = {"yacht": "yacht-greedy", "rainbow_dice": "rainbow-simple", "gostop": "gostop-greedy"}


@pytest.fixture(scope="module")
def base_url():
    with serving(create_app()) as url:
        yield url


def standings(browser):
    rows = browser.find_elements("css selector", "table.standings tbody tr")
    return [r.text for r in rows], [r for r in rows if "winner" in r.get_attribute("class")]


@pytest.mark.parametrize("game", ["yacht", "rainbow_dice", "gostop"])
def test_play_a_whole_game_in_the_browser(browser, base_url, game, tmp_path):
    start_game(browser, base_url, game, [QUICK_BOTS[game]], seed=1)
    assert "Your turn" in browser.find_element("id", "status").text
    clicks = play_to_end(browser, game)
    assert body_data(browser, "over") == "1" and clicks >= 10
    rows, winners = standings(browser)
    assert len(rows) == 2 and any(QUICK_BOTS[game] in r for r in rows) and any("you" in r for r in rows)
    if game == "gostop":
        result = browser.find_element("id", "result").text
        assert "stopped" in result or "Nagari" in result
    else:
        assert len(winners) >= 1
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

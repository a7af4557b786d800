"""Draw the README's screenshots of the play page: ``docs/play-<game>.png``, one per game.

Runs the web app on a free localhost port, plays a few moves of a seeded game against a bot
in headless Chromium (as the browser tests do) and saves the page mid-game, with the bot's
last moves highlighted::

    .venv/bin/python docs/make_screenshots.py

Needs Debian's ``chromium`` and ``chromium-driver`` (and ``fonts-nanum`` for the Korean month
names on the Go-Stop cards).
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))

from tests.browser import start_chrome  # noqa: E402
from tests.play_pages import click_move, full_page_screenshot, serving, start_game  # noqa: E402

from frontends.play.web import create_app  # noqa: E402

SHOTS = [
    # game, bots, seed, moves clicked before the picture
    ("yacht", ["yacht-solver"], 7, 5),
    ("rainbow_dice", ["rainbow-greedy"], 3, 6),
    ("gostop", ["gostop-greedy"], 11, 4),
]


def main() -> None:
    driver = start_chrome()
    try:
        with serving(create_app()) as base:
            for game, bots, seed, moves in SHOTS:
                start_game(driver, base, game, bots, seed=seed)
                for _ in range(moves):
                    click_move(driver, game)
                if game in ("yacht", "rainbow_dice"):  # show held dice
                    for k in (0, 1):
                        found = driver.find_elements("css selector", ".die[role=button]")
                        if len(found) > k:
                            found[k].click()
                path = DOCS / f"play-{game}.png"
                full_page_screenshot(driver, path)
                print(f"wrote {path}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()

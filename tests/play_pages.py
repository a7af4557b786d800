"""Drive madang's play page in a real browser: serve the app in a thread, start games, click moves.

Used by ``tests/test_play_browser.py`` and by ``docs/make_screenshots.py`` (which draws the
README's screenshots).  The page marks its state on ``<body>``: ``data-ready`` once loaded,
``data-busy`` while a request is out, ``data-moves`` (log length) and ``data-over``.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

CLICK_ORDER = {
    # What a quick test player clicks, first match wins (every game ends in a few dozen clicks);
    # a game not listed here (drawn on the generic board) clicks its first move button.
    "yacht": ["button.move[data-kind=score].score:not(.zero)", "button.move[data-kind=score]"],
    "rainbow_dice": ["button.move[data-kind=decline]", "button.move[data-kind=buy]",
                     "button.move[data-kind=take]"],
    "gostop": ["button.move[data-kind=stop]", "button.move[data-kind=choose]", "button.move[data-kind=play]"],
}


@contextlib.contextmanager
def serving(app):
    """Serve the ASGI ``app`` with uvicorn on a free localhost port in a thread; yield its base URL."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started or not thread.is_alive():
            break
        time.sleep(0.02)
    if not server.started:
        raise RuntimeError("the test server did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def body_data(driver, key: str) -> str:
    """The page's ``<body data-KEY>`` value."""
    return driver.execute_script(f"return document.body.dataset.{key} || '';")


def wait_idle(driver, moves_before: str | None = None, timeout: float = 30.0) -> None:
    """Wait until no request is out (and, with ``moves_before``, the move log has grown)."""
    from selenium.webdriver.support.ui import WebDriverWait

    def ready(d):
        if body_data(d, "busy") != "0":
            return False
        return moves_before is None or body_data(d, "moves") != moves_before or bool(
            d.find_elements("id", "move-error") and d.find_element("id", "move-error").text)

    WebDriverWait(driver, timeout).until(ready)


def start_game(driver, base: str, game: str, bots: list[str], seed: int | None = None) -> None:
    """Open the page, set up ``game`` against ``bots`` (in seat order after you) and start it."""
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver.get(base + "/")
    WebDriverWait(driver, 30).until(lambda d: body_data(d, "ready") == "1")
    driver.find_element("css selector", f"[data-game={game}]").click()
    while len(driver.find_elements("css selector", "select.bot")) < len(bots):
        driver.find_element("id", "add-bot").click()
    while len(driver.find_elements("css selector", "select.bot")) > len(bots):
        driver.find_element("css selector", ".bot-row button").click()
    for k, bot in enumerate(bots):
        Select(driver.find_elements("css selector", "select.bot")[k]).select_by_value(bot)
    if seed is not None:
        driver.find_element("id", "seed").send_keys(str(seed))
    driver.find_element("id", "start").click()
    WebDriverWait(driver, 60).until(lambda d: body_data(d, "game") == game and body_data(d, "busy") == "0")


def click_move(driver, game: str) -> str:
    """Click the first move button of ``CLICK_ORDER[game]`` on the page (any game's board's
    first move button for a game not listed); return its selector."""
    for selector in CLICK_ORDER.get(game, ["#board button.move"]):
        found = driver.find_elements("css selector", selector)
        if found:
            before = body_data(driver, "moves")
            found[0].click()
            wait_idle(driver, before)
            return selector
    raise AssertionError(f"no move button to click on the {game} page")


def play_to_end(driver, game: str, max_clicks: int = 300, stop_after: int | None = None) -> int:
    """Click moves until the game is over (or after ``stop_after`` clicks); return the clicks made."""
    clicks = 0
    while body_data(driver, "over") != "1" and clicks != stop_after:
        if clicks >= max_clicks:
            raise AssertionError(f"{game} did not end after {max_clicks} clicks")
        click_move(driver, game)
        error = driver.find_element("id", "move-error").text
        if error:
            raise AssertionError(f"the page reported an error: {error}")
        clicks += 1
    return clicks


def full_page_screenshot(driver, path) -> None:
    """Save a PNG of the whole page (the window is stretched to the page's height)."""
    height = driver.execute_script("return document.documentElement.scrollHeight;")
    driver.set_window_size(1280, max(900, min(int(height) + 40, 4000)))
    driver.execute_script("window.scrollTo(0, 0);")
    driver.save_screenshot(str(path))
    driver.set_window_size(1280, 900)


def api(base: str, method: str, path: str, body=None):
    """The JSON answer of one API request to the server at ``base`` (None for 204)."""
    import http.client
    import json

    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers={"content-type": "application/json"} if data else {})
        r = conn.getresponse()
        raw = r.read()
        if r.status >= 400:
            raise AssertionError(f"{method} {path}: {r.status} {raw[:300]!r}")
        return json.loads(raw) if raw else None
    finally:
        conn.close()


def drive(base: str, new_game: dict, pick, until, max_moves: int = 500) -> dict:
    """Start ``new_game`` through the API and make the moves ``pick(game) -> action`` until
    ``until(game)`` holds; return the game JSON at that point."""
    g = api(base, "POST", "/api/games", new_game)
    for _ in range(max_moves):
        if until(g):
            return g
        if g["over"]:
            raise AssertionError("the game ended before the wanted position")
        g = api(base, "POST", f"/api/games/{g['id']}/moves", {"action": pick(g)})
    raise AssertionError(f"no wanted position after {max_moves} moves")


def open_game(driver, base: str, gid: str) -> None:
    """Load the page on the live game ``gid`` (as a bookmark of it would)."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{base}/?open={gid}#g={gid}")  # the query makes it a new page load
    WebDriverWait(driver, 30).until(lambda d: body_data(d, "ready") == "1" and body_data(d, "game") != "")


def in_view(driver, selector: str) -> bool:
    """Whether the element's box lies inside the window (vertically)."""
    return driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return r.top >= 0 && r.top < window.innerHeight && r.height > 0;", selector)

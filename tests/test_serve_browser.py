"""``rulepack serve`` in real browsers: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by selenium, against a server on loopback.

- Two browsers play a whole game of Multzo against each other and a bot, by
  clicking: a tile in the picture, then the action it leaves (discard it face up or
  face down), or the one button there is (draw).
- Two browsers play Mismemory by clicking the cells of the board; after every step
  neither page shows the tile the other player kept (the picture shows its back, and
  the lines the story adds do not name it).
- A page reconnects by itself after the server is stopped and started again.

Marked ``browser`` and ``web``: run with ``python -m pytest -m web`` (needs the web and
browser extras and Chromium); skipped, with the reason, where they are missing.
"""

from __future__ import annotations

import random
import re
import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.web]

try:
    import uvicorn
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except (ImportError, OSError) as exc:
    pytest.skip(f"the web and browser extras are not installed: {exc}",
                allow_module_level=True)

from rulepack.engine.queries import visible  # noqa: E402
from rulepack.web.app import application  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def _browser() -> Any:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1100"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


@pytest.fixture(scope="module")
def browsers() -> Iterator[list[Any]]:
    if not CHROMIUM or not DRIVER:
        pytest.skip("no Chromium here (apt-get install chromium chromium-driver)")
    pair = [_browser(), _browser()]
    yield pair
    for b in pair:
        b.quit()


class Served:
    """The app on uvicorn in a thread of the test (so the test can read its tables)."""

    def __init__(self, data: Path, port: int = 0) -> None:
        self.app = application(data, bot_delay=0.05)
        self.port = port or _free_port()
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1",
                                                    port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def open_table(browser: Any, base: str, ruleset: str, seats: str) -> tuple[str, list[str]]:
    """Open a table from the lobby's form, in the browser: its id and the invitation
    links of its human seats."""
    browser.get(base + "/")
    Select(browser.find_element(By.NAME, "ruleset")).select_by_visible_text(ruleset)
    field = browser.find_element(By.NAME, "seats")
    field.clear()
    field.send_keys(seats)
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(browser, 20, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda b: b.current_url.endswith("/tables")
        and "Table " in b.find_element(By.TAG_NAME, "h1").text)
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "li a")]
    tid = re.search(r"/t/([^?]+)\?", links[0]).group(1)
    return tid, links


def story(browser: Any) -> list[str]:
    """The lines of the page's story."""
    return list(browser.execute_script(
        "return [...document.querySelectorAll('#story li')].map((li) => li.textContent)"))


def state_of(browser: Any) -> tuple[str, int]:
    body = browser.find_element(By.TAG_NAME, "body")
    return body.get_attribute("data-state") or "", int(body.get_attribute("data-decision") or -1)


def wait_for(browsers: list[Any], decision: int) -> None:
    """Wait until every page shows decision ``decision`` (or later), and its picture."""
    for b in browsers:
        WebDriverWait(b, 30).until(lambda b: b.execute_script(
            "const d = document.body.dataset;"
            "return +(d.decision ?? -1) >= arguments[0] && d.picture === d.decision;",
            decision))


def click_a_move(browser: Any, rng: random.Random) -> str:
    """Take an action by clicking: a piece or cell of the picture the page marks as
    one to click (then, if the click leaves several actions, one of their buttons),
    else one of the buttons. How the action was taken: ``"picture"`` (by clicks in
    the picture alone), ``"both"`` or ``"button"``."""
    targets = browser.find_elements(By.CSS_SELECTOR, "#picture .target")
    how = "button"
    while targets and rng.random() < 0.8:
        before = state_of(browser)[1]
        rng.choice(targets).click()
        if state_of(browser)[1] != before or not browser.find_elements(
                By.CSS_SELECTOR, "#picture .picked"):
            return "picture"      # the click took the one action it named
        how = "both"
        targets = browser.find_elements(By.CSS_SELECTOR, "#picture .target")
    buttons = [b for b in browser.find_elements(By.CSS_SELECTOR, "#actions button")
               if "clear" not in (b.get_attribute("class") or "")]
    rng.choice(buttons).click()
    return how


def play(browsers: list[Any], table: Any, rng: random.Random,
         check: Any = None) -> dict[str, int]:
    """Play the table's game to its end by clicking in the browsers; ``check(step)``
    after every step. How many actions were taken each way (:func:`click_a_move`)."""
    ways = {"picture": 0, "both": 0, "button": 0}
    while True:
        target = table.state.decisions
        while table.bot_to_move():
            time.sleep(0.01)
            target = table.state.decisions
        wait_for(browsers, target)
        if check is not None:
            check(target)
        if table.state.is_terminal():
            return ways
        mover = next(b for b in browsers if state_of(b)[0] == "turn")
        ways[click_a_move(mover, rng)] += 1
        WebDriverWait(mover, 30).until(lambda b: state_of(b)[1] > target)


def test_two_browsers_and_a_bot_play_multzo_by_clicking(browsers: list[Any],
                                                        tmp_path: Path) -> None:
    served = Served(tmp_path)
    try:
        tid, links = open_table(browsers[0], served.base, "multzo", "human,random,human")
        assert len(links) == 2                    # the two human seats
        for b, link in zip(browsers, links):
            b.get(link)
        table = served.app.state.server.tables[tid]

        def check(step: int) -> None:
            for seat, b in zip((0, 2), browsers):
                assert b.find_element(By.ID, "link").text == "connected"
                assert story(b) == table.story[seat][-300:]
        ways = play(browsers, table, random.Random(4), check)
        # a tile clicked in the picture, then discarded face up or down by its button
        assert ways["both"] > 3 and ways["button"] > 3 and table.state.is_terminal()
        for b in browsers:
            status = b.find_element(By.ID, "status").text
            assert status.startswith("Game over. Winners:") and "The game ended" in status
            link = b.find_element(By.LINK_TEXT, "Replay the game")
            assert link.is_displayed()
        # the replay of the game, from the page's link
        browsers[0].find_element(By.LINK_TEXT, "Replay the game").click()
        WebDriverWait(browsers[0], 30).until(lambda b: "replay of table" in b.title)
        assert browsers[0].find_elements(By.CSS_SELECTOR, "svg")
    finally:
        served.stop()


def test_mismemory_pages_never_show_the_other_players_kept_tile(browsers: list[Any],
                                                                tmp_path: Path) -> None:
    served = Served(tmp_path)
    try:
        tid, links = open_table(browsers[0], served.base, "mismemory", "human,human")
        for b, link in zip(browsers, links):
            b.get(link)
        table = served.app.state.server.tables[tid]
        program = table.state.program
        kept = {z.owner: z.index for z in program.zones if z.name == "collected"}
        told = [0, 0]
        checked = {"keeps": 0}

        def check(step: int) -> None:
            for seat, b in enumerate(browsers):
                other = 1 - seat
                theirs = [p for p in table.state.position.zones[kept[other]]
                          if not visible(table.state.position, p, seat)]
                screen, lines = b.execute_script(
                    "const $ = (id) => document.getElementById(id);"
                    "return [$('picture').innerHTML + $('status').textContent +"
                    " $('actions').textContent,"
                    " [...document.querySelectorAll('#story li')].map((li) => li.textContent)];")
                new, told[seat] = lines[told[seat]:], len(lines)
                for piece in theirs:
                    assert piece.name not in screen, (seat, piece.name)
                    # the lines since the last step: the keep names no tile
                    for line in new:
                        if "keep" in line:
                            checked["keeps"] += 1
                            assert piece.name not in line, (seat, line)
        ways = play(browsers, table, random.Random(6), check)
        # a cell clicked to flip its tile; a tile and a cell to keep it and put the other
        assert ways["picture"] > 10 and table.state.is_terminal()
        assert checked["keeps"] > 0
    finally:
        served.stop()


def test_a_page_reconnects_by_itself_after_a_restart(browsers: list[Any],
                                                     tmp_path: Path) -> None:
    served = Served(tmp_path)
    port = served.port
    try:
        tid, links = open_table(browsers[0], served.base, "tic-tac-toe", "human,human")
        browsers[0].get(links[0])
        WebDriverWait(browsers[0], 20).until(
            lambda b: b.find_element(By.ID, "link").text == "connected")
        # a refused action is said on the page (the position resent after it leaves it)
        browsers[0].execute_script(
            "socket.send(JSON.stringify({type: 'act', decision: 7, action: 'x'}))")
        WebDriverWait(browsers[0], 20).until(
            lambda b: "has changed" in b.find_element(By.ID, "refused").text)
    finally:
        served.stop()
    WebDriverWait(browsers[0], 20).until(
        lambda b: b.find_element(By.ID, "link").text == "reconnecting…")
    again = Served(tmp_path, port)
    try:
        WebDriverWait(browsers[0], 30).until(
            lambda b: b.find_element(By.ID, "link").text == "connected")
        assert state_of(browsers[0])[1] == 0
    finally:
        again.stop()

"""The replay page in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by selenium opens the page written by ``rulepack
replay --html``, presses "next", the right arrow key and "previous", and changes
the seat, and sees the picture and the step change each time.

Marked ``browser``: run with ``python -m pytest -m browser`` (needs the browser
extra and Chromium); skipped, with the reason, where no browser is installed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

try:
    import cairosvg  # noqa: F401
    import drawsvg  # noqa: F401
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
except (ImportError, OSError) as exc:
    pytest.skip(f"the browser extra is not installed: {exc}", allow_module_level=True)

from click.testing import CliRunner

from rulepack.cli.main import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM or not DRIVER:
        pytest.skip("no Chromium here (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("replay")
    record, page = folder / "game.jsonl", folder / "game.html"
    runner = CliRunner()
    r = runner.invoke(main, ["play", "tic-tac-toe", "--players", "2", "--seed", "4", "--json",
                             "--record", str(record)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["replay", str(record), "--html", str(page)])
    assert r.exit_code == 0, r.output
    return page


def test_next_previous_keys_and_seat_change_the_picture(browser, page):
    record = page.with_suffix(".jsonl").read_text(encoding="utf-8")
    n = record.count('"type": "decision"')
    assert n >= 5
    browser.get(page.as_uri())

    def picture() -> str:
        return browser.find_element(By.ID, "picture").get_attribute("innerHTML")

    def where() -> str:
        return browser.find_element(By.ID, "where").text

    start = picture()
    assert "<svg" in start and where() == f"step 0 of {n}"
    assert browser.find_element(By.ID, "prev").get_property("disabled")
    browser.find_element(By.ID, "next").click()
    after_one = picture()
    assert after_one != start and where() == f"step 1 of {n}"
    assert "mark" in browser.find_element(By.CSS_SELECTOR, "#moves li.current").text
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert where() == f"step 2 of {n}" and picture() not in (start, after_one)
    browser.find_element(By.ID, "prev").click()
    assert where() == f"step 1 of {n}" and picture() == after_one
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert picture() == start
    Select(browser.find_element(By.ID, "seat")).select_by_visible_text("O")
    assert picture() != start and "O (you)" in picture()
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    assert where() == f"step {n} of {n}" and "game over" in picture()
    # the move list is the chosen seat's: X reads its own moves as "X (you): ..."
    moves = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert len(moves) == n + 1 and "(you)" not in moves[1].text
    Select(browser.find_element(By.ID, "seat")).select_by_visible_text("X")
    moves = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert len(moves) == n + 1 and moves[1].text.startswith("1. X (you): mark ")


def test_a_seats_page_has_its_pictures_alone(browser, page):
    runner = CliRunner()
    own = page.with_name("o.html")
    r = runner.invoke(main, ["replay", str(page.with_suffix(".jsonl")), "--html", str(own),
                             "--view", "O"])
    assert r.exit_code == 0, r.output
    browser.get(own.as_uri())
    assert not browser.find_elements(By.ID, "seat")
    assert "O (you)" in browser.find_element(By.ID, "picture").get_attribute("innerHTML")
    browser.find_element(By.ID, "next").click()
    assert browser.find_element(By.ID, "where").text.startswith("step 1 of ")
    assert "only what O may know" in browser.find_element(By.ID, "notice").text


#: A ruleset whose title, piece names, action and ``say`` texts hold markup.
MARKUP = Path(__file__).parent / "data" / "markup.rules"


def test_ruleset_markup_runs_no_script(browser, tmp_path):
    from selenium.common.exceptions import NoAlertPresentException
    record, page = tmp_path / "game.jsonl", tmp_path / "game.html"
    runner = CliRunner()
    r = runner.invoke(main, ["play", str(MARKUP), "--players", "2", "--seed", "1", "--json",
                             "--record", str(record)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["replay", str(record), "--html", str(page)])
    assert r.exit_code == 0, r.output
    browser.get(page.as_uri())
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text
    assert "<img src=x onerror=alert('title')>\\x1b[31m" in browser.title
    text = browser.find_element(By.ID, "moves").text
    assert "<script>alert('move')</script>\\x1b[2J put at " in text and \
        "» <img src=x onerror=alert(1)>\\x1b[31mX put a mark" in text
    assert not browser.find_elements(By.TAG_NAME, "img")
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 2     # the page's own
    assert "<img src=x onerror=alert('X')>" in \
        browser.find_element(By.ID, "picture").get_attribute("innerHTML").replace("&lt;", "<")\
        .replace("&gt;", ">")

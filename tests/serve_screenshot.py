"""The screenshot of ``docs/serve.md``: a seat's page of ``rulepack serve`` in headless
Chromium, a game of Alquerque against a bot a few moves in, with a piece clicked (the
cells it may move to marked) and the story beside the picture.

Regenerate (from the repository root; needs the web and browser extras and Chromium)::

    .venv/bin/python tests/serve_screenshot.py      # writes docs/pictures/serve.png
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from test_serve_browser import Served, _browser, open_table, state_of  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp))
        browser = _browser()
        try:
            browser.set_window_size(1200, 900)
            tid, links = open_table(browser, served.base, "alquerque", "human,random")
            browser.get(links[0])
            table = served.app.state.server.tables[tid]
            rng = random.Random(3)
            while table.state.decisions < 6:
                WebDriverWait(browser, 30).until(
                    lambda b: state_of(b)[0] == "turn" and b.find_element(
                        By.TAG_NAME, "body").get_attribute("data-picture") == str(
                        state_of(b)[1]))
                if table.state.decisions >= 6:
                    break
                before = state_of(browser)[1]
                texts = [b.text for b in browser.find_elements(By.CSS_SELECTOR,
                                                               "#actions button")]
                pick = rng.choice(texts)
                for cell in pick.split("-"):
                    browser.find_element(
                        By.CSS_SELECTOR, f'#picture [data-cell="board/{cell}"]').click()
                WebDriverWait(browser, 30).until(lambda b: state_of(b)[1] > before)
                time.sleep(0.3)
            WebDriverWait(browser, 30).until(
                lambda b: state_of(b)[0] == "turn" and b.find_element(
                    By.TAG_NAME, "body").get_attribute("data-picture") == str(state_of(b)[1]))
            first = browser.find_elements(By.CSS_SELECTOR, "#picture .target")[0]
            first.click()                          # a piece picked: where it may go
            time.sleep(0.3)
            out = ROOT / "docs" / "pictures" / "serve.png"
            browser.save_screenshot(str(out))
            print(f"{out}: {out.stat().st_size} bytes")
        finally:
            browser.quit()
            served.stop()


if __name__ == "__main__":
    main()

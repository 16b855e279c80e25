"""An HTML page printed to PDF by headless Chromium, through Selenium's
``print_page`` (the ``browser`` extra and Chromium: Debian's ``chromium
chromium-driver``)."""

from __future__ import annotations

from pathlib import Path


def pdf_bytes(page: str) -> bytes:
    """An HTML page printed to PDF by headless Chromium (Selenium's print_page).

    :raises RuntimeError: Selenium or Chromium is missing."""
    import base64
    import tempfile
    try:
        from selenium import webdriver
        from selenium.webdriver.common.print_page_options import PrintOptions
    except ImportError:
        raise RuntimeError("a PDF rulebook needs Selenium and Chromium: pip install "
                           "'rulepack[browser]' and install Chromium (Debian: apt-get install "
                           "chromium chromium-driver)") from None
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "rulebook.html"
        page_file.write_text(page, encoding="utf-8")
        try:
            driver = webdriver.Chrome(options=options)
        except Exception as exc:   # noqa: BLE001 - no browser: say how to get one
            raise RuntimeError(f"a PDF rulebook needs Chromium and its driver ({exc.__class__.__name__}"
                               "): Debian: apt-get install chromium chromium-driver") from None
        try:
            driver.get(page_file.as_uri())
            printed = driver.print_page(PrintOptions())
        finally:
            driver.quit()
    return base64.b64decode(printed)

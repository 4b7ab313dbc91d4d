"""A real ``colorit serve`` and headless Debian Chromium on it, for the benchmarks that time
the page (``page_par.py``, ``promises.py``): one place that starts both and leaves
nothing behind."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def browser_missing() -> str:
    """Why the page cannot be timed here, or "" when it can."""
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        return f"no {CHROMIUM} or {CHROMEDRIVER}"
    return ""


@contextmanager
def served_page(workers: int, script_timeout: float | None = None) -> Iterator[tuple[Any, str]]:
    """A server on 127.0.0.1 (a free port, ``workers`` solver workers) and a headless
    browser: yields the selenium driver and the server's address; both end on the way out."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    proc = subprocess.Popen(
        [sys.executable, "-m", "colorit.web", "--host", "127.0.0.1", "--port", "0", "--workers", str(workers)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    profile = tempfile.mkdtemp(prefix="colorit-chromium-")
    driver = None
    try:
        assert proc.stdout is not None
        url = re.search(r"http://127\.0\.0\.1:\d+", proc.stdout.readline())
        assert url, "the server printed no URL"
        options = Options()
        options.binary_location = str(CHROMIUM)
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--user-data-dir={profile}", "--window-size=1280,900"):
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
        if script_timeout is not None:
            driver.set_script_timeout(script_timeout)
        yield driver, url.group(0)
    finally:
        if driver is not None:
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        proc.terminate()
        proc.wait(15)


def open_page(driver: Any, url: str) -> None:
    """Load the page and wait until its first board is drawn."""
    from test_web_browser import by_id, wait_until

    driver.get(url + "/")
    wait_until(driver, lambda: by_id(driver, "board").get_attribute("data-draw-ms") is not None)

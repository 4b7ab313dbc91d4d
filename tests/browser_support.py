"""What the page's browser tests share (test_web_browser, test_web_play,
test_web_gameid_page): one server and one headless Chromium per module as fixtures
(``page_server``, ``browser``, ``page``; registered by conftest.py), and helpers that
find, wait for and read what the page shows.

Debian's chromium and chromedriver are needed: a module calls ``require_browser()`` first,
which skips it where they are missing, except under CI (``CI`` set), where it fails."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from colorit import Board
from colorit.game.generate import random_board
from colorit.palette import colours

from ci_env import on_ci
from cli_support import web_server

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ROOT = Path(__file__).resolve().parent.parent
#: The flags of every headless Chromium of the tests (a profile folder of its own is added).
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run")


def require_browser() -> None:
    """Skip the calling module where Chromium, its driver or selenium is missing (fail
    under CI, where the browser tests must run)."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    try:
        import selenium  # noqa: F401
    except ImportError:  # pragma: no cover - selenium is in the test extras
        missing.append("selenium")
    if missing:
        if on_ci():
            raise RuntimeError(f"browser tests need {', '.join(missing)} (CI is set: they must run)")
        pytest.skip(f"no {', '.join(missing)}", allow_module_level=True)


def chromium(profile: str, *flags: str, phone: dict[str, Any] | None = None, console: bool = False) -> Any:
    """A headless Chromium with its profile in ``profile`` and ``flags`` besides the usual
    ones; ``phone``: the device metrics of a phone to emulate; ``console``: keep the
    page's console log (``get_log("browser")``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in (*CHROMIUM_FLAGS, *flags, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if phone is not None:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": phone})
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))


# --------------------------------------------------------------------------------------
# fixtures: one server and one browser for the module


@pytest.fixture(scope="module")
def page_server() -> Iterator[str]:
    """The URL of ``python -m colorit.web`` on 127.0.0.1 (two workers), stopped after the module."""
    with web_server("--workers", "2", "--max-time", "10") as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A desktop-sized headless Chromium that keeps the page's console log."""
    profile = tempfile.mkdtemp(prefix="colorit-chromium-")
    quiet = ("--disable-background-networking", "--disable-component-update", "--disable-sync")
    driver = chromium(profile, *quiet, "--window-size=1280,900", console=True)
    driver.set_script_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture()
def page(page_server: str, browser: Any) -> Any:
    """The page freshly loaded (and its console so far kept for the last test)."""
    browser.get(page_server + "/")
    wait_until(browser, lambda: by_id(browser, "board").get_attribute("data-draw-ms") is not None)
    return browser


# --------------------------------------------------------------------------------------
# helpers


def by_id(driver: Any, name: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f'[data-testid="{name}"]')


def wait_until(driver: Any, check: Callable[[], Any], timeout: float = 20) -> Any:
    from selenium.webdriver.support.wait import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda _: check())


def moves_shown(driver: Any) -> int:
    text = by_id(driver, "moves").text
    assert text.isdigit(), text
    return int(text)


READ_CELLS = """
const [w, h] = arguments;
const canvas = document.querySelector('[data-testid="board"]');
const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
const out = [];
for (let r = 0; r < h; r++) {
  for (let c = 0; c < w; c++) {
    const x = Math.floor((c + 0.5) * canvas.width / w), y = Math.floor((r + 0.5) * canvas.height / h);
    const i = (y * canvas.width + x) * 4;
    out.push('#' + [0, 1, 2].map(k => data[i + k].toString(16).padStart(2, '0')).join('').toUpperCase());
  }
}
return out;
"""


def cells_shown(driver: Any, width: int, height: int) -> np.ndarray:
    """The swatch drawn at each cell's centre."""
    return np.array(driver.execute_script(READ_CELLS, width, height), dtype=object).reshape(height, width)


def swatches(board: Board, grid: np.ndarray) -> np.ndarray:
    """The swatch the palette gives each cell of a grid of ids (colours go by code)."""
    table = colours(board.n_colours)
    codes = np.searchsorted(board.palette, grid)
    return np.array([table[c] for c in codes.ravel()], dtype=object).reshape(grid.shape)


def new_game(driver: Any, width: int, height: int, n_colours: int, seed: int) -> Board:
    for name, value in (("width", width), ("height", height), ("colours", n_colours), ("seed", seed)):
        box = by_id(driver, name)
        box.clear()
        box.send_keys(str(value))
    by_id(driver, "new-game").click()
    wait_until(driver, lambda: f"{width}x{height}" in by_id(driver, "game-info").text and f"seed {seed}" in by_id(driver, "game-info").text)
    wait_until(driver, lambda: by_id(driver, "moves").text == "0")
    return random_board(width, height, n_colours, seed=seed)


def click_colour(driver: Any, colour_id: int) -> None:
    before = moves_shown(driver)
    by_id(driver, f"colour-{colour_id}").click()
    wait_until(driver, lambda: moves_shown(driver) == before + 1)

"""Playing against par on the page, in headless Chromium against a real server: the par
is the optimum the Python solvers prove, the move limit ends the game, the live
"still optimal?" agrees with Python's optimum from each position, the daily board is
`colorit generate`'s, its streak lives in localStorage, a busy or gone server leaves the
game playable, and the page fits a 390x844 phone (screenshots kept for a look).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from colorit import Board, solve
from colorit.game.generate import random_board
from colorit.game.graph import RegionGraph
from colorit.io.csvfile import parse_board_lines
from colorit.solvers.bound import lower_bound

from browser_support import (
    ROOT,
    by_id,
    cells_shown,
    chromium,
    click_colour,
    moves_shown,
    new_game,
    require_browser,
    swatches,
    wait_until,
)
from ci_env import tool_or_skip
from cli_support import web_server

# one server and one desktop browser for the module (browser_support's fixtures)
require_browser()

from selenium.webdriver.common.by import By  # noqa: E402  (after the skip above)

#: where the screenshots go, to be looked at (COLORIT_SCREENSHOTS to choose)
SCREENSHOTS = Path(os.environ.get("COLORIT_SCREENSHOTS") or Path(tempfile.gettempdir()) / "colorit-screenshots")


def optimum(board: Board, played: list[int] = []) -> int:  # noqa: B006  (never changed)
    """The proven optimum from the position after ``played`` (Python's A*)."""
    return len(solve(Board(board.replay(played), board.start), "astar").moves)


def optimal_line(board: Board, played: list[int] = []) -> list[int]:  # noqa: B006
    return [int(m) for m in solve(Board(board.replay(played), board.start), "astar").moves]


def par_shown(driver: Any) -> int:
    wait_until(driver, lambda: by_id(driver, "par").text.isdigit(), timeout=30)
    return int(by_id(driver, "par").text)


def on_par_after(driver: Any, moves: int) -> Any:
    """The on-par status once it is worked out for the position after ``moves`` moves."""
    box = by_id(driver, "on-par")
    wait_until(driver, lambda: box.get_attribute("data-moves") == str(moves) and box.get_attribute("data-settled") == "true", timeout=30)
    return box


def set_limit(driver: Any, extra: str) -> None:
    box = by_id(driver, "limit")
    box.clear()
    if extra:
        box.send_keys(extra)
    driver.execute_script("arguments[0].dispatchEvent(new Event('input'))", box)


def a_move_that_loses_par(board: Board, played: list[int]) -> tuple[int, int] | None:
    """A colour that takes in cells after ``played`` but costs par: (colour, how much),
    or None when every such move keeps par."""
    best = len(played) + optimum(board, played)
    flooded = board.flood_steps(played) >= 0
    now = board.replay(played)
    edge = np.zeros_like(flooded)
    edge[1:] |= flooded[:-1]
    edge[:-1] |= flooded[1:]
    edge[:, 1:] |= flooded[:, :-1]
    edge[:, :-1] |= flooded[:, 1:]
    for colour in sorted({int(v) for v in now[edge & ~flooded]}):
        cost = len(played) + 1 + optimum(board, played + [colour]) - best
        if cost > 0:
            return colour, cost
    return None


def seed_with_a_costly_second_move(width: int, height: int, n_colours: int) -> int:
    """The first seed from 1 whose board has a second move, after an optimal first, that
    loses par (most boards do)."""
    for seed in range(1, 50):
        board = random_board(width, height, n_colours, seed=seed)
        if a_move_that_loses_par(board, optimal_line(board)[:1]):
            return seed
    raise AssertionError("no board with a costly second move")


# --------------------------------------------------------------------------------------
# par, the live status and the end


def test_par_is_the_proven_optimum_shown_as_a_bound_first(page: Any) -> None:
    # every text the par takes on the way is kept, to see the "≥ L" before the number
    page.execute_script(
        """
        window.parTexts = [];
        new MutationObserver(() => window.parTexts.push(document.querySelector('[data-testid="par"]').textContent))
          .observe(document.querySelector('[data-testid="par"]'), {childList: true, characterData: true, subtree: true});
        """
    )
    board = new_game(page, 11, 11, 6, 4242)
    par = par_shown(page)
    assert par == optimum(board)
    texts = page.execute_script("return window.parTexts")
    bound = lower_bound(RegionGraph.from_board(board))
    assert 0 < bound <= par
    assert f"≥ {bound}" in texts, texts
    assert texts[-1] == str(par)


def test_on_par_after_each_move_agrees_with_python(page: Any) -> None:
    board = new_game(page, 8, 8, 5, seed_with_a_costly_second_move(8, 8, 5))
    par = par_shown(page)
    assert par == optimum(board)
    first = optimal_line(board)[0]
    click_colour(page, first)
    box = on_par_after(page, 1)
    assert box.get_attribute("data-state") == "on"
    assert box.text == f"on par: {par} still possible"
    colour, cost = a_move_that_loses_par(board, [first]) or (-1, 0)
    click_colour(page, colour)
    box = on_par_after(page, 2)
    assert box.get_attribute("data-state") == "off"
    assert box.text == f"par + {cost} at best now"
    # undo comes back to a position already known: on par again
    by_id(page, "undo").click()
    assert on_par_after(page, 1).get_attribute("data-state") == "on"


def test_the_end_names_the_move_that_lost_par_and_replays_the_optimal_line(page: Any) -> None:
    board = new_game(page, 7, 7, 4, seed_with_a_costly_second_move(7, 7, 4))
    par = par_shown(page)
    first = optimal_line(board)[0]
    colour, cost = a_move_that_loses_par(board, [first]) or (-1, 0)
    played = [first, colour]
    rest = optimal_line(board, played)
    for m in played + rest:
        click_colour(page, m)
    assert "solved" in by_id(page, "status").text
    assert by_id(page, "on-par").text == f"solved at par + {cost}"
    wait_until(page, lambda: by_id(page, "lost-par").text.startswith("Move "), timeout=30)
    assert by_id(page, "lost-par").text == f"Move 2 lost the par: after it, par + {cost} at best."
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.execute_script("arguments[0].scrollIntoView({block: 'end'})", by_id(page, "par-end"))
    assert page.save_screenshot(str(SCREENSHOTS / "desktop-end.png"))
    by_id(page, "replay-par").click()
    wait_until(page, lambda: "solved by the optimal line" in by_id(page, "status").text, timeout=30)
    assert moves_shown(page) == par
    assert len(set(cells_shown(page, 7, 7).ravel())) == 1


def test_a_game_kept_at_par_says_so(page: Any) -> None:
    board = new_game(page, 6, 6, 4, 9)
    par = par_shown(page)
    for m in optimal_line(board):
        click_colour(page, m)
    assert by_id(page, "on-par").text == f"solved at par: {par}/{par} ✓"
    wait_until(page, lambda: by_id(page, "lost-par").text.startswith("Par kept"), timeout=30)
    assert not by_id(page, "replay-par").is_displayed()


def test_move_limit_ends_the_game_when_the_moves_run_out(page: Any) -> None:
    # a board the linear AI (colours in turn) does not flood within par + 1 moves
    seed = next(
        s for s in range(1, 50) if len(solve(random_board(9, 9, 5, seed=s), "linear").moves) > optimum(random_board(9, 9, 5, seed=s)) + 2
    )
    try:
        set_limit(page, "1")
        board = new_game(page, 9, 9, 5, seed)
        par = par_shown(page)
        assert by_id(page, "limit-shown").text == f"limit {par + 1}"
        slow = [int(m) for m in solve(board, "linear").moves]
        moves = slow[: par + 1]
        for m in moves:
            click_colour(page, m)
        assert by_id(page, "on-par").get_attribute("data-state") == "off"
        assert by_id(page, "on-par").text.startswith(f"out of moves: the limit was {par + 1}")
        assert "Out of moves" in by_id(page, "summary").text
        # the game is over: a colour plays nothing
        by_id(page, f"colour-{slow[par + 1]}").click()
        assert moves_shown(page) == par + 1
        assert (cells_shown(page, 9, 9) == swatches(board, board.replay(moves))).all()
        # free play (a blank limit) lets the game go on
        set_limit(page, "")
        assert not by_id(page, "limit-shown").is_displayed()
        click_colour(page, slow[par + 1])
        assert moves_shown(page) == par + 2
    finally:
        set_limit(page, "")


# --------------------------------------------------------------------------------------
# the daily board


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


def test_daily_board_streak_and_share_text(page: Any) -> None:
    day = today()
    yesterday = (dt.date.fromisoformat(day) - dt.timedelta(days=1)).isoformat()
    earlier = (dt.date.fromisoformat(day) - dt.timedelta(days=3)).isoformat()
    history = {yesterday: {"moves": 17, "par": 17, "solved": True}, earlier: {"moves": 20, "par": 18, "solved": True}}
    page.execute_script("localStorage.setItem('colorit.daily', arguments[0])", json.dumps(history))
    page.refresh()
    wait_until(page, lambda: by_id(page, "board").get_attribute("data-draw-ms") is not None)
    assert by_id(page, "streak").text == "1"
    try:
        by_id(page, "daily").click()
        seed = int(day.replace("-", ""))
        wait_until(page, lambda: f"seed {seed}" in by_id(page, "game-info").text)
        assert "14x14, 6 colours" in by_id(page, "game-info").text
        board = random_board(14, 14, 6, seed=seed)
        assert (cells_shown(page, 14, 14) == swatches(board, board.cells)).all()
        # the board of `colorit generate` with that seed
        done = subprocess.run(
            [sys.executable, "-m", "colorit", "generate", "--size", "14x14", "--colours", "6", "--seed", str(seed)],
            cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
        )
        rows = parse_board_lines([line for line in done.stdout.splitlines() if line.strip()], "generate")
        assert rows == board.cells.tolist()
        par = par_shown(page)
        assert par == optimum(board)
        for m in optimal_line(board):
            click_colour(page, m)
        wait_until(page, lambda: by_id(page, "daily-end").is_displayed())
        assert by_id(page, "daily-share-text").text == f"colorit daily {day}: {par}/{par} ✓"
        assert by_id(page, "streak").text == "2"
        kept = json.loads(page.execute_script("return localStorage.getItem('colorit.daily')"))
        assert kept[day] == {"moves": par, "par": par, "solved": True}
        # a later finish of the same day does not replace the first
        by_id(page, "undo").click()
        wait_until(page, lambda: moves_shown(page) == par - 1)
        click_colour(page, optimal_line(board)[-1])
        page.refresh()
        wait_until(page, lambda: by_id(page, "board").get_attribute("data-draw-ms") is not None)
        assert by_id(page, "streak").text == "2"
        assert "3, 2 at par" in by_id(page, "daily-history").text
    finally:
        page.execute_script("localStorage.removeItem('colorit.daily')")


# --------------------------------------------------------------------------------------
# a busy or gone server


BUSY_SOLVERS = """
const real = window.fetch;
window.fetch = (url, init) => String(url).startsWith('/api/solve')
  ? Promise.resolve(new Response('{"error":"all solvers are busy"}', {status: 503, headers: {'Retry-After': '2'}}))
  : real(url, init);
"""


def test_busy_server_leaves_the_game_playable_with_par_unknown(page: Any) -> None:
    page.execute_script(BUSY_SOLVERS)
    board = new_game(page, 8, 8, 4, 77)
    wait_until(page, lambda: by_id(page, "par").text == "unknown")
    moves = optimal_line(board)
    for m in moves[:3]:
        click_colour(page, m)
    assert (cells_shown(page, 8, 8) == swatches(board, board.replay(moves[:3]))).all()
    assert by_id(page, "on-par").get_attribute("data-state") == "unknown"
    assert "busy" in by_id(page, "par").get_attribute("title")
    # a limit needs a proven par: without one the game stays free
    try:
        set_limit(page, "0")
        for m in moves[3:]:
            click_colour(page, m)
    finally:
        set_limit(page, "")
    assert "solved" in by_id(page, "status").text


STREAM_ANSWERS = """
const [events] = arguments;
const real = window.fetch;
window.fetch = (url, init) => String(url) === '/api/solve/stream'
  ? Promise.resolve(new Response(events, {status: 200, headers: {'Content-Type': 'text/event-stream'}}))
  : real(url, init);
"""


def solve_events(bound: int, moves: list[int], proven: bool) -> str:
    """A solve stream as the server words it: started, then the result."""
    result = {
        "moves": moves,
        "proven": proven,
        "lower_bound": bound,
        "gap": 0.0,
        "elapsed_s": 0.1,
        "algo": "auto",
        "stopped": "time",
        "table_bytes": 0,
    }
    started = {"algo": "auto", "regions": 1, "lower_bound": bound}
    return f"event: started\ndata: {json.dumps(started)}\n\nevent: result\ndata: {json.dumps(result)}\n\n"


def test_an_unproven_par_stays_a_bound_and_sets_no_limit(page: Any) -> None:
    board = random_board(9, 9, 5, seed=12)
    bound = lower_bound(RegionGraph.from_board(board))
    greedy = [int(m) for m in solve(board, "greedy").moves]
    assert len(greedy) > bound
    page.execute_script(STREAM_ANSWERS, solve_events(bound, greedy, proven=False))
    try:
        set_limit(page, "0")
        new_game(page, 9, 9, 5, 12)
        wait_until(page, lambda: by_id(page, "par").get_attribute("data-state") == "unproven")
        assert by_id(page, "par").text == f"≥ {bound}"
        assert f"best answer found: {len(greedy)} moves" in by_id(page, "par").get_attribute("title")
        assert by_id(page, "on-par").text == f"par not proven in the time allowed: between {bound} and {len(greedy)}"
        assert not by_id(page, "limit-shown").is_displayed()
        for m in greedy[: bound + 1]:
            click_colour(page, m)  # past "par + 0" of the bound: no limit without a proven par
    finally:
        set_limit(page, "")


def test_an_answer_that_does_not_flood_the_board_is_no_par(page: Any) -> None:
    board = random_board(9, 9, 5, seed=12)
    optimal = optimal_line(board)
    page.execute_script(STREAM_ANSWERS, solve_events(len(optimal) - 1, optimal[:-1], proven=True))
    new_game(page, 9, 9, 5, 12)
    wait_until(page, lambda: by_id(page, "par").text == "unknown")
    assert "does not flood" in by_id(page, "par").get_attribute("title")
    click_colour(page, optimal[0])
    assert by_id(page, "on-par").get_attribute("data-state") == "unknown"


@pytest.fixture()
def lone_server() -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """A server of the test's own, to stop in the middle of a game."""
    with web_server("--workers", "1") as served:
        yield served


def test_gone_server_leaves_the_game_playable_with_par_unknown(browser: Any, lone_server: Any) -> None:
    url, proc = lone_server
    browser.get(url + "/")
    wait_until(browser, lambda: by_id(browser, "board").get_attribute("data-draw-ms") is not None)
    new_game(browser, 5, 5, 3, 8)
    par_shown(browser)
    proc.terminate()
    proc.wait(timeout=15)
    # a board of the same colours (its palette is known already), pasted: no server needed to play it
    rows = [[0, 1, 2, 0], [2, 2, 1, 0], [1, 0, 0, 2]]
    browser.find_element(By.CSS_SELECTOR, "details.csv summary").click()
    by_id(browser, "paste").send_keys("\n".join(",".join(map(str, r)) for r in rows))
    by_id(browser, "paste-load").click()
    wait_until(browser, lambda: "from pasted board" in by_id(browser, "game-info").text)
    wait_until(browser, lambda: by_id(browser, "par").text == "unknown")
    board = Board.from_rows(rows)
    line = optimal_line(board)
    for m in line:
        click_colour(browser, m)
    assert "solved" in by_id(browser, "status").text
    assert by_id(browser, "on-par").get_attribute("data-state") == "unknown"


# --------------------------------------------------------------------------------------
# colour-blind and phone-friendly


def test_symbols_are_one_click_and_remembered(page: Any) -> None:
    try:
        new_game(page, 6, 6, 4, 3)
        toggle = by_id(page, "symbols")
        assert toggle.get_attribute("aria-pressed") == "false"
        toggle.click()
        wait_until(page, lambda: by_id(page, "symbols").get_attribute("aria-pressed") == "true")
        page.refresh()
        wait_until(page, lambda: by_id(page, "board").get_attribute("data-draw-ms") is not None)
        assert by_id(page, "symbols").get_attribute("aria-pressed") == "true"
        assert by_id(page, "labels").get_attribute("value") == "symbols"
        buttons = page.find_elements(By.CSS_SELECTOR, '[data-testid^="colour-"]')
        assert buttons and all(b.find_elements(By.TAG_NAME, "svg") for b in buttons)
        by_id(page, "symbols").click()
        wait_until(page, lambda: by_id(page, "symbols").get_attribute("aria-pressed") == "false")
        assert not page.find_elements(By.CSS_SELECTOR, '[data-testid^="colour-"] svg')
    finally:
        page.execute_script("localStorage.removeItem('colorit.labels')")


START_MARK = """
const [w, h, r, c] = arguments;
const canvas = document.querySelector('[data-testid="board"]');
const s = canvas.width / w;
const at = (x, y) => Array.from(canvas.getContext('2d').getImageData(Math.floor(x), Math.floor(y), 1, 1).data.slice(0, 3));
// the middle of the mark's white line (clear of the flood's outline) and the cell's centre
const line = s * 0.04 + Math.max(1.5, s * 0.06);
return {mark: at(c * s + line, r * s + s / 2), centre: at(c * s + s / 2, r * s + s / 2)};
"""


def test_start_cell_is_marked(page: Any) -> None:
    new_game(page, 6, 6, 4, 3)
    by_id(page, "start").find_element(By.CSS_SELECTOR, "option[value=center]").click()
    new_game(page, 7, 7, 4, 3)
    got = page.execute_script(START_MARK, 7, 7, 3, 3)
    assert got["mark"] == [255, 255, 255] != got["centre"]
    by_id(page, "start").find_element(By.CSS_SELECTOR, "option[value=top-left]").click()


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    """Chromium as a 390x844 touch phone."""
    profile = tempfile.mkdtemp(prefix="colorit-phone-")
    driver = chromium(profile, phone={"width": 390, "height": 844, "pixelRatio": 2, "touch": True})
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


LAYOUT = """
window.scrollTo(0, 0);  // as the page opens: the first screen
const box = (id) => document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
const board = box('board'), palette = box('palette');
return {
  innerWidth: window.innerWidth, innerHeight: window.innerHeight,
  scrollWidth: document.documentElement.scrollWidth,
  board: [board.left, board.top, board.right, board.bottom],
  palette: [palette.left, palette.top, palette.right, palette.bottom],
  swatchHeight: document.querySelector('.swatch').getBoundingClientRect().height,
};
"""


def test_phone_layout_fits_390x844_with_symbols(phone: Any, page_server: str) -> None:
    phone.get(page_server + "/")
    wait_until(phone, lambda: by_id(phone, "board").get_attribute("data-draw-ms") is not None)
    by_id(phone, "symbols").click()
    try:
        for size in (14, 20):
            board = new_game(phone, size, size, 6, 17)
            par_shown(phone)
            click_colour(phone, optimal_line(board)[0])
            on_par_after(phone, 1)
            got = phone.execute_script(LAYOUT)
            assert got["innerWidth"] == 390
            assert got["scrollWidth"] <= got["innerWidth"], got
            board, palette = got["board"], got["palette"]
            # the board first, whole on the screen; the colours under it, in reach without scrolling
            assert 0 <= board[0] and board[2] <= 390 and board[3] <= palette[1], got
            assert palette[3] <= got["innerHeight"], got
            assert got["swatchHeight"] >= 44, got  # a thumb's target
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        assert phone.save_screenshot(str(SCREENSHOTS / "phone-390x844-symbols.png"))
    finally:
        by_id(phone, "symbols").click()


def test_desktop_screenshot_with_symbols(page: Any) -> None:
    by_id(page, "symbols").click()
    try:
        board = new_game(page, 14, 14, 6, 20261124)
        par_shown(page)
        first = optimal_line(board)[0]
        click_colour(page, first)
        on_par_after(page, 1)
        got = page.execute_script(LAYOUT)
        assert got["scrollWidth"] <= got["innerWidth"], got
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        assert page.save_screenshot(str(SCREENSHOTS / "desktop-symbols.png"))
    finally:
        by_id(page, "symbols").click()
        page.execute_script("localStorage.removeItem('colorit.labels')")


# --------------------------------------------------------------------------------------
# the daily rules (daily.js) in node, on days chosen around month and year ends

NODE_DAILY = """
import * as d from './colorit/web/static/daily.js';
const cases = JSON.parse(process.argv[1]);
const out = cases.map(([history, today]) => d.streak(history, today));
const specs = JSON.parse(process.argv[2]).map((spec) => d.dailyDayOf(spec));
const texts = JSON.parse(process.argv[3]).map(([day, result]) => d.shareText(day, result));
console.log(JSON.stringify({streaks: out, days: specs, texts, seed: d.seedOf('2027-01-01')}));
"""


def test_daily_rules() -> None:
    node = tool_or_skip("node")
    at_par = {"moves": 18, "par": 18, "solved": True}
    over = {"moves": 20, "par": 18, "solved": True}
    ran_out = {"moves": 19, "par": 18, "solved": False}
    days = [(dt.date(2026, 12, 29) + dt.timedelta(days=i)).isoformat() for i in range(5)]  # to 2027-01-02
    cases = [
        ({d: at_par for d in days}, days[-1]),  # five in a row across the year's end
        ({d: at_par for d in days[:-1]}, days[-1]),  # today not played yet: up to yesterday
        ({**{d: at_par for d in days[:-1]}, days[-1]: over}, days[-1]),  # today over par
        ({days[0]: at_par, days[2]: at_par, days[3]: at_par}, days[3]),  # a day missed
        ({d: ran_out for d in days}, days[-1]),
    ]
    want_streaks = [5, 4, 0, 2, 0]
    spec = {"kind": "generated", "width": 14, "height": 14, "colours": 6, "start": [0, 0]}
    specs = [
        {**spec, "seed": "20270101"},
        {**spec, "seed": "20270230"},  # no such day
        {**spec, "seed": "20270101", "colours": 5},
        {**spec, "seed": "20270101", "start": [7, 7]},
        {**spec, "kind": "board"},
    ]
    want_days = ["2027-01-01", None, None, None, None]
    texts = [
        ("2027-01-01", at_par),
        ("2027-01-01", over),
        ("2027-01-01", ran_out),
        ("2027-01-01", {"moves": 20, "par": None, "solved": True}),
    ]
    want_texts = [
        "colorit daily 2027-01-01: 18/18 ✓",
        "colorit daily 2027-01-01: 20/18",
        "colorit daily 2027-01-01: X/18",
        "colorit daily 2027-01-01: 20/?",
    ]
    done = subprocess.run(
        [node, "--input-type=module", "-e", NODE_DAILY, json.dumps(cases), json.dumps(specs), json.dumps(texts)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["streaks"] == want_streaks
    assert got["days"] == want_days
    assert got["texts"] == want_texts
    assert got["seed"] == 20270101

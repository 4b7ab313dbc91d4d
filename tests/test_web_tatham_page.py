"""The page's game ID field (colorit/web/static/tatham_ui.js) in headless Chromium: a
pasted ID plays the board the Python parser reads, a bad one leaves a one-line message and
the game as it was, and a new board's ID parses back to that board with its par as the
limit. Uses the server, browser and canvas helpers of tests/browser_support.py.

``COLORIT_SCREENSHOTS=DIR`` keeps a screenshot of the page with a loaded ID in DIR.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from colorit import solve
from colorit.errors import BoardFormatError
from colorit.io.gameid import parse_game_id

from browser_support import by_id, cells_shown, moves_shown, new_game, require_browser, swatches, wait_until

require_browser()

#: A 6x4 board of 5 colours, three extra moves.
GAME_ID = "6x4c5m3:012340123401234012340120,13"


def load_id(driver: Any, text: str) -> None:
    # the game on show gets its par first: its proof fills the field with that game's ID
    # (while nothing is typed in it), which must not land between clearing and typing
    wait_until(driver, lambda: by_id(driver, "par").get_attribute("data-state") in ("proven", "unproven", "unknown"))
    field = by_id(driver, "game-id")
    field.clear()
    field.send_keys(text)
    assert field.get_attribute("value") == text
    by_id(driver, "game-id-load").click()


def test_a_pasted_id_plays_the_board_the_python_parser_reads(page: Any, tmp_path: Path) -> None:
    load_id(page, GAME_ID)
    game = parse_game_id(GAME_ID)
    board = game.board()
    wait_until(page, lambda: "6x4" in by_id(page, "game-info").text and "game ID" in by_id(page, "game-info").text)
    assert (cells_shown(page, 6, 4) == swatches(board, board.cells)).all()
    assert by_id(page, "id-limit").is_displayed()
    assert by_id(page, "id-limit").text == "limit 13 (10 + 3 extra)"
    assert by_id(page, "game-id").get_attribute("value") == GAME_ID
    assert not by_id(page, "game-id-error").is_displayed()
    folder = Path(os.environ.get("COLORIT_SCREENSHOTS", tmp_path))
    shot = folder / "gameid-page.png"
    assert page.get_screenshot_as_file(str(shot)) and shot.stat().st_size > 0


def test_a_bad_id_says_where_and_leaves_the_game(page: Any) -> None:
    board = new_game(page, 5, 5, 3, 42)
    by_id(page, f"colour-{int(board.palette[1] if board.cells[0, 0] == board.palette[0] else board.palette[0])}").click()
    wait_until(page, lambda: moves_shown(page) == 1)
    before = cells_shown(page, 5, 5)
    bad = "4x4c3m0:01201201201201X,9"
    load_id(page, bad)
    wait_until(page, lambda: by_id(page, "game-id-error").is_displayed())
    try:
        parse_game_id(bad)
    except BoardFormatError as e:
        want = str(e)
    assert by_id(page, "game-id-error").text == want
    assert "column 23" in want
    assert moves_shown(page) == 1 and (cells_shown(page, 5, 5) == before).all()
    assert "seed 42" in by_id(page, "game-info").text
    assert not by_id(page, "id-limit").is_displayed()


def test_a_new_board_shows_its_id_with_the_par_as_limit(page: Any) -> None:
    board = new_game(page, 7, 5, 4, 99)
    wait_until(page, lambda: by_id(page, "game-id").get_attribute("value"), timeout=60)
    text = by_id(page, "game-id").get_attribute("value")
    game = parse_game_id(text)
    assert game.cells.tolist() == board.cells.tolist()
    answer = solve(board, "astar")
    assert answer.proven_optimal
    assert (game.limit, game.extra) == (len(answer.moves), 0)
    assert "par" in by_id(page, "game-id-note").text
    # the ID shown loads back as the same board, with its limit beside the moves
    by_id(page, "game-id-load").click()
    wait_until(page, lambda: "game ID" in by_id(page, "game-info").text)
    assert (cells_shown(page, 7, 5) == swatches(board, board.cells)).all()
    assert by_id(page, "id-limit").text == f"limit {game.limit}"


def test_the_csv_paste_box_takes_an_id_too(page: Any) -> None:
    new_game(page, 4, 4, 3, 1)
    page.find_element("css selector", "details.csv summary").click()
    by_id(page, "paste").send_keys("3x2:012201,5")
    by_id(page, "paste-load").click()
    wait_until(page, lambda: "3x2" in by_id(page, "game-info").text)
    board = parse_game_id("3x2:012201,5").board()
    assert (cells_shown(page, 3, 2) == swatches(board, board.cells)).all()
    assert by_id(page, "id-limit").text == "limit 5"
    by_id(page, "paste").clear()
    by_id(page, "paste").send_keys("3x2:0122,5")
    by_id(page, "paste-load").click()
    wait_until(page, lambda: by_id(page, "error").is_displayed())
    assert by_id(page, "error").text == "pasted board:1:9: the description has 4 cells, a 3x2 board needs 6"

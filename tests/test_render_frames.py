"""Board pictures, replay frames, GIFs and key-frame sheets: frame counts, colours at cell
centres, the solved last frame, outlines and labels, and sizes for a 100x100 board."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import GifImagePlugin, Image

from colorit import Board, ColoritError, SolutionError, palette, solve
from colorit.game.generate import random_board
from colorit.render import frames
from colorit.render.frames import (
    board_image,
    cell_size_for,
    frame_layout,
    gif_bytes,
    key_frame_numbers,
    keyframes_png,
    labels_drawn,
    replay_frames,
)
from colorit.render.glyphs import MIN_LABEL_CELL
from colorit.render.replay import Replay


@pytest.fixture(scope="module")
def game() -> tuple[Board, tuple[int, ...]]:
    board = random_board(8, 6, 5, seed=7)
    return board, solve(board, "greedy").moves


def rgb(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB"))


def centre_colours(image: Image.Image, layout: frames.Layout, height: int, width: int) -> np.ndarray:
    """The RGB at the centre of every cell, shape (height, width, 3)."""
    pixels = rgb(image)
    ys = layout.top + np.arange(height) * layout.cell + layout.cell // 2
    xs = layout.left + np.arange(width) * layout.cell + layout.cell // 2
    return pixels[ys[:, None], xs[None, :]]


def palette_rgb(codes: np.ndarray) -> np.ndarray:
    table = np.array([palette.rgb(c) for c in palette.colours(int(codes.max()) + 1)], dtype=np.uint8)
    swatches: np.ndarray = table[codes]
    return swatches


def board_area(image: Image.Image, layout: frames.Layout, board: Board) -> np.ndarray:
    pixels = rgb(image)
    return pixels[
        layout.top : layout.top + board.height * layout.cell, layout.left : layout.left + board.width * layout.cell
    ]


def test_frame_count_first_and_last_frames(game: tuple[Board, tuple[int, ...]]) -> None:
    board, moves = game
    shots = replay_frames(board, moves)
    assert len(shots) == len(moves) + 1
    layout = frame_layout(board, moves)
    assert all(s.size == (layout.width, layout.height) for s in shots)
    # the first frame is the board: each cell centre has its code's swatch
    assert (centre_colours(shots[0], layout, board.height, board.width) == palette_rgb(board.codes)).all()
    # the last frame's board area is one colour: the last move's
    last = board_area(shots[-1], layout, board).reshape(-1, 3)
    assert len(np.unique(last, axis=0)) == 1
    assert tuple(last[0]) == palette.rgb(palette.colour(board.code_of(moves[-1])))


def test_every_frame_shows_the_position_after_its_move(game: tuple[Board, tuple[int, ...]]) -> None:
    board, moves = game
    shots = replay_frames(board, moves, outline=False, caption=False)
    layout = frame_layout(board, moves, caption=False)
    for k in range(len(moves) + 1):
        expected = board.codes_of(board.replay(moves[:k]).ravel().tolist()).reshape(board.codes.shape)
        assert (centre_colours(shots[k], layout, board.height, board.width) == palette_rgb(expected)).all(), k


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    height=st.integers(1, 7),
    width=st.integers(1, 7),
    colours=st.integers(1, 6),
    seed=st.integers(0, 2**16),
    cell=st.integers(3, 14),
)
def test_replays_of_random_boards(height: int, width: int, colours: int, seed: int, cell: int) -> None:
    board = random_board(width, height, colours, seed)
    moves = solve(board, "greedy").moves
    shots = replay_frames(board, moves, cell=cell)
    layout = frame_layout(board, moves, cell=cell)
    assert len(shots) == len(moves) + 1
    assert (centre_colours(shots[0], layout, height, width) == palette_rgb(board.codes)).all()
    assert len(np.unique(board_area(shots[-1], layout, board).reshape(-1, 3), axis=0)) == 1


def test_outline_marks_the_flood_edge_in_ink(game: tuple[Board, tuple[int, ...]]) -> None:
    board, moves = game
    k = len(moves) // 2
    cell = 16
    with_outline = rgb(replay_frames(board, moves, cell=cell)[k])
    without = rgb(replay_frames(board, moves, cell=cell, outline=False)[k])
    changed = np.any(with_outline != without, axis=2)
    assert changed.any()
    steps = board.flood_steps(moves)
    flood = (steps >= 0) & (steps <= k)
    layout = frame_layout(board, moves, cell=cell)
    # only pixels of flooded cells change, and they turn the flood colour's ink
    ys, xs = np.nonzero(changed)
    assert flood[(ys - layout.top) // cell, (xs - layout.left) // cell].all()
    swatch = palette.colour(board.code_of(moves[k - 1]))
    assert {tuple(v) for v in with_outline[changed]} == {palette.rgb(palette.ink(swatch))}


def test_captions_carry_the_move_and_its_colour(game: tuple[Board, tuple[int, ...]]) -> None:
    board, moves = game
    with_caption = replay_frames(board, moves)
    bare = replay_frames(board, moves, caption=False)
    layout = frame_layout(board, moves)
    assert layout.band > 0 and with_caption[0].height > bare[0].height
    k = 3
    band = rgb(with_caption[k])[: layout.band]
    colours = {tuple(v) for v in band.reshape(-1, 3)}
    assert palette.rgb(palette.colour(board.code_of(moves[k - 1]))) in colours  # the swatch
    assert (0, 0, 0) in colours  # the text
    assert not np.array_equal(band, rgb(with_caption[k + 1])[: layout.band])  # the number moves on


@pytest.mark.parametrize("kind", ["numbers", "symbols"])
def test_labels_draw_inside_each_cell(game: tuple[Board, tuple[int, ...]], kind: str) -> None:
    board, _ = game
    cell = 24
    plain = rgb(board_image(board, cell=cell))
    labelled = board_image(board, cell=cell, labels=kind)
    pixels = rgb(labelled)
    assert plain.shape == pixels.shape
    layout = frame_layout(board, cell=cell, caption=False)
    for r in range(board.height):
        for c in range(board.width):
            y, x = layout.top + r * cell, layout.left + c * cell
            inside = pixels[y : y + cell, x : x + cell].reshape(-1, 3)
            swatch = palette.colour(int(board.codes[r, c]))
            assert tuple(inside[0]) == palette.rgb(swatch)  # the corner keeps the colour
            assert palette.rgb(palette.ink(swatch)) in {tuple(v) for v in inside}  # the label is in ink


def test_labels_are_skipped_on_cells_too_small_to_read(game: tuple[Board, tuple[int, ...]]) -> None:
    board, _ = game
    small = MIN_LABEL_CELL - 1
    for kind in ("numbers", "symbols"):
        assert np.array_equal(rgb(board_image(board, cell=small)), rgb(board_image(board, cell=small, labels=kind)))
        assert not labels_drawn(board, cell=small, labels=kind)
        assert labels_drawn(board, cell=MIN_LABEL_CELL, labels=kind)
        assert labels_drawn(board, labels=kind) and labels_drawn(board, labels=kind, sheet=True)
    assert not labels_drawn(board, cell=40)  # none asked for
    # three-digit numbers need wider cells than symbols do
    many = Board(np.arange(120).reshape(10, 12))
    assert not labels_drawn(many, cell=MIN_LABEL_CELL, labels="numbers")
    assert labels_drawn(many, cell=MIN_LABEL_CELL, labels="symbols")
    assert labels_drawn(many, cell=24, labels="numbers")


def test_gif_round_trip(game: tuple[Board, tuple[int, ...]]) -> None:
    board, moves = game
    data = gif_bytes(board, moves, frame_ms=120, first_frame_ms=700, last_frame_ms=1500)
    shots = replay_frames(board, moves)
    with Image.open(io.BytesIO(data)) as gif:
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        assert gif.n_frames == len(moves) + 1
        assert gif.size == shots[0].size
        assert gif.info.get("loop") == 0
        durations = []
        for k in range(gif.n_frames):
            gif.seek(k)
            durations.append(gif.info["duration"])
            # delta frames decode to exactly the frames drawn
            assert np.array_equal(rgb(gif), rgb(shots[k])), k
    assert durations[0] == 700 and durations[-1] == 1500 and set(durations[1:-1]) == {120}


def test_keyframes_sheet(game: tuple[Board, tuple[int, ...]]) -> None:
    board, moves = game
    n = len(moves)
    assert key_frame_numbers(n, 3) == sorted(set(list(range(0, n + 1, 3)) + [n]))
    picks = key_frame_numbers(n)
    assert picks[0] == 0 and picks[-1] == n and 2 <= len(picks) <= 9
    data = keyframes_png(board, moves, every=2, columns=3, cell=10)
    layout = frame_layout(board, moves, cell=10)
    count = len(key_frame_numbers(n, 2))
    rows = -(-count // 3)
    with Image.open(io.BytesIO(data)) as sheet:
        assert sheet.format == "PNG"
        assert sheet.width == 3 * layout.width + 4 * 12
        assert sheet.height == rows * layout.height + (rows + 1) * 12
        # the first tile is the start frame
        first = sheet.convert("RGB").crop((12, 12, 12 + layout.width, 12 + layout.height))
    assert np.array_equal(rgb(first), rgb(replay_frames(board, moves, cell=10)[0]))


def test_cell_sizes() -> None:
    assert cell_size_for(4, 4) * 4 >= 200  # a 4x4 board is not 16 px wide
    assert 400 <= cell_size_for(100, 100) * 100 <= 800
    assert cell_size_for(300, 300) >= 1
    assert cell_size_for(2000, 10) == 1
    sizes = [cell_size_for(n, n) for n in range(1, 400, 7)]
    assert sizes == sorted(sizes, reverse=True)
    assert cell_size_for(1000, 1000, labels="numbers") < MIN_LABEL_CELL  # too large to grow
    # the size chosen for labels is one that draws them
    small = random_board(6, 5, 12, seed=2)
    for kind in ("numbers", "symbols"):
        cell = cell_size_for(100, 100, labels=kind)
        assert cell >= MIN_LABEL_CELL
        assert not np.array_equal(rgb(board_image(small, cell=cell)), rgb(board_image(small, cell=cell, labels=kind)))


def test_a_100x100_replay_stays_small() -> None:
    board = random_board(100, 100, 4, seed=1)
    moves = solve(board, "greedy").moves
    assert len(moves) >= 80
    data = gif_bytes(board, moves)
    assert len(data) < 5_000_000
    with Image.open(io.BytesIO(data)) as gif:
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        assert gif.n_frames == len(moves) + 1
        assert max(gif.size) <= 800
    with Image.open(io.BytesIO(keyframes_png(board, moves))) as sheet:
        assert max(sheet.size) <= 1400


def test_boards_with_more_colours_than_a_palette() -> None:
    board = Board(np.arange(300).reshape(15, 20) * 7 - 1000)
    moves = solve(board, "greedy").moves[:3]
    shots = replay_frames(board, moves, cell=6)
    assert shots[0].mode == "RGB" and len(shots) == 4
    layout = frame_layout(board, moves, cell=6)
    assert (centre_colours(shots[0], layout, 15, 20) == palette_rgb(board.codes)).all()
    with Image.open(io.BytesIO(gif_bytes(board, moves, cell=6))) as gif:
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        assert gif.n_frames == 4


def test_single_cell_and_long_ids() -> None:
    lone = Board.from_rows([[7]])
    assert len(replay_frames(lone, [])) == 1
    with Image.open(io.BytesIO(gif_bytes(lone, []))) as gif:
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        assert gif.n_frames == 1
    wide_ids = Board.from_rows([[-(2**63), 2**63 - 1]])
    moves = [2**63 - 1]
    shots = replay_frames(wide_ids, moves)
    assert shots[0].width >= frame_layout(wide_ids, moves).cell * 2  # the caption widens the frame


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda b, m: replay_frames(b, m, labels="letters"), "labels must be one of none, numbers, symbols"),
        (lambda b, m: replay_frames(b, m, cell=0), "cell size must be at least 1"),
        (lambda b, m: replay_frames(b, m, cell=2.5), "cell size must be a whole number"),  # type: ignore[arg-type]
        (lambda b, m: replay_frames(b, m, cell=1000), "cell size must be at most"),
        (lambda b, m: gif_bytes(b, m, frame_ms=5), "frame time (ms) must be at least 20"),
        (lambda b, m: keyframes_png(b, m, every=0), "every must be at least 1"),
        (lambda b, m: keyframes_png(b, m, columns=0), "columns must be at least 1"),
        (lambda b, m: board_image(random_board(300, 300, 3, 1), cell=200), "the most is 16384 pixels a side"),
        (lambda b, m: cell_size_for(0, 5), "height must be at least 1"),
    ],
)
def test_bad_options_are_one_line_errors(game: tuple[Board, tuple[int, ...]], call, message: str) -> None:  # type: ignore[no-untyped-def]
    board, moves = game
    with pytest.raises(ColoritError) as info:
        call(board, moves)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_a_move_the_board_lacks(game: tuple[Board, tuple[int, ...]]) -> None:
    board, moves = game
    with pytest.raises(SolutionError, match="move 2: colour 99 does not occur on the board"):
        replay_frames(board, [moves[0], 99])


def test_captions_name_the_number_the_labels_show() -> None:
    """On a board of ids 0..C-1 the caption's colour is the number drawn in its cells
    (code + 1), with the id beside it; on ids 1..C they are one and the same."""
    zero_based = Board.from_rows([[0, 1], [2, 0]])
    texts = [right for _, right in frames._captions(Replay.of(zero_based, [1, 2, 0]))]
    assert texts == ["colour 1 (id 0)  start", "colour 2 (id 1)", "colour 3 (id 2)", "colour 1 (id 0)  solved"]
    assert [palette.label(c, "numbers") for c in range(3)] == ["1", "2", "3"]
    one_based = Board.from_rows([[1, 2], [3, 1]])
    texts = [right for _, right in frames._captions(Replay.of(one_based, [2, 3, 1]))]
    assert texts == ["colour 1  start", "colour 2", "colour 3", "colour 1  solved"]

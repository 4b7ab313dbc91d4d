"""Charts for compare and bench: valid PNGs of a sensible size, each option visibly
changing the picture, and one-line errors for data that cannot be drawn."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from colorit import ColoritError, palette
from colorit.render.charts import bench_chart, compare_chart

ROWS = [
    {"algorithm": "linear", "moves": 27, "time_s": 0.001, "proven": False},
    {"algorithm": "greedy", "moves": 22, "time_s": 0.002, "proven": False},
    {"algorithm": "beam", "moves": 19, "time_s": 1.2, "proven": False},
    {"algorithm": "astar", "moves": 18, "time_s": 2.1, "proven": True},
]


def png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def pixels(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB"))


def has_colour(image: Image.Image, swatch: str) -> bool:
    return bool(np.all(pixels(image) == palette.rgb(swatch), axis=2).any())


def test_compare_chart() -> None:
    plain = png(compare_chart(ROWS))
    assert 600 <= plain.width <= 2000 and 300 <= plain.height <= 900
    # one palette colour per algorithm
    assert all(has_colour(plain, palette.colour(i)) for i in range(len(ROWS)))
    bound = png(compare_chart(ROWS, lower_bound=18, title="b14c6 seed 1"))
    assert bound.size == plain.size
    assert not np.array_equal(pixels(plain), pixels(bound))


def test_compare_chart_marks_proven_answers() -> None:
    unproven = [dict(r, proven=False) for r in ROWS]
    assert not np.array_equal(pixels(png(compare_chart(ROWS))), pixels(png(compare_chart(unproven))))


def test_compare_chart_of_one_row_and_of_equal_times() -> None:
    one = png(compare_chart([{"algorithm": "auto", "moves": 0, "time_s": 0.0, "proven": True}]))
    assert one.width >= 600
    same = png(compare_chart([dict(r, time_s=0.5) for r in ROWS]))
    assert same.width >= 600


def test_bench_chart() -> None:
    rng = np.random.default_rng(4)
    known = rng.integers(15, 25, size=60).tolist()
    lengths = [k + int(d) for k, d in zip(known, rng.integers(0, 3, size=60))]
    times = (10 ** rng.uniform(0, 3, size=60)).tolist()
    two = png(bench_chart(lengths, times))
    three = png(bench_chart(lengths, times, known=known, title="bench"))
    assert 700 <= two.width < three.width <= 2400
    assert 300 <= two.height <= 900 and three.height == two.height
    assert has_colour(three, palette.colour(2)) and not has_colour(two, palette.colour(2))  # the difference panel


def test_bench_chart_leaves_out_unsolved_boards() -> None:
    chart = png(bench_chart([20, None, 21], [5.0, None, 7.5], known=[20, 19, None]))
    assert chart.width >= 700


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: compare_chart([]), "a compare chart needs at least one row"),
        (lambda: compare_chart([{"algorithm": "x", "moves": 3}]), "compare row 1 has no time_s"),
        (lambda: compare_chart([{"algorithm": "x", "moves": "many", "time_s": 1}]), "moves in compare row 1"),
        (lambda: compare_chart(ROWS, lower_bound=-1), "lower bound must be at least 0"),
        (lambda: bench_chart([1, 2], [1.0]), "lengths and times_ms differ in length"),
        (lambda: bench_chart([None], [None]), "needs at least one board with an answer"),
        (lambda: bench_chart([3], [float("nan")]), "times_ms of board 1 must be a number"),
        (lambda: bench_chart([3], [1.0], known=[1, 2]), "known has 2 values for 1 boards"),
    ],
)
def test_errors(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ColoritError) as info:
        call()
    assert message in str(info.value) and "\n" not in str(info.value)

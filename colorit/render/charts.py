"""Charts for ``compare --plot`` and ``bench --plot``, drawn with matplotlib's Agg backend.

Figures are made with ``matplotlib.figure.Figure`` and its Agg canvas directly, never
through ``pyplot``, so no global backend is chosen, no window opens and nothing is left
registered between calls. Bars take the colours of ``colorit.palette`` (colour-blind
friendly), one per algorithm, the same in both panels.
"""

from __future__ import annotations

import io
import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

from .. import palette as pal
from ..errors import ColoritError

_INK = "#222222"
_MUTED = "#666666"
_GRID = "#DDDDDD"
_DPI = 100


def _figure(width_in: float, height_in: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width_in, height_in), dpi=_DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _style(ax: Any) -> None:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(_MUTED)
    ax.tick_params(colors=_INK, labelsize=9)
    ax.grid(axis="y", color=_GRID, linewidth=0.8)
    ax.set_axisbelow(True)


def _time_ticks(ax: Any, unit_seconds: float, log: bool, span: float = 1e9) -> None:
    """Label a time axis "1 ms", "10 ms", "1 s" rather than in seconds or powers of ten
    (with 2 and 5 between the powers when the times span less than a factor of 100)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    if log:
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if span < 100 else (1.0,)))
        ax.yaxis.set_minor_formatter(NullFormatter())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: _seconds_label(v * unit_seconds)))


def _integer_ticks(ax: Any, lo: int, hi: int) -> None:
    """Whole numbers on both axes of a histogram of whole numbers from ``lo`` to ``hi``."""
    if hi - lo <= 15:
        ax.set_xticks(range(lo, hi + 1))
    else:
        ax.xaxis.get_major_locator().set_params(integer=True)
    ax.yaxis.get_major_locator().set_params(integer=True)


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=_DPI, facecolor="white")
    return buf.getvalue()


def _number(value: object, what: str, *, minimum: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)):
        raise ColoritError(f"{what} must be a number, got {value!r}")
    if float(value) < minimum:
        raise ColoritError(f"{what} must be at least {minimum:g}, got {value!r}")
    return float(value)


def _seconds_label(s: float) -> str:
    if s <= 0:
        return "0"
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    if s < 1:
        return f"{s * 1e3:.3g} ms"
    if s < 100:
        return f"{s:.3g} s"
    return f"{s:.0f} s"


def _ms_label(ms: float) -> str:
    return _seconds_label(ms / 1000)


def _check_rows(rows: object) -> list[dict[str, Any]]:
    if not isinstance(rows, Sequence) or isinstance(rows, (str, bytes)) or not rows:
        raise ColoritError("a compare chart needs at least one row (algorithm, moves, time_s, proven)")
    out = []
    for i, row in enumerate(rows, 1):
        if not isinstance(row, Mapping):
            raise ColoritError(f"compare row {i} is not a mapping of algorithm, moves, time_s, proven")
        missing = [k for k in ("algorithm", "moves", "time_s") if k not in row]
        if missing:
            raise ColoritError(f"compare row {i} has no {', '.join(missing)}")
        out.append(
            {
                "algorithm": str(row["algorithm"]),
                "moves": int(_number(row["moves"], f"moves in compare row {i}")),
                "time_s": _number(row["time_s"], f"time_s in compare row {i}"),
                "proven": bool(row.get("proven", False)),
            }
        )
    return out


def compare_chart(rows: Sequence[Mapping[str, Any]], *, lower_bound: int | None = None, title: str = "") -> bytes:
    """A PNG of one board's ``compare`` table: moves per algorithm (bars, the number on
    each, "✓" on answers proven optimal, the lower bound as a dashed line) beside the
    time each took (log scale when the times span more than a factor of 30).

    ``rows`` are mappings with ``algorithm``, ``moves``, ``time_s`` and ``proven`` (the
    rows ``colorit compare`` prints)."""
    table = _check_rows(rows)
    if lower_bound is not None:
        lower_bound = int(_number(lower_bound, "lower bound"))
    names = [r["algorithm"] for r in table]
    colours = [pal.colour(i) for i in range(len(table))]
    n = len(table)

    fig = _figure(max(7.0, 3.2 + 1.1 * n), 3.9)
    ax_moves, ax_time = fig.subplots(1, 2)
    _moves_panel(ax_moves, table, lower_bound, colours)
    _times_panel(ax_time, [r["time_s"] for r in table], colours)
    rotate = n > 5 or max(len(s) for s in names) > 9
    for ax in (ax_moves, ax_time):
        ax.set_xticks(list(range(n)), names, rotation=30 if rotate else 0, ha="right" if rotate else "center")
    if title:
        fig.suptitle(title, fontsize=11, color=_INK)
    return _png(fig)


def _moves_panel(ax: Any, table: list[dict[str, Any]], lower_bound: int | None, colours: list[str]) -> None:
    """Moves per algorithm: a bar each with its number ("✓" if proven), the lower bound."""
    _style(ax)
    xs = range(len(table))
    moves = [r["moves"] for r in table]
    ax.bar(xs, moves, color=colours, edgecolor=_INK, linewidth=0.6, width=0.7)
    top = max(moves + [lower_bound or 0])
    for x, m, r in zip(xs, moves, table):
        ax.text(x, m + top * 0.015, f"{m}" + (" ✓" if r["proven"] else ""), ha="center", va="bottom", fontsize=9, color=_INK)
    if lower_bound is not None:
        ax.axhline(lower_bound, color=_INK, linestyle="--", linewidth=1.2, label=f"lower bound: {lower_bound}")
    has_legend = lower_bound is not None or any(r["proven"] for r in table)
    ax.set_ylim(0, top * (1.4 if has_legend else 1.15) + 1)  # room for the numbers and the legend
    ax.set_ylabel("moves", color=_INK)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_title("moves (fewer is better)", fontsize=10, color=_INK)
    handles, labels = ax.get_legend_handles_labels()
    if any(r["proven"] for r in table):
        from matplotlib.lines import Line2D

        handles.append(Line2D([], [], linestyle="none", marker="$✓$", color=_INK, markersize=8))
        labels.append("proven optimal")
    if handles:
        ax.legend(handles, labels, loc="upper right", fontsize=8, framealpha=0.9, ncols=len(handles))


def _times_panel(ax: Any, times: list[float], colours: list[str]) -> None:
    """Time per algorithm: a bar each with its time, on a log scale past a factor of 30."""
    _style(ax)
    xs = range(len(times))
    floor = [max(t, 1e-4) for t in times]
    log = max(floor) / min(floor) > 30
    shown = floor if log else times  # a log axis cannot show 0
    ax.bar(xs, shown, color=colours, edgecolor=_INK, linewidth=0.6, width=0.7)
    if log:
        ax.set_yscale("log")
        ax.set_ylim(min(shown) / 2, max(shown) * 4)
    else:
        ax.set_ylim(0, max(max(shown) * 1.18, 1e-3))
    _time_ticks(ax, 1.0, log)
    for x, t, s in zip(xs, times, shown):
        y = s * (1.12 if log else 1.0) + (0 if log else max(shown) * 0.015)
        ax.text(x, y, _seconds_label(t), ha="center", va="bottom", fontsize=9, color=_INK)
    ax.set_ylabel("time (log scale)" if log else "time", color=_INK)
    ax.set_title("time (less is better)", fontsize=10, color=_INK)


def _check_series(values: object, what: str, *, allow_none: bool) -> list[float | None]:
    if not isinstance(values, Sequence) or isinstance(values, (str, bytes)):
        raise ColoritError(f"{what} must be a list of numbers")
    out: list[float | None] = []
    for i, v in enumerate(values, 1):
        if v is None and allow_none:
            out.append(None)
        else:
            out.append(_number(v, f"{what} of board {i}"))
    return out


def bench_chart(
    lengths: Sequence[int | None],
    times_ms: Sequence[float | None],
    *,
    known: Sequence[int | None] | None = None,
    title: str = "",
) -> bytes:
    """A PNG of a ``bench`` run: the histogram of answer lengths, the time of each board
    (log scale) and, with ``known`` (the optimum, or best known length, of each board),
    the histogram of the difference from it. Boards without an answer (``None``) are
    left out and counted in the panel titles."""
    lens = _check_series(lengths, "lengths", allow_none=True)
    ms = _check_series(times_ms, "times_ms", allow_none=True)
    if len(lens) != len(ms):
        raise ColoritError(f"lengths and times_ms differ in length ({len(lens)} and {len(ms)})")
    kn = None
    if known is not None:
        kn = _check_series(known, "known", allow_none=True)
        if len(kn) != len(lens):
            raise ColoritError(f"known has {len(kn)} values for {len(lens)} boards")
    solved = [i for i, v in enumerate(lens) if v is not None]
    if not solved:
        raise ColoritError("a bench chart needs at least one board with an answer")
    total = len(lens)

    panels = 3 if kn is not None else 2
    fig = _figure(4.3 * panels, 3.7)
    axes = fig.subplots(1, panels)
    _lengths_panel(axes[0], [int(lens[i]) for i in solved], total)  # type: ignore[arg-type]
    _board_times_panel(axes[1], ms)
    if kn is not None:
        _known_panel(axes[2], [int(lens[i]) - int(kn[i]) for i in solved if kn[i] is not None])  # type: ignore[arg-type]
    if title:
        fig.suptitle(title, fontsize=11, color=_INK)
    return _png(fig)


def _lengths_panel(ax: Any, values: list[int], total: int) -> None:
    """The histogram of answer lengths, the boards without one counted in the title."""
    _style(ax)
    lo, hi = min(values), max(values)
    ax.hist(values, bins=[b - 0.5 for b in range(lo, hi + 2)], color=pal.colour(1), edgecolor=_INK, linewidth=0.5)
    ax.set_xlabel("moves in the answer", color=_INK)
    ax.set_ylabel("boards", color=_INK)
    mean = sum(values) / len(values)
    missing = total - len(values)
    ax.set_title(
        f"answer lengths: {len(values)} boards, mean {mean:.1f}" + (f" ({missing} unsolved)" if missing else ""),
        fontsize=10,
        color=_INK,
    )
    _integer_ticks(ax, lo, hi)


def _board_times_panel(ax: Any, ms: list[float | None]) -> None:
    """The time of each board (log scale) and their median."""
    _style(ax)
    timed = [(i + 1, max(float(t), 1e-3)) for i, t in enumerate(ms) if t is not None]
    if timed:
        xs, ys = zip(*timed)
        size = 14 if len(timed) <= 200 else 6
        ax.scatter(xs, ys, s=size, color=pal.colour(0), edgecolor=_INK, linewidth=0.3, alpha=0.85, zorder=3)
        ordered = sorted(ys)
        half = len(ordered) // 2
        median = ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2
        ax.axhline(median, color=_INK, linestyle="--", linewidth=1, label=f"median {_ms_label(median)}")
        ax.legend(loc="upper right", fontsize=8, framealpha=0.9)
        ax.set_yscale("log")
        ax.set_ylim(min(ys) / 2, max(ys) * 3)
        _time_ticks(ax, 1e-3, True, max(ys) / min(ys))
    ax.set_xlabel("board", color=_INK)
    ax.set_ylabel("time (log scale)", color=_INK)
    ax.set_title("time per board", fontsize=10, color=_INK)
    ax.xaxis.get_major_locator().set_params(integer=True)


def _known_panel(ax: Any, diffs: list[int]) -> None:
    """The histogram of each answer's difference from the board's known length."""
    _style(ax)
    if diffs:
        lo, hi = min(diffs + [0]), max(diffs + [0])
        ax.hist(diffs, bins=[b - 0.5 for b in range(lo, hi + 2)], color=pal.colour(2), edgecolor=_INK, linewidth=0.5)
        at = sum(1 for d in diffs if d == 0)
        below = sum(1 for d in diffs if d < 0)
        title_text = f"vs known lengths: equal on {at} of {len(diffs)}"
        if below:
            title_text += f", {below} shorter"
        ax.set_title(title_text, fontsize=10, color=_INK)
        _integer_ticks(ax, lo, hi)
    else:
        ax.set_title("vs known: no board has a known length", fontsize=10, color=_INK)
    ax.set_xlabel("moves above the known length", color=_INK)
    ax.set_ylabel("boards", color=_INK)

"""Pictures of boards and solves: one palette (``colorit.palette``), three renderers.

- ``colorit.render.frames`` (Pillow): ``board_image``, ``replay_frames``, ``gif_bytes``
  (an animated replay) and ``keyframes_png`` (a sheet of key frames), plus
  ``cell_size_for``, the cell size a board gets when none is asked for; drawn from
  ``tiles`` (the frame palette, cell tiles, the flood's outline) and ``glyphs`` (the
  labels' font and shapes).
- ``colorit.render.charts`` (matplotlib, Agg): ``compare_chart`` and ``bench_chart``, the
  PNGs behind ``compare --plot`` and ``bench --plot``.
- ``colorit.render.terminal`` (pure Python): ``supports_colour``, ``board_text`` and
  ``replay``, the board and its replay as true-colour ANSI text or plain characters
  (``chars``: a board's ids, numbers or symbols, and the key between them).

Both replays draw the positions of ``colorit.render.replay``. Every function is pure
(board and moves in, bytes, images or text out) and takes its options by keyword; a bad
option is a ``ColoritError`` whose message a command can print as it is. This package
imports nothing heavy: Pillow and matplotlib load only with the module that needs them,
so the solve path and the terminal replay never pay for pictures.
"""

from __future__ import annotations

__all__: list[str] = []

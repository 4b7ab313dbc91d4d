"""Slow, obviously correct references for the tests: they work on cells, share no code
with the solvers, and search exhaustively."""

from __future__ import annotations

from collections import deque

Grid = tuple[tuple[int, ...], ...]


def flood(grid: Grid, start: tuple[int, int], colour: int) -> Grid:
    """Play ``colour``: recolour the start cell's component, as the game does."""
    h, w = len(grid), len(grid[0])
    old = grid[start[0]][start[1]]
    cells = [list(row) for row in grid]
    if old == colour:
        return grid
    todo = [start]
    seen = {start}
    while todo:
        r, c = todo.pop()
        cells[r][c] = colour
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= rr < h and 0 <= cc < w and (rr, cc) not in seen and grid[rr][cc] == old:
                seen.add((rr, cc))
                todo.append((rr, cc))
    return tuple(tuple(row) for row in cells)


def solved(grid: Grid) -> bool:
    first = grid[0][0]
    return all(v == first for row in grid for v in row)


def optimal_length(rows: list[list[int]], start: tuple[int, int] = (0, 0)) -> int:
    """Fewest moves to one colour, by breadth-first search over whole grids."""
    grid: Grid = tuple(tuple(r) for r in rows)
    colours = sorted({v for row in rows for v in row})
    if solved(grid):
        return 0
    seen = {grid}
    frontier = deque([(grid, 0)])
    while frontier:
        g, d = frontier.popleft()
        for c in colours:
            nxt = flood(g, start, c)
            if nxt in seen:
                continue
            if solved(nxt):
                return d + 1
            seen.add(nxt)
            frontier.append((nxt, d + 1))
    raise AssertionError("unreachable: every board can be solved")


def play_all(rows: list[list[int]], moves: list[int], start: tuple[int, int] = (0, 0)) -> Grid:
    grid: Grid = tuple(tuple(r) for r in rows)
    for m in moves:
        grid = flood(grid, start, m)
    return grid

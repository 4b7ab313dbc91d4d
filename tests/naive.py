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


# -- the one-move heuristics, on cells ---------------------------------------------------


def regions(grid: Grid) -> list[list[tuple[int, int]]]:
    """The grid's same-coloured 4-connected regions, numbered by their first cell in
    reading order (each a list of cells)."""
    h, w = len(grid), len(grid[0])
    seen: set[tuple[int, int]] = set()
    out: list[list[tuple[int, int]]] = []
    for r0 in range(h):
        for c0 in range(w):
            if (r0, c0) in seen:
                continue
            colour = grid[r0][c0]
            cells = [(r0, c0)]
            seen.add((r0, c0))
            todo = [(r0, c0)]
            while todo:
                r, c = todo.pop()
                for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= rr < h and 0 <= cc < w and (rr, cc) not in seen and grid[rr][cc] == colour:
                        seen.add((rr, cc))
                        cells.append((rr, cc))
                        todo.append((rr, cc))
            out.append(cells)
    return out


def frontier_regions(grid: Grid, start: tuple[int, int]) -> list[list[tuple[int, int]]]:
    """The regions outside the flood that touch it, in region-number order."""
    h, w = len(grid), len(grid[0])
    all_regions = regions(grid)
    flood_cells = set(next(cells for cells in all_regions if start in cells))
    touching = {
        (rr, cc)
        for r, c in flood_cells
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
        if 0 <= rr < h and 0 <= cc < w and (rr, cc) not in flood_cells
    }
    return [cells for cells in all_regions if touching.intersection(cells)]


def linear_moves(rows: list[list[int]], start: tuple[int, int] = (0, 0)) -> list[int]:
    """The basic AI on cells: the colour of the lowest-numbered region that touches the
    flood (regions numbered by their first cell in reading order)."""
    grid: Grid = tuple(tuple(r) for r in rows)
    moves = []
    while not solved(grid):
        first = frontier_regions(grid, start)[0][0]
        moves.append(grid[first[0]][first[1]])
        grid = flood(grid, start, moves[-1])
    return moves


def greedy_moves(rows: list[list[int]], start: tuple[int, int] = (0, 0)) -> list[int]:
    """Greedy on cells: the colour whose move floods the most cells now (ties: the
    smallest colour id)."""
    grid: Grid = tuple(tuple(r) for r in rows)
    moves = []
    while not solved(grid):
        gain: dict[int, int] = {}
        for cells in frontier_regions(grid, start):
            colour = grid[cells[0][0]][cells[0][1]]
            gain[colour] = gain.get(colour, 0) + len(cells)
        moves.append(min(gain, key=lambda colour: (-gain[colour], colour)))
        grid = flood(grid, start, moves[-1])
    return moves

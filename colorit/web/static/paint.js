// The flood drawn: a game's cells as pixels, rewriting only the flood's cells from one
// position to another, and the flood's outline as straight segments. No DOM here either
// (board_view.js puts them on the canvas), so node checks them in the tests.

/**
 * Paint the change from position `from` to position `to` of `game` into `pixels` (one
 * entry a cell, `lut[code]` a colour), touching only the flood's cells. `from` null
 * paints every cell.
 */
export function paintFlood(game, pixels, lut, from, to = game.pos) {
  const { order, sizes } = game;
  const codes = game.board.codes;
  if (from === null || from === undefined) {
    for (let i = 0; i < codes.length; i++) pixels[i] = lut[codes[i]];
  } else if (from > to) {
    for (let i = sizes[to]; i < sizes[from]; i++) pixels[order[i]] = lut[codes[order[i]]];
  }
  const colour = lut[game.floodColour(to)];
  const end = sizes[to];
  for (let i = 0; i < end; i++) pixels[order[i]] = colour;
}

/** The outline of `game`'s flood after k moves, see outlineSegments. */
export function floodOutline(game, k = game.pos) {
  return outlineSegments(game.mask(k), game.board.width, game.board.height);
}

/**
 * The border of a region as straight segments [x0, y0, x1, y1, ...] in cell units (x a
 * column edge, y a row edge), runs of cell edges merged into one segment. Edges on the
 * board's border count, so the region is closed.
 */
export function outlineSegments(mask, width, height) {
  const out = [];
  for (let y = 0; y <= height; y++) {
    let runStart = -1;
    for (let x = 0; x <= width; x++) {
      let edge = false;
      if (x < width) {
        const above = y > 0 ? mask[(y - 1) * width + x] : 0;
        const below = y < height ? mask[y * width + x] : 0;
        edge = above !== below;
      }
      if (edge && runStart < 0) runStart = x;
      else if (!edge && runStart >= 0) {
        out.push(runStart, y, x, y);
        runStart = -1;
      }
    }
  }
  for (let x = 0; x <= width; x++) {
    let runStart = -1;
    for (let y = 0; y <= height; y++) {
      let edge = false;
      if (y < height) {
        const left = x > 0 ? mask[y * width + x - 1] : 0;
        const right = x < width ? mask[y * width + x] : 0;
        edge = left !== right;
      }
      if (edge && runStart < 0) runStart = y;
      else if (!edge && runStart >= 0) {
        out.push(x, runStart, x, y);
        runStart = -1;
      }
    }
  }
  return out;
}

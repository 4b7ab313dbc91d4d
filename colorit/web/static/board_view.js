// The board on a canvas: one pixel a cell in an ImageData, scaled up without smoothing,
// only the flood's cells rewritten on a move (paint.js), the flood's outline one path,
// and the colour-blind labels on a layer of their own.
import { floodOutline, paintFlood } from "./paint.js";
import { SHAPES } from "./shapes.js";

const LABEL_MIN_PX = 14; // smaller cells get no label

function rgba(hex) {
  const v = parseInt(hex.slice(1), 16);
  // ImageData is RGBA in memory: little-endian words are 0xAABBGGRR
  return ((255 << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
}

/** A board and a game shown on `canvas`, as large as fits (whole pixels per cell). */
export class BoardView {
  constructor(canvas, maxPx, maxCell, fitHeight = 0) {
    this.canvas = canvas;
    this.fitHeight = fitHeight; // room to leave below and above, to keep the palette in view
    this.ctx = canvas.getContext("2d");
    this.maxPx = maxPx;
    this.maxCell = maxCell;
    this.board = null;
    this.game = null;
    this.shown = null; // position drawn into the pixels
    this.labels = "none"; // "numbers", "symbols" or "none"
    this.layer = new LabelLayer(this);
    this.lastMs = 0;
  }

  setBoard(board, palette) {
    this.board = board;
    this.palette = palette;
    this.lut = Uint32Array.from(palette.colours.map(rgba));
    this.image = new ImageData(board.width, board.height);
    this.pixels = new Uint32Array(this.image.data.buffer);
    this.cells = document.createElement("canvas");
    this.cells.width = board.width;
    this.cells.height = board.height;
    this.cellsCtx = this.cells.getContext("2d");
    this.game = null;
    this.shown = null;
    this.layout();
  }

  /** Canvas size: whole pixels per cell, as large as fits. */
  layout() {
    if (!this.board) return;
    const { width: w, height: h } = this.board;
    const cell = cellPixels(this);
    const dpr = window.devicePixelRatio || 1;
    this.cell = cell;
    this.scale = cell * dpr;
    this.canvas.width = Math.max(1, Math.round(w * cell * dpr));
    this.canvas.height = Math.max(1, Math.round(h * cell * dpr));
    this.canvas.style.width = `${this.canvas.width / dpr}px`;
    this.canvas.style.height = `${this.canvas.height / dpr}px`;
    this.layer.stale = true;
    this.draw();
    this.onLayout?.();
  }

  get labelsFit() {
    return this.scale >= LABEL_MIN_PX;
  }

  get labelsOn() {
    return this.labels !== "none" && this.labelsFit;
  }

  setLabels(kind) {
    this.labels = kind;
    this.layer.stale = true;
    this.draw();
  }

  /** Show `game` after k moves, rewriting only what changed since the last call. */
  show(game, k = game.pos) {
    const t0 = performance.now();
    // a position the line no longer has (moves replaced while another game was shown)
    // is painted afresh like another game
    if (game !== this.game || this.shown === null || this.shown > game.moves.length) {
      this.game = game;
      this.layer.stale = true;
      paintFlood(game, this.pixels, this.lut, null, k);
    } else if (k !== this.shown) {
      paintFlood(game, this.pixels, this.lut, this.shown, k);
      if (this.labelsOn && !this.layer.stale) this.layer.update(this.shown, k);
    }
    this.shown = k;
    this.draw();
    this.lastMs = performance.now() - t0;
    this.canvas.dataset.drawMs = this.lastMs.toFixed(2);
  }

  draw() {
    if (!this.board || !this.game) return;
    const { ctx, canvas } = this;
    this.cellsCtx.putImageData(this.image, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.cells, 0, 0, canvas.width, canvas.height);
    if (this.labelsOn) {
      if (this.layer.stale) this.layer.drawAll();
      ctx.drawImage(this.layer.canvas, 0, 0);
      // the flood carries one label, its colour's, on the start cell
      const [r, c] = this.board.start;
      const size = Math.round(this.scale);
      ctx.drawImage(this.layer.sprite(this.game.floodColour(this.shown)), Math.round(c * this.scale), Math.round(r * this.scale), size, size);
    }
    strokeOutline(ctx, floodOutline(this.game, this.shown), this.scale);
    markStart(ctx, this.board.start, this.scale);
  }

  /** The cell under a pointer event, or -1. */
  cellAt(event) {
    if (!this.board) return -1;
    const rect = this.canvas.getBoundingClientRect();
    const c = Math.floor(((event.clientX - rect.left) / rect.width) * this.board.width);
    const r = Math.floor(((event.clientY - rect.top) / rect.height) * this.board.height);
    if (r < 0 || c < 0 || r >= this.board.height || c >= this.board.width) return -1;
    return r * this.board.width + c;
  }
}

/** Pixels a cell (CSS pixels) for `view`'s board: whole ones where cells are big enough
 * to see it; on big boards, as many as fill the room. */
function cellPixels(view) {
  const { width: w, height: h } = view.board;
  const across = view.fitHeight
    ? window.innerWidth - (window.innerWidth > 860 ? 480 : 40) // the main board: beside the panels
    : (view.canvas.parentElement?.clientWidth || view.maxPx) - 4;
  const down = view.fitHeight ? window.innerHeight - view.fitHeight : view.maxPx;
  const room = Math.max(160, Math.min(view.maxPx, across, down));
  const exact = room / Math.max(w, h);
  return exact >= 4 ? Math.min(view.maxCell, Math.floor(exact)) : exact;
}

/** The flood's outline (segments in cells, `s` pixels a cell): dark, and white inside it
 * where cells are big enough. */
function strokeOutline(ctx, seg, s) {
  if (!seg.length) return;
  const path = new Path2D();
  for (let i = 0; i < seg.length; i += 4) {
    path.moveTo(seg[i] * s, seg[i + 1] * s);
    path.lineTo(seg[i + 2] * s, seg[i + 3] * s);
  }
  const width = Math.max(1, Math.min(4, s * 0.12));
  ctx.lineCap = "square";
  ctx.strokeStyle = "rgba(0,0,0,0.85)";
  ctx.lineWidth = width * 2;
  ctx.stroke(path);
  if (s >= 6) {
    ctx.strokeStyle = "#ffffff";
    ctx.lineWidth = width;
    ctx.stroke(path);
  }
}

/** A frame inside the start cell (clear of its centre and of its label), so the player
 * sees where the flood grows from; too small to see on tiny cells, so left out there. */
function markStart(ctx, [r, c], s) {
  if (s < 8) return;
  const inset = s * 0.04;
  const width = Math.max(1.5, s * 0.06);
  const x = c * s + inset + width;
  const y = r * s + inset + width;
  const side = s - 2 * (inset + width);
  ctx.strokeStyle = "rgba(0,0,0,0.9)";
  ctx.lineWidth = width * 2;
  ctx.strokeRect(x, y, side, side);
  ctx.strokeStyle = "#ffffff";
  ctx.lineWidth = width;
  ctx.strokeRect(x, y, side, side);
}

/** The labels of every cell outside the flood, on a canvas of their own: cells outside
 * never change, so a move only clears the cells it floods (and undo puts them back). */
class LabelLayer {
  constructor(view) {
    this.view = view;
    this.stale = true; // to be drawn again (new game, size, kind)
    this.sprites = new Map(); // code -> its label, at the current cell size
    this.canvas = null;
    this.ctx = null;
  }

  /** One picture a colour code (its number or shape in its ink), drawn once. */
  sprite(code) {
    let sprite = this.sprites.get(code);
    if (sprite) return sprite;
    const { palette, labels, scale } = this.view;
    const size = Math.round(scale);
    sprite = document.createElement("canvas");
    sprite.width = sprite.height = size;
    const c = sprite.getContext("2d");
    const ink = palette.ink[code];
    if (labels === "numbers") {
      const text = String(palette.numbers[code]);
      c.fillStyle = ink;
      c.font = `600 ${Math.round(size * (text.length > 2 ? 0.36 : 0.48))}px system-ui, sans-serif`;
      c.textAlign = "center";
      c.textBaseline = "middle";
      c.fillText(text, size / 2, size / 2 + size * 0.03);
    } else {
      const shape = SHAPES[palette.symbols[code]] || SHAPES.dot;
      c.scale(size / 100, size / 100);
      c.translate(18, 18);
      c.scale(0.64, 0.64);
      const path = new Path2D(shape.d);
      if (shape.stroke) {
        c.strokeStyle = ink;
        c.lineWidth = shape.stroke;
        c.lineCap = "round";
        c.stroke(path);
      } else {
        c.fillStyle = ink;
        c.fill(path);
      }
    }
    this.sprites.set(code, sprite);
    return sprite;
  }

  drawAll() {
    const { view } = this;
    this.sprites = new Map();
    this.stale = false;
    if (!this.canvas) this.canvas = document.createElement("canvas");
    this.canvas.width = view.canvas.width;
    this.canvas.height = view.canvas.height;
    this.ctx = this.canvas.getContext("2d");
    const { width: w, height: h, codes } = view.board;
    for (let i = 0; i < w * h; i++) if (!view.game.inFlood(i, view.shown)) this.labelCell(i, codes[i]);
  }

  labelCell(cell, code) {
    const w = this.view.board.width;
    const s = this.view.scale;
    const size = Math.round(s);
    const r = (cell / w) | 0;
    this.ctx.drawImage(this.sprite(code), Math.round((cell - r * w) * s), Math.round(r * s), size, size);
  }

  /** From position `from` to `to`: clear the cells the moves flooded, or label again
   * those undone. */
  update(from, to) {
    const { order, sizes } = this.view.game;
    const s = this.view.scale;
    const w = this.view.board.width;
    if (to > from) {
      for (let i = sizes[from]; i < sizes[to]; i++) {
        const cell = order[i];
        const r = (cell / w) | 0;
        const x0 = Math.round((cell - r * w) * s);
        const y0 = Math.round(r * s);
        this.ctx.clearRect(x0, y0, Math.round((cell - r * w + 1) * s) - x0, Math.round((r + 1) * s) - y0);
      }
    } else {
      const codes = this.view.board.codes;
      for (let i = sizes[to]; i < sizes[from]; i++) this.labelCell(order[i], codes[order[i]]);
    }
  }
}

// The game without a page: boards, the rules of the flood, and a line of play with undo
// and redo. Share links are in share.js, CSV in csv.js, colour ids and exact JSON in
// ids.js, the flood drawn in paint.js.
//
// Nothing here touches the DOM, so node runs it in the tests against the Python engine.
// Colours are kept as codes (the rank of a colour id among the board's ids, as in
// colorit.Board); the ids themselves stay exact decimal strings, because ids are any
// signed 64-bit integers and a JavaScript number loses them past 2**53.
import { Flood } from "./flood.js";
import { BoardFormatError, canonicalId, compareIds } from "./ids.js";

// ---------------------------------------------------------------------------------------
// Boards

/** A rectangular grid of colour codes with its exact ids and a start cell. */
export class Board {
  /**
   * @param {number} width
   * @param {number} height
   * @param {Int32Array} codes row-major, each 0 .. ids.length - 1
   * @param {string[]} ids canonical decimal ids, increasing: code i is ids[i]
   * @param {[number, number]} start [row, col]
   */
  constructor(width, height, codes, ids, start = [0, 0]) {
    if (!(width >= 1 && height >= 1)) throw new BoardFormatError("a board needs at least one row and one column");
    if (codes.length !== width * height) throw new BoardFormatError(`expected ${width * height} cells, got ${codes.length}`);
    const [r, c] = start;
    if (!(Number.isInteger(r) && Number.isInteger(c) && r >= 0 && r < height && c >= 0 && c < width)) {
      throw new BoardFormatError(
        `start cell ${r},${c} is outside the ${height}x${width} board (rows 0..${height - 1}, columns 0..${width - 1})`,
      );
    }
    this.width = width;
    this.height = height;
    this.codes = codes;
    this.ids = ids;
    this.start = [r, c];
    this.codeById = new Map(ids.map((id, code) => [id, code]));
  }

  /** A board from rows of ids (strings, BigInts or safe numbers), like Board.from_rows. */
  static fromRows(rows, start = [0, 0]) {
    const { width, height, text } = cellIds(rows);
    const ids = [...new Set(text)].sort(compareIds);
    const codeById = new Map(ids.map((id, code) => [id, code]));
    const codes = new Int32Array(width * height);
    for (let i = 0; i < codes.length; i++) codes[i] = codeById.get(text[i]);
    return new Board(width, height, codes, ids, start);
  }

  get size() {
    return this.width * this.height;
  }

  get nColours() {
    return this.ids.length;
  }

  get startIndex() {
    return this.start[0] * this.width + this.start[1];
  }

  withStart(start) {
    return new Board(this.width, this.height, this.codes, this.ids, start);
  }

  /** The code of a colour id (any form canonicalId takes), or -1 if the board lacks it. */
  codeOf(id) {
    let key;
    try {
      key = canonicalId(id);
    } catch {
      return -1;
    }
    const code = this.codeById.get(key);
    return code === undefined ? -1 : code;
  }

  /** Rows of ids for a grid of codes (this board's by default). */
  rows(codes = this.codes) {
    const out = [];
    for (let r = 0; r < this.height; r++) {
      const row = new Array(this.width);
      for (let c = 0; c < this.width; c++) row[c] = this.ids[codes[r * this.width + c]];
      out.push(row);
    }
    return out;
  }

  /** The JSON text of a grid of codes as rows of exact ids (numbers, not strings). */
  rowsJson(codes = this.codes) {
    const parts = [];
    const w = this.width;
    for (let r = 0; r < this.height; r++) {
      const row = new Array(w);
      for (let c = 0; c < w; c++) row[c] = this.ids[codes[r * w + c]];
      parts.push("[" + row.join(",") + "]");
    }
    return "[" + parts.join(",") + "]";
  }

  /** The board as Color-It CSV text. */
  toCsv(codes = this.codes) {
    return this.rows(codes).map((row) => row.join(",")).join("\n") + "\n";
  }
}

/** The shape of rows of ids and each cell's canonical id, row by row; BoardFormatError
 * for rows that are not a board's. */
function cellIds(rows) {
  if (!Array.isArray(rows) || rows.length === 0) throw new BoardFormatError("a board needs at least one row");
  const height = rows.length;
  const width = rows[0].length;
  if (!width) throw new BoardFormatError("a board needs at least one column");
  const text = new Array(width * height);
  for (let r = 0; r < height; r++) {
    const row = rows[r];
    if (!Array.isArray(row) || row.length !== width) {
      throw new BoardFormatError(`row ${r + 1} has ${Array.isArray(row) ? row.length : 0} values, expected ${width}`);
    }
    for (let c = 0; c < width; c++) {
      const v = row[c];
      text[r * width + c] = typeof v === "number" && Number.isSafeInteger(v) ? String(v) : canonicalId(v);
    }
  }
  return { width, height, text };
}

/**
 * How a person names colour code `code` (as colorit.palette.name): "colour N" with N the
 * colour's number (the server's palette `numbers`, code + 1: its button, label and key),
 * and its id beside it where the id differs: "colour 3 (id 2)".
 * @param {number} number the colour's number, from the palette
 * @param {string} id the colour's exact decimal id
 */
export function colourName(number, id) {
  return id === undefined || String(id) === String(number) ? `colour ${number}` : `colour ${number} (id ${id})`;
}

/**
 * The colour code a key plays: the code whose number (the palette's `numbers`) the key
 * shows, -1 for none. Keys 1-9 reach the first nine colours.
 * @param {string} key
 * @param {number[]} numbers the palette's number of each code
 */
export function codeOfKey(key, numbers) {
  if (!/^[1-9]$/.test(key)) return -1;
  return numbers.indexOf(Number(key));
}

/** The start cell [row, col] named by "top-left" or "center" ("centre"): as parse_start. */
export function startCell(spec, height, width) {
  if (Array.isArray(spec)) return [spec[0], spec[1]];
  const text = String(spec || "").trim().toLowerCase();
  if (text === "" || text === "top-left") return [0, 0];
  if (text === "center" || text === "centre") return [Math.floor(height / 2), Math.floor(width / 2)];
  const m = /^(\d+),(\d+)$/.exec(text);
  if (m) return [Number(m[1]), Number(m[2])];
  throw new BoardFormatError(`start ${JSON.stringify(spec)} is not ROW,COL, 'center' or 'top-left'`);
}

// ---------------------------------------------------------------------------------------
// A game: the flood with a position in its moves

/**
 * A line of play on a board: the moves (codes) and a position in them, so undo and redo
 * are moves of the position; the flood after each move is kept (see Flood).
 */
export class Game extends Flood {
  constructor(board, moves = []) {
    super(board);
    this.pos = 0;
    for (const m of moves) this.play(m);
  }

  /** Play colour `code` at the position. Playing what redo would play keeps the redo
   * moves; any other move replaces them. */
  play(code) {
    if (!(Number.isInteger(code) && code >= 0 && code < this.board.nColours)) {
      throw new BoardFormatError(`move ${this.pos + 1}: colour code ${code} is not on the board`);
    }
    if (this.pos < this.moves.length) {
      if (this.moves[this.pos] === code) {
        this.pos++;
        return;
      }
      this.truncate(this.pos);
    }
    this.extend(code);
    this.pos++;
  }

  get canUndo() {
    return this.pos > 0;
  }

  get canRedo() {
    return this.pos < this.moves.length;
  }

  undo() {
    if (this.pos > 0) this.pos--;
  }

  redo() {
    if (this.pos < this.moves.length) this.pos++;
  }

  /** Go to position k (0 .. moves.length) without changing the moves. */
  seek(k) {
    this.pos = Math.max(0, Math.min(this.moves.length, k));
  }

  /** The moves (codes) played up to the position. */
  played() {
    return this.moves.slice(0, this.pos);
  }

  /** The colour of the flood after k moves. */
  floodColour(k = this.pos) {
    return k === 0 ? this.board.codes[this.board.startIndex] : this.moves[k - 1];
  }

  /** How many cells the flood holds after k moves. */
  floodSize(k = this.pos) {
    return this.sizes[k];
  }

  isSolved(k = this.pos) {
    return this.sizes[k] === this.board.size;
  }

  inFlood(cell, k = this.pos) {
    const s = this.steps[cell];
    return s >= 0 && s <= k;
  }

  /** The colour code of a cell after k moves. */
  cellCode(cell, k = this.pos) {
    return this.inFlood(cell, k) ? this.floodColour(k) : this.board.codes[cell];
  }

  /** The grid of codes after k moves. */
  grid(k = this.pos) {
    const out = Int32Array.from(this.board.codes);
    const colour = this.floodColour(k);
    for (let i = 0; i < this.sizes[k]; i++) out[this.order[i]] = colour;
    return out;
  }

  /** 1 for each cell in the flood after k moves, else 0. */
  mask(k = this.pos) {
    const out = new Uint8Array(this.board.size);
    for (let i = 0; i < this.sizes[k]; i++) out[this.order[i]] = 1;
    return out;
  }

  /** The position after k moves as a board of its own (its flood is the start cell's
   * region, so solving it answers "what now?"), as the JSON text of its rows of ids. */
  gridJson(k = this.pos) {
    return this.board.rowsJson(this.grid(k));
  }
}

/** For each cell the move that flooded it (0: from the start, -1: never), as
 * Board.flood_steps, for moves given as codes. */
export function floodSteps(board, moves) {
  return Int32Array.from(new Game(board, moves).steps);
}

/** The grid of codes after the moves (codes), as Board.replay. */
export function replay(board, moves) {
  return new Game(board, moves).grid();
}

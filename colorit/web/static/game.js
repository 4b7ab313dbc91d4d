// The game without a page: boards, the flood, history, share links, CSV and exact JSON.
//
// Nothing here touches the DOM, so node runs it in the tests against the Python engine.
// Colours are kept as codes (the rank of a colour id among the board's ids, as in
// colorit.Board); the ids themselves stay exact decimal strings, because ids are any
// signed 64-bit integers and a JavaScript number loses them past 2**53.

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** One-line error about a board or a link the user gave (the CLI's BoardFormatError). */
export class BoardFormatError extends Error {
  constructor(message) {
    super(message);
    this.name = "BoardFormatError";
  }
}

// ---------------------------------------------------------------------------------------
// Colour ids

const INTEGER_TEXT = /^[+-]?[0-9]+$/;

/** The canonical decimal text of a colour id given as a string, a BigInt or a safe number. */
export function canonicalId(value) {
  let big;
  if (typeof value === "bigint") {
    big = value;
  } else if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new BoardFormatError(`colour id ${value} is not an exact integer`);
    big = BigInt(value);
  } else if (typeof value === "string" && INTEGER_TEXT.test(value)) {
    big = BigInt(value);
  } else {
    throw new BoardFormatError(`colour id ${JSON.stringify(value)} is not an integer`);
  }
  if (big < INT64_MIN || big > INT64_MAX) throw new BoardFormatError(`colour id ${big} is beyond the signed 64-bit range`);
  return big.toString();
}

function compareIds(a, b) {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---------------------------------------------------------------------------------------
// Exact JSON

let reviverHasSource = null;

function supportsSourceText() {
  if (reviverHasSource === null) {
    let seen = false;
    try {
      JSON.parse("[1]", (key, value, context) => {
        if (context && typeof context.source === "string") seen = true;
        return value;
      });
    } catch {
      seen = false;
    }
    reviverHasSource = seen;
  }
  return reviverHasSource;
}

/** Quote every integer literal of 16 digits or more outside strings (for engines whose
 * JSON.parse reviver gets no source text). */
function quoteLongIntegers(text) {
  let out = "";
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (ch === '"') {
      i++;
      while (i < n && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (ch === "-" || (ch >= "0" && ch <= "9")) {
      const begin = i;
      i++;
      while (i < n && text[i] >= "0" && text[i] <= "9") i++;
      const isInteger = i >= n || !".eE".includes(text[i]);
      if (!isInteger) {
        while (i < n && "0123456789.eE+-".includes(text[i])) i++;
      } else if (i - begin >= 16) {
        out += text.slice(last, begin) + '"' + text.slice(begin, i) + '"';
        last = i;
      }
    } else {
      i++;
    }
  }
  return out + text.slice(last);
}

/** JSON.parse that keeps integers beyond 2**53 exact: they come back as decimal strings
 * (other numbers as numbers; without the reviver's source text, as in node 20, every
 * integer of 16 digits or more is a string). */
export function parseJsonExact(text) {
  if (supportsSourceText()) {
    return JSON.parse(text, (key, value, context) =>
      typeof value === "number" && !Number.isSafeInteger(value) && context && INTEGER_TEXT.test(context.source)
        ? BigInt(context.source).toString()
        : value,
    );
  }
  return JSON.parse(quoteLongIntegers(text));
}

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

/** The start cell [row, col] named by "top-left" or "center" ("centre"): as parse_start. */
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
// The flood, with history

const FREE = 0;
const QUEUED = 1;
const FLOODED = 2;

/**
 * A line of play on a board: the moves (codes) and a position in them, so undo and redo
 * are moves of the position. For each cell it keeps the move that flooded it (`steps`,
 * as Board.flood_steps: 0 = from the start, -1 = not yet), and the cells in the order
 * they joined, so the flood after k moves is the first `sizes[k]` cells of `order`.
 * Playing extends the flood from its outer boundary only, as colorit.game.board does.
 */
export class Game {
  constructor(board, moves = []) {
    this.board = board;
    const n = board.size;
    this.moves = [];
    this.pos = 0;
    this.steps = new Int32Array(n).fill(-1);
    this.order = new Int32Array(n);
    this.sizes = [];
    this.state = new Uint8Array(n);
    this.boundary = new Int32Array(n);
    this.nBoundary = 0;
    this.stack = new Int32Array(n);
    this.#floodFromStart();
    for (const m of moves) this.play(m);
  }

  #floodFromStart() {
    const s = this.board.startIndex;
    this.state[s] = FLOODED;
    this.steps[s] = 0;
    this.order[0] = s;
    this.sizes = [1];
    this.stack[0] = s;
    this.#grow(this.board.codes[s], 1, 0);
  }

  /** Flood outward from the `sp` cells on the stack through cells of `colour`. */
  #grow(colour, sp, step) {
    const { codes, width: w, height: h } = this.board;
    const { state, steps, order, stack, boundary } = this;
    let size = this.sizes[step];
    let nb = this.nBoundary;
    while (sp > 0) {
      const cell = stack[--sp];
      const r = (cell / w) | 0;
      const c = cell - r * w;
      for (let d = 0; d < 4; d++) {
        let next;
        if (d === 0) {
          if (r + 1 >= h) continue;
          next = cell + w;
        } else if (d === 1) {
          if (r === 0) continue;
          next = cell - w;
        } else if (d === 2) {
          if (c + 1 >= w) continue;
          next = cell + 1;
        } else {
          if (c === 0) continue;
          next = cell - 1;
        }
        if (state[next] !== FREE) continue;
        if (codes[next] === colour) {
          state[next] = FLOODED;
          steps[next] = step;
          order[size++] = next;
          stack[sp++] = next;
        } else {
          state[next] = QUEUED;
          boundary[nb++] = next;
        }
      }
    }
    this.sizes[step] = size;
    this.nBoundary = nb;
  }

  /** Append a move (the flood's boundary is that of the last move). */
  #extend(colour) {
    const codes = this.board.codes;
    const { state, steps, order, stack, boundary } = this;
    const step = this.moves.length + 1;
    let size = this.sizes[step - 1];
    let keep = 0;
    let sp = 0;
    for (let k = 0; k < this.nBoundary; k++) {
      const cell = boundary[k];
      if (codes[cell] === colour) {
        state[cell] = FLOODED;
        steps[cell] = step;
        order[size++] = cell;
        stack[sp++] = cell;
      } else {
        boundary[keep++] = cell;
      }
    }
    this.nBoundary = keep;
    this.moves.push(colour);
    this.sizes[step] = size;
    this.#grow(colour, sp, step);
  }

  /** Forget the moves after the position (a new move after undo replaces them). */
  #truncate() {
    const k = this.pos;
    const { state, steps, order, boundary } = this;
    const { width: w, height: h } = this.board;
    for (let i = this.sizes[k]; i < this.sizes[this.sizes.length - 1]; i++) steps[order[i]] = -1;
    this.moves.length = k;
    this.sizes.length = k + 1;
    state.fill(FREE);
    const size = this.sizes[k];
    for (let i = 0; i < size; i++) state[order[i]] = FLOODED;
    let nb = 0;
    for (let i = 0; i < size; i++) {
      const cell = order[i];
      const r = (cell / w) | 0;
      const c = cell - r * w;
      if (r + 1 < h && state[cell + w] === FREE) (state[cell + w] = QUEUED), (boundary[nb++] = cell + w);
      if (r > 0 && state[cell - w] === FREE) (state[cell - w] = QUEUED), (boundary[nb++] = cell - w);
      if (c + 1 < w && state[cell + 1] === FREE) (state[cell + 1] = QUEUED), (boundary[nb++] = cell + 1);
      if (c > 0 && state[cell - 1] === FREE) (state[cell - 1] = QUEUED), (boundary[nb++] = cell - 1);
    }
    this.nBoundary = nb;
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
      this.#truncate();
    }
    this.#extend(code);
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

  /**
   * Paint the change from position `from` to position `to` into `pixels` (one entry a
   * cell, `lut[code]` a colour), touching only the flood's cells. `from` null paints
   * every cell.
   */
  paint(pixels, lut, from, to = this.pos) {
    const { order, sizes } = this;
    if (from === null || from === undefined) {
      const codes = this.board.codes;
      for (let i = 0; i < codes.length; i++) pixels[i] = lut[codes[i]];
    } else if (from > to) {
      const codes = this.board.codes;
      for (let i = sizes[to]; i < sizes[from]; i++) pixels[order[i]] = lut[codes[order[i]]];
    }
    const colour = lut[this.floodColour(to)];
    const end = sizes[to];
    for (let i = 0; i < end; i++) pixels[order[i]] = colour;
  }

  /** The outline of the flood after k moves, see outlineSegments. */
  outline(k = this.pos) {
    return outlineSegments(this.mask(k), this.board.width, this.board.height);
  }
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

/** For each cell the move that flooded it (0: from the start, -1: never), as
 * Board.flood_steps, for moves given as codes. */
export function floodSteps(board, moves) {
  return Int32Array.from(new Game(board, moves).steps);
}

/** The grid of codes after the moves (codes), as Board.replay. */
export function replay(board, moves) {
  const game = new Game(board, moves);
  return game.grid();
}

// ---------------------------------------------------------------------------------------
// Share links: the game in the URL's fragment

const CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

function encodeCodes(codes) {
  let small = true;
  for (const c of codes) if (c >= CHARS.length) small = false;
  if (small) {
    let s = "";
    for (const c of codes) s += CHARS[c];
    return ["", s];
  }
  return ["d", Array.from(codes).join(".")];
}

function decodeCodes(text, decimal, what) {
  if (decimal) {
    if (text === "") return [];
    return text.split(".").map((part) => {
      if (!/^[0-9]{1,9}$/.test(part)) throw new BoardFormatError(`share link: ${what} ${JSON.stringify(part)} is not a colour code`);
      return Number(part);
    });
  }
  const out = new Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = CHARS.indexOf(text[i]);
    if (c < 0) throw new BoardFormatError(`share link: ${what} ${JSON.stringify(text[i])} is not a colour code`);
    out[i] = c;
  }
  return out;
}

/**
 * The fragment (without '#') that holds a game: how to make its board and the moves
 * played (codes). `spec` is {kind: "generated", width, height, colours, seed, start}
 * (the server's generator makes the board again) or {kind: "board", board} (the board
 * itself, for uploads).
 */
export function encodeShare(spec, moves) {
  return shareBoardPart(spec) + "&" + shareMovesPart(moves);
}

/** The board half of a share fragment (the same for every move of a game). */
export function shareBoardPart(spec) {
  const parts = ["v=1"];
  if (spec.kind === "generated") {
    parts.push(`w=${spec.width}`, `h=${spec.height}`, `c=${spec.colours}`, `seed=${spec.seed}`);
    parts.push(`s=${spec.start[0]},${spec.start[1]}`);
  } else {
    const b = spec.board;
    const [flag, cells] = encodeCodes(b.codes);
    parts.push(`w=${b.width}`, `h=${b.height}`, `ids=${b.ids.join(",")}`, `b${flag}=${cells}`);
    parts.push(`s=${b.start[0]},${b.start[1]}`);
  }
  return parts.join("&");
}

/** The moves half of a share fragment. */
export function shareMovesPart(moves) {
  const [flag, text] = encodeCodes(moves);
  return `m${flag}=${text}`;
}

function positiveInt(params, key, max) {
  const text = params.get(key);
  if (text === null) throw new BoardFormatError(`share link: no ${key}`);
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw new BoardFormatError(`share link: ${key} ${JSON.stringify(text)} is not a whole number from 1 to ${max}`);
  }
  return Number(text);
}

/** The game in a fragment made by encodeShare: {spec, moves}; BoardFormatError if it is
 * not one. The moves are checked against the board by the caller (a generated board is
 * known only once the server made it). */
export function decodeShare(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  if (params.get("v") !== "1") throw new BoardFormatError("share link: not a colorit game (no v=1)");
  const width = positiveInt(params, "w", 100000);
  const height = positiveInt(params, "h", 100000);
  const startText = params.get("s") || "0,0";
  const sm = /^(\d{1,9}),(\d{1,9})$/.exec(startText);
  if (!sm) throw new BoardFormatError(`share link: start ${JSON.stringify(startText)} is not ROW,COL`);
  const start = [Number(sm[1]), Number(sm[2])];
  let spec;
  if (params.has("ids")) {
    const ids = params.get("ids").split(",").map((id) => canonicalId(id));
    const decimal = params.has("bd");
    const cellText = decimal ? params.get("bd") : params.get("b");
    if (cellText === null) throw new BoardFormatError("share link: no board cells");
    const codes = decodeCodes(cellText, decimal, "cell");
    if (codes.length !== width * height) {
      throw new BoardFormatError(`share link: ${codes.length} cells for a ${width}x${height} board`);
    }
    for (let i = 1; i < ids.length; i++) {
      if (compareIds(ids[i - 1], ids[i]) >= 0) throw new BoardFormatError("share link: colour ids out of order");
    }
    const seen = new Uint8Array(ids.length);
    for (const c of codes) {
      if (c >= ids.length) throw new BoardFormatError(`share link: colour code ${c} with ${ids.length} colours`);
      seen[c] = 1;
    }
    if (seen.includes(0)) throw new BoardFormatError("share link: a colour id that no cell has");
    spec = { kind: "board", board: new Board(width, height, Int32Array.from(codes), ids, start) };
  } else {
    const seed = params.get("seed") || "";
    if (!/^[0-9]{1,80}$/.test(seed)) throw new BoardFormatError(`share link: seed ${JSON.stringify(seed)} is not a whole number`);
    spec = {
      kind: "generated",
      width,
      height,
      colours: positiveInt(params, "c", 1000000),
      seed: BigInt(seed).toString(),
      start,
    };
    if (start[0] >= height || start[1] >= width) {
      throw new BoardFormatError(`share link: start ${start[0]},${start[1]} is outside the ${height}x${width} board`);
    }
  }
  const decimalMoves = params.has("md");
  const moves = decodeCodes(params.get(decimalMoves ? "md" : "m") || "", decimalMoves, "move");
  return { spec, moves };
}

// ---------------------------------------------------------------------------------------
// Color-It CSV, read as colorit.io.csvfile reads it (same messages)

// Python's str.strip() and str.isspace() whitespace.
const PY_SPACE = new Set(
  "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000",
);

function pyStrip(s) {
  let a = 0;
  let b = s.length;
  while (a < b && PY_SPACE.has(s[a])) a++;
  while (b > a && PY_SPACE.has(s[b - 1])) b--;
  return s.slice(a, b);
}

const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's repr() of a str. */
export function pyRepr(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (cp < 0x20 || cp === 0x7f) out += "\\x" + cp.toString(16).padStart(2, "0");
    else if (cp < 0x7f) out += ch;
    else if (ch !== " " && NOT_PRINTABLE.test(ch)) {
      if (cp <= 0xff) out += "\\x" + cp.toString(16).padStart(2, "0");
      else if (cp <= 0xffff) out += "\\u" + cp.toString(16).padStart(4, "0");
      else out += "\\U" + cp.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}

const ROW = /^[ \t]*[+-]?[0-9]+[ \t]*(?:,[ \t]*[+-]?[0-9]+[ \t]*)*$/;

function badValue(name, lineNo, values) {
  for (let col = 1; col <= values.length; col++) {
    const value = pyStrip(values[col - 1]);
    const where = `${name}:${lineNo}:${col}`;
    if (!value) return new BoardFormatError(`${where}: empty value`);
    if (!INTEGER_TEXT.test(value)) return new BoardFormatError(`${where}: ${pyRepr(value)} is not an integer`);
    const big = BigInt(value);
    if (big < INT64_MIN || big > INT64_MAX) return new BoardFormatError(`${where}: ${value} is beyond the signed 64-bit range`);
  }
  return new BoardFormatError(`${name}:${lineNo}: cannot read this row`);
}

/** The lines of a board file's text: line ends LF, CRLF or CR, trailing blank lines
 * dropped (a leading BOM is removed when the bytes are decoded). */
export function boardLines(text) {
  const lines = text.replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n");
  while (lines.length && !pyStrip(lines[lines.length - 1])) lines.pop();
  return lines;
}

/** Rows of canonical ids from board lines: csvio.parse_board_lines, message for message. */
export function parseBoardLines(lines, name = "<board>") {
  if (!lines.length) throw new BoardFormatError(`${name}: file is empty, expected rows of comma-separated integers`);
  const rows = [];
  let width = -1;
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (!pyStrip(line)) {
      throw new BoardFormatError(`${name}:${lineNo}: blank line ${lineNo === 1 ? "before" : "inside"} the board`);
    }
    const values = line.split(",");
    if (!ROW.test(line)) throw badValue(name, lineNo, values);
    const row = values.map((v) => BigInt(v.trim()));
    if (row.some((v) => v < INT64_MIN || v > INT64_MAX)) throw badValue(name, lineNo, values);
    if (width < 0) width = row.length;
    else if (row.length !== width) {
      throw new BoardFormatError(
        `${name}:${lineNo}: row has ${row.length} value${row.length !== 1 ? "s" : ""}, expected ${width}`,
      );
    }
    rows.push(row.map((v) => v.toString()));
  });
  return rows;
}

/** The offset of the first byte that is not valid UTF-8 (as Python's decoder finds it), or -1. */
export function firstInvalidUtf8(bytes) {
  const n = bytes.length;
  let i = 0;
  const cont = (j, lo = 0x80, hi = 0xbf) => j < n && bytes[j] >= lo && bytes[j] <= hi;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) i += 1;
    else if (b >= 0xc2 && b <= 0xdf) {
      if (!cont(i + 1)) return i;
      i += 2;
    } else if (b >= 0xe0 && b <= 0xef) {
      const lo = b === 0xe0 ? 0xa0 : 0x80;
      const hi = b === 0xed ? 0x9f : 0xbf;
      if (!cont(i + 1, lo, hi) || !cont(i + 2)) return i;
      i += 3;
    } else if (b >= 0xf0 && b <= 0xf4) {
      const lo = b === 0xf0 ? 0x90 : 0x80;
      const hi = b === 0xf4 ? 0x8f : 0xbf;
      if (!cont(i + 1, lo, hi) || !cont(i + 2) || !cont(i + 3)) return i;
      i += 4;
    } else return i;
  }
  return -1;
}

/** The text of a board file's bytes (UTF-8, a leading BOM dropped); BoardFormatError
 * naming the line of the first byte that is not UTF-8. */
export function decodeBoardBytes(bytes, name = "<board>") {
  let data = bytes;
  let offset = 0;
  if (data.length >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) {
    data = data.subarray(3);
    offset = 3;
  }
  const bad = firstInvalidUtf8(data);
  if (bad >= 0) {
    let line = 1;
    for (let i = 0; i < bad + offset; i++) if (bytes[i] === 10) line++;
    const byte = "0x" + data[bad].toString(16).padStart(2, "0");
    throw new BoardFormatError(`${name}:${line}: not utf-8 text (byte ${byte})`);
  }
  return new TextDecoder("utf-8").decode(data);
}

/** A Board from Color-It CSV text. */
export function parseBoardCsv(text, name = "<board>", start = "top-left") {
  const rows = parseBoardLines(boardLines(text.replace(/^\ufeff/, "")), name);
  const height = rows.length;
  const width = rows[0].length;
  return Board.fromRows(rows, startCell(start, height, width));
}

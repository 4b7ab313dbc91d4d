// Game IDs of Simon Tatham's Flood, read and written as colorit.io.gameid does (same
// boards, same one-line messages naming the column), so the page takes the IDs that
// game shows and gives back IDs it takes.
//
// The forms: WxH:DESC,LIMIT and WxHcCmK:DESC,LIMIT (C colours, K extra moves). DESC has
// one character per cell in reading order, 0-9 then A-Z (colours 10 to 35); LIMIT is
// that game's move limit. A cell's character value is its colour id; writing uses a
// board's ids when all are 0..35, else its colour codes (the rank of each id).
//
// Nothing here touches the DOM: node runs it in the tests against the Python parser.
import { boardLines, parseBoardCsv, pyRepr } from "./csv.js";
import { Board, startCell } from "./game.js";
import { BoardFormatError } from "./ids.js";

export const DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const MAX_COLOURS = DIGITS.length;
export const MAX_CELLS = 50_000_000;
export const MAX_MOVES = 1_000_000_000;

/** Whether a board text's first line is meant as a game ID: CSV never holds a ':'. */
export function looksLikeGameId(line) {
  return line.includes(":");
}

/** A cursor over one line (by code point, as Python counts) naming each fault's column. */
class Reader {
  constructor(text, name, line) {
    this.chars = Array.from(text);
    this.pos = 0;
    this.name = name;
    this.line = line;
  }

  fail(message, pos = this.pos) {
    const col = pos + 1;
    const where = this.line != null ? `${this.name}:${this.line}:${col}` : `${this.name}: column ${col}`;
    return new BoardFormatError(`${where}: ${message}`);
  }

  peek() {
    return this.pos < this.chars.length ? this.chars[this.pos] : "";
  }

  shown() {
    const ch = this.peek();
    return ch ? pyRepr(ch) : "the end of the line";
  }

  number(what, limit) {
    let end = this.pos;
    while (end < this.chars.length && this.chars[end] >= "0" && this.chars[end] <= "9") end++;
    if (end === this.pos) throw this.fail(`expected ${what} (a whole number), found ${this.shown()}`);
    const text = this.chars.slice(this.pos, end).join("");
    const value = BigInt(text);
    if (value > BigInt(limit)) throw this.fail(`${what} ${text} is more than ${limit}`);
    this.pos = end;
    return Number(value);
  }

  expect(ch, why) {
    if (this.peek() !== ch) throw this.fail(`expected ${pyRepr(ch)} ${why}, found ${this.shown()}`);
    this.pos++;
  }
}

/**
 * The parts of a game ID (either form; spaces and tabs around it are ignored):
 * {width, height, values: Int32Array of colour ids in reading order, colours,
 * extra (null in the short form), limit, text: the ID without the spaces around it}. BoardFormatError naming the column otherwise.
 * @param {string} text
 * @param {string} name what messages call it
 * @param {number|null} line its line in a file, if it came from one
 */
export function parseGameId(text, name = "game ID", line = null) {
  const r = new Reader(text, name, line);
  while (r.peek() === " " || r.peek() === "\t") r.pos++;
  let end = r.chars.length;
  while (end > r.pos && (r.chars[end - 1] === " " || r.chars[end - 1] === "\t")) end--;
  r.chars = r.chars.slice(0, end);
  if (r.pos === end) throw r.fail("empty game ID, expected WxH:DESC,LIMIT");
  const sizeAt = r.pos;
  const width = r.number("the width", MAX_CELLS);
  r.expect("x", "between the width and the height (WxH)");
  const height = r.number("the height", MAX_CELLS);
  if (width < 1 || height < 1) throw r.fail(`a ${width}x${height} board has no cells`, sizeAt);
  if (width * height > MAX_CELLS) throw r.fail(`a ${width}x${height} board has more than ${MAX_CELLS.toLocaleString("en-US")} cells`, sizeAt);
  let colours = null;
  let extra = null;
  if (r.peek() === "c") {
    r.pos++;
    const at = r.pos;
    colours = r.number("the number of colours", MAX_CELLS);
    if (colours > MAX_COLOURS) throw r.fail(`${colours} colours are more than the ${MAX_COLOURS} that 0-9 and A-Z can name`, at);
    if (colours < 1) throw r.fail("a board needs at least 1 colour", at);
  }
  if (r.peek() === "m") {
    r.pos++;
    extra = r.number("the extra moves", MAX_MOVES);
  }
  r.expect(":", "after the parameters (WxH or WxHcCmK)");
  const n = width * height;
  const descAt = r.pos;
  const values = new Int32Array(n);
  let highest = 0;
  for (let i = 0; i < n; i++) {
    const ch = r.peek();
    if (ch === "," || !ch) throw r.fail(`the description has ${i} cells, a ${width}x${height} board needs ${n}`);
    const value = DIGITS.indexOf(ch);
    if (value < 0) throw r.fail(`${pyRepr(ch)} is not a colour (0-9, A-Z)`);
    if (colours !== null && value >= colours) {
      throw r.fail(`${pyRepr(ch)} is colour ${value}, but the parameters give ${colours} colours (0 to ${colours - 1})`);
    }
    values[i] = value;
    if (value > highest) highest = value;
    r.pos++;
  }
  if (r.peek() !== "," && r.peek() !== "") {
    let more = 0;
    for (let i = descAt; i < r.chars.length && r.chars[i] !== ","; i++) more++;
    throw r.fail(`the description has ${more} cells, a ${width}x${height} board needs ${n}`);
  }
  r.expect(",", "and the move limit after the description");
  const limit = r.number("the move limit", MAX_MOVES);
  if (r.peek()) throw r.fail(`unexpected ${r.shown()} after the move limit`);
  const trimmed = r.chars.slice(sizeAt).join("");
  return { width, height, values, colours: colours ?? highest + 1, extra, limit, text: trimmed };
}

/** The Board a parsed game ID describes (ids: the cells' character values). */
export function gameIdBoard(game, start = [0, 0]) {
  const rows = [];
  for (let r = 0; r < game.height; r++) rows.push(Array.from(game.values.subarray(r * game.width, (r + 1) * game.width)));
  return Board.fromRows(rows, start);
}

/** "limit 18" or "limit 18 (13 + 5 extra)", as GameId.describe_limit. */
export function describeLimit(game) {
  return game.extra ? `limit ${game.limit} (${game.limit - game.extra} + ${game.extra} extra)` : `limit ${game.limit}`;
}

/** Each cell's DESC value: the board's ids when all are 0..35, else its codes. */
export function gameIdDigits(board) {
  if (board.nColours > MAX_COLOURS) {
    throw new BoardFormatError(`a game ID names at most ${MAX_COLOURS} colours (0-9, A-Z); this board has ${board.nColours}`);
  }
  const small = board.ids.every((id) => /^[0-9]{1,2}$/.test(id) && Number(id) < MAX_COLOURS);
  if (!small) return board.codes;
  const values = board.ids.map(Number);
  return Int32Array.from(board.codes, (code) => values[code]);
}

/** The full form WxHcCmK:DESC,LIMIT of a board, as gameid.format_game_id. */
export function formatGameId(board, limit, extra = 0, colours = null) {
  const digits = gameIdDigits(board);
  let highest = 0;
  for (const v of digits) if (v > highest) highest = v;
  highest += 1;
  const c = colours ?? highest;
  if (!(c >= highest && c <= MAX_COLOURS)) throw new BoardFormatError(`colours must be ${highest} to ${MAX_COLOURS} for this board, got ${c}`);
  let desc = "";
  for (const v of digits) desc += DIGITS[v];
  return `${board.width}x${board.height}c${c}m${extra}:${desc},${limit}`;
}

/**
 * A board file's text (BOM already dropped), CSV or a one-line game ID, as
 * colorit.io.csvfile.read_board_file reads it: {board, game} with game null for CSV.
 */
export function parseBoardText(text, name = "<board>", start = "top-left") {
  const lines = boardLines(text.replace(/^\ufeff/, ""));
  if (!lines.length || !looksLikeGameId(lines[0])) return { board: parseBoardCsv(text, name, start), game: null };
  for (let i = 1; i < lines.length; i++) {
    if (boardLines(lines[i]).length) {
      throw new BoardFormatError(`${name}:${i + 1}: a game ID file holds one line, found more`);
    }
  }
  const game = parseGameId(lines[0], name, 1);
  return { board: gameIdBoard(game, startCell(start, game.height, game.width)), game };
}

// Color-It CSV, read as colorit.io.csvfile reads it (the same messages). Nothing here
// touches the DOM.
import { Board, startCell } from "./game.js";
import { BoardFormatError, INT64_MAX, INT64_MIN, INTEGER_TEXT } from "./ids.js";

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

/** Rows of canonical ids from board lines: colorit.io.csvfile.parse_board_lines, message for message. */
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

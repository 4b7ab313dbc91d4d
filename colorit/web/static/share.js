// Share links: a game in the URL's fragment (how to make its board, and the moves
// played). Nothing here touches the DOM.
import { Board } from "./game.js";
import { BoardFormatError, canonicalId, compareIds } from "./ids.js";

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

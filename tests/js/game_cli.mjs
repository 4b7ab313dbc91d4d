// Runs the page's game logic (colorit/web/static: game.js, csv.js, share.js, ids.js,
// paint.js) for tests/test_web_game_js.py: reads one JSON request
// on stdin ({"op": ..., "cases": [...]}) and prints one JSON answer per case, ids as
// exact decimal strings.
import { readFileSync } from "node:fs";
import { decodeBoardBytes, parseBoardCsv } from "../../colorit/web/static/csv.js";
import { Board, Game, codeOfKey, colourName, floodSteps, replay } from "../../colorit/web/static/game.js";
import { parseJsonExact } from "../../colorit/web/static/ids.js";
import { floodOutline, paintFlood } from "../../colorit/web/static/paint.js";
import { decodeShare, encodeShare } from "../../colorit/web/static/share.js";

const request = parseJsonExact(readFileSync(0, "utf-8"));

function errorOf(fn) {
  try {
    return { value: fn() };
  } catch (e) {
    if (e.name !== "BoardFormatError") throw e;
    return { error: e.message };
  }
}

function flood(c) {
  const board = Board.fromRows(c.board, c.start);
  const game = new Game(board);
  for (const [op, id] of c.ops) {
    if (op === "play") {
      const code = board.codeOf(id);
      if (code < 0) throw new Error(`id ${id} not on the board`);
      game.play(code);
    } else if (op === "undo") game.undo();
    else if (op === "redo") game.redo();
    else if (op === "seek") game.seek(id);
    else throw new Error(`unknown op ${op}`);
  }
  const k = game.pos;
  const steps = Array.from(game.steps, (s) => (s > k ? -1 : s));
  // paint from the start position, then to k, and compare with a full paint
  const lut = Uint32Array.from(board.ids.map((_, i) => i + 1000));
  const painted = new Uint32Array(board.size);
  paintFlood(game, painted, lut, null, 0);
  for (let j = 1; j <= game.moves.length; j++) paintFlood(game, painted, lut, j - 1, j);
  paintFlood(game, painted, lut, game.moves.length, k);
  const direct = new Uint32Array(board.size);
  paintFlood(game, direct, lut, null, k);
  const gridCodes = game.grid();
  return {
    grid: board.rows(gridCodes),
    grid_json: game.gridJson(),
    played: game.played().map((code) => board.ids[code]),
    all_moves: game.moves.map((code) => board.ids[code]),
    steps,
    all_steps: Array.from(game.steps),
    fresh_steps: Array.from(floodSteps(board, game.played())),
    fresh_grid: board.rows(replay(board, game.played())),
    mask: Array.from(game.mask()),
    painted_ok: painted.every((v, i) => v === direct[i] && v === lut[gridCodes[i]]),
    solved: game.isSolved(),
    flood_size: game.floodSize(),
    can_undo: game.canUndo,
    can_redo: game.canRedo,
    outline: floodOutline(game),
    ids: board.ids,
  };
}

function csv(c) {
  const r = errorOf(() => {
    const text = c.bytes !== undefined ? decodeBoardBytes(Uint8Array.from(Buffer.from(c.bytes, "base64")), c.name) : c.text;
    return parseBoardCsv(text, c.name).rows();
  });
  return r.error !== undefined ? { error: r.error } : { rows: r.value };
}

function share(c) {
  const board = Board.fromRows(c.board, c.start);
  const spec = c.kind === "board" ? { kind: "board", board } : { ...c.spec, kind: "generated" };
  const moves = c.moves.map((id) => board.codeOf(id));
  const fragment = encodeShare(spec, moves);
  const back = decodeShare("#" + fragment);
  const out = { fragment, moves: back.moves.map((code) => board.ids[code]), kind: back.spec.kind };
  if (back.spec.kind === "board") {
    out.board = back.spec.board.rows();
    out.start = back.spec.board.start;
  } else {
    out.spec = { ...back.spec };
  }
  return out;
}

function badShare(c) {
  const r = errorOf(() => decodeShare(c.fragment));
  return r.error !== undefined ? { error: r.error } : { ok: true };
}

function json(c) {
  const value = parseJsonExact(c.text);
  return { value: JSON.stringify(value, (k, v) => (typeof v === "number" ? String(v) : v)) };
}

function names(c) {
  return { name: colourName(c.number, c.id), key: codeOfKey(c.key, c.numbers) };
}

const ops = { flood, csv, share, bad_share: badShare, json, names };
const handler = ops[request.op];
if (!handler) throw new Error(`unknown op ${request.op}`);
process.stdout.write(JSON.stringify(request.cases.map(handler)));

// Runs colorit/web/static/tatham.js for tests/test_web_tatham_js.py: reads one JSON request
// on stdin ({"op": ..., "cases": [...]}) and prints one JSON answer per case.
import { readFileSync } from "node:fs";
import { formatGameId, parseBoardText, parseGameId } from "../../colorit/web/static/tatham.js";

const request = JSON.parse(readFileSync(0, "utf-8"));

function caught(fn) {
  try {
    return fn();
  } catch (e) {
    if (e.name !== "BoardFormatError") throw e;
    return { error: e.message };
  }
}

// a game ID as the page's field takes it: the board's rows, colours, extra moves, limit
function parse(c) {
  return caught(() => {
    const g = parseGameId(c.text, c.name ?? "game ID", c.line ?? null);
    const rows = [];
    for (let r = 0; r < g.height; r++) rows.push(Array.from(g.values.subarray(r * g.width, (r + 1) * g.width)));
    return { rows, colours: g.colours, extra: g.extra, limit: g.limit };
  });
}

// a board file's text (a pasted or uploaded board): CSV or a game ID
function file(c) {
  return caught(() => {
    const { board, game } = parseBoardText(c.text, c.name);
    return { rows: board.rows(), start: board.start, limit: game ? game.limit : null };
  });
}

// rows of ids (decimal strings) written as a game ID
function format(c) {
  return caught(() => {
    const { board } = parseBoardText(c.rows.map((row) => row.join(",")).join("\n"), "<board>");
    return { text: formatGameId(board, c.limit, c.extra, c.colours ?? null) };
  });
}

const ops = { parse, file, format };
const handler = ops[request.op];
if (!handler) throw new Error(`unknown op ${request.op}`);
process.stdout.write(JSON.stringify(request.cases.map(handler)));

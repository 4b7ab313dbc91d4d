// New games: from the form (the server's generator, as `colorit generate`), the daily
// board, a CSV file or paste, a game ID (tatham_ui.js), or a share link.
import { parSolve, proveParOf } from "./against_par.js";
import { api } from "./api.js";
import { buildPalette, describeGame, render, updateDownload, updateShare } from "./board_panel.js";
import { decodeBoardBytes } from "./csv.js";
import { DAILY, dailyDayOf, dayOf, seedOf } from "./daily.js";
import { Board, Game, startCell } from "./game.js";
import { parseBoardText } from "./tatham.js";
import { BoardFormatError, canonicalId } from "./ids.js";
import { $, guard, mainView, MAX_PALETTE, miniView, showError, state } from "./page.js";
import { decodeShare, shareBoardPart, shareMovesPart } from "./share.js";
import { finish } from "./summary.js";
import { cancelSolves, setResult, stopReplay } from "./watch.js";

/** The swatches, inks, symbols and numbers of n colours, asked of the server once. */
async function paletteFor(n) {
  if (!state.palettes.has(n)) state.palettes.set(n, await api(`/api/palette?n=${n}`));
  return state.palettes.get(n);
}

/** Start a game on `board` (made as `spec` says), with `moves` (codes) already played. */
export async function startGame(spec, board, moves = []) {
  if (board.nColours > MAX_PALETTE) {
    throw new BoardFormatError(`the page shows at most ${MAX_PALETTE} colours; this board has ${board.nColours}`);
  }
  for (const [i, m] of moves.entries()) {
    if (m >= board.nColours) throw new BoardFormatError(`share link: move ${i + 1} is colour code ${m}, the board has ${board.nColours} colours`);
  }
  const palette = await paletteFor(board.nColours);
  state.generation++;
  parSolve.reset();
  cancelSolves();
  stopReplay();
  state.hintController?.abort();
  state.summaryController?.abort();
  state.onParController?.abort();
  state.endController?.abort();
  state.verdicts = new Map();
  state.interim = new Map();
  state.lostPar = null;
  state.dailyDay = dailyDayOf(spec) === dayOf() ? dayOf() : null;
  state.spec = spec;
  state.board = board;
  state.palette = palette;
  state.game = new Game(board);
  for (const m of moves) if (!state.game.isSolved()) state.game.play(m);
  state.known = new Map();
  state.finals = { best: null, linear: null };
  state.mode = "play";
  state.shareBase = shareBoardPart(spec);
  mainView.setBoard(board, palette);
  miniView.setBoard(board, palette);
  $("board-2").parentElement.hidden = true;
  buildPalette();
  for (const i of [0, 1]) setResult(i, "idle", "–");
  $("moves-2").textContent = "0";
  $("summary").hidden = true;
  $("par-end").hidden = true;
  $("daily-end").hidden = true;
  showError("");
  describeGame();
  updateDownload();
  render();
  document.dispatchEvent(new CustomEvent("colorit:game", { detail: { board, spec } })); // tatham_ui.js
  if (state.game.isSolved()) finish();
  proveParOf(board);
}

/** A board of the form's size, colours, seed and start. */
export async function newGameFromForm() {
  const number = (id, lo, hi) => {
    const text = $(id).value.trim();
    const v = Number(text);
    if (!/^[0-9]+$/.test(text) || v < lo || v > hi) throw new BoardFormatError(`${id} must be a whole number from ${lo} to ${hi}`);
    return v;
  };
  const maxCells = state.config?.max_cells ?? 90000;
  const width = number("width", 1, maxCells);
  const height = number("height", 1, maxCells);
  const colours = number("colours", 1, MAX_PALETTE);
  if (width * height > maxCells) throw new BoardFormatError(`a ${width}x${height} board has ${width * height} cells; the server takes at most ${maxCells}`);
  const seedText = $("seed").value.trim();
  if (seedText && !/^[0-9]+$/.test(seedText)) throw new BoardFormatError("seed must be a whole number, or blank for a random one");
  const start = $("start").value === "center" ? "center" : "top-left";
  await generated({ width, height, colours, seed: seedText ? BigInt(seedText).toString() : null, start: startCell(start, height, width) });
}

/** A board from the server's generator (one generator: the same as `colorit generate`). */
async function generated(spec, moves = []) {
  const body = `{"width":${spec.width},"height":${spec.height},"colours":${spec.colours},"seed":${spec.seed ?? "null"},"start":[${spec.start[0]},${spec.start[1]}]}`;
  const answer = await api("/api/generate", body);
  const seed = canonicalId(answer.seed);
  const board = Board.fromRows(answer.board, answer.start || spec.start);
  await startGame({ kind: "generated", width: spec.width, height: spec.height, colours: spec.colours, seed, start: board.start }, board, moves);
}

/** A game on a CSV board or a game ID, as text from a file or a paste. */
async function loadCsv(text, name) {
  const { board, game } = parseBoardText(text, name, $("start").value); // CSV or a game ID
  await playBoard(board, name, game);
}

/** A game on a board read from a file, a paste or a game ID (`game`: its parts, or null). */
async function playBoard(board, name, game = null) {
  const maxCells = state.config?.max_cells ?? 90000;
  if (board.size > maxCells) throw new BoardFormatError(`${name}: a ${board.width}x${board.height} board has ${board.size} cells; the server takes at most ${maxCells}`);
  await startGame({ kind: "board", board, name, gameId: game }, board);
}

/** Today's daily board (the UTC date is its seed). */
async function dailyBoard() {
  const day = dayOf();
  const { width, height, colours, start } = DAILY;
  $("width").value = String(width);
  $("height").value = String(height);
  $("colours").value = String(colours);
  $("seed").value = String(seedOf(day));
  $("start").value = "top-left";
  await generated({ width, height, colours, seed: String(seedOf(day)), start });
  updateShare();
}

/** The game in the address's fragment (a share link), its moves played. */
export async function openLink() {
  const { spec, moves } = decodeShare(window.location.hash);
  if (spec.kind === "generated") {
    $("width").value = spec.width;
    $("height").value = spec.height;
    $("colours").value = spec.colours;
    $("seed").value = spec.seed;
    const centre = startCell("center", spec.height, spec.width);
    $("start").value = spec.start[0] === centre[0] && spec.start[1] === centre[1] && (centre[0] || centre[1]) ? "center" : "top-left";
    await generated(spec, moves);
  } else {
    await startGame(spec, spec.board, moves);
  }
  updateShare();
}

/** The form, the file and paste of a CSV board, the daily board, a game ID's board
 * (tatham_ui.js), and a share link pasted into the address bar. */
export function wireNewGame() {
  $("new-game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    guard(newGameFromForm)();
  });
  $("upload").addEventListener(
    "change",
    guard(async () => {
      const input = $("upload");
      const file = input.files[0];
      if (!file) return;
      const text = decodeBoardBytes(new Uint8Array(await file.arrayBuffer()), file.name);
      input.value = "";
      await loadCsv(text, file.name);
    }),
  );
  $("paste-load").addEventListener("click", guard(() => loadCsv($("paste").value, "pasted board")));
  document.addEventListener("colorit:play-board", (e) => guard(() => playBoard(e.detail.board, e.detail.name, e.detail.game))());
  $("daily").addEventListener("click", guard(dailyBoard));
  window.addEventListener("hashchange", () => {
    if (window.location.hash.slice(1) !== state.shareBase + "&" + shareMovesPart(state.game?.played() ?? [])) {
      guard(openLink)();
    }
  });
}

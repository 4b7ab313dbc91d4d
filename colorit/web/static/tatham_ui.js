// The game ID field: shows the current board as a game ID of Simon Tatham's Flood and
// loads a pasted one. It talks to app.js through three document events only:
//   colorit:game        (from app.js) a new game: {board, spec}; spec.gameId when read from an ID
//   colorit:answer      (from app.js) a solver's answer from the start: {board, length, proven}
//   colorit:play-board  (to app.js) play this board: {board, name, game}
//
// What the field shows: a board read from an ID keeps that ID as given. Any other board is
// shown in the full form WxHcCm0:DESC,LIMIT with LIMIT its par (the proven optimum, so
// K is 0), which the page asks the server for as the game starts; until it is known the
// field is empty (the page's par solve brings it, or this field's own solve for a board
// with another start), and an answer the server could not prove gives LIMIT as the best found,
// with a note saying so. What the player types is never overwritten.
import { describeLimit, formatGameId, gameIdBoard, parseGameId, MAX_COLOURS } from "./tatham.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
// Seconds the server may take to prove a new board's par.
const PAR_SECONDS = 5;

const ui = { board: null, fromId: false, best: null, controller: null, edited: false };

function setNote(text) {
  $("game-id-note").textContent = text;
  $("game-id-note").hidden = !text;
}

function setError(text) {
  $("game-id-error").textContent = text;
  $("game-id-error").hidden = !text;
}

function setLimit(game) {
  const box = $("id-limit");
  box.hidden = !game;
  box.textContent = game ? describeLimit(game) : "";
  box.title = game ? "the move limit of the game ID this board came from (Simon Tatham's Flood)" : "";
}

/** Show `text` unless the player has typed in the field since the game began. */
function show(text) {
  if (!ui.edited) $("game-id").value = text;
}

/** A solver's answer from the start: a shorter one, or a proof, gives a better limit. */
function offer(length, proven) {
  const best = ui.best;
  if (best && (length > best.length || (length === best.length && (best.proven || !proven)))) return;
  ui.best = { length, proven };
  show(formatGameId(ui.board, length, 0));
  setNote(proven ? `limit ${length}: the par (proven optimal)` : `limit ${length}: the best found, not proven optimal`);
}

async function askPar(board) {
  const controller = new AbortController();
  ui.controller = controller;
  const body = `{"board":${board.rowsJson()},"start":[0,0],"algo":"auto","time_limit":${PAR_SECONDS}}`;
  try {
    const resp = await fetch("/api/solve", { method: "POST", headers: { "Content-Type": "application/json" }, body, signal: controller.signal });
    if (!resp.ok) throw new Error(`the server answered ${resp.status}`);
    const answer = await resp.json(); // only the answer's length is read: ids may be inexact here
    if (ui.board === board) offer(answer.moves.length, Boolean(answer.proven));
  } catch (e) {
    if (e.name !== "AbortError" && ui.board === board && !ui.best) setNote(`no par yet (${e.message}); solve the board to get one`);
  } finally {
    if (ui.controller === controller) ui.controller = null;
  }
}

document.addEventListener("colorit:game", (event) => {
  const { board, spec } = event.detail;
  ui.controller?.abort();
  ui.board = board;
  ui.best = null;
  ui.edited = false;
  setError("");
  const game = spec.gameId ?? null;
  ui.fromId = Boolean(game);
  setLimit(game);
  const field = $("game-id");
  if (game) {
    field.value = game.text;
    setNote("");
  } else if (board.nColours > MAX_COLOURS) {
    field.value = "";
    setNote(`no game ID: this board has ${board.nColours} colours, a game ID names at most ${MAX_COLOURS}`);
  } else {
    field.value = "";
    setNote("working out the par for the limit…");
    // the par counts from the top-left corner, where that game starts: for such a board
    // the page's own par solve brings it (colorit:answer); for another start, ask here
    if (board.start[0] !== 0 || board.start[1] !== 0) askPar(board.withStart([0, 0]));
  }
});

document.addEventListener("colorit:answer", (event) => {
  const { board, length, proven } = event.detail;
  const topLeft = board.start[0] === 0 && board.start[1] === 0;
  if (board === ui.board && topLeft && !ui.fromId) offer(length, proven);
});

function load() {
  setError("");
  let game;
  try {
    game = parseGameId($("game-id").value);
  } catch (e) {
    if (e.name !== "BoardFormatError") throw e;
    setError(e.message); // the game goes on unchanged
    return;
  }
  document.dispatchEvent(new CustomEvent("colorit:play-board", { detail: { board: gameIdBoard(game), name: "a game ID", game } }));
}

$("game-id-load").addEventListener("click", load);
$("game-id").addEventListener("input", () => {
  ui.edited = true;
  setError("");
});
$("game-id").addEventListener("keydown", (event) => {
  if (event.key === "Enter") {
    event.preventDefault();
    load();
  }
});
$("game-id-copy").addEventListener("click", async () => {
  const button = $("game-id-copy");
  try {
    await navigator.clipboard.writeText($("game-id").value);
    button.textContent = "copied";
  } catch {
    $("game-id").select();
    button.textContent = "press Ctrl+C";
  }
  setTimeout(() => (button.textContent = "copy"), 1500);
});

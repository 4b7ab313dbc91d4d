// Playing: a colour by button, key or cell, undo and redo, and the hint.
import { checkOnPar, outOfMoves } from "./against_par.js";
import { learn } from "./answers.js";
import { api, ApiError, codesOf, solveBody } from "./api.js";
import { render, updateShare } from "./board_panel.js";
import { codeOfKey } from "./game.js";
import { $, explain, guard, mainView, positionKey, showError, state } from "./page.js";
import { solvesFrom } from "./par.js";
import { finish } from "./summary.js";
import { backToGame, timeLimit } from "./watch.js";

export function playCode(code) {
  backToGame();
  const { game } = state;
  if (!game || game.isSolved() || outOfMoves() || code < 0 || code >= state.board.nColours) return;
  game.play(code);
  afterMove();
}

function afterMove() {
  state.endController?.abort();
  render();
  updateShare();
  checkOnPar();
  if (state.game.isSolved() || outOfMoves()) finish();
  else {
    $("summary").hidden = true;
    $("par-end").hidden = true;
  }
}

function undo() {
  if (state.mode === "replay") return backToGame(), render();
  state.game.undo();
  afterMove();
}

function redo() {
  if (state.mode === "replay") return backToGame(), render();
  state.game.redo();
  afterMove();
}

/** Play the next move of the best answer known from the position, asking the server
 * for one when none is proven. */
async function hint() {
  backToGame();
  const { game, board } = state;
  if (game.isSolved() || state.hintController) return;
  const played = game.played();
  const key = positionKey(played);
  let known = state.known.get(key);
  if (!known || !known.proven) {
    const controller = new AbortController();
    state.hintController = controller;
    const generation = state.generation;
    render();
    $("status").textContent = "thinking…";
    try {
      const answer = await api("/api/solve", solveBody(board, "auto", timeLimit(), game.gridJson()), controller.signal);
      if (generation !== state.generation) return;
      const moves = codesOf(board, answer.moves);
      if (!solvesFrom(board, played, moves)) throw new ApiError("the server's answer does not flood the board");
      learn(played, moves, Boolean(answer.proven));
      known = state.known.get(key);
    } catch (e) {
      if (e.name === "AbortError") return;
      if (!known) showError(explain(e));
    } finally {
      if (state.hintController === controller) state.hintController = null;
    }
    if (positionKey(state.game.played()) !== key || state.mode !== "play") return render();
  }
  if (known && known.moves.length) playCode(known.moves[0]);
  else render();
}

/** The colour buttons, the board, undo, redo, hint and their keys. */
export function wirePlay() {
  $("palette").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-code]");
    if (button) playCode(Number(button.dataset.code));
  });
  $("board").addEventListener("click", (event) => {
    if (state.mode === "replay") return backToGame(), render();
    const cell = mainView.cellAt(event);
    if (cell < 0 || state.game.inFlood(cell)) return; // the flood's own colour changes nothing
    playCode(state.game.cellCode(cell));
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("hint").addEventListener("click", guard(hint));
  $("back").addEventListener("click", () => (backToGame(), render()));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select") || event.altKey || event.metaKey || !state.game) return;
    const key = event.key.toLowerCase();
    if (event.ctrlKey) {
      if (key === "z" && !event.shiftKey) undo();
      else if (key === "y" || (key === "z" && event.shiftKey)) redo();
      else return;
    } else if (/^[1-9]$/.test(key)) playCode(codeOfKey(key, state.palette.numbers));
    else if (key === "u") undo();
    else if (key === "r") redo();
    else if (key === "h") guard(hint)();
    else return;
    event.preventDefault();
  });
}

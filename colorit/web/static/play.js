// Playing: a colour by button, key or cell, undo and redo, the hint, and the end of the
// game against the best answer and the basic AI.
import { checkOnPar, endOfGame, extraMoves, limitNow, outOfMoves, parSolve } from "./against_par.js";
import { api, ApiError, codesOf, solveBody } from "./api.js";
import { render, updateShare } from "./board_panel.js";
import { codeOfKey } from "./game.js";
import { $, explain, guard, mainView, positionKey, showError, state } from "./page.js";
import { solvesFrom } from "./par.js";
import { pauseReplay, timeLimit } from "./watch.js";

/** Leave the replay for the player's own game. */
export function backToGame() {
  if (state.mode !== "replay") return;
  state.mode = "play";
  pauseReplay();
}

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

/** Remember an answer found from a position, and what it says from each later position. */
export function learn(played, moves, proven) {
  for (let i = 0; i <= moves.length; i++) {
    const key = positionKey(played.concat(moves.slice(0, i)));
    const rest = moves.slice(i);
    const old = state.known.get(key);
    if (!old || rest.length < old.moves.length || (rest.length === old.moves.length && proven && !old.proven)) {
      state.known.set(key, { moves: rest, proven });
    }
  }
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

/** The end of the player's game: their moves against the best answer and the linear AI. */
export async function finish() {
  const box = $("summary");
  const mine = state.game.pos;
  box.hidden = false;
  if (state.board.nColours === 1) {
    box.textContent = "This board is one colour already: nothing to play.";
    return;
  }
  endOfGame();
  if (outOfMoves()) {
    box.textContent = `Out of moves: ${mine} played, the limit was ${limitNow()} (par ${parSolve.par.value} + ${extraMoves()}). Undo to go on, or start a new game.`;
    return;
  }
  const write = (done = false) => {
    const { best, linear } = state.finals;
    const missing = done ? "not known (the server gave no answer)" : "…";
    const parts = [`You: ${mine} move${mine === 1 ? "" : "s"}.`];
    if (best) {
      const n = best.moves.length;
      if (best.proven) parts.push(`Optimum: ${n} moves${mine === n ? " (you found it!)" : ""}.`);
      else parts.push(`Best answer found: ${n} moves, lower bound ${best.lower_bound}${mine < n ? " (you beat it!)" : ""}.`);
    } else parts.push(done ? `Best answer: ${missing}.` : "Best answer: working it out…");
    parts.push(linear ? `Linear AI: ${linear.moves.length} moves.` : `Linear AI: ${missing}`);
    box.textContent = parts.join(" ");
  };
  write();
  if (state.finals.best?.proven && state.finals.linear) return;
  state.summaryController?.abort();
  const controller = new AbortController();
  state.summaryController = controller;
  const generation = state.generation;
  const ask = async (algo, key) => {
    if (state.finals[key] && (key === "linear" || state.finals[key].proven)) return;
    try {
      const answer = await api("/api/solve", solveBody(state.board, algo, timeLimit()), controller.signal);
      if (generation !== state.generation) return;
      record(answer);
      write();
    } catch (e) {
      if (e.name !== "AbortError" && generation === state.generation) showError(explain(e));
    }
  };
  await Promise.all([ask("auto", "best"), ask("linear", "linear")]);
  if (generation === state.generation && state.game.isSolved()) write(true);
}

/** Keep a solver's answer from the start: for hints, and for the end summary. */
export function record(answer) {
  const moves = codesOf(state.board, answer.moves);
  const entry = { moves, proven: Boolean(answer.proven), lower_bound: answer.lower_bound };
  document.dispatchEvent(new CustomEvent("colorit:answer", { detail: { board: state.board, length: moves.length, proven: entry.proven } }));
  learn([], moves, entry.proven);
  const best = state.finals.best;
  if (!best || moves.length < best.moves.length || (moves.length === best.moves.length && entry.proven)) {
    state.finals.best = { ...entry, lower_bound: Math.max(entry.lower_bound, best?.lower_bound ?? 0) };
  } else if (entry.lower_bound > best.lower_bound) best.lower_bound = entry.lower_bound;
  if (answer.algo === "linear" || answer.requested === "linear") state.finals.linear = entry;
  return moves;
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

// The end of the player's game: their moves against the best answer and the basic AI,
// or the move limit spent.
import { endOfGame, extraMoves, limitNow, outOfMoves, parSolve } from "./against_par.js";
import { record } from "./answers.js";
import { api, solveBody } from "./api.js";
import { $, explain, showError, state } from "./page.js";
import { timeLimit } from "./watch.js";

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

/** A limit lowered below the moves played ends the game. */
export function wireSummary() {
  $("limit").addEventListener("input", () => {
    if (state.game && outOfMoves()) finish();
  });
}

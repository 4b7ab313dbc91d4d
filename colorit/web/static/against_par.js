// Against par: the board's proven optimum (asked for as a game starts), the move limit
// over it, "still optimal?" after each move, which move lost the par, and the daily
// board's result and streak. The numbers come from the server's solves; par.js words
// them and checks each answer by replaying it.
import { api, ApiError, codesOf, eventStream, solveBody } from "./api.js";
import { atPar, loadHistory, recordResult, shareText, streak } from "./daily.js";
import { Game } from "./game.js";
import { learn, record } from "./answers.js";
import { $, copyOnClick, explain, positionKey, redraw, state } from "./page.js";
import { moveLimit, onParStatus, ParSolve, parText, solvesFrom } from "./par.js";
import { remember } from "./storage.js";
import { playReplay } from "./watch.js";

export const parSolve = new ParSolve(
  (body, signal) => eventStream("/api/solve/stream", body, signal),
  (ids) => codesOf(state.board, ids),
  parChanged,
);

/** Start proving the par of a new board (a one-colour board's is 0 at once). */
export function proveParOf(board) {
  if (board.nColours === 1) {
    // nothing to play: par 0, and no server needed to say so
    parSolve.cancel();
    parSolve.par = { status: "proven", proven: true, value: 0, bound: 0, best: 0, answer: null };
    return parChanged(parSolve.par);
  }
  state.parStarted = performance.now();
  // the longest solve the server allows: the par is worth the wait, and is shown as
  // "≥ L" meanwhile; a new board cancels it
  const seconds = state.config?.max_time ?? 30;
  parSolve.prove(board, solveBody(board, "auto", seconds));
}

function parChanged(par) {
  const shown = $("par");
  shown.textContent = parText(par);
  shown.dataset.state = par.status;
  if (par.proven && state.parStarted) shown.dataset.ms = (performance.now() - state.parStarted).toFixed(1);
  const best = par.best ? ` (best answer found: ${par.best} moves)` : "";
  shown.title =
    par.status === "unknown" ? `par unknown: ${par.error || "no answer"}`
    : par.proven ? "the proven optimum: the fewest moves that flood this board"
    : par.status === "unproven" ? `a lower bound: the optimum was not proven in the time allowed${best}`
    : `a lower bound: the optimum is being proven${best}`;
  if (par.answer && par.status !== "proving") record(par.answer); // for hints and the end, proven or not
  if (!state.board) return;
  redraw();
  checkOnPar();
  if (par.status === "proven" || par.status === "unknown" || par.status === "unproven") endOfGame();
}

/** Extra moves over par chosen for the limit: null for free play. */
export function extraMoves() {
  const text = $("limit").value.trim();
  if (!/^[0-9]+$/.test(text)) return null;
  return Number(text);
}

/** The move limit now: par + the extra moves, once par is proven; null otherwise. */
export function limitNow() {
  return moveLimit(parSolve.par, extraMoves());
}

/** The moves ran out before the board was flooded: the game is over. */
export function outOfMoves() {
  const limit = limitNow();
  return limit !== null && state.game.pos >= limit && !state.game.isSolved();
}

/** What is known of the position after `played`: {remaining}, {atLeast} or {error}. */
function verdictOf(played) {
  const key = positionKey(played);
  if (state.verdicts.has(key)) return state.verdicts.get(key);
  const known = state.known.get(key);
  if (known && known.proven) return { remaining: known.moves.length };
  return null;
}

/** Ask the server for the exact optimum from the position (the hint's solve), unless it
 * is known; the next move cancels it. */
export async function checkOnPar() {
  state.onParController?.abort();
  state.onParController = null;
  const { game, board } = state;
  const par = parSolve.par;
  renderOnPar();
  if (!par.proven || game.isSolved() || outOfMoves()) return;
  const played = game.played();
  if (verdictOf(played)) return;
  const controller = new AbortController();
  state.onParController = controller;
  const key = positionKey(played);
  const generation = state.generation;
  const left = par.value - played.length; // moves left to finish at par
  // what the solve's events say before its answer: the position's bound already over
  // what is left (par lost), or an answer of no more than that (par kept: since par is
  // the optimum from the start, that answer is the optimum from here)
  const early = (verdict) => {
    state.interim.set(key, verdict);
    if (positionKey(state.game.played()) === key) renderOnPar();
  };
  try {
    const seconds = state.config?.max_time ?? 30;
    let answer = null;
    for await (const { event, data } of eventStream("/api/solve/stream", solveBody(board, "auto", seconds, game.gridJson()), controller.signal)) {
      if (generation !== state.generation) return;
      if (event === "started" && data.lower_bound > left) early({ atLeast: data.lower_bound });
      else if (event === "progress" && data.moves <= left) early({ remaining: data.moves });
      else if (event === "error") throw new ApiError(data.error);
      else if (event === "result") {
        answer = data;
        break;
      }
    }
    if (!answer) throw new ApiError("the server ended the stream without an answer");
    const moves = codesOf(board, answer.moves);
    if (!solvesFrom(board, played, moves)) throw new ApiError("the server's answer does not flood the board");
    const optimal = Boolean(answer.proven) || moves.length <= left;
    learn(played, moves, optimal);
    state.verdicts.set(key, optimal ? { remaining: moves.length } : { atLeast: answer.lower_bound, best: moves.length });
  } catch (e) {
    if (e.name === "AbortError" || generation !== state.generation) return;
    state.verdicts.set(key, { error: e instanceof ApiError ? e.message : "no answer" });
  } finally {
    if (state.onParController === controller) state.onParController = null;
  }
  if (positionKey(state.game.played()) === key) renderOnPar();
}

/** The "on par" line under the counters. */
export function renderOnPar() {
  const box = $("on-par");
  const { game } = state;
  if (!game) return;
  let status = null;
  if (outOfMoves()) status = { state: "off", text: `out of moves: the limit was ${limitNow()} (par ${parSolve.par.value} + ${extraMoves()})` };
  const final = verdictOf(game.played());
  const shown = final ?? state.interim.get(positionKey(game.played())) ?? null;
  if (!status) status = onParStatus(parSolve.par, game.pos, shown, game.isSolved());
  if (box.textContent !== status.text) box.textContent = status.text;
  box.dataset.state = status.state;
  // settled: nothing more will come for this position (tests and benchmarks wait for it)
  box.dataset.settled = String(status.state !== "pending" && (final !== null || shown === null));
  box.dataset.moves = String(game.pos);
}

/** The first move after which par was out of reach (from each position's exact solve,
 * asked now for those the player went past too fast), or null when par was kept. */
async function firstMoveOffPar(played, par, signal) {
  const { board } = state;
  if (state.game.isSolved() && played.length <= par) return null;
  for (let i = 1; i <= played.length; i++) {
    const line = played.slice(0, i);
    let verdict = verdictOf(line);
    if (!verdict || verdict.error) {
      const answer = await api("/api/solve", solveBody(board, "auto", state.config?.max_time ?? 30, new Game(board, line).gridJson()), signal);
      const moves = codesOf(board, answer.moves);
      if (!solvesFrom(board, line, moves)) throw new ApiError("the server's answer does not flood the board");
      learn(line, moves, Boolean(answer.proven));
      verdict = answer.proven ? { remaining: moves.length } : { atLeast: answer.lower_bound };
      state.verdicts.set(positionKey(line), verdict);
    }
    const least = i + (verdict.remaining ?? verdict.atLeast);
    if (least > par) {
      const before = state.known.get(positionKey(played.slice(0, i - 1)));
      return { move: i, over: least - par, exact: verdict.remaining !== undefined, line: before?.proven ? before.moves : null };
    }
  }
  return null;
}

/** The end of a game (flooded, or out of moves): which move lost the par, and the daily's
 * result. Runs again when the par arrives after the end. */
export async function endOfGame() {
  const { game } = state;
  if (!game || !(game.isSolved() || outOfMoves())) return;
  recordDaily();
  const par = parSolve.par;
  if (!par.proven || par.value === 0) return;
  state.endController?.abort();
  const controller = new AbortController();
  state.endController = controller;
  const generation = state.generation;
  const played = game.played();
  const stillHere = () => generation === state.generation && positionKey(state.game.played()) === positionKey(played);
  $("par-end").hidden = false;
  $("replay-par").hidden = true;
  $("lost-par").textContent = "Which move lost the par? Working it out…";
  let lost;
  try {
    lost = await firstMoveOffPar(played, par.value, controller.signal);
  } catch (e) {
    if (e.name !== "AbortError" && stillHere()) $("lost-par").textContent = `Which move lost the par: unknown (${explain(e)}).`;
    return;
  } finally {
    if (state.endController === controller) state.endController = null;
  }
  if (!stillHere()) return;
  state.lostPar = lost;
  if (!lost) {
    $("lost-par").textContent = `Par kept: ${par.value} moves is the optimum.`;
    return;
  }
  const after = lost.exact ? `par + ${lost.over} at best` : `par + ${lost.over} or more`;
  $("lost-par").textContent = `Move ${lost.move} lost the par: after it, ${after}.`;
  $("replay-par").hidden = !lost.line;
  $("replay-par").textContent = `replay the optimal line from move ${lost.move}`;
}

/** Show the optimal line from just before the move that lost the par, as a replay. */
function replayParLine() {
  const lost = state.lostPar;
  if (!lost || !lost.line) return;
  const start = state.game.played().slice(0, lost.move - 1);
  const slot = state.slots[0];
  slot.controller?.abort();
  state.slots[0] = { controller: null, result: { algo: "the optimal line" }, game: new Game(state.board, start.concat(lost.line)) };
  state.mode = "replay";
  state.replay.pos = start.length;
  playReplay();
}

/** The daily board's result, kept in this browser, and its share text. */
function recordDaily() {
  const day = state.dailyDay;
  const par = parSolve.par;
  if (!day || par.status === "proving" || par.status === "none") return;
  const history = recordResult(day, { moves: state.game.pos, par: par.proven ? par.value : null, solved: state.game.isSolved() });
  $("daily-share-text").textContent = shareText(day, history[day]);
  $("daily-end").hidden = false;
  showStreak(history);
}

export function showStreak(history = loadHistory()) {
  $("streak").textContent = String(streak(history));
  const days = Object.keys(history).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort();
  const kept = days.filter((d) => atPar(history[d])).length;
  $("daily-history").textContent = days.length
    ? `Daily boards played here: ${days.length}, ${kept} at par; last ${days.at(-1)}.`
    : "The daily board: one a day, the same for everyone (the UTC date is its seed).";
}

/** The move limit, the replay of the optimal line, and the daily result's copy button. */
export function wireAgainstPar() {
  $("limit").addEventListener("input", () => {
    remember("colorit.limit", extraMoves() === null ? "" : String(extraMoves()));
    if (!state.game) return;
    redraw();
    checkOnPar();
    // a limit spent ends the game (summary.js); a longer one, or free play, gives the moves back
    if (!outOfMoves() && !state.game.isSolved()) {
      $("summary").hidden = true;
      $("par-end").hidden = true;
    }
  });
  $("replay-par").addEventListener("click", replayParLine);
  copyOnClick($("copy-daily"), () => $("daily-share-text").textContent, "select the text to copy");
}

// The answers the page knows: every solver answer it was given, kept for hints, for the
// end summary and for "still optimal?", position by position.
import { codesOf } from "./api.js";
import { positionKey, state } from "./page.js";

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

// Par: the proven optimum of the board, and whether it is still reachable after each move.
// Every number comes from the server's solves (the ones the CLI runs); this file only asks,
// checks each answer by replaying it (game.js), and words the result.
import { Game } from "./game.js";

/** An answer (codes) that floods the board from the position after `played`, checked by
 * replaying it: a wrong answer from a server is no answer. */
export function solvesFrom(board, played, moves) {
  try {
    const game = new Game(board, played);
    for (const m of moves) {
      if (game.isSolved()) return false; // an answer with moves past the end is not one
      game.play(m);
    }
    return game.isSolved();
  } catch {
    return false;
  }
}

/** The par's text: the number once proven, "≥ L" while it is being proven (or when the
 * time ran out), "unknown" when the server gave nothing. */
export function parText(par) {
  if (par.proven) return String(par.value);
  if (par.status === "unknown") return "unknown";
  return par.bound > 0 ? `≥ ${par.bound}` : "…";
}

/** The move limit: par + extra once par is proven; null in free play or while par is
 * not proven (a limit from an unproven par would not be the one promised). */
export function moveLimit(par, extra) {
  return extra === null || !par.proven ? null : par.value + extra;
}

/**
 * The live status after `played` moves: {state, text}, state one of "on" (par still
 * possible), "off" (par lost), "pending" (being worked out), "unknown".
 * `verdict` is what the server said from this position: {remaining} (proven optimum of
 * what is left), {atLeast} (a lower bound only), or null.
 */
export function onParStatus(par, played, verdict, solved = false) {
  if (par.status === "unknown") return { state: "unknown", text: "par unknown: the server gave no answer" };
  const between = par.best ? `between ${par.bound} and ${par.best}` : `≥ ${par.bound}`;
  if (par.status === "unproven") return { state: "unknown", text: `par not proven in the time allowed: ${between}` };
  if (!par.proven) return { state: "pending", text: par.bound > 0 ? `par being proven: ${between}` : "par being proven…" };
  if (solved) {
    const over = played - par.value;
    return over <= 0 ? { state: "on", text: `solved at par: ${played}/${par.value} ✓` } : { state: "off", text: `solved at par + ${over}` };
  }
  if (verdict === null) return { state: "pending", text: "still optimal? checking…" };
  if (verdict.error) return { state: "unknown", text: `still optimal? unknown (${verdict.error})` };
  if (verdict.remaining !== undefined) {
    const best = played + verdict.remaining;
    if (best <= par.value) return { state: "on", text: `on par: ${par.value} still possible` };
    return { state: "off", text: `par + ${best - par.value} at best now` };
  }
  const least = played + verdict.atLeast;
  if (least > par.value) return { state: "off", text: `par + ${least - par.value} or more now` };
  return { state: "unknown", text: "still optimal? not proven in time" };
}

/**
 * The board's par, asked of the server's solve stream once a board: "started" brings the
 * start position's lower bound (shown as "≥ L" at once), "progress" better answers and
 * bounds, "result" the answer, proven or not. The answer is replayed before it counts.
 */
export class ParSolve {
  /**
   * @param stream  async generator of {event, data} for a solve request body
   * @param toCodes colour ids from the server -> the board's codes (throws on a stranger)
   * @param onChange called with the par state whenever it changes
   */
  constructor(stream, toCodes, onChange) {
    this.stream = stream;
    this.toCodes = toCodes;
    this.onChange = onChange;
    this.controller = null;
    this.par = { status: "none", proven: false, value: null, bound: 0, best: null, answer: null };
  }

  cancel() {
    this.controller?.abort();
    this.controller = null;
  }

  /** A new board: nothing known until it is asked for. */
  reset() {
    this.cancel();
    this.par = { status: "none", proven: false, value: null, bound: 0, best: null, answer: null };
  }

  async prove(board, body) {
    this.cancel();
    const controller = new AbortController();
    this.controller = controller;
    this.par = { status: "proving", proven: false, value: null, bound: 0, best: null, answer: null };
    this.onChange(this.par);
    const update = (change) => {
      if (this.controller !== controller) return;
      this.par = { ...this.par, ...change };
      this.onChange(this.par);
    };
    try {
      for await (const { event, data } of this.stream(body, controller.signal)) {
        if (this.controller !== controller) return;
        if (event === "started") update({ bound: Math.max(this.par.bound, data.lower_bound | 0) });
        else if (event === "progress") update({ bound: Math.max(this.par.bound, data.lower_bound | 0), best: data.moves });
        else if (event === "result") {
          const moves = this.toCodes(data.moves);
          if (!solvesFrom(board, [], moves)) throw new Error("the server's answer does not flood the board");
          const bound = Math.max(this.par.bound, data.lower_bound | 0);
          if (data.proven) update({ status: "proven", proven: true, value: moves.length, bound: moves.length, best: moves.length, answer: data });
          else update({ status: "unproven", bound, best: moves.length, answer: data });
          return;
        } else if (event === "error") throw new Error(data.error);
      }
      if (this.par.status === "proving") throw new Error("the server ended the stream without an answer");
    } catch (e) {
      if (e.name === "AbortError") return;
      update({ status: "unknown", error: e.message });
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }
}

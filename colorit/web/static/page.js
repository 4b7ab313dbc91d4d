// What the page's panels share: the elements by test id, the state of the game on show,
// the two board views, and the one error line. Each panel is a module of its own
// (new_game.js, play.js, against_par.js, watch.js, settings.js, board_panel.js); app.js
// starts them.
import { ApiError } from "./api.js";
import { BoardView } from "./board_view.js";
import { BoardFormatError } from "./ids.js";

export const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
export const MAX_PALETTE = 1024; // GET /api/palette's limit

export const state = {
  config: null, // GET /api/algorithms
  palettes: new Map(), // n -> GET /api/palette?n=n
  spec: null, // how the board was made (share links)
  board: null,
  game: null, // the player's
  palette: null,
  shareBase: "",
  mode: "play", // or "replay": the main board shows the first solver's answer
  slots: [newSlot(), newSlot()],
  replay: { pos: 0, playing: false, timer: 0 },
  known: new Map(), // position key -> {moves: codes, proven}: the best answers known
  finals: { best: null, linear: null }, // answers from the start, for the end summary
  hintController: null,
  summaryController: null,
  generation: 0, // bumped by each new game, so late answers for an old board are dropped
  verdicts: new Map(), // position key -> {remaining} | {atLeast} | {error}: "still optimal?"
  interim: new Map(), // position key -> what a solve's first events said, until its answer
  onParController: null, // the position's solve, cancelled by the next move
  lostPar: null, // the end's analysis: {move, line} or null
  endController: null,
  parStarted: 0, // when the par's solve started (performance.now())
  dailyDay: null, // the day whose daily board this is, or null
  urlTimer: 0,
};

/** Redraw the page after a change: the board panel's `render`, set by app.js as the page
 * starts. The panels below the board panel (watch.js, against_par.js) redraw through it,
 * since the board panel draws them: it imports them, not they it. */
export let redraw = () => {};
export function setRedraw(fn) {
  redraw = fn;
}

/** A solver's slot in "watch the solvers": its stream, its answer, its replay. */
export function newSlot() {
  return { controller: null, result: null, game: null };
}

export const mainView = new BoardView($("board"), 640, 64, 230);
export const miniView = new BoardView($("board-2"), 280, 28);

// the board's column is as wide as the board (the palette wraps under it), and the note
// about labels follows the cell size
mainView.onLayout = () => {
  const width = parseFloat(mainView.canvas.style.width) || 0;
  document.querySelector(".play").style.width = `${Math.max(width, 340)}px`;
  const kind = $("labels").value;
  $("labels-note").hidden = kind === "none" || mainView.labelsFit;
};

export function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

/** The one line to show for an error: the server's or the board's own words, else a
 * note that something failed (the details go to the console). */
export function explain(e) {
  if (e instanceof ApiError || e instanceof BoardFormatError) return e.message;
  console.warn(e);
  return `something went wrong: ${e.message}`;
}

/** The key of a position (the moves played, codes) in the maps of what is known. */
export function positionKey(moves) {
  return moves.join(".");
}

/** `fn` for an event listener: its errors shown as the error line (an abort is none). */
export function guard(fn) {
  return async (...args) => {
    try {
      await fn(...args);
    } catch (e) {
      if (e.name !== "AbortError") showError(explain(e));
    }
  };
}

/** `button` copies `text()` to the clipboard and says "copied" for a moment (or
 * `otherwise`, where the browser does not let it). */
export function copyOnClick(button, text, otherwise) {
  const label = button.textContent;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text());
      button.textContent = "copied";
    } catch {
      button.textContent = otherwise;
    }
    setTimeout(() => (button.textContent = label), 1500);
  });
}

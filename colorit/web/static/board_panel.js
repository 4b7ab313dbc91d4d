// The board panel: the main board and its counters, the colour buttons, what the game
// is, and its share link and CSV download.
import { limitNow, outOfMoves, renderOnPar } from "./against_par.js";
import { codeOfKey, colourName } from "./game.js";
import { $, copyOnClick, mainView, state } from "./page.js";
import { shapeSvg } from "./shapes.js";
import { shareMovesPart } from "./share.js";
import { renderMini, renderPlayer } from "./watch.js";

/** Draw the game (or the replay) and bring every counter and button up to date. */
export function render() {
  const { game, board } = state;
  if (!board) return;
  const replaying = state.mode === "replay" && state.slots[0].game;
  const shown = replaying ? state.slots[0].game : game;
  const k = replaying ? Math.min(state.replay.pos, shown.moves.length) : game.pos;
  mainView.show(shown, k);
  $("moves").textContent = String(k);
  const solved = shown.isSolved(k);
  let status;
  if (replaying) {
    const who = state.slots[0].result.algo;
    status = solved ? `solved by ${who} in ${k} moves` : `replay of ${who}: move ${k} of ${shown.moves.length}`;
  } else if (solved) {
    status = `solved in ${k} move${k === 1 ? "" : "s"}`;
  } else {
    const done = Math.floor((100 * shown.floodSize(k)) / board.size);
    status = `${done}% flooded`;
  }
  $("status").textContent = status;
  $("status").classList.toggle("done", solved);
  $("undo").disabled = !replaying && !game.canUndo;
  $("redo").disabled = !replaying && !game.canRedo;
  const out = outOfMoves();
  $("hint").disabled = !replaying && (game.isSolved() || out || state.hintController !== null);
  const limit = limitNow();
  $("limit-shown").hidden = limit === null;
  $("limit-shown").textContent = limit === null ? "" : `limit ${limit}`;
  $("palette").classList.toggle("spent", out && !replaying);
  renderOnPar();
  $("back").hidden = !replaying;
  const current = shown.floodColour(k);
  for (const button of $("palette").children) button.classList.toggle("current", Number(button.dataset.code) === current);
  renderMini();
  renderPlayer();
}

export function describeGame() {
  const { spec, board } = state;
  const start = board.start[0] === 0 && board.start[1] === 0 ? "top-left" : `row ${board.start[0]}, column ${board.start[1]}`;
  const colours = `${board.nColours} colour${board.nColours === 1 ? "" : "s"}`;
  const made = spec.kind === "generated" ? `seed ${spec.seed}` : spec.name ? `from ${spec.name}` : "from a CSV";
  $("game-info").textContent = `${board.width}x${board.height}, ${colours}, ${made}, start ${start}`;
}

export function buildPalette() {
  const box = $("palette");
  box.replaceChildren();
  const { board, palette } = state;
  const symbols = $("labels").value === "symbols";
  for (let code = 0; code < board.nColours; code++) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "swatch";
    button.dataset.testid = `colour-${board.ids[code]}`;
    button.dataset.code = String(code);
    button.style.background = palette.colours[code];
    button.style.color = palette.ink[code];
    // one numbering (colorit.palette.number): the button, its key, labels and captions
    const shown = palette.numbers[code];
    const key = codeOfKey(String(shown), palette.numbers) === code ? ` (key ${shown})` : "";
    button.title = `${colourName(shown, board.ids[code])}${key}`;
    button.setAttribute("aria-label", colourName(shown, board.ids[code]));
    if (symbols) button.append(shapeSvg(palette.symbols[code], palette.ink[code]));
    const number = document.createElement("span");
    number.textContent = String(shown);
    button.append(number);
    box.append(button);
  }
}

export function updateShare() {
  if (!state.spec) return;
  const fragment = state.shareBase + "&" + shareMovesPart(state.game.played());
  const url = new URL(window.location.href);
  url.hash = fragment;
  $("share").href = url.href;
  // the address bar follows a little later: Chrome ignores replaceState past ~100 a second
  clearTimeout(state.urlTimer);
  state.urlTimer = setTimeout(() => {
    if (window.location.hash.slice(1) !== fragment) history.replaceState(null, "", url);
  }, 200);
}

export function updateDownload() {
  const link = $("download");
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([state.board.toCsv()], { type: "text/csv" }));
  link.download = state.spec.kind === "generated" ? `board-${state.board.width}x${state.board.height}-seed${state.spec.seed}.csv` : "board.csv";
}

/** The share link's copy button. */
export function wireShare() {
  copyOnClick($("copy-share"), () => $("share").href, "select the link to copy");
}

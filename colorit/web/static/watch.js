// Watching the solvers: two solves streamed side by side, and their answers replayed,
// the first on the main board and the second beside it, move k on both at once.
import { eventStream, solveBody } from "./api.js";
import { Game } from "./game.js";
import { record } from "./answers.js";
import { $, explain, guard, miniView, newSlot, redraw, state } from "./page.js";

/** The time limit asked for, within the server's. */
export function timeLimit() {
  const max = state.config?.max_time ?? 30;
  const v = Number($("time-limit").value);
  if (!(v > 0)) return state.config?.default_time ?? 5;
  return Math.min(v, max);
}

export function setResult(i, kind, text) {
  const box = $(i === 0 ? "solver-result" : "solver-result-2");
  box.dataset.state = kind;
  box.textContent = text;
}

/** Stop both solves and empty their slots. */
export function cancelSolves() {
  for (const slot of state.slots) {
    slot.controller?.abort();
    slot.controller = null;
  }
  state.slots = [newSlot(), newSlot()];
}

function percent(gap) {
  return `${(100 * gap).toFixed(gap < 0.1 ? 1 : 0)}%`;
}

async function solveBoth() {
  cancelSolves();
  stopReplay();
  backToGame();
  redraw();
  const algos = [$("algo").value, $("algo-2").value];
  const limit = timeLimit();
  const body = (algo) => solveBody(state.board, algo, limit);
  await Promise.all(algos.map((algo, i) => runSlot(i, algo, body(algo))));
}

/** One solver's stream into slot `i`: its progress shown as it comes, its answer kept
 * (for hints and the end) and replayed. */
async function runSlot(i, algo, body) {
  const slot = state.slots[i];
  const controller = new AbortController();
  slot.controller = controller;
  const generation = state.generation;
  setResult(i, "running", `${algo}: starting…`);
  try {
    for await (const { event, data } of eventStream("/api/solve/stream", body, controller.signal)) {
      if (slot !== state.slots[i] || generation !== state.generation) return;
      if (event === "queued") setResult(i, "running", `${algo}: waiting for a worker (${data.position} ahead)`);
      else if (event === "started") setResult(i, "running", `${algo}: searching ${data.regions} regions…`);
      else if (event === "progress") {
        const proven = data.proven ? ", proven optimal" : data.lower_bound > 0 ? `, lower bound ${data.lower_bound} (gap ${percent(data.gap)})` : "";
        setResult(i, "running", `${algo}: ${data.moves} moves so far${proven}, ${data.elapsed_s.toFixed(2)} s`);
      } else if (event === "result") {
        const moves = record({ ...data, requested: algo });
        slot.result = data;
        slot.game = new Game(state.board, moves);
        const n = moves.length;
        const quality = data.proven
          ? "proven optimal"
          : data.lower_bound > 0
            ? `lower bound ${data.lower_bound} (gap ${percent(data.gap)})`
            : "no lower bound";
        const stopped = data.stopped ? `, stopped by the ${data.stopped} limit` : "";
        setResult(i, "done", `${data.algo}: ${n} moves, ${quality}, ${data.elapsed_s.toFixed(2)} s${stopped}`);
        answerIn(i);
      } else if (event === "error") {
        setResult(i, "error", `${algo}: ${data.error}`);
      }
    }
    if (slot.controller === controller && !slot.result && $(i === 0 ? "solver-result" : "solver-result-2").dataset.state === "running") {
      setResult(i, "error", `${algo}: the server ended the stream without an answer`);
    }
  } catch (e) {
    if (e.name === "AbortError") return;
    if (slot === state.slots[i]) setResult(i, "error", `${algo}: ${explain(e)}`);
  } finally {
    if (slot.controller === controller) slot.controller = null;
  }
}

// ---------------------------------------------------------------------------------------
// The replay

function replayLength() {
  return Math.max(0, ...state.slots.map((s) => (s.game ? s.game.moves.length : 0)));
}

function answerIn(i) {
  if (i === 0) {
    state.mode = "replay";
    state.replay.pos = 0;
    playReplay();
  } else if (!state.replay.playing && !state.slots[0].game) {
    state.replay.pos = 0;
    playReplay();
  } else redraw();
}

function speed() {
  const chosen = $("speed").value;
  if (chosen !== "auto") return Number(chosen);
  return Math.min(64, Math.max(2, replayLength() / 8)); // about 8 s a replay
}

function tick() {
  const length = replayLength();
  if (state.replay.pos >= length) return pauseReplay();
  state.replay.pos++;
  redraw();
  if (state.replay.pos >= length) pauseReplay();
}

function schedule() {
  clearInterval(state.replay.timer);
  state.replay.timer = setInterval(tick, 1000 / speed());
}

export function playReplay() {
  if (!replayLength()) return;
  if (state.slots[0].game) state.mode = "replay";
  if (state.replay.pos >= replayLength()) state.replay.pos = 0;
  state.replay.playing = true;
  schedule();
  redraw();
}

export function pauseReplay() {
  clearInterval(state.replay.timer);
  state.replay.playing = false;
  renderPlayer();
}

export function stopReplay() {
  pauseReplay();
  state.replay.pos = 0;
}

function stepReplay(delta) {
  if (!replayLength()) return;
  pauseReplay();
  if (state.slots[0].game) state.mode = "replay";
  state.replay.pos = Math.max(0, Math.min(replayLength(), state.replay.pos + delta));
  redraw();
}

/** The second solver's board, beside the main one. */
export function renderMini() {
  const slot = state.slots[1];
  const box = $("board-2").parentElement;
  if (!slot.game) return void (box.hidden = true);
  if (box.hidden) {
    box.hidden = false;
    miniView.layout();
  }
  const k = Math.min(state.replay.pos, slot.game.moves.length);
  miniView.show(slot.game, k);
  $("moves-2").textContent = String(k);
}

/** The replay's buttons and slider. */
export function renderPlayer() {
  const length = replayLength();
  const seek = $("seek");
  seek.max = String(length);
  seek.value = String(Math.min(state.replay.pos, length));
  $("play").disabled = length === 0 || state.replay.playing;
  $("pause").disabled = !state.replay.playing;
  $("step").disabled = length === 0;
  $("step-back").disabled = length === 0 || state.replay.pos === 0;
  seek.disabled = length === 0;
}

/** The solve button and the replay's controls. */
export function wireWatch() {
  $("solve").addEventListener("click", guard(solveBoth));
  $("play").addEventListener("click", playReplay);
  $("pause").addEventListener("click", pauseReplay);
  $("step").addEventListener("click", () => stepReplay(1));
  $("step-back").addEventListener("click", () => stepReplay(-1));
  $("speed").addEventListener("change", () => state.replay.playing && schedule());
  $("seek").addEventListener("input", () => {
    const to = Number($("seek").value);
    pauseReplay();
    if (state.slots[0].game) state.mode = "replay";
    state.replay.pos = to;
    redraw();
  });
}

/** Leave the replay for the player's own game. */
export function backToGame() {
  if (state.mode !== "replay") return;
  state.mode = "play";
  pauseReplay();
}

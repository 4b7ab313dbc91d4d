// The page: starts its panels (each a module: new_game.js, play.js, summary.js,
// against_par.js, watch.js, settings.js, board_panel.js, sharing page.js) and its first game. The rules
// live in game.js; the server is asked through api.js.
import { showStreak, wireAgainstPar } from "./against_par.js";
import { api } from "./api.js";
import { render, updateShare, wireShare } from "./board_panel.js";
import { newGameFromForm, openLink, wireNewGame } from "./new_game.js";
import { $, explain, guard, setRedraw, showError, state } from "./page.js";
import { wirePlay } from "./play.js";
import { applyLabels, restoreSettings, wireSettings } from "./settings.js";
import { wireSummary } from "./summary.js";
import { wireWatch } from "./watch.js";

/** The server's solvers in the two menus, and its limits in the form. */
async function loadAlgorithms() {
  state.config = await api("/api/algorithms");
  const fill = (select, chosen) => {
    select.replaceChildren(
      ...state.config.algorithms.map((a) => {
        const option = new Option(a.name, a.name, false, a.name === chosen);
        option.title = a.summary;
        return option;
      }),
    );
  };
  fill($("algo"), state.config.default);
  fill($("algo-2"), state.config.baseline || "linear");
  $("width").max = $("height").max = String(state.config.max_cells);
  const limit = $("time-limit");
  limit.value = String(state.config.default_time);
  limit.max = String(state.config.max_time);
}

async function init() {
  setRedraw(render);
  for (const wire of [wireNewGame, wirePlay, wireAgainstPar, wireSummary, wireWatch, wireSettings, wireShare]) wire();
  restoreSettings();
  showStreak();
  try {
    await loadAlgorithms();
  } catch (e) {
    showError(explain(e));
    $("status").textContent = "no server";
    return;
  }
  applyLabels(false);
  try {
    if (window.location.hash.length > 1) await openLink();
    else await newGameFromForm();
  } catch (e) {
    const message = explain(e);
    if (!state.board) await guard(newGameFromForm)();
    showError(message); // after the fallback game, which clears errors
  }
  updateShare();
}

init();

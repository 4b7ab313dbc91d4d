// Settings kept in this browser, and the colour-blind labels: numbers or shapes in the
// cells where they fit, the symbols button, and the views following the window's size.
import { buildPalette, render } from "./board_panel.js";
import { $, mainView, miniView, state } from "./page.js";
import { recall, remember } from "./storage.js";

/** Show the labels chosen; `rebuild` the colour buttons too. */
export function applyLabels(rebuild = true) {
  const kind = $("labels").value;
  $("symbols").setAttribute("aria-pressed", String(kind === "symbols"));
  mainView.setLabels(kind);
  miniView.setLabels(kind);
  mainView.onLayout();
  if (rebuild && state.board) buildPalette(), render();
}

/** The labels and the move limit as this browser last had them. */
export function restoreSettings() {
  const saved = recall("colorit.labels");
  if (saved && [...$("labels").options].some((o) => o.value === saved)) $("labels").value = saved;
  const extra = recall("colorit.limit");
  if (extra && /^[0-9]+$/.test(extra)) $("limit").value = extra;
  $("symbols").setAttribute("aria-pressed", String($("labels").value === "symbols"));
}

/** The labels' menu, the symbols button, and the window's size. */
export function wireSettings() {
  $("labels").addEventListener("change", () => {
    remember("colorit.labels", $("labels").value);
    applyLabels();
  });
  $("symbols").addEventListener("click", () => {
    $("labels").value = $("labels").value === "symbols" ? "none" : "symbols";
    remember("colorit.labels", $("labels").value);
    applyLabels();
  });
  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      mainView.layout();
      miniView.layout();
      applyLabels(false);
    }, 100);
  });
}

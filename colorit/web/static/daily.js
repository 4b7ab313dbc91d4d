// The daily board: the UTC date is the seed (2026-11-24 -> 20261124) of a 14x14 board
// with 6 colours, started top-left: the board of `colorit generate --size 14x14 --colours 6
// --seed 20261124`, the same for everyone on the same version. Results stay in this
// browser (localStorage): no server keeps any state.

export const DAILY = { width: 14, height: 14, colours: 6, start: [0, 0] };
const STORE = "colorit.daily";

/** "2026-11-24" of a Date, in UTC: one board a day the world over. */
export function dayOf(date = new Date()) {
  return date.toISOString().slice(0, 10);
}

export function seedOf(day) {
  return Number(day.replaceAll("-", ""));
}

/** The day whose daily board `spec` is (generated, the daily's size and start, a date
 * seed), or null. */
export function dailyDayOf(spec) {
  if (!spec || spec.kind !== "generated") return null;
  const { width, height, colours, start } = DAILY;
  if (spec.width !== width || spec.height !== height || spec.colours !== colours) return null;
  if (spec.start[0] !== start[0] || spec.start[1] !== start[1]) return null;
  const text = String(spec.seed);
  if (!/^\d{8}$/.test(text)) return null;
  const day = `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || dayOf(date) !== day ? null : day;
}

/** The results kept: {day: {moves, par, solved}}; {} when storage is off or unreadable. */
export function loadHistory(storage = globalThis.localStorage) {
  try {
    const data = JSON.parse(storage.getItem(STORE) || "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

/** Keep a day's first result (a later finish after undo does not replace it). */
export function recordResult(day, result, storage = globalThis.localStorage) {
  const history = loadHistory(storage);
  if (history[day]) return history;
  history[day] = result;
  try {
    storage.setItem(STORE, JSON.stringify(history));
  } catch {
    // storage may be off: the result is just not kept
  }
  return history;
}

/** A result at par: solved in at most the proven optimum's moves. */
export function atPar(result) {
  return Boolean(result && result.solved && Number.isInteger(result.par) && result.moves <= result.par);
}

function previousDay(day) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return dayOf(date);
}

/** Days in a row at par, up to today (or up to yesterday while today is not played yet). */
export function streak(history, today = dayOf()) {
  let day = history[today] ? today : previousDay(today);
  let n = 0;
  while (atPar(history[day])) {
    n++;
    day = previousDay(day);
  }
  return n;
}

/** The text to share: moves and par, no board and no moves. "X" when the moves ran out. */
export function shareText(day, result) {
  const par = Number.isInteger(result.par) ? result.par : "?";
  const moves = result.solved ? result.moves : "X";
  return `colorit daily ${day}: ${moves}/${par}${atPar(result) ? " ✓" : ""}`;
}

// The page: the board on a canvas, the palette, the solvers' streams and the replay.
// The rules live in game.js; this file only shows them and talks to the server.
import {
  Board,
  BoardFormatError,
  Game,
  canonicalId,
  codeOfKey,
  colourName,
  decodeBoardBytes,
  decodeShare,
  parseJsonExact,
  shareBoardPart,
  shareMovesPart,
  startCell,
} from "./game.js";
import { parseBoardText } from "./gameid.js";
import { ParSolve, moveLimit, onParStatus, parText, solvesFrom } from "./par.js";
import { DAILY, atPar, dailyDayOf, dayOf, loadHistory, recordResult, seedOf, shareText, streak } from "./daily.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const MAX_PALETTE = 1024; // GET /api/palette's limit
const LABEL_MIN_PX = 14; // smaller cells get no label

// ---------------------------------------------------------------------------------------
// The server

class ApiError extends Error {}

async function errorOf(resp) {
  let message = `the server answered ${resp.status}`;
  try {
    const data = parseJsonExact(await resp.text());
    if (data && typeof data.error === "string") message = data.error;
  } catch {
    // not JSON: keep the status line
  }
  if (resp.status === 503) {
    const wait = resp.headers.get("Retry-After");
    message = `the server is busy: ${message}${wait ? ` (try again in ${wait} s)` : ""}`;
  }
  return new ApiError(message);
}

/** GET (no body) or POST (body: JSON text) and the exact JSON answer. */
async function api(path, body, signal) {
  let resp;
  try {
    resp = await fetch(path, body === undefined ? { signal } : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      signal,
    });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError("cannot reach the colorit server: is `colorit serve` still running?");
  }
  if (!resp.ok) throw await errorOf(resp);
  return parseJsonExact(await resp.text());
}

/** POST and read the answer's server-sent events one by one: {event, data}. */
async function* eventStream(path, body, signal) {
  let resp;
  try {
    resp = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body, signal });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError("cannot reach the colorit server: is `colorit serve` still running?");
  }
  if (!resp.ok) throw await errorOf(resp);
  const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) yield { event, data: parseJsonExact(data.join("\n")) };
    }
  }
}

function solveBody(board, algo, timeLimit, gridJson = board.rowsJson()) {
  return `{"board":${gridJson},"start":[${board.start[0]},${board.start[1]}],"algo":${JSON.stringify(algo)},"time_limit":${timeLimit}}`;
}

/** Colour ids from the server as codes of `board`; ApiError for an id it does not have. */
function codesOf(board, ids) {
  return ids.map((id) => {
    const code = board.codeOf(typeof id === "number" ? id : canonicalId(id));
    if (code < 0) throw new ApiError(`the server answered colour ${id}, which is not on the board`);
    return code;
  });
}

// ---------------------------------------------------------------------------------------
// Shapes for colour-blind labels: SVG path data in a 100 x 100 box, drawn by the canvas
// (Path2D) and the palette buttons (inline SVG) alike, so no font needs the glyphs.

function polygon(points) {
  return "M" + points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" L") + " Z";
}

function regular(n, radius, turn = -Math.PI / 2, inner = 0) {
  const points = [];
  const count = inner ? n * 2 : n;
  for (let i = 0; i < count; i++) {
    const r = inner && i % 2 ? inner : radius;
    const a = turn + (i * 2 * Math.PI) / count;
    points.push([50 + r * Math.cos(a), 50 + r * Math.sin(a)]);
  }
  return polygon(points);
}

const SHAPES = {
  circle: { d: "M20,50 a30,30 0 1,0 60,0 a30,30 0 1,0 -60,0 Z" },
  triangle: { d: polygon([[50, 16], [84, 78], [16, 78]]) },
  square: { d: "M22,22 H78 V78 H22 Z" },
  diamond: { d: polygon([[50, 14], [86, 50], [50, 86], [14, 50]]) },
  cross: { d: "M24,24 L76,76 M76,24 L24,76", stroke: 14 },
  plus: { d: "M50,18 V82 M18,50 H82", stroke: 14 },
  star: { d: regular(5, 38, -Math.PI / 2, 16) },
  ring: { d: "M24,50 a26,26 0 1,0 52,0 a26,26 0 1,0 -52,0 Z", stroke: 11 },
  bar: { d: "M14,38 H86 V62 H14 Z" },
  column: { d: "M38,14 H62 V86 H38 Z" },
  dot: { d: "M36,50 a14,14 0 1,0 28,0 a14,14 0 1,0 -28,0 Z" },
  hexagon: { d: regular(6, 36, 0) },
};

const SVG = "http://www.w3.org/2000/svg";

function shapeSvg(name, ink) {
  const shape = SHAPES[name] || SHAPES.dot;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("width", "16");
  svg.setAttribute("height", "16");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", shape.d);
  if (shape.stroke) {
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", ink);
    path.setAttribute("stroke-width", String(shape.stroke));
    path.setAttribute("stroke-linecap", "round");
  } else {
    path.setAttribute("fill", ink);
  }
  svg.append(path);
  return svg;
}

// ---------------------------------------------------------------------------------------
// The board on a canvas: one pixel a cell in an ImageData, scaled up without smoothing,
// only the flood's cells rewritten on a move, the flood's outline one path.

function rgba(hex) {
  const v = parseInt(hex.slice(1), 16);
  // ImageData is RGBA in memory: little-endian words are 0xAABBGGRR
  return ((255 << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
}

class BoardView {
  constructor(canvas, maxPx, maxCell, fitHeight = 0) {
    this.canvas = canvas;
    this.fitHeight = fitHeight; // room to leave below and above, to keep the palette in view
    this.ctx = canvas.getContext("2d");
    this.maxPx = maxPx;
    this.maxCell = maxCell;
    this.board = null;
    this.game = null;
    this.shown = null; // position drawn into the pixels
    this.labels = "none";
    this.labelsStale = true; // the label layer needs drawing again (new game, size, kind)
    this.sprites = new Map(); // code -> its label, at the current cell size
    this.lastMs = 0;
  }

  setBoard(board, palette) {
    this.board = board;
    this.palette = palette;
    this.lut = Uint32Array.from(palette.colours.map(rgba));
    this.image = new ImageData(board.width, board.height);
    this.pixels = new Uint32Array(this.image.data.buffer);
    this.cells = document.createElement("canvas");
    this.cells.width = board.width;
    this.cells.height = board.height;
    this.cellsCtx = this.cells.getContext("2d");
    this.game = null;
    this.shown = null;
    this.layout();
  }

  /** Canvas size: whole pixels per cell, as large as fits. */
  layout() {
    if (!this.board) return;
    const { width: w, height: h } = this.board;
    const across = this.fitHeight
      ? window.innerWidth - (window.innerWidth > 860 ? 480 : 40) // the main board: beside the panels
      : (this.canvas.parentElement?.clientWidth || this.maxPx) - 4;
    const down = this.fitHeight ? window.innerHeight - this.fitHeight : this.maxPx;
    const room = Math.max(160, Math.min(this.maxPx, across, down));
    // whole pixels a cell where cells are big enough to see it; on big boards fill the room
    const exact = room / Math.max(w, h);
    const cell = exact >= 4 ? Math.min(this.maxCell, Math.floor(exact)) : exact;
    const dpr = window.devicePixelRatio || 1;
    this.cell = cell;
    this.scale = cell * dpr;
    this.canvas.width = Math.max(1, Math.round(w * cell * dpr));
    this.canvas.height = Math.max(1, Math.round(h * cell * dpr));
    this.canvas.style.width = `${this.canvas.width / dpr}px`;
    this.canvas.style.height = `${this.canvas.height / dpr}px`;
    this.labelsStale = true;
    this.draw();
    this.onLayout?.();
  }

  get labelsFit() {
    return this.scale >= LABEL_MIN_PX;
  }

  get labelsOn() {
    return this.labels !== "none" && this.labelsFit;
  }

  setLabels(kind) {
    this.labels = kind;
    this.labelsStale = true;
    this.draw();
  }

  /** Show `game` after k moves, rewriting only what changed since the last call. */
  show(game, k = game.pos) {
    const t0 = performance.now();
    // a position the line no longer has (moves replaced while another game was shown)
    // is painted afresh like another game
    if (game !== this.game || this.shown === null || this.shown > game.moves.length) {
      this.game = game;
      this.labelsStale = true;
      game.paint(this.pixels, this.lut, null, k);
    } else if (k !== this.shown) {
      game.paint(this.pixels, this.lut, this.shown, k);
      if (this.labelsOn && !this.labelsStale) this.updateLabels(this.shown, k);
    }
    this.shown = k;
    this.draw();
    this.lastMs = performance.now() - t0;
    this.canvas.dataset.drawMs = this.lastMs.toFixed(2);
  }

  draw() {
    if (!this.board || !this.game) return;
    const { ctx, canvas } = this;
    this.cellsCtx.putImageData(this.image, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.cells, 0, 0, canvas.width, canvas.height);
    if (this.labelsOn) {
      if (this.labelsStale) this.drawAllLabels();
      ctx.drawImage(this.labelLayer, 0, 0);
      // the flood carries one label, its colour's, on the start cell
      const [r, c] = this.board.start;
      const size = Math.round(this.scale);
      ctx.drawImage(this.sprite(this.game.floodColour(this.shown)), Math.round(c * this.scale), Math.round(r * this.scale), size, size);
    }
    this.drawOutline();
    this.drawStartMark();
  }

  /** A frame inside the start cell (clear of its centre and of its label), so the player
   * sees where the flood grows from; too small to see on tiny cells, so left out there. */
  drawStartMark() {
    const s = this.scale;
    if (s < 8) return;
    const [r, c] = this.board.start;
    const inset = s * 0.04;
    const width = Math.max(1.5, s * 0.06);
    const { ctx } = this;
    ctx.strokeStyle = "rgba(0,0,0,0.9)";
    ctx.lineWidth = width * 2;
    ctx.strokeRect(c * s + inset + width, r * s + inset + width, s - 2 * (inset + width), s - 2 * (inset + width));
    ctx.strokeStyle = "#ffffff";
    ctx.lineWidth = width;
    ctx.strokeRect(c * s + inset + width, r * s + inset + width, s - 2 * (inset + width), s - 2 * (inset + width));
  }

  drawOutline() {
    const seg = this.game.outline(this.shown);
    if (!seg.length) return;
    const s = this.scale;
    const path = new Path2D();
    for (let i = 0; i < seg.length; i += 4) {
      path.moveTo(seg[i] * s, seg[i + 1] * s);
      path.lineTo(seg[i + 2] * s, seg[i + 3] * s);
    }
    const { ctx } = this;
    const width = Math.max(1, Math.min(4, s * 0.12));
    ctx.lineCap = "square";
    ctx.strokeStyle = "rgba(0,0,0,0.85)";
    ctx.lineWidth = width * 2;
    ctx.stroke(path);
    if (s >= 6) {
      ctx.strokeStyle = "#ffffff";
      ctx.lineWidth = width;
      ctx.stroke(path);
    }
  }

  /** One picture a colour code (its number or shape in its ink), drawn once. */
  sprite(code) {
    let sprite = this.sprites.get(code);
    if (sprite) return sprite;
    const size = Math.round(this.scale);
    sprite = document.createElement("canvas");
    sprite.width = sprite.height = size;
    const c = sprite.getContext("2d");
    const ink = this.palette.ink[code];
    if (this.labels === "numbers") {
      const text = String(this.palette.numbers[code]);
      c.fillStyle = ink;
      c.font = `600 ${Math.round(size * (text.length > 2 ? 0.36 : 0.48))}px system-ui, sans-serif`;
      c.textAlign = "center";
      c.textBaseline = "middle";
      c.fillText(text, size / 2, size / 2 + size * 0.03);
    } else {
      const shape = SHAPES[this.palette.symbols[code]] || SHAPES.dot;
      c.scale(size / 100, size / 100);
      c.translate(18, 18);
      c.scale(0.64, 0.64);
      const path = new Path2D(shape.d);
      if (shape.stroke) {
        c.strokeStyle = ink;
        c.lineWidth = shape.stroke;
        c.lineCap = "round";
        c.stroke(path);
      } else {
        c.fillStyle = ink;
        c.fill(path);
      }
    }
    this.sprites.set(code, sprite);
    return sprite;
  }

  /** The labels of every cell outside the flood, on a layer of their own: cells outside
   * never change, so a move only clears the cells it floods (and undo puts them back). */
  drawAllLabels() {
    this.sprites = new Map();
    this.labelsStale = false;
    if (!this.labelLayer) this.labelLayer = document.createElement("canvas");
    const layer = this.labelLayer;
    layer.width = this.canvas.width;
    layer.height = this.canvas.height;
    this.labelCtx = layer.getContext("2d");
    const { width: w, height: h, codes } = this.board;
    for (let i = 0; i < w * h; i++) if (!this.game.inFlood(i, this.shown)) this.labelCell(i, codes[i]);
  }

  labelCell(cell, code) {
    const w = this.board.width;
    const s = this.scale;
    const size = Math.round(s);
    const r = (cell / w) | 0;
    this.labelCtx.drawImage(this.sprite(code), Math.round((cell - r * w) * s), Math.round(r * s), size, size);
  }

  updateLabels(from, to) {
    const { order, sizes } = this.game;
    const s = this.scale;
    const w = this.board.width;
    if (to > from) {
      for (let i = sizes[from]; i < sizes[to]; i++) {
        const cell = order[i];
        const r = (cell / w) | 0;
        const x0 = Math.round((cell - r * w) * s);
        const y0 = Math.round(r * s);
        this.labelCtx.clearRect(x0, y0, Math.round((cell - r * w + 1) * s) - x0, Math.round((r + 1) * s) - y0);
      }
    } else {
      const codes = this.board.codes;
      for (let i = sizes[to]; i < sizes[from]; i++) this.labelCell(order[i], codes[order[i]]);
    }
  }

  /** The cell under a pointer event, or -1. */
  cellAt(event) {
    if (!this.board) return -1;
    const rect = this.canvas.getBoundingClientRect();
    const c = Math.floor(((event.clientX - rect.left) / rect.width) * this.board.width);
    const r = Math.floor(((event.clientY - rect.top) / rect.height) * this.board.height);
    if (r < 0 || c < 0 || r >= this.board.height || c >= this.board.width) return -1;
    return r * this.board.width + c;
  }
}

// ---------------------------------------------------------------------------------------
// State

const state = {
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
  dailyDay: null, // the day whose daily board this is, or null
  urlTimer: 0,
};

function newSlot() {
  return { controller: null, result: null, game: null };
}

const mainView = new BoardView($("board"), 640, 64, 230);
const miniView = new BoardView($("board-2"), 280, 28);

// the board's column is as wide as the board (the palette wraps under it), and the note
// about labels follows the cell size
mainView.onLayout = () => {
  const width = parseFloat(mainView.canvas.style.width) || 0;
  document.querySelector(".play").style.width = `${Math.max(width, 340)}px`;
  const kind = $("labels").value;
  $("labels-note").hidden = kind === "none" || mainView.labelsFit;
};

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

function explain(e) {
  if (e instanceof ApiError || e instanceof BoardFormatError) return e.message;
  console.warn(e);
  return `something went wrong: ${e.message}`;
}

// ---------------------------------------------------------------------------------------
// Games

async function paletteFor(n) {
  if (!state.palettes.has(n)) state.palettes.set(n, await api(`/api/palette?n=${n}`));
  return state.palettes.get(n);
}

function positionKey(moves) {
  return moves.join(".");
}

/** Start a game on `board` (made as `spec` says), with `moves` (codes) already played. */
async function startGame(spec, board, moves = []) {
  if (board.nColours > MAX_PALETTE) {
    throw new BoardFormatError(`the page shows at most ${MAX_PALETTE} colours; this board has ${board.nColours}`);
  }
  for (const [i, m] of moves.entries()) {
    if (m >= board.nColours) throw new BoardFormatError(`share link: move ${i + 1} is colour code ${m}, the board has ${board.nColours} colours`);
  }
  const palette = await paletteFor(board.nColours);
  state.generation++;
  parSolve.reset();
  cancelSolves();
  stopReplay();
  state.hintController?.abort();
  state.summaryController?.abort();
  state.onParController?.abort();
  state.endController?.abort();
  state.verdicts = new Map();
  state.interim = new Map();
  state.lostPar = null;
  state.dailyDay = dailyDayOf(spec) === dayOf() ? dayOf() : null;
  state.spec = spec;
  state.board = board;
  state.palette = palette;
  state.game = new Game(board);
  for (const m of moves) if (!state.game.isSolved()) state.game.play(m);
  state.known = new Map();
  state.finals = { best: null, linear: null };
  state.mode = "play";
  state.shareBase = shareBoardPart(spec);
  mainView.setBoard(board, palette);
  miniView.setBoard(board, palette);
  $("board-2").parentElement.hidden = true;
  buildPalette();
  for (const i of [0, 1]) setResult(i, "idle", "–");
  $("moves-2").textContent = "0";
  $("summary").hidden = true;
  $("par-end").hidden = true;
  $("daily-end").hidden = true;
  showError("");
  describeGame();
  updateDownload();
  render();
  document.dispatchEvent(new CustomEvent("colorit:game", { detail: { board, spec } })); // gameid_ui.js
  if (state.game.isSolved()) finish();
  proveParOf(board);
}

// ---------------------------------------------------------------------------------------
// Par: the board's proven optimum, the move limit, and "still optimal?" after each move

const parSolve = new ParSolve(
  (body, signal) => eventStream("/api/solve/stream", body, signal),
  (ids) => codesOf(state.board, ids),
  parChanged,
);

function proveParOf(board) {
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
  render();
  checkOnPar();
  if (par.status === "proven" || par.status === "unknown" || par.status === "unproven") endOfGame();
}

/** Extra moves over par chosen for the limit: null for free play. */
function extraMoves() {
  const text = $("limit").value.trim();
  if (!/^[0-9]+$/.test(text)) return null;
  return Number(text);
}

function limitNow() {
  return moveLimit(parSolve.par, extraMoves());
}

/** The moves ran out before the board was flooded: the game is over. */
function outOfMoves() {
  const limit = limitNow();
  return limit !== null && state.game.pos >= limit && !state.game.isSolved();
}

function verdictOf(played) {
  const key = positionKey(played);
  if (state.verdicts.has(key)) return state.verdicts.get(key);
  const known = state.known.get(key);
  if (known && known.proven) return { remaining: known.moves.length };
  return null;
}

/** Ask the server for the exact optimum from the position (the hint's solve), unless it
 * is known; the next move cancels it. */
async function checkOnPar() {
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

function renderOnPar() {
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
async function endOfGame() {
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

function recordDaily() {
  const day = state.dailyDay;
  const par = parSolve.par;
  if (!day || par.status === "proving" || par.status === "none") return;
  const history = recordResult(day, { moves: state.game.pos, par: par.proven ? par.value : null, solved: state.game.isSolved() });
  $("daily-share-text").textContent = shareText(day, history[day]);
  $("daily-end").hidden = false;
  showStreak(history);
}

function showStreak(history = loadHistory()) {
  $("streak").textContent = String(streak(history));
  const days = Object.keys(history).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort();
  const kept = days.filter((d) => atPar(history[d])).length;
  $("daily-history").textContent = days.length
    ? `Daily boards played here: ${days.length}, ${kept} at par; last ${days.at(-1)}.`
    : "The daily board: one a day, the same for everyone (the UTC date is its seed).";
}

async function dailyBoard() {
  const day = dayOf();
  const { width, height, colours, start } = DAILY;
  $("width").value = String(width);
  $("height").value = String(height);
  $("colours").value = String(colours);
  $("seed").value = String(seedOf(day));
  $("start").value = "top-left";
  await generated({ width, height, colours, seed: String(seedOf(day)), start });
  updateShare();
}

function describeGame() {
  const { spec, board } = state;
  const start = board.start[0] === 0 && board.start[1] === 0 ? "top-left" : `row ${board.start[0]}, column ${board.start[1]}`;
  const colours = `${board.nColours} colour${board.nColours === 1 ? "" : "s"}`;
  const made = spec.kind === "generated" ? `seed ${spec.seed}` : spec.name ? `from ${spec.name}` : "from a CSV";
  $("game-info").textContent = `${board.width}x${board.height}, ${colours}, ${made}, start ${start}`;
}

function buildPalette() {
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

async function newGameFromForm() {
  const number = (id, lo, hi) => {
    const text = $(id).value.trim();
    const v = Number(text);
    if (!/^[0-9]+$/.test(text) || v < lo || v > hi) throw new BoardFormatError(`${id} must be a whole number from ${lo} to ${hi}`);
    return v;
  };
  const maxCells = state.config?.max_cells ?? 90000;
  const width = number("width", 1, maxCells);
  const height = number("height", 1, maxCells);
  const colours = number("colours", 1, MAX_PALETTE);
  if (width * height > maxCells) throw new BoardFormatError(`a ${width}x${height} board has ${width * height} cells; the server takes at most ${maxCells}`);
  const seedText = $("seed").value.trim();
  if (seedText && !/^[0-9]+$/.test(seedText)) throw new BoardFormatError("seed must be a whole number, or blank for a random one");
  const start = $("start").value === "center" ? "center" : "top-left";
  await generated({ width, height, colours, seed: seedText ? BigInt(seedText).toString() : null, start: startCell(start, height, width) });
}

/** A board from the server's generator (one generator: the same as `colorit generate`). */
async function generated(spec, moves = []) {
  const body = `{"width":${spec.width},"height":${spec.height},"colours":${spec.colours},"seed":${spec.seed ?? "null"},"start":[${spec.start[0]},${spec.start[1]}]}`;
  const answer = await api("/api/generate", body);
  const seed = canonicalId(answer.seed);
  const board = Board.fromRows(answer.board, answer.start || spec.start);
  await startGame({ kind: "generated", width: spec.width, height: spec.height, colours: spec.colours, seed, start: board.start }, board, moves);
}

async function loadCsv(text, name) {
  const { board, game } = parseBoardText(text, name, $("start").value); // CSV or a game ID
  await playBoard(board, name, game);
}

/** A game on a board read from a file, a paste or a game ID (`game`: its parts, or null). */
async function playBoard(board, name, game = null) {
  const maxCells = state.config?.max_cells ?? 90000;
  if (board.size > maxCells) throw new BoardFormatError(`${name}: a ${board.width}x${board.height} board has ${board.size} cells; the server takes at most ${maxCells}`);
  await startGame({ kind: "board", board, name, gameId: game }, board);
}

// ---------------------------------------------------------------------------------------
// Drawing and the counters

function render() {
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

function renderMini() {
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

function renderPlayer() {
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

function updateShare() {
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

function updateDownload() {
  const link = $("download");
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([state.board.toCsv()], { type: "text/csv" }));
  link.download = state.spec.kind === "generated" ? `board-${state.board.width}x${state.board.height}-seed${state.spec.seed}.csv` : "board.csv";
}

// ---------------------------------------------------------------------------------------
// Playing

function backToGame() {
  if (state.mode !== "replay") return;
  state.mode = "play";
  pauseReplay();
}

function playCode(code) {
  backToGame();
  const { game } = state;
  if (!game || game.isSolved() || outOfMoves() || code < 0 || code >= state.board.nColours) return;
  game.play(code);
  afterMove();
}

function afterMove() {
  state.endController?.abort();
  render();
  updateShare();
  checkOnPar();
  if (state.game.isSolved() || outOfMoves()) finish();
  else {
    $("summary").hidden = true;
    $("par-end").hidden = true;
  }
}

function undo() {
  if (state.mode === "replay") return backToGame(), render();
  state.game.undo();
  afterMove();
}

function redo() {
  if (state.mode === "replay") return backToGame(), render();
  state.game.redo();
  afterMove();
}

/** Remember an answer found from a position, and what it says from each later position. */
function learn(played, moves, proven) {
  for (let i = 0; i <= moves.length; i++) {
    const key = positionKey(played.concat(moves.slice(0, i)));
    const rest = moves.slice(i);
    const old = state.known.get(key);
    if (!old || rest.length < old.moves.length || (rest.length === old.moves.length && proven && !old.proven)) {
      state.known.set(key, { moves: rest, proven });
    }
  }
}

async function hint() {
  backToGame();
  const { game, board } = state;
  if (game.isSolved() || state.hintController) return;
  const played = game.played();
  const key = positionKey(played);
  let known = state.known.get(key);
  if (!known || !known.proven) {
    const controller = new AbortController();
    state.hintController = controller;
    const generation = state.generation;
    render();
    $("status").textContent = "thinking…";
    try {
      const answer = await api("/api/solve", solveBody(board, "auto", timeLimit(), game.gridJson()), controller.signal);
      if (generation !== state.generation) return;
      const moves = codesOf(board, answer.moves);
      if (!solvesFrom(board, played, moves)) throw new ApiError("the server's answer does not flood the board");
      learn(played, moves, Boolean(answer.proven));
      known = state.known.get(key);
    } catch (e) {
      if (e.name === "AbortError") return;
      if (!known) showError(explain(e));
    } finally {
      if (state.hintController === controller) state.hintController = null;
    }
    if (positionKey(state.game.played()) !== key || state.mode !== "play") return render();
  }
  if (known && known.moves.length) playCode(known.moves[0]);
  else render();
}

/** The end of the player's game: their moves against the best answer and the linear AI. */
async function finish() {
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

/** Keep a solver's answer from the start: for hints, and for the end summary. */
function record(answer) {
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

// ---------------------------------------------------------------------------------------
// Watching the solvers

function timeLimit() {
  const max = state.config?.max_time ?? 30;
  const v = Number($("time-limit").value);
  if (!(v > 0)) return state.config?.default_time ?? 5;
  return Math.min(v, max);
}

function setResult(i, kind, text) {
  const box = $(i === 0 ? "solver-result" : "solver-result-2");
  box.dataset.state = kind;
  box.textContent = text;
}

function cancelSolves() {
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
  render();
  const algos = [$("algo").value, $("algo-2").value];
  const limit = timeLimit();
  const body = (algo) => solveBody(state.board, algo, limit);
  await Promise.all(algos.map((algo, i) => runSlot(i, algo, body(algo))));
}

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
// The replay: the first solver's answer on the main board, the second's beside it,
// move k on both at once.

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
  } else render();
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
  render();
  if (state.replay.pos >= length) pauseReplay();
}

function schedule() {
  clearInterval(state.replay.timer);
  state.replay.timer = setInterval(tick, 1000 / speed());
}

function playReplay() {
  if (!replayLength()) return;
  if (state.slots[0].game) state.mode = "replay";
  if (state.replay.pos >= replayLength()) state.replay.pos = 0;
  state.replay.playing = true;
  schedule();
  render();
}

function pauseReplay() {
  clearInterval(state.replay.timer);
  state.replay.playing = false;
  renderPlayer();
}

function stopReplay() {
  pauseReplay();
  state.replay.pos = 0;
}

function stepReplay(delta) {
  if (!replayLength()) return;
  pauseReplay();
  if (state.slots[0].game) state.mode = "replay";
  state.replay.pos = Math.max(0, Math.min(replayLength(), state.replay.pos + delta));
  render();
}

// ---------------------------------------------------------------------------------------
// Wiring

function guard(fn) {
  return async (...args) => {
    try {
      await fn(...args);
    } catch (e) {
      if (e.name !== "AbortError") showError(explain(e));
    }
  };
}

function wire() {
  $("new-game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    guard(newGameFromForm)();
  });
  $("upload").addEventListener(
    "change",
    guard(async () => {
      const input = $("upload");
      const file = input.files[0];
      if (!file) return;
      const text = decodeBoardBytes(new Uint8Array(await file.arrayBuffer()), file.name);
      input.value = "";
      await loadCsv(text, file.name);
    }),
  );
  $("paste-load").addEventListener("click", guard(() => loadCsv($("paste").value, "pasted board")));
  document.addEventListener("colorit:play-board", (e) => guard(() => playBoard(e.detail.board, e.detail.name, e.detail.game))());
  $("palette").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-code]");
    if (button) playCode(Number(button.dataset.code));
  });
  $("board").addEventListener("click", (event) => {
    if (state.mode === "replay") return backToGame(), render();
    const cell = mainView.cellAt(event);
    if (cell < 0 || state.game.inFlood(cell)) return; // the flood's own colour changes nothing
    playCode(state.game.cellCode(cell));
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("hint").addEventListener("click", guard(hint));
  $("back").addEventListener("click", () => (backToGame(), render()));
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
    render();
  });
  $("labels").addEventListener("change", () => {
    remember("colorit.labels", $("labels").value);
    applyLabels();
  });
  $("symbols").addEventListener("click", () => {
    $("labels").value = $("labels").value === "symbols" ? "none" : "symbols";
    remember("colorit.labels", $("labels").value);
    applyLabels();
  });
  $("limit").addEventListener("input", () => {
    remember("colorit.limit", extraMoves() === null ? "" : String(extraMoves()));
    if (!state.game) return;
    render();
    checkOnPar();
    if (outOfMoves()) finish();
    else if (!state.game.isSolved()) {
      // a longer limit (or free play) gives the moves back
      $("summary").hidden = true;
      $("par-end").hidden = true;
    }
  });
  $("daily").addEventListener("click", guard(dailyBoard));
  $("replay-par").addEventListener("click", replayParLine);
  $("copy-daily").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("daily-share-text").textContent);
      $("copy-daily").textContent = "copied";
    } catch {
      $("copy-daily").textContent = "select the text to copy";
    }
    setTimeout(() => ($("copy-daily").textContent = "copy"), 1500);
  });
  $("copy-share").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("share").href);
      $("copy-share").textContent = "copied";
    } catch {
      $("copy-share").textContent = "select the link to copy";
    }
    setTimeout(() => ($("copy-share").textContent = "copy link"), 1500);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select") || event.altKey || event.metaKey || !state.game) return;
    const key = event.key.toLowerCase();
    if (event.ctrlKey) {
      if (key === "z" && !event.shiftKey) undo();
      else if (key === "y" || (key === "z" && event.shiftKey)) redo();
      else return;
    } else if (/^[1-9]$/.test(key)) playCode(codeOfKey(key, state.palette.numbers));
    else if (key === "u") undo();
    else if (key === "r") redo();
    else if (key === "h") guard(hint)();
    else return;
    event.preventDefault();
  });
  window.addEventListener("hashchange", () => {
    if (window.location.hash.slice(1) !== state.shareBase + "&" + shareMovesPart(state.game?.played() ?? [])) {
      guard(openLink)();
    }
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

/** Keep a setting in this browser; without storage it is just not kept. */
function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage may be off
  }
}

function recall(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function applyLabels(rebuild = true) {
  const kind = $("labels").value;
  $("symbols").setAttribute("aria-pressed", String(kind === "symbols"));
  mainView.setLabels(kind);
  miniView.setLabels(kind);
  mainView.onLayout();
  if (rebuild && state.board) buildPalette(), render();
}

async function openLink() {
  const { spec, moves } = decodeShare(window.location.hash);
  if (spec.kind === "generated") {
    $("width").value = spec.width;
    $("height").value = spec.height;
    $("colours").value = spec.colours;
    $("seed").value = spec.seed;
    const centre = startCell("center", spec.height, spec.width);
    $("start").value = spec.start[0] === centre[0] && spec.start[1] === centre[1] && (centre[0] || centre[1]) ? "center" : "top-left";
    await generated(spec, moves);
  } else {
    await startGame(spec, spec.board, moves);
  }
  updateShare();
}

async function init() {
  wire();
  const saved = recall("colorit.labels");
  if (saved && [...$("labels").options].some((o) => o.value === saved)) $("labels").value = saved;
  const extra = recall("colorit.limit");
  if (extra && /^[0-9]+$/.test(extra)) $("limit").value = extra;
  $("symbols").setAttribute("aria-pressed", String($("labels").value === "symbols"));
  showStreak();
  try {
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

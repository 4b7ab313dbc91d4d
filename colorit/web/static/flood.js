// The flood of a line of moves, grown incrementally: for each cell the move that flooded
// it, and the cells in the order they joined, so the flood after k moves is the first
// `sizes[k]` cells of `order`. Playing extends the flood from its outer boundary only, as
// colorit.game.board does. Nothing here touches the DOM.

const FREE = 0;
const QUEUED = 1;
const FLOODED = 2;

/**
 * The flood of `moves` (codes) on a board. `steps[cell]` is the move that flooded a cell
 * (as Board.flood_steps: 0 = from the start, -1 = not yet); `order` holds the cells in
 * the order they joined and `sizes[k]` how many had after k moves.
 */
export class Flood {
  constructor(board) {
    this.board = board;
    const n = board.size;
    this.moves = [];
    this.steps = new Int32Array(n).fill(-1);
    this.order = new Int32Array(n);
    this.sizes = [];
    this.state = new Uint8Array(n); // FREE, QUEUED (on the boundary) or FLOODED
    this.boundary = new Int32Array(n);
    this.nBoundary = 0;
    this.stack = new Int32Array(n);
    const s = board.startIndex;
    this.state[s] = FLOODED;
    this.steps[s] = 0;
    this.order[0] = s;
    this.sizes = [1];
    this.stack[0] = s;
    grow(this, board.codes[s], 1, 0);
  }

  /** Append a move (the flood's boundary is that of the last move). */
  extend(colour) {
    const codes = this.board.codes;
    const { state, steps, order, stack, boundary } = this;
    const step = this.moves.length + 1;
    let size = this.sizes[step - 1];
    let keep = 0;
    let sp = 0;
    for (let k = 0; k < this.nBoundary; k++) {
      const cell = boundary[k];
      if (codes[cell] === colour) {
        state[cell] = FLOODED;
        steps[cell] = step;
        order[size++] = cell;
        stack[sp++] = cell;
      } else {
        boundary[keep++] = cell;
      }
    }
    this.nBoundary = keep;
    this.moves.push(colour);
    this.sizes[step] = size;
    grow(this, colour, sp, step);
  }

  /** Forget the moves after the first k (a new move after undo replaces them). */
  truncate(k) {
    const { state, steps, order, boundary } = this;
    const { width: w, height: h } = this.board;
    for (let i = this.sizes[k]; i < this.sizes[this.sizes.length - 1]; i++) steps[order[i]] = -1;
    this.moves.length = k;
    this.sizes.length = k + 1;
    state.fill(FREE);
    const size = this.sizes[k];
    for (let i = 0; i < size; i++) state[order[i]] = FLOODED;
    let nb = 0;
    for (let i = 0; i < size; i++) {
      const cell = order[i];
      const r = (cell / w) | 0;
      const c = cell - r * w;
      if (r + 1 < h && state[cell + w] === FREE) (state[cell + w] = QUEUED), (boundary[nb++] = cell + w);
      if (r > 0 && state[cell - w] === FREE) (state[cell - w] = QUEUED), (boundary[nb++] = cell - w);
      if (c + 1 < w && state[cell + 1] === FREE) (state[cell + 1] = QUEUED), (boundary[nb++] = cell + 1);
      if (c > 0 && state[cell - 1] === FREE) (state[cell - 1] = QUEUED), (boundary[nb++] = cell - 1);
    }
    this.nBoundary = nb;
  }
}

/** Flood outward from the `sp` cells on the stack through cells of `colour` (move `step`). */
function grow(flood, colour, sp, step) {
  const { codes, width: w, height: h } = flood.board;
  const { state, steps, order, stack, boundary } = flood;
  let size = flood.sizes[step];
  let nb = flood.nBoundary;
  while (sp > 0) {
    const cell = stack[--sp];
    const r = (cell / w) | 0;
    const c = cell - r * w;
    for (let d = 0; d < 4; d++) {
      let next;
      if (d === 0) {
        if (r + 1 >= h) continue;
        next = cell + w;
      } else if (d === 1) {
        if (r === 0) continue;
        next = cell - w;
      } else if (d === 2) {
        if (c + 1 >= w) continue;
        next = cell + 1;
      } else {
        if (c === 0) continue;
        next = cell - 1;
      }
      if (state[next] !== FREE) continue;
      if (codes[next] === colour) {
        state[next] = FLOODED;
        steps[next] = step;
        order[size++] = next;
        stack[sp++] = next;
      } else {
        state[next] = QUEUED;
        boundary[nb++] = next;
      }
    }
  }
  flood.sizes[step] = size;
  flood.nBoundary = nb;
}

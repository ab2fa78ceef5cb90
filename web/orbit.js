// Orbit's board (ORBIT.md): 16x16 cells, a1 bottom-left, black and white stones. Every cell is
// an element with `data-cell` and, when occupied, `data-stone` (`B`/`W`). It draws what the
// server says; `analyze` recomputes orbits and half-orbits from the stones (the engine's
// floods, in a few lines) only to shade prohibited cells and territory for both colours.

const NS = 'http://www.w3.org/2000/svg';
const N = 16;
const C = 36; // one cell, in SVG units
const M = 30; // margin for the coordinates
const COLS = 'abcdefghijklmnop';
export const cellName = (i) => `${COLS[i % N]}${Math.floor(i / N) + 1}`;
const cx = (i) => M + (i % N) * C + C / 2;
const cy = (i) => M + (N - 1 - Math.floor(i / N)) * C + C / 2;

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** A position string (`d4:B e5:W`) as a Map cell -> `B`/`W`. */
export function parseStones(text) {
  const out = new Map();
  for (const pair of (text || '').trim().split(/\s+/)) {
    const [cell, stone] = pair.split(':');
    if (cell && stone) out.set(cell.toLowerCase(), stone.toUpperCase());
  }
  return out;
}

// Cell sets as arrays of 256 booleans.
const on = (i, dx, dy) => {
  const x = (i % N) + dx;
  const y = Math.floor(i / N) + dy;
  return x >= 0 && x < N && y >= 0 && y < N ? y * N + x : -1;
};
const STEP4 = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const STEP8 = [...STEP4, [1, 1], [1, -1], [-1, 1], [-1, -1]];
function flood(seeds, within, steps) {
  const got = new Array(N * N).fill(false);
  const todo = [];
  for (let i = 0; i < N * N; i++) if (seeds(i) && within[i]) { got[i] = true; todo.push(i); }
  while (todo.length) {
    const i = todo.pop();
    for (const [dx, dy] of steps) {
      const j = on(i, dx, dy);
      if (j >= 0 && within[j] && !got[j]) { got[j] = true; todo.push(j); }
    }
  }
  return got;
}
const edge = {
  bottom: (i) => i < N, top: (i) => i >= N * (N - 1), left: (i) => i % N === 0, right: (i) => i % N === N - 1,
};
const border = (i) => edge.bottom(i) || edge.top(i) || edge.left(i) || edge.right(i);

/** The cells in the orbits and half-orbits of `colour`'s groups (ORBIT.md 4-5). */
function regions(stones, colour) {
  const mine = Array.from({ length: N * N }, (_, i) => stones.get(cellName(i)) === colour);
  const seen = new Array(N * N).fill(false);
  const orbits = new Array(N * N).fill(false);
  const halves = new Array(N * N).fill(false);
  for (let s = 0; s < N * N; s++) {
    if (!mine[s] || seen[s]) continue;
    const group = flood((i) => i === s, mine, STEP8);
    group.forEach((g, i) => { if (g) seen[i] = true; });
    if (group.filter(Boolean).length < 3) continue;
    const free = group.map((g) => !g);
    const outside = flood(border, free, STEP4);
    free.forEach((f, i) => { if (f && !outside[i]) orbits[i] = true; });
    if (!group.some((g, i) => g && border(i))) continue;
    for (const side of Object.keys(edge)) {
      const open = (i) => Object.entries(edge).some(([k, f]) => k !== side && f(i));
      const reached = flood(open, outside, STEP4);
      outside.forEach((o, i) => { if (o && !reached[i]) halves[i] = true; });
    }
  }
  return orbits.map((o, i) => o || halves[i]);
}

/** Prohibited cells for each colour and each colour's territory (ORBIT.md 7-8). */
export function analyze(stones) {
  const against = { B: regions(stones, 'W'), W: regions(stones, 'B') };
  const owner = new Map();
  const territory = { B: 0, W: 0 };
  for (let i = 0; i < N * N; i++) {
    const name = cellName(i);
    if (stones.has(name)) continue;
    for (const [c, o] of [['B', 'W'], ['W', 'B']]) {
      if (against[o][i] && !against[c][i]) { owner.set(name, c); territory[c]++; }
    }
  }
  const list = (a) => a.map((p, i) => (p ? cellName(i) : null)).filter(Boolean);
  return { prohibited: { B: list(against.B), W: list(against.W) }, territory, owner };
}

export class OrbitBoard {
  /** Draws an empty board into `host`; `onCell(cell)` when a cell is clicked. */
  constructor(host, handlers) {
    this.h = handlers;
    this.stones = new Map();
    const size = 2 * M + N * C;
    const svg = el('svg', { viewBox: `0 0 ${size} ${size}`, class: 'board orbit', role: 'group', 'aria-label': 'Orbit board' });
    this.svg = svg;
    el('rect', { x: M - 8, y: M - 8, width: N * C + 16, height: N * C + 16, rx: 10, class: 'frame' }, svg);
    const labels = el('g', { class: 'labels' }, svg);
    for (let k = 0; k < N; k++) {
      el('text', { x: cx(k), y: M + N * C + 22, 'text-anchor': 'middle' }, labels).textContent = COLS[k];
      el('text', { x: M - 16, y: cy(k * N) + 6, 'text-anchor': 'middle' }, labels).textContent = k + 1;
    }
    this.cellEls = new Map();
    const cells = el('g', { class: 'cells' }, svg);
    for (let i = 0; i < N * N; i++) {
      const name = cellName(i);
      const e = el('rect', {
        class: 'cell', 'data-cell': name, x: cx(i) - C / 2 + 1, y: cy(i) - C / 2 + 1, width: C - 2, height: C - 2, rx: 4,
        'aria-label': name,
      }, cells);
      e.addEventListener('click', (ev) => { ev.preventDefault(); this.h.onCell(name); });
      this.cellEls.set(name, e);
    }
    this.stoneLayer = el('g', { class: 'stones' }, svg);
    this.markLayer = el('g', { class: 'marks' }, svg);
    host.appendChild(svg);
  }

  /** Shows `text` (a position string). */
  set(text) {
    this.stones = parseStones(text);
    this.stoneLayer.replaceChildren();
    for (const [name, e] of this.cellEls) {
      const stone = this.stones.get(name);
      if (stone) e.setAttribute('data-stone', stone);
      else e.removeAttribute('data-stone');
    }
    for (const [name, stone] of this.stones) {
      const e = this.cellEls.get(name);
      if (!e) continue;
      const x = Number(e.getAttribute('x')) + C / 2 - 1;
      const y = Number(e.getAttribute('y')) + C / 2 - 1;
      el('circle', { cx: x, cy: y, r: C / 2 - 3, class: `stone ${stone}` }, this.stoneLayer);
    }
    this.analysis = analyze(this.stones);
    this.hooks().territory = this.analysis.territory;
  }

  hooks() { return window.__orion || (window.__orion = {}); }

  /** A `move` event: the position after it, the last drop ringed, captured stones fading. */
  move(ev) {
    const before = this.stones;
    this.set(ev.position);
    if (/^[a-p]\d+$/i.test(ev.move || '')) this.markLast(ev.move.toLowerCase());
    for (const cell of ev.removed || []) {
      const e = this.cellEls.get(cell);
      if (!e) continue;
      const ghost = el('circle', {
        cx: Number(e.getAttribute('x')) + C / 2 - 1, cy: Number(e.getAttribute('y')) + C / 2 - 1, r: C / 2 - 3,
        class: `stone ${before.get(cell) || ''} gone`,
      }, this.markLayer);
      setTimeout(() => ghost.remove(), 1500);
    }
  }

  /** Rings the cell of the last drop (`null`: none). */
  markLast(cell) {
    for (const [name, e] of this.cellEls) e.classList.toggle('last', name === cell);
  }

  /**
   * What the cells show: `prohibited` (cells the colour to drop may not take, from the
   * server's `turn`), `playable` (this player drops now: empty allowed cells are clickable),
   * and the territory of the stones on the board.
   */
  show(prohibited, playable) {
    const no = new Set(prohibited || []);
    const owner = this.analysis ? this.analysis.owner : new Map();
    for (const [name, e] of this.cellEls) {
      e.classList.toggle('no', no.has(name));
      if (no.has(name)) e.setAttribute('data-prohibited', '');
      else e.removeAttribute('data-prohibited');
      e.classList.toggle('ok', !!playable && !no.has(name) && !this.stones.has(name));
      e.classList.toggle('tB', owner.get(name) === 'B');
      e.classList.toggle('tW', owner.get(name) === 'W');
    }
  }
}

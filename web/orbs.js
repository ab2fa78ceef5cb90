// Orbs' board (ORBS.md): the 121-hole star, rows `a` (bottom) to `q`. Every hole is an
// element with `data-hole` and, when it holds an orb, `data-orb` (`RF`: red fire). Tap one of
// your orbs, then a neighbouring hole: that sends the move `d2-e6`. The board knows the star's
// geometry (who neighbours whom), not the element rules: the server judges every move.

const NS = 'http://www.w3.org/2000/svg';
const ROWS = 'abcdefghijklmnopq';
const LENGTHS = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
const HX = 19; // half the distance between holes of a row, in SVG units
const HY = 32.9; // distance between rows
const M = 28;
export const ORB_COLOURS = { R: '#d7263d', B: '#1b64c4', G: '#138a43', Y: '#e8b100', O: '#f06d1a', P: '#8e44ad' };
const ELEMENT = { F: 'fire', W: 'water', E: 'earth', A: 'air', V: 'void' };
const INK = { Y: '#222', O: '#222' };

/** Every hole: name -> {x, y (geometry units), X, Y (SVG)}. */
export const HOLES = new Map();
LENGTHS.forEach((n, r) => {
  for (let k = 0; k < n; k++) {
    const x = -(n - 1) + 2 * k;
    HOLES.set(`${ROWS[r]}${k + 1}`, { x, y: r, X: M + (x + 12) * HX, Y: M + (16 - r) * HY });
  }
});

/** The holes next to `hole` (same row x ± 2, neighbouring rows x ± 1). */
export function neighbours(hole) {
  const a = HOLES.get(hole);
  if (!a) return [];
  return [...HOLES].filter(([, b]) => (b.y === a.y && Math.abs(b.x - a.x) === 2)
    || (Math.abs(b.y - a.y) === 1 && Math.abs(b.x - a.x) === 1)).map(([n]) => n);
}

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** A position string (`a1:RW b1:RA`) as a Map hole -> token. */
export function parseOrbs(text) {
  const out = new Map();
  for (const pair of (text || '').trim().split(/\s+/)) {
    const [hole, token] = pair.split(':');
    if (hole && token) out.set(hole.toLowerCase(), token.toUpperCase());
  }
  return out;
}

function drawOrb(parent, hole, token, cls) {
  const h = HOLES.get(hole);
  const g = el('g', { class: `orb ${ELEMENT[token[1]] || ''} ${cls || ''}`, transform: `translate(${h.X},${h.Y})` }, parent);
  el('circle', { r: 14.5, fill: ORB_COLOURS[token[0]] || '#777', class: 'body' }, g);
  el('circle', { r: 14.5, class: 'ring' }, g);
  const t = el('text', { 'text-anchor': 'middle', dy: '0.36em', fill: INK[token[0]] || '#fff' }, g);
  t.textContent = token[1];
  return g;
}

export class OrbsBoard {
  /** Draws the empty star into `host`; `onMove(text)` when the player moves an orb. */
  constructor(host, handlers) {
    this.h = handlers;
    this.orbs = new Map();
    this.mine = null; // colour letters this player may move now, or null
    this.from = null;
    const w = 2 * M + 24 * HX;
    const hgt = 2 * M + 16 * HY;
    const svg = el('svg', { viewBox: `0 0 ${w} ${hgt}`, class: 'board orbs', role: 'group', 'aria-label': 'Orbs board' });
    this.svg = svg;
    el('rect', { x: 4, y: 4, width: w - 8, height: hgt - 8, rx: 14, class: 'frame' }, svg);
    // The two triangles of the star, for its outline.
    const t = (y0, y1) => `${M},${M + (16 - y0) * HY} ${M + 24 * HX},${M + (16 - y0) * HY} ${M + 12 * HX},${M + (16 - y1) * HY}`;
    el('polygon', { points: t(4, 16), class: 'star' }, svg);
    el('polygon', { points: t(12, 0), class: 'star' }, svg);
    this.holeEls = new Map();
    const holes = el('g', { class: 'holes' }, svg);
    for (const [name, h] of HOLES) {
      const e = el('circle', { cx: h.X, cy: h.Y, r: 15, class: 'hole', 'data-hole': name, 'aria-label': name }, holes);
      e.addEventListener('click', (ev) => { ev.preventDefault(); this.tap(name); });
      this.holeEls.set(name, e);
    }
    this.markLayer = el('g', { class: 'marks' }, svg); // removed orbs fade under the new ones
    this.orbLayer = el('g', { class: 'orb-layer' }, svg);
    host.appendChild(svg);
  }

  /** Holes taken out of play (the room's `holes` option). */
  setClosed(holes) {
    for (const name of holes || []) {
      const e = this.holeEls.get(name);
      if (e) e.classList.add('closed');
    }
  }

  /** Shows `text` (a position string). */
  set(text) {
    this.orbs = parseOrbs(text);
    this.orbLayer.replaceChildren();
    for (const [name, e] of this.holeEls) {
      const token = this.orbs.get(name);
      if (token) e.setAttribute('data-orb', token);
      else e.removeAttribute('data-orb');
    }
    for (const [hole, token] of this.orbs) if (HOLES.has(hole)) drawOrb(this.orbLayer, hole, token);
    if (this.from && !this.canMove(this.from)) this.select(null);
  }

  /** A `move` event: the position after it, the move's two holes marked, removed orbs fade. */
  move(ev) {
    const before = this.orbs;
    this.select(null);
    this.set(ev.position);
    const [a, b] = (ev.move || '').split('-');
    this.markLast(a && b ? [a, b] : []);
    for (const hole of ev.removed || []) {
      const token = before.get(hole);
      if (!token || !HOLES.has(hole)) continue;
      const ghost = drawOrb(this.markLayer, hole, token, 'gone');
      setTimeout(() => ghost.remove(), 1500);
    }
  }

  markLast(holes) {
    for (const [name, e] of this.holeEls) e.classList.toggle('last', (holes || []).includes(name));
  }

  /** Which orbs the player may pick up now: his colour letters (null: none). */
  setMovable(colours) {
    this.mine = colours;
    if (this.from && !this.canMove(this.from)) this.select(null);
    for (const [name, e] of this.holeEls) e.classList.toggle('can', this.canMove(name));
  }

  canMove(hole) {
    const token = this.orbs.get(hole);
    return !!(this.mine && token && this.mine.includes(token[0]));
  }

  select(hole) {
    this.from = hole;
    const to = hole ? neighbours(hole).filter((n) => !this.holeEls.get(n).classList.contains('closed')) : [];
    for (const [name, e] of this.holeEls) {
      e.classList.toggle('sel', name === hole);
      e.classList.toggle('to', to.includes(name));
    }
    (window.__orion || {}).selected = hole;
  }

  tap(hole) {
    if (this.canMove(hole)) this.select(this.from === hole ? null : hole);
    else if (this.from && this.holeEls.get(hole).classList.contains('to')) {
      const text = `${this.from}-${hole}`;
      this.select(null);
      this.h.onMove(text);
    } else this.select(null);
  }
}

// Orbs' board module (ORBS.md): the 121-hole star, rows `a` (bottom) to `q`. Every hole is an
// element with `data-hole` and, when it holds an orb, `data-orb` (`RF`: red fire). Tap one of
// your orbs, then a hole it may move to: that sends the move `d2-e6`. The board knows where
// holes are drawn, not who neighbours whom nor the element rules: the moves it offers are the
// server's `hints`. The star is one tab stop: arrows move between holes, Enter or Space taps;
// each hole says what it holds. Orbs carry their colour's letter and their element's.

import { svg as el } from '../svg.js';
import { parsePosition } from '../position.js';
import { h as html } from '../dom.js';
const ROWS = 'abcdefghijklmnopq';
const LENGTHS = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
const HX = 19; // half the distance between holes of a row, in SVG units
const HY = 32.9; // distance between rows
const M = 28;
const ORB_COLOURS = { R: '#d7263d', B: '#1b64c4', G: '#138a43', Y: '#e8b100', O: '#f06d1a', P: '#8e44ad' };
const ELEMENT = { F: 'fire', W: 'water', E: 'earth', A: 'air', V: 'void' };
const INK = { Y: '#222', O: '#222' };
const COLOUR_NAMES = { R: 'red', B: 'blue', G: 'green', Y: 'yellow', O: 'orange', P: 'purple' };
/** An orb in words: `red fire`. */
const orbWords = (token) => `${COLOUR_NAMES[token[0]] || token[0]} ${ELEMENT[token[1]] || token[1]}`;

/** Every hole: name -> {x, y (geometry units), X, Y (SVG)}. */
export const HOLES = new Map();
LENGTHS.forEach((n, r) => {
  for (let k = 0; k < n; k++) {
    const x = -(n - 1) + 2 * k;
    HOLES.set(`${ROWS[r]}${k + 1}`, { x, y: r, X: M + (x + 12) * HX, Y: M + (16 - r) * HY });
  }
});

function drawOrb(parent, hole, token, cls) {
  const h = HOLES.get(hole);
  const g = el('g', { class: `orb ${ELEMENT[token[1]] || ''} ${cls || ''}`, transform: `translate(${h.X},${h.Y})` }, parent);
  el('circle', { r: 14.5, fill: ORB_COLOURS[token[0]] || '#777', class: 'body' }, g);
  el('circle', { r: 14.5, class: 'ring' }, g);
  const t = el('text', { 'text-anchor': 'middle', dy: '0.36em', fill: INK[token[0]] || '#fff' }, g);
  el('tspan', { class: 'letter' }, t).textContent = token[0];
  t.append(token[1]);
  return g;
}

export class OrbsBoard {
  /** Draws the empty star into `host`; `room` (null in a record) takes what the player does. */
  constructor(host, room) {
    this.room = room;
    this.unit = 'moves';
    this.orbs = new Map();
    this.moves = []; // the moves this player may make now (`d2-e6`), as the server says
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
      const e = el('circle', {
        cx: h.X, cy: h.Y, r: 15, class: 'hole', 'data-hole': name, role: 'button', tabindex: name === 'e7' ? 0 : -1, 'aria-label': `${name}: empty`,
      }, holes);
      e.addEventListener('click', (ev) => { ev.preventDefault(); this.focusHole(name); this.tap(name); });
      this.holeEls.set(name, e);
    }
    svg.addEventListener('keydown', (ev) => this.holeKey(ev));
    this.markLayer = el('g', { class: 'marks', 'aria-hidden': 'true' }, svg); // removed orbs fade under the new ones
    this.orbLayer = el('g', { class: 'orb-layer', 'aria-hidden': 'true' }, svg);
    host.appendChild(svg);
    if (room && !room.watchOnly) host.append(html('p', { class: 'keys' }, 'Keys: Tab to the board, arrows move between holes, Enter or Space picks up an orb, then again on the hole it goes to.'));
  }

  /** Makes `hole` the star's one tab stop. */
  stop(hole) {
    for (const [name, x] of this.holeEls) x.setAttribute('tabindex', name === hole ? 0 : -1);
  }

  /** Makes `hole` the tab stop and focuses it. */
  focusHole(hole) {
    const e = this.holeEls.get(hole);
    if (!e) return;
    this.stop(hole);
    e.focus();
  }

  /** A key on a focused hole: arrows move to the nearest hole that way, Enter or Space taps. */
  holeKey(ev) {
    const hole = ev.target.dataset && ev.target.dataset.hole;
    if (!hole) return;
    const here = HOLES.get(hole);
    const way = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[ev.key];
    if (way) {
      // The nearest hole ahead (rows count double: a row is about twice a step's width).
      let best = null;
      let bestD = Infinity;
      for (const [name, p] of HOLES) {
        const dx = p.x - here.x;
        const dy = p.y - here.y;
        const ahead = way[0] ? dx * way[0] > 0 && Math.abs(dy) <= 0 : dy * way[1] > 0;
        if (!ahead) continue;
        const d = Math.abs(dx) + 2 * Math.abs(dy);
        if (d < bestD) { best = name; bestD = d; }
      }
      if (best) this.focusHole(best);
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      this.tap(hole);
      // An orb picked up: the keyboard goes to the first hole it may go to.
      const to = this.from ? this.moves.find((m) => m.startsWith(`${this.from}-`)) : null;
      if (to) this.focusHole(to.slice(this.from.length + 1));
    } else return;
    ev.preventDefault();
    ev.stopPropagation();
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
    this.orbs = parsePosition(text, true);
    this.orbLayer.replaceChildren();
    for (const [name, e] of this.holeEls) {
      const token = this.orbs.get(name);
      if (token) e.setAttribute('data-orb', token);
      else e.removeAttribute('data-orb');
      e.setAttribute('aria-label', `${name}: ${token ? `${orbWords(token)} orb` : 'empty'}`);
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

  /** The moves the player may make now (`d2-e6`): their orbs may be picked up. */
  setMoves(moves) {
    this.moves = moves;
    if (this.from && !this.canMove(this.from)) this.select(null);
    for (const [name, e] of this.holeEls) e.classList.toggle('can', this.canMove(name));
    // Tab lands on an orb that can move (unless the keyboard is on the star already).
    const first = moves.length ? moves[0].split('-')[0] : null;
    if (first && !this.svg.contains(document.activeElement)) this.stop(first);
  }

  canMove(hole) {
    return this.moves.some((m) => m.startsWith(`${hole}-`));
  }

  select(hole) {
    this.from = hole;
    const to = hole ? this.moves.filter((m) => m.startsWith(`${hole}-`)).map((m) => m.slice(hole.length + 1)) : [];
    for (const [name, e] of this.holeEls) {
      e.classList.toggle('sel', name === hole);
      e.classList.toggle('to', to.includes(name));
    }
    (window.__orion || {}).selected = hole;
  }

  tap(hole) {
    // A tap before the server's moves for this turn have come waits for them.
    if (this.room && this.room.hintsPending()) { this.room.afterHints(() => this.tap(hole)); return; }
    if (this.canMove(hole)) this.select(this.from === hole ? null : hole);
    else if (this.from && this.holeEls.get(hole).classList.contains('to')) {
      const text = `${this.from}-${hole}`;
      this.select(null);
      this.room.sendMove(text);
    } else this.select(null);
  }

  // --- In a room: the module interface (boards/index.js) -----------------------------

  /** Its buttons: offering and accepting a draw. */
  controls(button) {
    this.btn = {
      draw: button('draw', 'Offer a draw', () => this.room.act({ t: 'draw' })),
      acceptDraw: button('accept-draw', 'Accept the draw', () => this.room.act({ t: 'draw', accept: true }), 'big'),
    };
    return [this.btn.acceptDraw, this.btn.draw];
  }

  /** One event: moves are drawn; who is out and the draw offer are folded into `s`. */
  event(ev, at, live, s) {
    if (ev.kind === 'start') this.set(ev.position);
    if (ev.kind === 'draw') {
      s.draw = ev.agreed && ev.agreed.length ? { agreed: ev.agreed } : null;
      if (live) this.room.note(ev.accept ? `${ev.seat} accepts the draw` : `${ev.seat} offers a draw`);
    }
    if (ev.kind !== 'move') return;
    this.move(ev);
    for (const k of ev.out || []) if (!s.out.includes(k)) s.out.push(k);
    s.draw = null;
  }

  /** The turn line: who is out, the draw on offer. */
  line(s) {
    const bits = [];
    if (s.out.length) bits.push(`out: ${s.out.join(', ')}`);
    if (s.draw) bits.push(`draw offered (agreed: ${s.draw.agreed.join(', ')})`);
    return bits.join(' \u00b7 ');
  }

  /** Scores as the board stands: each seat's orbs left. */
  liveScores(s) {
    for (const k of Object.keys(s.seats)) {
      const c = this.room.colourOf(k);
      s.scores[k] = [...this.orbs.values()].filter((x) => x[0] === c).length;
    }
  }

  /** The draw buttons, closed holes, and the orbs the player may move. */
  render(s, mine) {
    const room = this.room;
    const seated = s.status === 'playing' && !room.replaying && room.seat && !s.out.includes(room.seat);
    this.btn.draw.hidden = !(seated && !s.draw);
    this.btn.acceptDraw.hidden = !(seated && s.draw && !s.draw.agreed.includes(room.seat));
    this.setClosed(s.options.holes);
    this.setMoves(mine ? room.hint('move') : []);
  }

  /** A replay step: the position of the next frame. */
  step(here, next) { this.set(next.position); }

  /** A colour letter's fill. */
  swatch(c) { return ORB_COLOURS[c] || '#888'; }
}

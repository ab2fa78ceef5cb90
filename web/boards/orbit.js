// Orbit's board module (ORBIT.md): 16x16 cells, a1 bottom-left, black and white stones. Every
// cell is an element with `data-cell` and, when occupied, `data-stone` (`B`/`W`). It draws what
// the server says: prohibited cells from the turn, territory and the cells one may drop on
// from the server's `hints`. The grid is one tab stop: arrows move between cells, Enter or
// Space drops; each cell says what it holds.

import { svg as el } from '../svg.js';
import { parsePosition } from '../position.js';
import { h } from '../dom.js';
const N = 16;
const C = 36; // one cell, in SVG units
const M = 30; // margin for the coordinates
const COLS = 'abcdefghijklmnop';
export const cellName = (i) => `${COLS[i % N]}${Math.floor(i / N) + 1}`;
const cx = (i) => M + (i % N) * C + C / 2;
const cy = (i) => M + (N - 1 - Math.floor(i / N)) * C + C / 2;
const STONES = { B: 'black', W: 'white' };
const FILL = { B: '#111', W: '#f4f4f4' };

export class OrbitBoard {
  /** Draws an empty board into `host`; `room` (null in a record) takes what the player does. */
  constructor(host, room) {
    this.room = room;
    this.h = { onCell: (cell) => this.cell(cell) };
    this.unit = 'moves';
    this.watchHints = true; // everyone is shown the territory
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
        role: 'button', tabindex: name === 'h8' ? 0 : -1, 'aria-label': `${name}: empty`,
      }, cells);
      e.addEventListener('click', (ev) => { ev.preventDefault(); this.focusCell(name); this.h.onCell(name); });
      this.cellEls.set(name, e);
    }
    svg.addEventListener('keydown', (ev) => this.cellKey(ev));
    this.stoneLayer = el('g', { class: 'stones', 'aria-hidden': 'true' }, svg);
    this.markLayer = el('g', { class: 'marks', 'aria-hidden': 'true' }, svg);
    host.appendChild(svg);
    if (room && !room.watchOnly) host.append(h('p', { class: 'keys' }, 'Keys: Tab to the board, arrows move between cells, Enter or Space drops a stone.'));
  }

  /** Makes `cell` the grid's tab stop and focuses it. */
  focusCell(cell) {
    const e = this.cellEls.get(cell);
    if (!e) return;
    for (const c of this.cellEls.values()) c.setAttribute('tabindex', -1);
    e.setAttribute('tabindex', 0);
    e.focus();
  }

  /** A key on a focused cell: arrows move, Enter or Space drops. */
  cellKey(ev) {
    const cell = ev.target.dataset && ev.target.dataset.cell;
    if (!cell) return;
    const col = COLS.indexOf(cell[0]);
    const row = Number(cell.slice(1)) - 1;
    const to = (c, r) => this.focusCell(cellName(Math.max(0, Math.min(N - 1, r)) * N + Math.max(0, Math.min(N - 1, c))));
    switch (ev.key) {
      case 'ArrowLeft': to(col - 1, row); break;
      case 'ArrowRight': to(col + 1, row); break;
      case 'ArrowUp': to(col, row + 1); break;
      case 'ArrowDown': to(col, row - 1); break;
      case 'Enter': case ' ': this.h.onCell(cell); break;
      default: return;
    }
    ev.preventDefault();
    ev.stopPropagation();
  }

  /** Each cell's words: its stone, or that the colour to drop may not take it. */
  label(name, e) {
    const stone = this.stones.get(name);
    const what = stone ? `${STONES[stone]} stone` : e.classList.contains('no') ? 'empty, prohibited' : 'empty';
    e.setAttribute('aria-label', `${name}: ${what}`);
  }

  /** Shows `text` (a position string). */
  set(text) {
    this.stones = parsePosition(text, true);
    this.stoneLayer.replaceChildren();
    for (const [name, e] of this.cellEls) {
      const stone = this.stones.get(name);
      if (stone) e.setAttribute('data-stone', stone);
      else e.removeAttribute('data-stone');
      this.label(name, e);
    }
    for (const [name, stone] of this.stones) {
      const e = this.cellEls.get(name);
      if (!e) continue;
      const x = Number(e.getAttribute('x')) + C / 2 - 1;
      const y = Number(e.getAttribute('y')) + C / 2 - 1;
      el('circle', { cx: x, cy: y, r: C / 2 - 3, class: `stone ${stone}` }, this.stoneLayer);
    }
  }

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
  show(prohibited, drops, territory) {
    const no = new Set(prohibited || []);
    const ok = new Set(drops || []);
    const tB = new Set(territory.B);
    const tW = new Set(territory.W);
    for (const [name, e] of this.cellEls) {
      e.classList.toggle('no', no.has(name));
      if (no.has(name)) e.setAttribute('data-prohibited', '');
      else e.removeAttribute('data-prohibited');
      e.classList.toggle('ok', ok.has(name));
      e.classList.toggle('tB', tB.has(name));
      e.classList.toggle('tW', tW.has(name));
      this.label(name, e);
    }
  }

  // --- In a room: the module interface (boards/index.js) -----------------------------

  /** Its buttons: the pie's colour choice and the pass. */
  controls(button) {
    const move = (text) => () => this.room.sendMove(text);
    this.btn = {
      black: button('choose-black', 'Take black', move('black')),
      white: button('choose-white', 'Take white', move('white')),
      pass: button('pass', 'Pass', move('pass')),
    };
    return Object.values(this.btn);
  }

  /** A cell tapped: a drop, when it is this player's and the server does not forbid it. */
  cell(cell) {
    const room = this.room;
    const s = room && room.s;
    if (!s || !room.isMyTurn() || !['opening', 'play'].includes(s.turn.phase)) return;
    if (this.stones.has(cell) || (s.turn.prohibited || []).includes(cell)) {
      room.note(this.stones.has(cell) ? `${cell} is taken` : `${cell} is prohibited for ${STONES[s.turn.colour]}`);
      return;
    }
    room.sendMove(cell);
  }

  /** Each colour's territory cells, as the server's last hints named them (a move behind
   *  until the next hints come, rather than none). */
  territory() {
    const sets = this.room ? this.room.hints.sets : {};
    return { B: sets.territory_B || [], W: sets.territory_W || [] };
  }

  /** One event: a move is drawn; the pie's choice gives N its colour and S the other. */
  event(ev, at, live, s) {
    if (ev.kind === 'start') this.set(ev.position);
    if (ev.kind !== 'move') return;
    this.move(ev);
    this.fold(ev, s);
  }

  /** Folds a colour choice into the seats' colours (also from a replay's history). */
  fold(ev, s) {
    if (ev.kind !== 'move' || (ev.move !== 'black' && ev.move !== 'white')) return;
    const other = ev.colour === 'B' ? 'W' : 'B';
    for (const [k, c] of [[ev.seat, ev.colour], [ev.seat === 'S' ? 'N' : 'S', other]]) {
      s.colours[k] = c;
      if (s.seats[k]) s.seats[k].colour = c;
    }
  }

  /** The turn line: the phase, the colour to drop, territory. */
  line(s) {
    const t = s.turn;
    const terr = this.territory();
    const text = ` \u00b7 territory black ${terr.B.length}, white ${terr.W.length}`;
    if (s.status !== 'playing') return text.slice(3);
    if (t.phase === 'opening') return `opening: ${t.seat} drops ${STONES[t.colour]} (${t.drop} of 3)${text}`;
    if (t.phase === 'choice') return `${t.seat} chooses a colour${text}`;
    return `${STONES[t.colour] || ''} to drop${text}`;
  }

  /** Scores as the board stands: each seat's territory. */
  liveScores(s) {
    const terr = this.territory();
    for (const k of Object.keys(s.seats)) {
      const c = this.room.colourOf(k);
      s.scores[k] = c ? terr[c].length : 0;
    }
  }

  /** The choice and pass buttons, prohibited cells, drops and territory. */
  render(s, mine) {
    const room = this.room;
    const playing = s.status === 'playing' && !room.replaying;
    this.btn.black.hidden = this.btn.white.hidden = !(mine && s.turn.phase === 'choice');
    this.btn.pass.hidden = !(mine && s.turn.phase === 'play');
    const terr = this.territory();
    this.show(playing ? s.turn.prohibited : [], mine && playing ? room.hint('drop') : [], terr);
    room.hooks.territory = { B: terr.B.length, W: terr.W.length };
    if (mine && s.turn.phase === 'choice') room.note('Choose your colour: black or white (white drops next)');
    else if (room.el.note.textContent.startsWith('Choose your colour')) room.note('');
  }

  /** A replay step: the position of the next frame. */
  step(here, next) { this.set(next.position); }

  /** A colour letter's fill. */
  swatch(c) { return FILL[c] || '#888'; }
}

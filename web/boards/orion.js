// ORION's board module: an SVG drawing of the 5x5 rotors and the 60 slots between them, drawn
// from a position string; every click turns the four pieces of its rotor's orbit a quarter
// round. It knows no rules: it draws what the server's events say, highlights what the
// server's `hints` name (places, rotors, pieces), and sends what the player touches.
// Keyboard and screen readers: the rotors are one tab stop (arrows move between them, `[` `]`
// turn, Enter picks one for the turn buttons), every slot is labelled with what it holds. On a
// phone a tap picks a rotor and two big buttons under the board turn it (halves are too
// narrow to aim at). Pieces carry their colour's letter as well as their number.

import { svg as el } from '../svg.js';
import { parsePosition } from '../position.js';
import { game, isPuzzle } from '../catalogue.js';
import { h } from '../dom.js';
const U = 100; // one rotor cell, in SVG units
const M = 34; // margin round the grid
const COLS = 'ABCDE';
export const COLOURS = { R: '#d7263d', B: '#1b64c4', G: '#138a43', Y: '#e8b100' };
const INK = { R: '#fff', B: '#fff', G: '#fff', Y: '#222' };
const HIDDEN = { R: 'red', B: 'blue', G: 'green', Y: 'yellow' };
// Where a tap picks a rotor instead of turning it (its halves would be under 32 px).
const NARROW = '(max-width: 760px)';
export const colourName = (c) => HIDDEN[c] || c;

// Grid corner (x, y), origin bottom-left, to SVG coordinates.
const px = (x) => M + x * U;
const py = (y) => M + (5 - y) * U;

// The 60 slots in canonical order (ORION.md section 7): horizontal slots bottom line first,
// left to right, then vertical slots, left line first, bottom to top.
export const SLOTS = [];
const GEOM = new Map(); // slot name -> {x, y, horizontal} (midpoint in SVG units)
for (let y = 0; y <= 5; y++) {
  for (let c = 0; c < 5; c++) {
    const name = y === 0 ? `${COLS[c]}1s` : `${COLS[c]}${y}n`;
    SLOTS.push(name);
    GEOM.set(name, { x: px(c + 0.5), y: py(y), horizontal: true });
  }
}
for (let x = 0; x <= 5; x++) {
  for (let r = 0; r < 5; r++) {
    const name = x === 0 ? `A${r + 1}w` : `${COLS[x - 1]}${r + 1}e`;
    SLOTS.push(name);
    GEOM.set(name, { x: px(x), y: py(r + 0.5), horizontal: false });
  }
}

/** The canonical name of one side of rotor (column c, row r), both from 0. */
function side(c, r, s) {
  switch (s) {
    case 'n': return `${COLS[c]}${r + 1}n`;
    case 's': return r === 0 ? `${COLS[c]}1s` : `${COLS[c]}${r}n`;
    case 'e': return `${COLS[c]}${r + 1}e`;
    default: return c === 0 ? `A${r + 1}w` : `${COLS[c - 1]}${r + 1}e`;
  }
}

/** The rotors, with their centres and orbits (north, east, south, west). */
export const ROTORS = [];
for (let r = 0; r < 5; r++) {
  for (let c = 0; c < 5; c++) {
    ROTORS.push({
      name: `${COLS[c]}${r + 1}`, c, r, cx: px(c + 0.5), cy: py(r + 0.5),
      orbit: ['n', 'e', 's', 'w'].map((s) => side(c, r, s)),
    });
  }
}
const ROTOR = new Map(ROTORS.map((t) => [t.name, t]));

/** A click (`C2R`, `C2L`, or the earlier server's `m+`) as {rotor, dir: +1 clockwise}. */
export function parseClick(click) {
  const m = /^([A-Ea-e])([1-5])([RrLl])$/.exec(click || '');
  if (m) return { rotor: m[1].toUpperCase() + m[2], dir: /[Rr]/.test(m[3]) ? 1 : -1 };
  const o = /^([a-y])([+-])$/.exec(click || '');
  if (!o) return null;
  const i = o[1].charCodeAt(0) - 97;
  return { rotor: `${COLS[i % 5]}${5 - Math.floor(i / 5)}`, dir: o[2] === '+' ? 1 : -1 };
}

/** Piece drawing: an eye along its slot, its colour and number. */
function drawPiece(parent, token) {
  const g = el('g', { class: 'piece', 'data-token': token }, parent);
  const colour = token[0];
  el('ellipse', { rx: 36, ry: 13, fill: COLOURS[colour] || '#777', class: 'eye' }, g);
  const t = el('text', { class: 'num', fill: INK[colour] || '#fff', 'text-anchor': 'middle', dy: '0.35em' }, g);
  el('tspan', { class: 'letter' }, t).textContent = colour;
  t.append(token.slice(1));
  return g;
}

export class OrionBoard {
  /** Draws an empty board into `host`; `room` (null in a record) takes what the player does. */
  constructor(host, room) {
    this.room = room;
    this.h = {
      onClick: (click) => this.sendClick(click),
      onPlace: (slot) => this.sendPlace(slot),
      onPiece: (token, slot) => this.piece(token, slot),
    };
    this.unit = 'clicks';
    this.from = null; // the piece a building move takes, when chosen
    this.mode = null; // 'challenge' while choosing a piece to challenge
    this.position = new Map();
    this.pieces = new Map(); // slot -> piece element
    this.anim = null; // the running animation: {frame, finish}
    this.hooks = window.__orion || (window.__orion = {});
    const size = 2 * M + 5 * U;
    const svg = el('svg', { viewBox: `0 0 ${size} ${size}`, class: 'board', role: 'group', 'aria-label': 'ORION board' });
    this.svg = svg;
    el('rect', { x: M - 10, y: M - 10, width: 5 * U + 20, height: 5 * U + 20, rx: 14, class: 'frame' }, svg);
    const grid = el('g', { class: 'grid' }, svg);
    for (let i = 0; i <= 5; i++) {
      el('line', { x1: px(i), y1: py(0), x2: px(i), y2: py(5) }, grid);
      el('line', { x1: px(0), y1: py(i), x2: px(5), y2: py(i) }, grid);
    }
    const labels = el('g', { class: 'labels' }, svg);
    for (let c = 0; c < 5; c++) {
      el('text', { x: px(c + 0.5), y: py(0) + 28, 'text-anchor': 'middle' }, labels).textContent = COLS[c];
    }
    for (let r = 0; r < 5; r++) {
      el('text', { x: M - 22, y: py(r + 0.5) + 5, 'text-anchor': 'middle' }, labels).textContent = r + 1;
    }
    // Rotors: a disc in two halves, the left half turns it left (L), the right half right (R).
    // The rotor itself is the keyboard's and screen reader's control (one tab stop for all).
    this.rotorEls = new Map();
    const rotors = el('g', { class: 'rotors' }, svg);
    for (const t of ROTORS) {
      const g = el('g', {
        class: 'rotor', 'data-rotor': t.name, role: 'button', tabindex: t.name === 'C3' ? 0 : -1,
        'aria-label': `rotor ${t.name}`,
      }, rotors);
      el('circle', { cx: t.cx, cy: t.cy, r: 31, class: 'disc' }, g);
      for (const [dir, sweep, dx, glyph] of [['L', 0, -13, '\u21ba'], ['R', 1, 13, '\u21bb']]) {
        const d = `M${t.cx},${t.cy - 29} A29,29 0 0,${sweep} ${t.cx},${t.cy + 29} Z`;
        const half = el('path', { d, class: `half ${dir}`, 'data-click': `${t.name}${dir}`, 'aria-hidden': 'true' }, g);
        half.addEventListener('click', (e) => {
          e.preventDefault();
          if (this.turnBar && window.matchMedia && window.matchMedia(NARROW).matches) this.choose(t.name);
          else this.h.onClick(`${t.name}${dir}`);
        });
        el('text', { x: t.cx + dx, y: t.cy + 6, 'text-anchor': 'middle', class: 'glyph', 'aria-hidden': 'true' }, g).textContent = glyph;
      }
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); this.choose(t.name); }
      });
      g.addEventListener('focus', () => { this.cursorAt = t.name; this.cursor(t.name); });
      el('text', { x: t.cx, y: t.cy - 12, 'text-anchor': 'middle', class: 'rname', 'aria-hidden': 'true' }, g).textContent = t.name;
      this.rotorEls.set(t.name, g);
    }
    // Slots: one element each, carrying data-slot and, when occupied, data-piece.
    this.slotEls = new Map();
    const slots = el('g', { class: 'slots' }, svg);
    for (const name of SLOTS) {
      const s = GEOM.get(name);
      const e = el('rect', {
        class: 'slot', 'data-slot': name, role: 'img', 'aria-label': `slot ${name}: empty`,
        x: s.x - (s.horizontal ? 30 : 5), y: s.y - (s.horizontal ? 5 : 30),
        width: s.horizontal ? 60 : 10, height: s.horizontal ? 10 : 60, rx: 5,
      }, slots);
      this.slotEls.set(name, e);
    }
    this.pieceLayer = el('g', { class: 'pieces', 'aria-hidden': 'true' }, svg);
    this.pieceLayer.addEventListener('click', (e) => {
      const g = e.target.closest('.piece');
      if (g) this.h.onPiece && this.h.onPiece(g.dataset.token, g.dataset.slot);
    });
    this.placeLayer = el('g', { class: 'places' }, svg);
    this.markLayer = el('g', { class: 'marks' }, svg);
    host.appendChild(svg);
    if (room && !room.watchOnly) {
      // The picked rotor's two turns, big enough for a thumb.
      const turn = (dir) => () => { if (this.chosen) this.sendClick(`${this.chosen}${dir}`); };
      this.turnLeft = h('button', { type: 'button', id: 'turn-left', on: { click: turn('L') } });
      this.turnRight = h('button', { type: 'button', id: 'turn-right', on: { click: turn('R') } });
      this.turnBar = h('div', { class: 'turn-bar', hidden: true, role: 'group', 'aria-label': 'turn the rotor' }, this.turnLeft, this.turnRight);
      // The pieces that may be chosen now (a secret man, a challenge, the piece a building
      // move takes), as buttons: a keyboard reaches them with Tab, as a tap reaches a piece.
      this.choices = h('div', { class: 'choices', id: 'choices', hidden: true, role: 'group', 'aria-label': 'choose a piece' });
      host.append(this.turnBar, this.choices, h('p', { class: 'keys' },
        'Keys: Tab to the board, arrows choose a rotor, [ or z turns it left, ] or x right, Enter picks it for the buttons; c claims, e ends the turn; a piece to choose (a secret man, a challenge, a piece to move) is a button under the board; in a puzzle u undoes your last click, h shows a hint. On a phone: tap a rotor, then a direction.'));
    }
  }

  /** Picks `rotor` for the turn buttons under the board (a phone's tap, or Enter). */
  choose(rotor) {
    this.chosen = rotor;
    this.cursorAt = rotor;
    this.cursor(rotor);
    if (!this.turnBar) return;
    this.turnLeft.textContent = `\u21ba Turn ${rotor} left`;
    this.turnRight.textContent = `Turn ${rotor} right \u21bb`;
    this.turnBar.hidden = false;
    this.hooks.chosen = rotor;
  }

  /** The position string after `click` turns its rotor's four slots a quarter round (R
   *  clockwise: north to east, east to south...): a click's geometry, no rule. */
  clicked(text, click) {
    const c = parseClick(click);
    const rotor = c && ROTOR.get(c.rotor);
    const before = parsePosition(text);
    if (!rotor) return text;
    const after = new Map(before);
    rotor.orbit.forEach((slot, i) => {
      const to = rotor.orbit[(i + c.dir + 4) % 4];
      if (before.has(slot)) after.set(to, before.get(slot));
      else after.delete(to);
    });
    return SLOTS.filter((slot) => after.has(slot)).map((slot) => `${slot}:${after.get(slot)}`).join(' ');
  }

  /** Shows `text` (a position string) at once, cancelling any animation. */
  set(text) {
    this.finishAnimation();
    this.position = parsePosition(text);
    this.updateAttributes();
    this.redraw();
  }

  /** Puts data-piece on the slot elements (the position as the server last said it), and
   *  says in words what each slot and rotor holds. */
  updateAttributes() {
    const words = (token) => (token ? `${colourName(token[0])} ${token.slice(1)}` : 'empty');
    for (const [name, e] of this.slotEls) {
      const token = this.position.get(name);
      if (token) e.setAttribute('data-piece', token);
      else e.removeAttribute('data-piece');
      e.setAttribute('aria-label', `slot ${name}: ${words(token)}`);
    }
    for (const t of ROTORS) {
      const g = this.rotorEls.get(t.name);
      const held = t.orbit.map((slot, i) => `${'nesw'[i]} ${words(this.position.get(slot))}`).join(', ');
      g.setAttribute('aria-label', `rotor ${t.name}${g.classList.contains('can') ? ' (you may turn it)' : ''}: ${held}`);
    }
  }

  redraw() {
    this.pieceLayer.replaceChildren();
    this.pieces.clear();
    for (const [slot, token] of this.position) {
      const s = GEOM.get(slot);
      if (!s) continue;
      const g = drawPiece(this.pieceLayer, token);
      g.dataset.slot = slot;
      this.place(g, s.x, s.y, s.horizontal ? 0 : 90);
      this.pieces.set(slot, g);
    }
  }

  place(g, x, y, angle) {
    g.setAttribute('transform', `translate(${x.toFixed(2)},${y.toFixed(2)})`);
    g.firstChild.setAttribute('transform', `rotate(${angle.toFixed(2)})`);
  }

  /**
   * A click arrived (`arrived`: performance.now() of its message): the four pieces of the
   * orbit turn a quarter round, then the board shows `text`. data-piece changes at once.
   */
  click(click, text, arrived) {
    this.finishAnimation();
    const c = parseClick(click);
    const rotor = c && ROTOR.get(c.rotor);
    const next = parsePosition(text);
    this.position = next;
    this.updateAttributes();
    this.markLast(c && c.rotor);
    if (!rotor) { this.redraw(); return; }
    const moving = rotor.orbit
      .map((slot) => ({ slot, g: this.pieces.get(slot), s: GEOM.get(slot) }))
      .filter((m) => m.g);
    const duration = 240;
    let start = null;
    const step = (now) => {
      if (start === null) {
        start = now;
        const lag = performance.now() - (arrived || now);
        this.hooks.lastAnimationLag = lag;
        this.hooks.lastAnimationAt = performance.timeOrigin + performance.now();
        this.hooks.animations = (this.hooks.animations || 0) + 1;
      }
      const k = Math.min(1, (now - start) / duration);
      const e = k < 0.5 ? 2 * k * k : 1 - (2 - 2 * k) ** 2 / 2;
      const turn = c.dir * 90 * e;
      for (const m of moving) {
        const a0 = Math.atan2(m.s.y - rotor.cy, m.s.x - rotor.cx);
        const a = a0 + (turn * Math.PI) / 180;
        const x = rotor.cx + 50 * Math.cos(a);
        const y = rotor.cy + 50 * Math.sin(a);
        this.place(m.g, x, y, (m.s.horizontal ? 0 : 90) + turn);
      }
      if (k < 1) this.anim.frame = requestAnimationFrame(step);
      else this.finishAnimation();
    };
    this.anim = { frame: requestAnimationFrame(step) };
    // A background tab may never run the frame: the board is right after the duration anyway.
    this.anim.timer = setTimeout(() => this.finishAnimation(), duration + 200);
  }

  finishAnimation() {
    if (!this.anim) return;
    cancelAnimationFrame(this.anim.frame);
    clearTimeout(this.anim.timer);
    this.anim = null;
    this.redraw();
  }

  /** Highlights the rotor of the last click. */
  markLast(rotor) {
    for (const [name, g] of this.rotorEls) g.classList.toggle('last', name === rotor);
  }

  /** Eligible slots: clickable `data-place` marks (only when the player may build). */
  setPlaces(slots) {
    this.placeLayer.replaceChildren();
    for (const slot of slots || []) {
      const s = GEOM.get(slot);
      if (!s || this.position.has(slot)) continue;
      const e = el('circle', {
        cx: s.x, cy: s.y, r: 14, class: 'place', 'data-place': slot, tabindex: 0, role: 'button',
        'aria-label': `place on ${slot}`,
      }, this.placeLayer);
      const go = (ev) => { ev.preventDefault(); this.h.onPlace(slot); };
      e.addEventListener('click', go);
      e.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') go(ev); });
    }
  }

  /** Outlines `slots` with class `cls` (captured slots, a chain, a try) for `ms` (0: keep). */
  mark(slots, cls, ms) {
    for (const old of this.markLayer.querySelectorAll(`.${cls}`)) old.remove();
    const made = [];
    for (const slot of slots || []) {
      const s = GEOM.get(slot);
      if (!s) continue;
      made.push(el('rect', {
        class: `mark ${cls}`, x: s.x - (s.horizontal ? 40 : 17), y: s.y - (s.horizontal ? 17 : 40),
        width: s.horizontal ? 80 : 34, height: s.horizontal ? 34 : 80, rx: 17,
      }, this.markLayer));
    }
    if (ms) setTimeout(() => made.forEach((m) => m.remove()), ms);
  }

  /** Highlights a rotor for the keyboard cursor; it is the board's one tab stop. */
  cursor(rotor) {
    for (const [name, g] of this.rotorEls) {
      g.classList.toggle('cursor', name === rotor);
      g.setAttribute('tabindex', name === rotor ? 0 : -1);
    }
  }

  // --- In a room: the module interface (boards/index.js) -----------------------------

  /** Its buttons, added to the room's actions. */
  controls(button) {
    const act = (t) => () => this.room.act({ t });
    this.btn = {
      claim: button('claim', 'Claim!', act('claim'), 'big'),
      roll: button('roll', 'Throw the die', act('roll')),
      three: button('three', 'Three clicks', act('three')),
      endTurn: button('end-turn', 'End turn', act('end_turn')),
      challenge: button('challenge', 'Challenge\u2026', () => this.setMode(this.mode === 'challenge' ? null : 'challenge')),
      undo: button('undo', 'Undo (u)', () => this.undo()),
      hint: button('hint', 'Hint (h)', () => this.askHint()),
    };
    return Object.values(this.btn);
  }

  // --- A click puzzle's help: undo and hints -----------------------------------------

  /** Whether the reader solves a click puzzle here now (undo and hints are his). */
  solving() {
    const room = this.room;
    const s = room && room.s;
    const g = s && game(s.game);
    return !!(g && g.puzzle && (g.target || g.optimum) && room.seat && s.status === 'playing' && !room.replaying);
  }

  undo() {
    if (this.solving() && this.room.s.turn.used > 0) this.room.act({ t: 'undo' });
  }

  askHint() {
    if (!this.solving() || this.hintAsked) return;
    this.hintAsked = true;
    this.room.note('Finding the next click of a shortest line\u2026');
    this.hintId = this.room.net.send({ t: 'hint', room: this.room.room });
    this.room.render();
  }

  /** A refusal of one of this board's requests (the room shows its message). */
  refused(m) {
    if (m.re !== this.hintId) return;
    this.hintAsked = false;
    this.room.note('');
  }

  /** Shows a hint: its rotor ringed and the half to press lit until the next click. */
  showHint(click) {
    const c = click && parseClick(click);
    this.hinted = c ? click : null;
    for (const [name, g] of this.rotorEls) {
      g.classList.toggle('hinted', !!c && name === c.rotor);
      for (const half of g.querySelectorAll('.half')) half.classList.toggle('hinted', half.dataset.click === click);
    }
  }

  sendClick(click) {
    if (!this.room || this.room.replaying) return;
    this.room.hooks.lastClickSentAt = performance.timeOrigin + performance.now();
    this.room.act({ t: 'click', click });
  }

  sendPlace(slot) {
    if (!this.room) return;
    const req = { t: 'place', slot };
    if (this.from) req.from = this.from;
    this.from = null;
    this.room.act(req);
  }

  /** A piece tapped: a secret man, a challenge, or the piece a building move takes. */
  piece(token, slot) {
    const room = this.room;
    if (!room || !room.s || room.replaying) return;
    // A tap before the server's hints for this seq have come waits for them.
    if (room.hintsPending()) { room.afterHints(() => this.piece(token, slot)); return; }
    const hint = (k) => room.hint(k).includes(token) || room.hint(k).includes(slot);
    if (hint('secret') && !room.s.secrets[room.seat]) { room.act({ t: 'secret', piece: token }); return; }
    if (this.mode === 'challenge' && token[0] !== room.myColour()) { room.act({ t: 'challenge', piece: token }); this.setMode(null); return; }
    if (hint('from')) {
      this.from = this.from === slot ? null : slot;
      this.mark(this.from ? [slot] : [], 'from', 0);
      room.note(this.from ? `moving ${token}: tap an empty slot to place it` : '');
    }
  }

  setMode(mode) {
    this.mode = mode;
    this.room.note(mode === 'challenge' ? 'tap the piece you suspect' : '');
    this.room.render();
  }

  /** One event of the room: the board's part, and ORION's own fields of the state `s`. */
  event(ev, at, live, s) {
    switch (ev.kind) {
      case 'start': this.set(ev.position); break;
      case 'undo': {
        // The click taken back turns its rotor the other way.
        const c = parseClick(ev.click);
        this.click(c ? `${c.rotor}${c.dir > 0 ? 'L' : 'R'}` : ev.click, ev.position, at);
        this.markLast(null);
        this.showHint(null);
        s.turn.used = ev.used;
        if (this.room) this.room.note(`${ev.click} taken back: ${ev.used === 1 ? '1 click stands' : `${ev.used} clicks stand`}`);
        break;
      }
      case 'hint': {
        s.hints = ev.hints;
        this.hintAsked = false;
        this.showHint(ev.click);
        const c = parseClick(ev.click);
        const how = c ? `turn ${c.rotor} ${c.dir > 0 ? 'right' : 'left'} (${ev.click})` : ev.click;
        if (this.room) this.room.note(`Hint: ${how} \u2014 ${ev.left} clicks to the finish on a shortest line. A solve with hints is not on the board.`);
        break;
      }
      case 'click':
        this.showHint(null);
        this.click(ev.click, ev.position, at);
        s.turn.used = (s.turn.used || 0) + 1;
        s.eligible = [];
        break;
      case 'place':
        this.set(ev.position);
        this.mark([ev.slot], 'placed', 700);
        s.eligible = s.eligible.filter((x) => x !== ev.slot);
        break;
      case 'eligible': s.eligible = ev.slots || []; break;
      case 'roll': s.roll = ev.value; break;
      case 'turn': this.from = null; break;
      case 'chain':
        if (ev.claim_until !== null && ev.claim_until !== undefined) {
          s.claims.push({ colour: ev.colour, until: ev.claim_until, seen: Date.now() });
        }
        this.room.note(`a ${colourName(ev.colour)} chain!`);
        break;
      case 'claim': {
        const colour = this.room.colourOf(ev.seat);
        s.claims = s.claims.filter((c) => c.colour !== colour);
        this.room.note(`${ev.seat} claims: ${ev.ok ? 'the chain stands' : 'too late'}`);
        break;
      }
      case 'capture':
        this.set(ev.position);
        this.mark(ev.slots, 'captured', 1500);
        s.scores[ev.seat] = (s.scores[ev.seat] || 0) + (ev.points || 0);
        break;
      case 'challenge':
        this.set(ev.position);
        this.mark(ev.removed, 'captured', 1500);
        this.room.note(`${ev.seat} challenges ${ev.piece}: ${ev.hit ? 'found!' : 'wrong'}`);
        break;
      case 'try':
        this.markLast(parseClick(ev.click) && parseClick(ev.click).rotor);
        this.mark(ev.chain, 'chain', 2500);
        s.tries = true;
        s.turn.used = ev.tries;
        s.scores.S = ev.hits;
        this.room.note(`try ${ev.tries}: ${ev.hit ? 'hit' : 'miss'} (${ev.hits} hits)`);
        break;
      case 'over': s.claims = []; s.eligible = []; break;
      default: break;
    }
  }

  /** The turn line: a puzzle's progress, or the clicks of the move. */
  line(s) {
    if (isPuzzle(s.game)) return `${s.tries ? 'tries' : 'clicks'} ${s.turn.used || 0} / ${s.turn.target ?? '\u2013'}`;
    if (s.status !== 'playing') return '';
    const c = s.turn.clicks;
    return c === 0 ? 'place a piece' : c === null || c === undefined ? 'die or three' : `clicks ${s.turn.used || 0} / ${c}`;
  }

  /** Buttons and marks: the die or three, end, claim, and what the server's hints name. */
  render(s, mine) {
    const room = this.room;
    const puzzle = isPuzzle(s.game);
    const choosing = mine && (s.turn.clicks === null || s.turn.clicks === undefined) && !puzzle && s.roll === null;
    this.btn.roll.hidden = !choosing;
    this.btn.three.hidden = !choosing;
    this.btn.endTurn.hidden = !(mine && !puzzle);
    const solving = this.solving();
    this.btn.undo.hidden = !solving;
    this.btn.undo.disabled = !(s.turn.used > 0);
    this.btn.hint.hidden = !solving;
    this.btn.hint.disabled = !!this.hintAsked;
    this.btn.challenge.hidden = !(mine && room.hint('challenge').length);
    this.btn.challenge.classList.toggle('on', this.mode === 'challenge');
    const colour = room.myColour();
    this.btn.claim.hidden = !(colour && s.claims.some((c) => c.colour === colour) && s.status === 'playing');
    room.el.die.hidden = s.roll === null || s.status !== 'playing';
    room.el.die.textContent = s.roll === null ? '' : `die: ${s.roll}`;
    this.setPlaces(mine ? room.hint('place') : []);
    const turnable = new Set(room.hint('turn'));
    for (const [name, g] of this.rotorEls) g.classList.toggle('can', turnable.has(name));
    this.updateAttributes();
    if (this.turnBar) this.turnBar.hidden = !(this.chosen && mine && s.status === 'playing' && !room.replaying);
    if (room.hint('secret').length && !s.secrets[room.seat]) room.note('Choose your secret man: tap one of your pieces, or Tab to its button (only you will know)');
    this.showChoices(s, mine);
  }

  /** The choosable pieces as buttons (each does what tapping the piece does). */
  showChoices(s, mine) {
    if (!this.choices) return;
    const room = this.room;
    const slotOf = (token) => [...this.position].find(([, t]) => t === token);
    const list = [];
    if (room.hint('secret').length && !s.secrets[room.seat]) {
      for (const token of room.hint('secret')) list.push([`Secret man ${token}`, token, (slotOf(token) || [])[0]]);
    } else if (this.mode === 'challenge') {
      for (const token of room.hint('challenge')) list.push([`Challenge ${token}`, token, (slotOf(token) || [])[0]]);
    } else if (mine && room.hint('from').length) {
      for (const slot of room.hint('from')) {
        const token = this.position.get(slot);
        const picked = this.from === slot;
        list.push([picked ? `Moving ${token} from ${slot} (again: keep it)` : `Move ${token} from ${slot}`, token, slot]);
      }
    }
    const key = JSON.stringify(list);
    if (key === this.choicesShown) return;
    this.choicesShown = key;
    this.choices.hidden = !list.length || s.status !== 'playing' || room.replaying;
    this.choices.replaceChildren(...list.map(([label, token, slot]) => h('button', {
      type: 'button', class: 'choice', 'data-choice': token,
      on: { click: () => this.piece(token, slot) },
    }, label)));
  }

  /** A replay step between two frames (`by` of them): a click forward or back animates. */
  step(here, next, by) {
    if (by === 1 && next.kind === 'click') this.click(next.click, next.position, performance.now());
    else if (by === -1 && here.kind === 'click') {
      const c = parseClick(here.click);
      const back = c ? `${c.rotor}${c.dir > 0 ? 'L' : 'R'}` : here.click;
      this.click(back, next.position, performance.now());
    } else this.set(next.position);
  }

  /** The keyboard: arrows move a cursor over the rotors, [ ] (or z x) turn it, c claims, e ends. */
  key(e) {
    const room = this.room;
    const cur = this.cursorAt || 'C3';
    const col = cur.charCodeAt(0) - 65;
    const row = Number(cur[1]);
    const moveTo = (c, r) => {
      this.cursorAt = `${String.fromCharCode(65 + Math.max(0, Math.min(4, c)))}${Math.max(1, Math.min(5, r))}`;
      this.cursor(this.cursorAt);
      // Focus follows the cursor while it is on the board.
      if (this.svg.contains(document.activeElement)) this.rotorEls.get(this.cursorAt).focus();
      if (this.chosen) this.choose(this.cursorAt);
    };
    switch (e.key) {
      case 'ArrowLeft': moveTo(col - 1, row); break;
      case 'ArrowRight': moveTo(col + 1, row); break;
      case 'ArrowUp': moveTo(col, row + 1); break;
      case 'ArrowDown': moveTo(col, row - 1); break;
      case '[': case 'z': this.sendClick(`${cur}L`); break;
      case ']': case 'x': this.sendClick(`${cur}R`); break;
      case 'c': case '!': room.act({ t: 'claim' }); break;
      case 'e': if (room.isMyTurn()) room.act({ t: 'end_turn' }); break;
      case 'u': if (!this.solving()) return false; this.undo(); break;
      case 'h': if (!this.solving()) return false; this.askHint(); break;
      default: return false;
    }
    return true;
  }

  /** After a puzzle's result: the booklet's count and the proven fewest, to measure it by. */
  resultFigures(s) {
    const g = game(s.game) || {};
    if (!g.puzzle || (!g.target && !g.optimum)) return '';
    const bits = [g.target ? `the booklet's ${g.target}` : '', g.optimum ? `the proven best ${g.optimum}` : ''].filter(Boolean);
    const hints = s.result && s.result.hints;
    const helped = hints ? ` \u00b7 with ${hints} hint${hints > 1 ? 's' : ''}: not on the board` : '';
    return ` \u00b7 against ${bits.join(' and ')}${helped}`;
  }

  /** A colour letter's fill. */
  swatch(c) { return COLOURS[c] || '#888'; }

  /** A claim window's colour in words. */
  colourName(c) { return colourName(c); }
}

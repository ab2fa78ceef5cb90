// A finished game's record (`/g/ROOM`): loads its plain-text record `/g/ROOM.txt` (the
// same file `orion replay` reads), shows its headers and steps through it turn by turn
// (first, back, forward, last, or the arrow keys), drawing the position each turn line
// carries, with the whole move list beside it (a turn's line shows the position after it).
// Dates read in the reader's locale; the step buttons are SVG icons (icons.js). The record
// format is written by the server (orion_protocol::GameRecord).

import { boardOf } from './boards/index.js';
import { game, gameName, systemOf } from './catalogue.js';
import { h } from './dom.js';
import { icon } from './icons.js';

/** A record's date (RFC 3339) in the reader's locale; the text as it is if unreadable. */
export function localDate(text) {
  const t = Date.parse(text || '');
  return Number.isNaN(t) ? (text || '') : new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Reads a record: its headers and turns ({number, seat, text, position}). */
export function parseRecord(text) {
  const lines = text.split('\n');
  if ((lines[0] || '').trim() !== '# Orion Online game record') throw new Error('not an Orion Online game record');
  const headers = {};
  const turns = [];
  for (const raw of lines.slice(1)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const turn = /^(\d+)\.\s+([A-Z]+):\s*(.*)$/.exec(line);
    if (turn) {
      let rest = turn[3];
      let position = null;
      const open = rest.lastIndexOf('[');
      if (open >= 0 && rest.endsWith(']')) {
        position = rest.slice(open + 1, -1).trim();
        rest = rest.slice(0, open).trim();
      }
      turns.push({ number: Number(turn[1]), seat: turn[2], text: rest, position });
      continue;
    }
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers, turns };
}

export class Record {
  constructor(host, room, toast) {
    this.room = room;
    this.toast = toast;
    this.at = 0; // 0: the start; n: after turn n
    this.hooks = window.__orion || (window.__orion = {});
    this.hooks.record = this;
    this.el = {
      game: h('h2', { class: 'game' }, `Game ${room}`),
      names: h('ul', { id: 'record-names', class: 'seats' }),
      result: h('div', { id: 'record-result', class: 'result' }),
      at: h('span', { id: 'record-at' }),
      line: h('p', { id: 'record-line', class: 'note' }),
      text: h('a', { href: `/g/${room}.txt${location.search}`, download: `${room}.txt` }, 'download the record'),
    };
    const b = (id, name, label, by) => h('button', { id, type: 'button', 'aria-label': label, title: label, on: { click: () => this.step(by) } }, icon(name));
    this.moves = h('ol', { id: 'record-moves', class: 'moves-list', 'aria-label': 'moves' });
    this.boardHost = h('div', { class: 'board-host' });
    host.append(h('section', { class: 'room' },
      h('div', { class: 'bar' }, this.el.game),
      h('div', { class: 'play' }, this.boardHost,
        h('aside', {}, this.el.names, this.el.result,
          h('div', { class: 'replay' }, b('record-first', 'first', 'first position', -Infinity), b('record-back', 'back', 'one turn back', -1),
            this.el.at, b('record-fwd', 'fwd', 'one turn on', 1), b('record-last', 'last', 'last position', Infinity)),
          h('p', { class: 'keys' }, 'Keys: \u2190 \u2192 step through the turns.'),
          this.el.line, this.moves, h('p', { class: 'link' }, this.el.text)))));
    this.keys = (e) => {
      if (e.key === 'ArrowRight') this.step(1);
      else if (e.key === 'ArrowLeft') this.step(-1);
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', this.keys);
    this.load();
  }

  close() { document.removeEventListener('keydown', this.keys); }

  async load() {
    let text;
    try {
      const r = await fetch(`/g/${this.room}.txt${location.search}`);
      text = await r.text();
      if (!r.ok) throw new Error(text.trim() || `HTTP ${r.status}`);
      this.record = parseRecord(text);
    } catch (e) {
      this.el.line.textContent = String(e.message || e);
      this.toast(String(e.message || e));
      return;
    }
    const { headers } = this.record;
    // The game's board module, with no room: it draws, and sends nothing.
    this.board = new (boardOf(systemOf(headers.game)))(this.boardHost, null);
    const date = h('time', { datetime: headers.date || '' }, localDate(headers.date));
    this.el.game.replaceChildren(`${gameName(headers.game)} \u00b7 `, date);
    let names = {};
    try { names = JSON.parse(headers.names || '{}'); } catch (e) { names = {}; }
    this.el.names.replaceChildren(...(headers.seats || '').split(/\s+/).filter(Boolean)
      .map((k) => h('li', { 'data-seat': k }, `${k} `, h('b', {}, names[k] || 'free'))));
    this.el.result.textContent = headers.reason ? `${headers.result} \u2014 ${headers.reason}` : headers.result;
    // A puzzle's clicks beside the booklet's count and the proven best.
    const g = game(headers.game) || {};
    if (g.puzzle && (g.target || g.optimum)) {
      this.el.result.append(h('span', { id: 'record-figures', class: 'figures' },
        ` \u00b7 ${g.target ? `booklet ${g.target} clicks` : ''}${g.target && g.optimum ? ', ' : ''}${g.optimum ? `proven best ${g.optimum}` : ''}`));
    }
    this.moves.replaceChildren(...this.record.turns.map((t, i) => h('li', {},
      h('button', { type: 'button', 'data-turn': i + 1, on: { click: () => { this.at = i + 1; this.show(); } } }, `${t.seat}: ${t.text}`))));
    this.at = this.record.turns.length;
    this.show();
    this.hooks.recordLoaded = true;
  }

  step(by) {
    if (!this.record) return;
    const n = this.record.turns.length;
    this.at = Math.max(0, Math.min(n, by === Infinity ? n : by === -Infinity ? 0 : this.at + by));
    this.show();
  }

  show() {
    const turns = this.record.turns;
    const turn = turns[this.at - 1];
    const position = turn ? turn.position : this.record.headers.start;
    if (position !== null && position !== undefined) this.board.set(position);
    this.el.at.textContent = ` turn ${this.at} / ${turns.length} `;
    this.el.line.textContent = turn ? `${turn.number}. ${turn.seat}: ${turn.text}` : 'the start';
    for (const b of this.moves.querySelectorAll('button')) {
      if (Number(b.dataset.turn) === this.at) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    }
    this.hooks.recordAt = this.at;
  }
}

// The room's move list in booklet notation: one line per turn ("3. alice: B4R (2), B5L"), a
// click repeated on the same rotor counted as in the booklet, each entry a button that shows
// the position after it (a live game shows it until its next event or "Back to the game"; a
// replay steps to it). Filled from the room's stored `history` when the page comes in (merged
// with what came live meanwhile), then from live events.

import { h } from './dom.js';
import { nameAt } from './words.js';

/** Whether an event is a move the list shows (a click, or another system's move). */
const isMove = (ev) => (ev.kind === 'click' || ev.kind === 'move') && typeof ev.position === 'string';

export class MoveList {
  constructor(room) {
    this.room = room;
    this.turns = []; // [{seat, entries: [{text, count, seq, position}]}]
    this.turnBreak = true; // the next move starts a new line
    this.position = null; // the live position, as the last snapshot or event gave it
    this.viewing = null; // the seq of a past move on show (null: the live position)
    this.live = []; // events since the last snapshot, merged with its history
    this.asked = null; // history pages in so far, while it is being asked for
    this.askedId = null; // the id of the last `history` request it sent
    this.list = h('ol', { id: 'moves', class: 'moves', 'aria-label': 'moves' });
    this.back = h('button', { id: 'moves-live', type: 'button', hidden: true, on: { click: () => this.showLive() } }, 'Back to the game');
    this.el = h('section', { class: 'movelist' }, h('h3', {}, 'Moves'), this.list, this.back);
  }

  /** A snapshot came: the list starts again from the room's stored history. */
  snapshot(m) {
    const room = this.room;
    this.position = m.position;
    this.viewing = null;
    this.back.hidden = true;
    this.clear();
    this.live = [];
    if (m.status !== 'finished' && m.seq > 0) {
      this.asked = [];
      this.ask(0);
    }
  }

  /** Asks for the room's history after `since`; its reply is told apart by its id. */
  ask(since) {
    const room = this.room;
    this.askedId = room.net.send({ t: 'history', room: room.room, since, ...(room.code ? { code: room.code } : {}) });
  }

  /** A live event (in seq order): a past move on show gives way to the game as it goes on. */
  event(seq, ev) {
    if (this.viewing !== null) this.showLive();
    if (typeof ev.position === 'string') this.position = ev.position;
    if (ev.kind === 'undo') { this.live.push({ seq, ev }); this.takeBack(ev); return; }
    this.live.push({ seq, ev });
    this.add(seq, ev);
  }

  /** Whether a `history` reply (by its `re`) is the page this list asked for last. */
  owns(re) { return this.asked !== null && re !== undefined && re === this.askedId; }

  /** One page of the history asked for after a snapshot. */
  page(m) {
    const room = this.room;
    this.asked = this.asked.concat(m.events);
    if (m.more && m.events.length) {
      this.ask(m.events[m.events.length - 1].seq);
      return;
    }
    // As far as the page has followed the room (a later event comes live too).
    const byseq = new Map();
    for (const x of this.asked.concat(this.live)) if (x.seq <= room.seq) byseq.set(x.seq, x);
    this.asked = null;
    this.load([...byseq.values()].sort((x, y) => x.seq - y.seq));
    room.render();
  }

  /** A whole history (a room in play's, or a finished room's replay): the list, and on the
   *  room's state who left (by name) and what decided the game. */
  load(events) {
    this.clear();
    const s = this.room.s;
    const names = {};
    for (const x of events) {
      const ev = x.ev;
      if (ev.kind === 'undo') this.takeBack(ev);
      else this.add(x.seq, ev);
      if (ev.kind === 'joined') names[ev.seat] = ev.name;
      if (ev.kind === 'left' && names[ev.seat]) s.gone[ev.seat] = names[ev.seat];
      if (ev.kind === 'chain' || ev.kind === 'capture') s.decider = { kind: ev.kind, colour: ev.colour };
    }
  }

  /** A puzzle's `undo`: the last click listed is taken back. */
  takeBack(ev) {
    const line = this.turns[this.turns.length - 1];
    const last = line && line.entries[line.entries.length - 1];
    if (!last) return;
    if (last.count > 1) {
      last.count -= 1;
      last.position = ev.position;
    } else line.entries.pop();
    if (!line.entries.length) this.turns.pop();
    this.draw();
  }

  clear() {
    this.turns = [];
    this.turnBreak = true;
    this.list.replaceChildren();
  }

  /** Folds one event: moves are listed; a turn of another seat ends the line (a `turn` of
   *  the same seat only says its clicks became known). */
  add(seq, ev) {
    const line = this.turns[this.turns.length - 1];
    if (ev.kind === 'start' || (ev.kind === 'turn' && (!line || line.seat !== ev.seat))) { this.turnBreak = true; return; }
    if (!isMove(ev)) return;
    const text = ev.kind === 'click' ? ev.click : ev.move;
    let turn = line;
    if (!turn || this.turnBreak || turn.seat !== ev.seat) {
      turn = { seat: ev.seat, entries: [] };
      this.turns.push(turn);
      this.turnBreak = false;
    }
    const last = turn.entries[turn.entries.length - 1];
    if (last && ev.kind === 'click' && last.text === text) {
      last.count += 1;
      last.seq = seq;
      last.position = ev.position;
    } else {
      turn.entries.push({ text, count: 1, seq, position: ev.position });
    }
    this.draw();
  }

  /** Shows the position after entry `e` (a replay steps to it). */
  pick(e) {
    const room = this.room;
    if (room.replaying) {
      const frames = room.replay.frames || [];
      const to = frames.findIndex((f) => f.seq === e.seq);
      if (to >= 0) room.replay.step(to - room.replay.at);
    } else {
      this.viewing = e.seq;
      room.board.set(e.position);
      room.board.markLast(null);
      this.back.hidden = false;
    }
    this.mark(e.seq);
  }

  /** Back from a past move to the game as it is. */
  showLive() {
    this.viewing = null;
    if (this.position !== null) this.room.board.set(this.position);
    this.mark(null);
    this.back.hidden = true;
  }

  /** Marks the entry whose position is shown (by seq; null: the live position). */
  mark(seq) {
    for (const b of this.list.querySelectorAll('button')) b.classList.toggle('at', Number(b.dataset.seq) === seq);
  }

  draw() {
    const s = this.room.s;
    const name = (k) => (s ? nameAt(s, k) : k);
    this.list.replaceChildren(...this.turns.map((t, i) => h('li', {},
      `${i + 1}. ${name(t.seat)}: `,
      ...t.entries.flatMap((e, j) => [
        j ? ', ' : '',
        h('button', {
          type: 'button', class: 'move', 'data-seq': e.seq,
          'aria-label': `show the position after ${e.text}${e.count > 1 ? ` times ${e.count}` : ''}`,
          on: { click: () => this.pick(e) },
        }, e.count > 1 ? `${e.text} (${e.count})` : e.text),
      ]))));
    this.list.scrollTop = this.list.scrollHeight;
  }
}

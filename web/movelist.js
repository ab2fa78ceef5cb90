// The room's move list in booklet notation: one line per turn ("3. alice: B4R (2), B5L"), a
// click repeated on the same rotor counted as in the booklet, and each entry a button that
// shows the position after it (the room decides how: a live game shows it until the next
// event or "Back to the game"; a replay steps to it).

import { h } from './dom.js';

/** Whether an event is a move the list shows (a click, or another system's move). */
const isMove = (ev) => (ev.kind === 'click' || ev.kind === 'move') && typeof ev.position === 'string';

export class MoveList {
  /** `pick(entry)` is called with the entry clicked: {seq, position, text}. */
  constructor(pick, nameOf) {
    this.pick = pick;
    this.nameOf = nameOf;
    this.turns = []; // [{seat, entries: [{text, count, seq, position}]}]
    this.el = h('ol', { id: 'moves', class: 'moves', 'aria-label': 'moves' });
    this.lastSeat = null;
    this.turnBreak = true; // the next move starts a new line
  }

  clear() {
    this.turns = [];
    this.lastSeat = null;
    this.turnBreak = true;
    this.el.replaceChildren();
  }

  /** Folds one event (in seq order): moves are listed, a `turn` ends the line. */
  add(seq, ev) {
    const line = this.turns[this.turns.length - 1];
    // A new turn of another seat starts a new line (a `turn` of the same seat only says its
    // clicks became known).
    if (ev.kind === 'start' || (ev.kind === 'turn' && (!line || line.seat !== ev.seat))) { this.turnBreak = true; return; }
    if (!isMove(ev)) return;
    const text = ev.kind === 'click' ? ev.click : ev.move;
    let turn = this.turns[this.turns.length - 1];
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

  /** Every event of a history at once. */
  load(history) {
    this.clear();
    for (const x of history) this.add(x.seq, x.ev);
    this.draw();
  }

  /** Marks the entry whose position is shown (by seq; null: the live position). */
  mark(seq) {
    for (const b of this.el.querySelectorAll('button')) b.classList.toggle('at', Number(b.dataset.seq) === seq);
  }

  draw() {
    this.el.replaceChildren(...this.turns.map((t, i) => h('li', {},
      `${i + 1}. ${this.nameOf(t.seat)}: `,
      ...t.entries.flatMap((e, j) => [
        j ? ', ' : '',
        h('button', {
          type: 'button', class: 'move', 'data-seq': e.seq,
          'aria-label': `show the position after ${e.text}${e.count > 1 ? ` times ${e.count}` : ''}`,
          on: { click: () => this.pick(e) },
        }, e.count > 1 ? `${e.text} (${e.count})` : e.text),
      ]))));
    this.el.scrollTop = this.el.scrollHeight;
  }
}

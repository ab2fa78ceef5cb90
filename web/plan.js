// "Plan the turn" in a correspondence room: the player's clicks are not sent but collected,
// and the server tries them on a copy of the room (`plan`), answering the board they lead to
// (drawn here as a preview, with the server's hints for the next click) or the first it
// refuses and why. The page copies no rule. "Send turn" puts the room's own board back and
// sends the moves one at a time, each once the room's event for the last came in; a refusal
// stops there and says which move and why, and the board is the room's as the server says.

const PLANNABLE = ['click', 'place', 'move'];

export class Plan {
  constructor(room) {
    this.room = room;
    this.on = false; // collecting moves, the preview on the board
    this.actions = []; // the moves taken so far, as requests without `room`
    this.sending = null; // {i, id}: the move in flight while the turn is sent
  }

  /** Whether the room is one where turns may be planned, and it is the player's turn. */
  offered() {
    const r = this.room;
    return !!r.s && !!r.s.options.days_per_move && r.isMyTurn() && !r.replaying;
  }

  /** Starts collecting moves. */
  start() {
    this.on = true;
    this.actions = [];
    this.room.note('Planning: your clicks are tried, not played. Send turn plays them.');
    this.room.render();
  }

  /** Whether `req` is a move a plan takes (while planning). */
  takes(req) { return this.on && PLANNABLE.includes(req.t); }

  /** One more move: the server tries the whole list on its copy of the room. */
  async add(req) {
    const tried = [...this.actions, req];
    const m = await this.ask(tried);
    if (!this.on || !m) return;
    if (m.refused) {
      this.room.toast(`Not in this turn: ${m.refused.message}`);
      return;
    }
    this.actions = tried;
    this.show(m);
  }

  /** Asks the server to try `actions`; the `planned` answer, or null after a toast. */
  async ask(actions) {
    const m = await this.room.net.request({ t: 'plan', room: this.room.room, actions });
    if (m.t !== 'planned') { this.room.toast(m.message || m.code); return null; }
    return m;
  }

  /** The preview: the board the moves lead to, the turn's count, the next clicks' hints. */
  show(m) {
    const r = this.room;
    r.board.set(m.snapshot.position);
    r.s.turn = { ...m.snapshot.turn };
    r.hints = { seq: r.seq, sets: m.hints || {} };
    r.note(`Planned: ${this.actions.length} move${this.actions.length === 1 ? '' : 's'}${m.ends_turn ? ', ending your turn' : ''}. Send turn plays them.`);
    r.hooks.planned = (r.hooks.planned || 0) + 1;
    r.render();
  }

  /** Drops the plan: the room's own board back (its snapshot, from an empty plan). */
  async drop(why) {
    this.on = false;
    this.actions = [];
    this.room.hints = { seq: -1, sets: {} };
    const m = await this.ask([]);
    if (m) this.room.snapshot(m.snapshot);
    this.room.note(why || '');
  }

  /** Sends the planned moves, one at a time. */
  async send() {
    const actions = this.actions;
    await this.drop('Sending your turn\u2026');
    this.queue = actions;
    this.next(0);
  }

  next(i) {
    if (i >= this.queue.length) {
      this.sending = null;
      this.room.note('Turn sent.');
      this.room.hooks.turnSent = (this.room.hooks.turnSent || 0) + 1;
      return;
    }
    const id = this.room.net.send({ ...this.queue[i], room: this.room.room });
    this.sending = { i, id };
  }

  /** A room event: the move in flight taken (the next goes), or, while planning, the room
   *  moved on under the plan (dropped). */
  event(ev) {
    if (this.sending && ev.kind === this.queue[this.sending.i].t) this.next(this.sending.i + 1);
    else if (this.on && ev.kind !== 'chat') this.drop('The room moved on: your plan was dropped.');
  }

  /** An error: the move in flight refused stops the turn there. True when it was one. */
  refused(m) {
    if (!this.sending || m.re !== this.sending.id) return false;
    const { i } = this.sending;
    this.sending = null;
    this.room.note(`Move ${i + 1} of ${this.queue.length} was refused: ${m.message}. The moves before it were played; the board is the room's.`);
    return true;
  }
}

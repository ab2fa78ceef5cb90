// Moderation on the page (an addition: README), loaded only when used. Anyone's menu about a
// player, opened from his name in a room: report him (a dialog asking what happened), block or
// unblock him (an account's choice: his chat no longer reaches it). The moderators' view
// (`/moderation`): the open reports, oldest first, with what can be done about each — mute,
// kick, ban, close the room, delete a chat line, resolve — every action with a reason; and the
// audit log of what moderators did.

import { h } from './dom.js';

if (!document.getElementById('moderation-css')) {
  document.head.append(h('link', { id: 'moderation-css', rel: 'stylesheet', href: '/assets/moderation.css' }));
}

/** Opens the dialog about a player (`who`: `player` id if known, `name`, `room`). */
export async function playerDialog(net, who) {
  const old = document.getElementById('player-dialog');
  if (old) old.remove();
  const note = h('p', { id: 'player-note', class: 'note', 'aria-live': 'polite' });
  const reason = h('textarea', { id: 'report-reason', rows: 3, maxlength: 500, required: true });
  const target = who.player || who.name;
  const form = h('form', { id: 'report-form', on: { submit: async (e) => {
    e.preventDefault();
    const m = await net.request({ t: 'report', player: target, room: who.room || undefined, reason: reason.value.trim() });
    if (m.t === 'ok') { reason.value = ''; note.textContent = 'Thank you: the moderators will look into it.'; }
    else note.textContent = m.message || m.code;
  } } },
  h('label', { for: 'report-reason' }, `What did ${who.name} do?`), reason,
  h('button', { type: 'submit', id: 'report-send' }, 'Send the report'));
  const block = h('button', { type: 'button', id: 'block-toggle' }, 'Block');
  const dialog = h('dialog', { id: 'player-dialog', class: 'card', 'aria-labelledby': 'player-dialog-title' },
    h('h2', { id: 'player-dialog-title' }, `Report or block ${who.name}`),
    form,
    h('p', {}, block),
    note,
    h('button', { type: 'button', id: 'player-dialog-close', on: { click: () => dialog.close() } }, 'Close'));
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  reason.focus();
  // Block or unblock, as the account's list says; a guest is told it is for accounts.
  const blocks = await net.request({ t: 'blocks' });
  if (blocks.t !== 'blocks') {
    block.disabled = true;
    block.textContent = 'Block (for accounts: claim your name first)';
    return;
  }
  let blocked = blocks.players.some((p) => p.player === who.player || p.name === who.name);
  const show = () => { block.textContent = blocked ? `Unblock ${who.name}` : `Block ${who.name}`; };
  show();
  block.addEventListener('click', async () => {
    const m = await net.request({ t: blocked ? 'unblock' : 'block', player: target });
    if (m.t !== 'blocks') { note.textContent = m.message || m.code; return; }
    blocked = m.players.some((p) => p.player === who.player || p.name === who.name);
    note.textContent = blocked ? `You no longer see ${who.name}'s chat.` : `You see ${who.name}'s chat again.`;
    show();
  });
}

const when = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** The moderators' view: open reports with actions, and the audit log. */
export class ModerationView {
  constructor(host, net) {
    this.net = net;
    this.note = h('p', { id: 'mod-note', class: 'note', 'aria-live': 'polite' });
    this.reports = h('tbody', { id: 'mod-reports' });
    this.audit = h('tbody', { id: 'mod-audit' });
    const field = (id, label, attrs) => h('label', { for: id }, label, h('input', { id, ...attrs }));
    this.action = h('select', { id: 'mod-action' },
      ...[['mute', 'Mute'], ['kick', 'Kick'], ['ban', 'Ban'], ['unban', 'Unban'], ['close_room', 'Close the room'],
        ['delete_chat', 'Delete a chat line'], ['resolve_report', 'Resolve the report']]
        .map(([v, t]) => h('option', { value: v }, t)));
    this.form = h('form', { id: 'mod-form', class: 'mod-form', on: { submit: (e) => { e.preventDefault(); this.act(); } } },
      h('label', { for: 'mod-action' }, 'Action ', this.action),
      field('mod-player', 'Player ', { placeholder: 'id or account name' }),
      field('mod-room', 'Room ', {}),
      field('mod-seq', 'Chat line (seq) ', { type: 'number', min: 1 }),
      field('mod-minutes', 'Minutes (mute) ', { type: 'number', min: 0, value: 60 }),
      field('mod-days', 'Days (ban; empty: for good) ', { type: 'number', min: 1 }),
      field('mod-report', 'Report ', { type: 'number', min: 1 }),
      field('mod-reason', 'Reason ', { required: true, maxlength: 500 }),
      h('button', { type: 'submit', id: 'mod-do' }, 'Do it'));
    const table = (caption, heads, body) => h('table', { class: 'mod-table' },
      h('caption', {}, caption), h('thead', {}, h('tr', {}, ...heads.map((t) => h('th', { scope: 'col' }, t)))), body);
    host.append(h('section', { class: 'moderation card', id: 'moderation' },
      h('h2', {}, 'Moderation'),
      this.note,
      table('Open reports, oldest first', ['When', 'Reporter', 'Player', 'Room', 'Reason', 'Act'], this.reports),
      h('h3', {}, 'Act'),
      this.form,
      table('Audit log, newest first', ['When', 'Moderator', 'Action', 'Target', 'Terms', 'Reason'], this.audit)));
    window.__orion = window.__orion || {};
    window.__orion.view = this;
    if (net.up) this.up();
  }

  close() {}

  up() { this.load(); }

  async load() {
    const r = await this.net.request({ t: 'reports' });
    if (r.t !== 'reports') { this.note.textContent = r.message || r.code; return; }
    this.reports.replaceChildren(...r.reports.map((x) => h('tr', { 'data-report': x.id },
      h('td', {}, when(x.at)), h('td', {}, x.reporter_name), h('td', {}, x.player), h('td', {}, x.room || ''),
      h('td', {}, x.reason),
      h('td', {}, h('button', { type: 'button', class: 'small', 'aria-label': `act on report ${x.id}`, on: { click: () => this.prefill(x) } }, 'Act')))));
    if (!r.reports.length) this.reports.append(h('tr', {}, h('td', { colspan: 6 }, 'No open reports.')));
    const a = await this.net.request({ t: 'audit' });
    if (a.t !== 'audit') return;
    this.audit.replaceChildren(...a.entries.map((x) => h('tr', {},
      h('td', {}, when(x.at)), h('td', {}, x.moderator_name), h('td', {}, x.action), h('td', {}, x.target),
      h('td', {}, x.detail || ''), h('td', {}, x.reason))));
  }

  /** Fills the form from a report: its player, room and id. */
  prefill(report) {
    const set = (id, v) => { document.getElementById(id).value = v === undefined || v === null ? '' : v; };
    set('mod-player', report.player);
    set('mod-room', report.room);
    set('mod-report', report.id);
    document.getElementById('mod-reason').focus();
  }

  async act() {
    const v = (id) => document.getElementById(id).value.trim();
    const n = (id) => (v(id) === '' ? undefined : Number(v(id)));
    const t = this.action.value;
    const req = { t, reason: v('mod-reason') };
    if (['mute', 'kick', 'ban', 'unban'].includes(t)) req.player = v('mod-player');
    if (t === 'mute') req.minutes = n('mod-minutes') || 0;
    if (t === 'ban' && n('mod-days')) req.days = n('mod-days');
    if (t === 'close_room' || t === 'delete_chat') req.room = v('mod-room');
    if (t === 'delete_chat') req.seq = n('mod-seq');
    if (t === 'resolve_report') req.report = n('mod-report');
    const m = await this.net.request(req);
    this.note.textContent = m.t === 'ok' ? `Done: ${t}.` : (m.message || m.code);
    if (m.t === 'ok') this.load();
  }
}

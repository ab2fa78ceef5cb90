// The page: picks the player's name (`?name=` on any link, else the saved one, else a guest
// name), opens the socket and shows the lobby (`/`), a room (`/r/ROOM`, `/i/CODE`) or a
// finished game's record (`/g/ROOM`), the lessons (`/learn`, `/learn/ID`: learn.js), the rules
// pages (`/rules`, `/rules/GAME`: rules.js), the moderators' view (`/moderation`:
// moderation.js, its link shown to moderators).
// Moving between them keeps the one socket (history.pushState). The server's catalogue of
// games is loaded first: every view reads it. A saved name that an account has claimed gets
// a log-in prompt (account.js), not a reconnecting loop.

import { Net } from './net.js';
import { Lobby } from './lobby.js';
import { Room } from './room.js';
import { Record } from './record.js';
import { loadCatalogue } from './catalogue.js';
import { claimedPrompt, guestName } from './account.js';
import { startNotices } from './notify.js';

const NAME = 'orion.name';
const params = new URLSearchParams(location.search);
let name = params.get('name');
if (name) localStorage.setItem(NAME, name);
else name = localStorage.getItem(NAME);
if (!name) {
  name = guestName();
  localStorage.setItem(NAME, name);
}

const hooks = window.__orion || (window.__orion = {});
// Script errors, for the browser tests to report.
window.addEventListener('error', (e) => { hooks.jsErrors = [...(hooks.jsErrors || []), `${e.message} (${e.filename}:${e.lineno})`]; });
const main = document.getElementById('main');
const conn = document.getElementById('conn');
const toastEl = document.getElementById('toast');
let toastTimer = null;
function toast(text) {
  hooks.errors = [...(hooks.errors || []), text];
  toastEl.textContent = text;
  toastEl.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { toastEl.hidden = true; }, 4000);
}

const net = new Net(name);
hooks.net = net;
startNotices(net);
let view = null;

function route() {
  if (view) view.close();
  main.replaceChildren();
  const room = /^\/r\/([\w-]+)$/.exec(location.pathname);
  const code = /^\/i\/([\w-]+)$/.exec(location.pathname);
  const record = /^\/g\/([\w-]+)$/.exec(location.pathname);
  const learn = /^\/learn(?:\/([\w-]+))?$/.exec(location.pathname);
  const rules = /^\/rules(?:\/([\w-]+))?$/.exec(location.pathname);
  if (location.pathname === '/moderation') view = lazy(import('./moderation.js'), (m) => new m.ModerationView(main, net));
  else if (learn) view = lessons(learn[1]);
  else if (rules) view = rulesPages(rules[1]);
  else if (record) view = new Record(main, record[1], toast);
  else if (room) view = new Room(main, net, { room: room[1] }, toast);
  else if (code) view = new Room(main, net, { code: code[1] }, toast);
  else view = new Lobby(main, net, go, toast);
  hooks.view = view;
}

/** The lessons' view, loaded on first use (the front door does not download it). */
function lessons(id) {
  return lazy(import('./learn.js'), (m) => (id ? new m.LessonView(main, id, net, go) : new m.LessonList(main, net)));
}

/** The rules pages' view, loaded on first use. */
function rulesPages(id) {
  return lazy(import('./rules.js'), (m) => (id ? new m.RulesPage(main, id, net, go) : new m.RulesIndex(main)));
}

/** A view whose module loads first: `make(module)` once it has (unless closed by then). */
function lazy(loading, make) {
  const v = {
    close() { this.closed = true; if (this.inner) this.inner.close(); },
    up(welcome) { if (this.inner && this.inner.up) this.inner.up(welcome); },
  };
  loading.then((m) => {
    if (v.closed) return;
    v.inner = make(m);
    hooks.view = v.inner;
  });
  return v;
}

function go(path) {
  history.pushState(null, '', path);
  route();
}

document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[data-link]');
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey) return;
  e.preventDefault();
  go(a.getAttribute('href'));
});
window.addEventListener('popstate', route);

document.getElementById('me').textContent = name;
const rename = document.getElementById('rename');
rename.addEventListener('click', () => {
  const next = prompt('Your name', name);
  if (next && next.trim()) {
    localStorage.setItem(NAME, next.trim());
    location.search = '';
  }
});
// Claiming a name or logging in changes who this page is.
net.listen((m) => {
  if (m.t !== 'welcome') return;
  name = m.name;
  localStorage.setItem(NAME, name);
  document.getElementById('me').textContent = m.account ? `${name} \u2713` : name;
  hooks.player = m.player;
  hooks.account = !!m.account;
  document.getElementById('moderation-link').hidden = !m.moderator;
});
net.onUp = (welcome) => {
  document.getElementById('me').textContent = welcome.account ? `${welcome.name} \u2713` : welcome.name;
  hooks.account = !!welcome.account;
  conn.textContent = 'online';
  conn.className = 'up';
  hooks.player = welcome.player;
  if (view && view.up) view.up(welcome);
};
net.onDown = () => {
  if (net.claimed) return; // waiting for a log-in, not for the server
  conn.textContent = 'reconnecting\u2026';
  conn.className = 'down';
};
// The saved name is an account's: ask for its password (or another name) once.
net.onClaimed = (refusal) => {
  conn.textContent = 'log in';
  conn.className = 'down';
  hooks.claimed = true;
  if (document.getElementById('claimed')) return;
  main.before(claimedPrompt(net, name, refusal.message, () => { hooks.claimed = false; }));
};
loadCatalogue().then(() => {
  route();
  net.connect();
});

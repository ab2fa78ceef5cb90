// Who this page plays as, in one place: the name, whether it is a claimed account, and what
// can be done about it — claim the name (a guest is told that this puts him on the
// leaderboards), log in to a name claimed on another device, log out. Also the log-in prompt a
// page meets when its saved name (or `?name=`) is claimed by an account: it never loops
// saying hello with a name the server refuses.

import { h } from './dom.js';
import { NotifyPanel } from './notify.js';

const NAME = 'orion.name';

/** A guest name nobody has (the server refuses claimed ones). */
export const guestName = () => `guest-${Math.floor(1000 + Math.random() * 9000)}`;

/** Forgets who this device was and starts again as a new guest. */
export function logOut(net) {
  net.forget();
  localStorage.setItem(NAME, guestName());
  location.href = '/';
}

const passwordInput = (id, label, autocomplete) => h('input', {
  id, type: 'password', 'aria-label': label, placeholder: label, autocomplete, minlength: 8, maxlength: 128, required: true,
});

/** The log-in form (ids `PREFIX`, `PREFIX-name`, `PREFIX-password`): name and password;
 *  `done(welcome)` after a log-in that worked. */
function loginForm(prefix, net, name, note, done) {
  const loginName = h('input', { id: `${prefix}-name`, placeholder: 'name', 'aria-label': 'name', autocomplete: 'username', value: name || '', required: true });
  const loginPass = passwordInput(`${prefix}-password`, 'password', 'current-password');
  return h('form', { id: prefix, class: 'inline', on: { submit: async (e) => {
    e.preventDefault();
    note.textContent = 'Logging in\u2026';
    const m = await net.login(loginName.value.trim(), loginPass.value);
    loginPass.value = '';
    if (m.t === 'welcome') { note.textContent = `Logged in as ${m.name}.`; done(m); }
    else note.textContent = m.message || m.code || 'refused';
  } } }, loginName, loginPass, h('button', { type: 'submit' }, 'Log in'));
}

/** The account panel of the front door. */
export class Account {
  constructor(net, onLogin) {
    this.net = net;
    this.onLogin = onLogin;
    this.note = h('p', { class: 'note', id: 'account', 'aria-live': 'polite' });
    this.who = h('p', { id: 'account-who' });
    const claimPass = passwordInput('claim-password', 'password (8 or more)', 'new-password');
    this.claim = h('form', { id: 'claim', class: 'inline', on: { submit: async (e) => {
      e.preventDefault();
      const m = await this.net.request({ t: 'register', password: claimPass.value });
      claimPass.value = '';
      if (m.t === 'welcome') {
        this.note.textContent = `${m.name} is yours: log in with it anywhere.`;
        this.show(m);
      } else this.note.textContent = m.message || m.code;
    } } }, claimPass, h('button', { type: 'submit' }, 'Claim my name'));
    this.guest = h('div', { id: 'guest' },
      h('p', { class: 'hint' }, 'You play as a guest. Claim your name with a password to keep it, to be rated and to appear on the leaderboards.'),
      this.claim,
      h('h3', {}, 'Have an account? Log in'),
      loginForm('login', net, '', this.note, (m) => { this.show(m); if (this.onLogin) this.onLogin(m); }));
    this.logout = h('button', { type: 'button', id: 'logout', on: { click: () => logOut(this.net) } }, 'Log out');
    this.notify = new NotifyPanel(net);
    this.el = h('div', { class: 'account' }, this.who, this.guest, this.notify.el, this.logout, this.note);
    this.show(null);
  }

  /** Shows the page's player (`welcome`, or null while connecting). */
  show(welcome) {
    const w = welcome || this.welcome;
    if (welcome) this.welcome = welcome;
    const account = !!(w && w.account);
    this.who.replaceChildren(w ? h('span', {}, 'You are ', h('b', { id: 'account-name' }, w.name), account ? ' (your account)' : ' (guest)') : 'Connecting\u2026');
    this.guest.hidden = account;
    this.logout.hidden = !account;
    this.notify.show(w);
  }
}

/** The prompt shown instead of a page when the saved name is claimed: log in, or play under
 *  another name. `done(welcome)` after a log-in. */
export function claimedPrompt(net, name, message, done) {
  const note = h('p', { class: 'note', 'aria-live': 'polite' }, message);
  const el = h('section', { id: 'claimed', class: 'card prompt', role: 'dialog', 'aria-labelledby': 'claimed-title' },
    h('h2', { id: 'claimed-title' }, `${name} is a claimed name`),
    h('p', {}, 'If it is yours, log in with its password. Otherwise play as a guest under another name.'),
    loginForm('claimed-login', net, name, note, (m) => { el.remove(); done(m); }),
    h('p', {}, h('button', { type: 'button', id: 'play-as-guest', on: { click: () => logOut(net) } }, 'Play as a new guest')),
    note);
  return el;
}

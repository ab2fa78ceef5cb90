// Notices: the service worker registered (sw.js), a `notify` message from the server shown
// in the page (`#notice`, with a link to the room) and as a browser notification when the
// player allowed them; and the account's panel part that turns notifications on: Web Push
// (`push_subscribe` with the browser's subscription to the server's `vapid_key`) and an
// e-mail address (`email`, confirmed by the link mailed to it).

import { h } from './dom.js';

const hooks = window.__orion || (window.__orion = {});

/** Registers the service worker and shows every `notify` message that arrives on `net`. */
export function startNotices(net) {
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/sw.js').then((reg) => { hooks.serviceWorker = reg.scope; })
      .catch((e) => { hooks.serviceWorkerError = String(e); });
  }
  net.listen((m) => {
    if (m.t !== 'notify') return;
    show(m);
    if (window.Notification && Notification.permission === 'granted' && document.hidden) {
      new Notification('Orion Online', { body: m.text, tag: `room-${m.room}`, icon: '/assets/icon-192.png' });
    }
  });
}

/** The in-page notice: one at a time, the newest replacing the last. */
function show(m) {
  let el = document.getElementById('notice');
  if (!el) {
    el = h('div', { id: 'notice', role: 'status', class: 'notice' });
    document.body.append(el);
  }
  const path = new URL(m.url, location.href).pathname;
  el.replaceChildren(h('span', {}, m.text, ' '), h('a', { href: path, 'data-link': '' }, 'Open the room'),
    h('button', { type: 'button', class: 'small', 'aria-label': 'Dismiss', on: { click: () => el.remove() } }, '\u00d7'));
  hooks.notices = [...(hooks.notices || []), m];
}

const b64 = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - s.length % 4) % 4)), (c) => c.charCodeAt(0));

/** The account panel's notifications part (shown to accounts only). */
export class NotifyPanel {
  constructor(net) {
    this.net = net;
    this.note = h('p', { class: 'note', id: 'notify-note', 'aria-live': 'polite' });
    this.button = h('button', { type: 'button', id: 'notify-on', on: { click: () => this.turnOn() } }, 'Turn on notifications');
    const address = h('input', { id: 'notify-email', type: 'email', placeholder: 'e-mail address', 'aria-label': 'e-mail address', maxlength: 254, autocomplete: 'email' });
    this.email = h('form', { id: 'notify-email-form', class: 'inline', on: { submit: async (e) => {
      e.preventDefault();
      const m = await net.request({ t: 'email', address: address.value.trim() });
      this.note.textContent = m.t === 'email_sent' ? `A link went to ${m.address}: open it to confirm.` : (m.message || m.code);
    } } }, address, h('button', { type: 'submit' }, 'Mail me too'));
    this.el = h('div', { id: 'notify', hidden: true },
      h('h3', {}, 'Notifications'),
      h('p', { class: 'hint' }, 'Be told when it is your turn, a day before a move is due, and when a game ends — here, on this device, or by e-mail.'),
      this.button, this.email, this.note);
  }

  /** Shown for an account (`welcome` with its `vapid_key`). */
  show(welcome) {
    this.vapidKey = welcome && welcome.vapid_key;
    this.el.hidden = !(welcome && welcome.account);
  }

  async turnOn() {
    if (!('serviceWorker' in navigator) || !window.PushManager || !window.Notification) {
      this.note.textContent = 'This browser cannot show notifications (on an iPhone: add the page to the home screen first).';
      return;
    }
    if (await Notification.requestPermission() !== 'granted') {
      this.note.textContent = 'Notifications are blocked for this site in the browser\u2019s settings.';
      return;
    }
    try {
      const reg = await navigator.serviceWorker.ready;
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64(this.vapidKey) });
      const m = await this.net.request({ t: 'push_subscribe', subscription: sub.toJSON() });
      this.note.textContent = m.t === 'push_subscribed' ? 'This device will be told.' : (m.message || m.code);
    } catch (e) {
      this.note.textContent = `Could not subscribe: ${e.message || e}`;
    }
  }
}

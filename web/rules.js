// The rules pages (`/rules`, `/rules/GAME`): the text is the server's, cut from
// `docs/rules.md` and rendered there (`/api/rules/GAME`); each figure is a position the
// server's engine set up, drawn here with the game's own board module (boards/index.js)
// through a watcher that sends nothing. The page copies no rule. `app.js` loads this module
// only for `/rules` and `/rules/GAME`.

import { boardOf } from './boards/index.js';
import { seatColour, systemOf } from './catalogue.js';
import { h } from './dom.js';
import { playComputer } from './computer.js';

// Its look, loaded with it (the front door does without).
if (!document.getElementById('rules-css')) {
  document.head.append(h('link', { id: 'rules-css', rel: 'stylesheet', href: '/assets/rules.css' }));
}

/** What a board module needs of a room, for a figure: it shows and sends nothing. */
class Still {
  constructor(s) {
    this.s = s;
    this.seat = null;
    this.replaying = false;
    this.watchOnly = true;
    this.hooks = {};
    this.hints = { seq: -1, sets: {} };
    this.el = { die: h('span'), note: h('span') };
  }

  act() {}
  sendMove() {}
  note() {}
  render() {}
  hint() { return []; }
  hintsPending() { return false; }
  afterHints() {}
  myColour() { return null; }
  isMyTurn() { return false; }
  colourOf(seat) { return this.s.colours[seat] || seatColour(this.s.game, seat, this.s.options.players); }
}

/** `/rules`: every game's rules page. */
export class RulesIndex {
  constructor(host) {
    this.list = h('ul', { id: 'rules-games', class: 'rules-index' });
    host.append(h('section', { class: 'rules' },
      h('h1', {}, 'Rules'),
      h('p', {}, 'The rules of every game on this server, as its engine enforces them, with diagrams drawn on the game\u2019s own board. ',
        h('a', { href: '/learn', 'data-link': '' }, 'Learn to play'), ' step by step instead.'),
      this.list));
    this.load();
  }

  async load() {
    const r = await fetch('/api/rules');
    if (!r.ok) { this.list.replaceChildren(h('li', {}, 'The rules could not be loaded.')); return; }
    const { games } = await r.json();
    this.list.replaceChildren(...games.map((g) => h('li', { 'data-game': g.id },
      h('a', { href: `/rules/${g.id}`, 'data-link': '' }, g.name))));
    (window.__orion || {}).rulesGames = games.length;
  }

  close() {}
}

/** `/rules/GAME`: one game's rules, its figures drawn. */
export class RulesPage {
  constructor(host, id, net, go) {
    this.id = id;
    this.net = net;
    this.go = go;
    this.title = h('h1', { id: 'rules-title' }, 'Rules');
    this.links = h('p', { class: 'rules-links' });
    this.reason = h('p', { id: 'rules-reason', role: 'alert' });
    this.article = h('article', { id: 'rules-text' });
    host.append(h('section', { class: 'rules' },
      h('p', {}, h('a', { href: '/rules', 'data-link': '' }, '\u2190 All rules')),
      this.title, this.links, this.reason, this.article));
    this.load();
  }

  close() {}

  async load() {
    const hooks = window.__orion || (window.__orion = {});
    const r = await fetch(`/api/rules/${encodeURIComponent(this.id)}`);
    if (!r.ok) {
      this.title.textContent = 'No such game';
      this.article.replaceChildren(h('p', { id: 'rules-missing' }, (await r.text()).trim()));
      hooks.rules = { missing: true };
      return;
    }
    const page = await r.json();
    this.title.textContent = `${page.name}: the rules`;
    document.title = `${page.name}: the rules \u2014 Orion Online`;
    const links = [];
    if (page.lesson) links.push(h('a', { id: 'rules-lesson', href: `/learn/${page.lesson}`, 'data-link': '' }, 'Learn it step by step'));
    links.push(h('button', { type: 'button', id: 'rules-computer', on: { click: () => this.vsComputer(page) } }, 'Play the computer'));
    this.links.replaceChildren(...links);
    // The server's own HTML, rendered from docs/rules.md (embedded in the server, not from
    // any player).
    this.article.innerHTML = page.html;
    let drawn = 0;
    for (const host of this.article.querySelectorAll('[data-diagram]')) {
      const d = page.diagrams[Number(host.getAttribute('data-diagram'))];
      if (d && d.start && this.draw(host, d.start)) drawn += 1;
    }
    hooks.rules = { id: page.id, diagrams: page.diagrams.length, drawn };
  }

  /** One figure: the position's board, shown and not operated. */
  draw(host, start) {
    const m = start.snapshot;
    const s = {
      game: m.game, options: m.options || {}, status: m.status, seats: { ...(m.seats || {}) }, turn: { ...(m.turn || {}) },
      scores: { ...(m.scores || {}) }, result: m.result || null, claims: [], secrets: {}, eligible: [], roll: null,
      colours: {}, out: [...(m.out || [])], draw: null, gone: {}, spectators: 0, turnAt: 0,
    };
    for (const [k, o] of Object.entries(s.seats)) if (o && o.colour) s.colours[k] = o.colour;
    const system = systemOf(m.game);
    const board = h('div', { class: `board-host ${system}`, inert: true });
    host.append(board);
    const b = new (boardOf(system))(board, new Still(s));
    b.set(m.position);
    return true;
  }

  async vsComputer(page) {
    const refused = await playComputer(this.net, page.id, page.players, this.go);
    if (refused) this.reason.textContent = refused;
  }
}

// The lobby: the live room list (`lobby` watch, one page at a time), quick match, a new room
// with its options, joining by room id or invite code, and the puzzles to play alone.

import { games, puzzles, game, gameName, systemOf, systemOptions, serverOptions } from './catalogue.js';
import { h } from './dom.js';

const gameOptions = () => games().map((g) => h('option', { value: g.id }, `${g.name} (${g.players[0] === g.players[1] ? g.players[0] : g.players.join('\u2013')})`));
const range = ([min, max]) => Array.from({ length: max - min + 1 }, (_, i) => min + i);

/** A form control for one option the catalogue describes (bounds from the server). */
function optionInput(o) {
  const input = (label, attrs) => h('label', {}, `${label} `, h('input', { name: o.name, ...attrs }));
  switch (o.kind) {
    case 'number': return input(o.label, { type: 'number', min: o.min, max: o.max });
    case 'millis': return o.auto
      ? input(`${o.label} (s or auto)`, {})
      : input(`${o.label} (s)`, { type: 'number', min: Math.ceil(o.min / 1000), max: o.max / 1000 });
    case 'flag': return h('label', {}, h('input', { type: 'checkbox', name: o.name }), ` ${o.label}`);
    default: return input(o.label, {});
  }
}

/** The value of option `o` on `form` as the request takes it (`undefined`: left out). */
function optionValue(o, form) {
  const e = form.elements[o.name];
  if (o.kind === 'flag') return e.checked ? true : undefined;
  const v = e.value.trim();
  if (v === '') return undefined;
  const list = () => v.split(/[ ,]+/).filter(Boolean);
  switch (o.kind) {
    case 'number': return Number(v);
    case 'numbers': return list().map(Number);
    case 'millis': return o.auto && v === 'auto' ? 'auto' : Math.round(Number(v) * 1000);
    case 'names': return list();
    default: return v;
  }
}

/** What an empty field means: the game's default (seconds for times). */
function placeholder(o, defaults) {
  const d = defaults[o.name] ?? o.default;
  if (d === undefined || d === null || d === false) return '';
  if (o.kind === 'millis') return typeof d === 'number' ? String(d / 1000) : String(d);
  return Array.isArray(d) ? d.join(',') : String(d);
}

export class Lobby {
  constructor(host, net, go, toast) {
    this.net = net;
    this.go = go;
    this.toast = toast;
    this.after = null; // the page shown: rooms after this id
    this.build(host);
    this.off = net.listen((m) => this.message(m));
    if (net.up) this.up(null);
  }

  close() {
    this.off();
    if (this.net.up) this.net.send({ t: 'lobby', watch: false });
  }

  up(welcome) {
    this.net.sendNow({ t: 'lobby', watch: true, ...(this.after ? { after: this.after } : {}) });
    if (welcome) this.mine(welcome.rooms || []);
  }

  build(host) {
    const qGame = h('select', { id: 'quick-game', 'aria-label': 'game' }, ...gameOptions());
    const qPlayers = h('select', { id: 'quick-players', 'aria-label': 'players' });
    // The quick game's player counts, its default chosen.
    const counts = () => {
      const g = game(qGame.value) || { players: [2, 2], default_players: 2 };
      qPlayers.replaceChildren(...range(g.players).map((n) => h('option', { value: n, selected: n === g.default_players }, `${n} players`)));
    };
    qGame.addEventListener('change', counts);
    counts();
    const quick = h('form', { id: 'quick', on: { submit: (e) => {
      e.preventDefault();
      this.net.send({ t: 'quick', game: qGame.value, players: Number(qPlayers.value) });
      this.status.textContent = `Looking for ${qPlayers.value} players for ${gameName(qGame.value)}…`;
    } } }, qGame, qPlayers, h('button', { type: 'submit' }, 'Quick match'));

    const cGame = h('select', { id: 'create-game', name: 'game', 'aria-label': 'game' }, ...gameOptions());
    // Each system's own options, shown for a game of that system.
    const systems = [...new Set(games().map((g) => g.system))];
    const own = systems.map((system) => h('span', { class: 'only', 'data-system': system },
      ...systemOptions(system).map(optionInput)));
    const players = h('input', { name: 'players', type: 'number' });
    const create = h('form', { id: 'create', class: 'options', on: { submit: (e) => { e.preventDefault(); this.create(create); } } },
      cGame, h('label', {}, 'players ', players), ...own, ...serverOptions().map(optionInput),
      h('label', {}, h('input', { type: 'checkbox', name: 'private' }), ' private (invite code)'),
      h('button', { type: 'submit', id: 'create-room' }, 'Create room'));
    // The chosen game's bounds and defaults, as the server's catalogue gives them.
    const shown = () => {
      const g = game(cGame.value) || { players: [1, 1], defaults: {} };
      for (const span of own) span.hidden = span.dataset.system !== g.system;
      Object.assign(players, { min: g.players[0], max: g.players[1], placeholder: g.default_players });
      for (const o of [...systemOptions(g.system), ...serverOptions()]) {
        if (o.kind !== 'flag') create.elements[o.name].placeholder = placeholder(o, g.defaults);
      }
    };
    cGame.addEventListener('change', shown);
    shown();

    const joinText = h('input', { id: 'join-text', placeholder: 'room id or invite code', 'aria-label': 'room or code' });
    const join = h('form', { id: 'join', on: { submit: (e) => {
      e.preventDefault();
      const v = joinText.value.trim();
      if (/^r[0-9a-f]{8}$/i.test(v)) this.go(`/r/${v}`);
      else if (v) this.go(`/i/${v.toUpperCase()}`);
    } } }, joinText, h('button', { type: 'submit' }, 'Join'));

    const solo = h('div', { class: 'puzzles' }, ...puzzles().map((p) => h('button', {
      type: 'button', 'data-puzzle': p.id, on: { click: () => this.net.send({ t: 'create', game: p.id }) },
    }, p.name)));

    // Claim the name this page plays under, or log in to one claimed on another device.
    const password = (id, label) => h('input', { id, type: 'password', placeholder: label, 'aria-label': label, autocomplete: 'current-password', minlength: 8, maxlength: 128 });
    const claimPass = password('claim-password', 'password (8+)');
    const claim = h('form', { id: 'claim', on: { submit: async (e) => {
      e.preventDefault();
      const m = await this.net.request({ t: 'register', password: claimPass.value });
      claimPass.value = '';
      if (m.t === 'welcome') this.account.textContent = `${m.name} is yours: log in with it anywhere.`;
    } } }, claimPass, h('button', { type: 'submit' }, 'Claim my name'));
    const loginName = h('input', { id: 'login-name', placeholder: 'name', 'aria-label': 'name', autocomplete: 'username' });
    const loginPass = password('login-password', 'password');
    const login = h('form', { id: 'login', on: { submit: async (e) => {
      e.preventDefault();
      const m = await this.net.request({ t: 'login', name: loginName.value.trim(), password: loginPass.value, version: 1 });
      loginPass.value = '';
      if (m.t === 'welcome') {
        this.account.textContent = `Logged in as ${m.name}.`;
        this.mine(m.rooms || []);
      }
    } } }, loginName, loginPass, h('button', { type: 'submit' }, 'Log in'));
    this.account = h('p', { class: 'note', id: 'account', 'aria-live': 'polite' });

    // Leaderboards: a game's ratings, or a puzzle's fewest clicks, a page at a time.
    const boardGame = h('select', { id: 'board-game', 'aria-label': 'leaderboard of' },
      ...games().map((g) => h('option', { value: g.id }, g.name)),
      ...puzzles().filter((p) => p.leaderboard).map((p) => h('option', { value: p.id }, `${p.name} (puzzle)`)));
    this.boardGame = boardGame;
    const board = h('form', { id: 'board-form', on: { submit: (e) => { e.preventDefault(); this.board(boardGame.value, 0); } } },
      boardGame, h('button', { type: 'submit' }, 'Leaderboard'));
    this.boardEl = h('div', { id: 'board' });

    // Past games: a player's finished games (one's own when no name is given), newest first,
    // a page at a time, each with a link to its record.
    const gamesPlayer = h('input', { id: 'games-player', placeholder: 'player (you)', 'aria-label': 'whose games', maxlength: 64 });
    const gamesForm = h('form', { id: 'games-form', on: { submit: (e) => { e.preventDefault(); const named = gamesPlayer.value.trim(); this.games(named ? { player_name: named } : { player_id: this.net.player }, null); } } },
      gamesPlayer, h('button', { type: 'submit' }, 'Games'));
    this.gamesEl = h('div', { id: 'games' });

    this.status = h('p', { class: 'note', 'aria-live': 'polite' });
    this.list = h('tbody', { id: 'rooms' });
    this.pager = h('p', { class: 'pager' });
    this.yours = h('p', { id: 'yours' });
    host.append(h('section', { class: 'lobby' },
      h('div', { class: 'cards' },
        h('div', { class: 'card' }, h('h2', {}, 'Play now'), quick, this.status, h('h3', {}, 'Join'), join, this.yours),
        h('div', { class: 'card' }, h('h2', {}, 'New room'), create),
        h('div', { class: 'card' }, h('h2', {}, 'Puzzles'), solo),
        h('div', { class: 'card' }, h('h2', {}, 'Your name'), claim, h('h3', {}, 'Log in'), login, this.account),
        h('div', { class: 'card' }, h('h2', {}, 'Leaderboards'), board, this.boardEl),
        h('div', { class: 'card' }, h('h2', {}, 'Past games'), gamesForm, this.gamesEl)),
      h('h2', {}, 'Rooms'),
      h('table', { class: 'rooms' }, h('thead', {}, h('tr', {}, ...['room', 'game', 'status', 'seats', 'watching', ''].map((t) => h('th', {}, t)))), this.list),
      this.pager));
  }

  create(form) {
    const id = form.elements.game.value;
    const g = game(id) || { system: systemOf(id) };
    const options = {};
    if (form.elements.players.value.trim()) options.players = Number(form.elements.players.value);
    for (const o of [...systemOptions(g.system), ...serverOptions()]) {
      const v = optionValue(o, form);
      if (v === undefined) continue;
      options[o.name] = v;
      if (o.implies) options[o.implies[0]] = o.implies[1];
    }
    const req = { t: 'create', game: id, options };
    if (form.elements.private.checked) req.private = true;
    this.net.send(req);
  }

  message(m) {
    if (m.t === 'error') { this.toast(m.message || m.code); this.status.textContent = ''; return; }
    if (m.t === 'joined') { this.go(m.code ? `/i/${m.code}` : `/r/${m.room}`); return; }
    if (m.t === 'lobby') this.rooms(m);
  }

  async board(game, after) {
    const m = await this.net.request({ t: 'leaderboard', game, ...(after ? { after } : {}) });
    if (m.t !== 'leaderboard') return;
    const puzzle = m.target !== undefined || m.optimum !== undefined;
    const day = (ms) => new Date(ms).toISOString().slice(0, 10);
    const cells = (e) => (puzzle
      ? [e.rank, e.name, e.clicks, day(e.at)]
      : [e.rank, e.name, e.rating, e.games]).map((c) => h('td', {}, String(c)));
    const head = puzzle ? ['#', 'name', 'clicks', 'first reached'] : ['#', 'name', 'rating', 'games'];
    const rows = m.entries.map((e) => h('tr', { 'data-rank': e.rank }, ...cells(e)));
    if (m.you && !m.entries.some((e) => e.player === m.you.player)) rows.push(h('tr', { class: 'you' }, ...cells(m.you)));
    for (const row of rows) if (m.you && row.dataset.rank === String(m.you.rank)) row.classList.add('you');
    const figures = puzzle ? h('p', { class: 'note' }, `booklet ${m.target ?? '\u2014'} \u00b7 proven best ${m.optimum ?? '\u2014 (dealt starts)'}`) : '';
    const last = m.entries.length ? m.entries[m.entries.length - 1].rank : after;
    const pager = h('p', { class: 'pager' }, `${m.total} on the board `,
      after ? h('button', { type: 'button', on: { click: () => this.board(game, 0) } }, 'top') : '',
      m.more ? h('button', { type: 'button', id: 'board-next', on: { click: () => this.board(game, last) } }, 'next') : '');
    this.boardEl.replaceChildren(figures,
      h('table', { class: 'leaders' }, h('thead', {}, h('tr', {}, ...head.map((t) => h('th', {}, t)))), h('tbody', {}, ...rows)),
      pager);
  }

  // `who` is { player_id } (one's own games) or { player_name } (a name typed in).
  async games(who, before) {
    const m = await this.net.request({ t: 'games', ...who, ...(before ? { before } : {}) });
    if (m.t !== 'games') return;
    const day = (ms) => new Date(ms).toISOString().slice(0, 10);
    const rows = m.games.map((g) => h('tr', { 'data-room': g.room },
      h('td', {}, day(g.ended)), h('td', {}, gameName(g.game)),
      h('td', {}, Object.entries(g.seats || {}).map(([k, n]) => `${k}: ${n}`).join(', ')),
      h('td', {}, g.winner || '\u2014'),
      h('td', {}, h('a', { href: `/g/${g.room}` }, 'record'))));
    const last = m.games.length ? m.games[m.games.length - 1].room : null;
    const pager = h('p', { class: 'pager' }, m.games.length ? '' : 'no finished games ',
      before ? h('button', { type: 'button', on: { click: () => this.games(who, null) } }, 'newest') : '',
      m.more && last ? h('button', { type: 'button', id: 'games-next', on: { click: () => this.games(who, last) } }, 'older') : '');
    this.gamesEl.replaceChildren(
      h('table', { class: 'leaders' }, h('thead', {}, h('tr', {}, ...['ended', 'game', 'seats', 'winner', ''].map((t) => h('th', {}, t)))), h('tbody', {}, ...rows)),
      pager);
  }

  mine(rooms) {
    this.yours.replaceChildren(...(rooms.length ? ['Your rooms: '] : []),
      ...rooms.map((r) => h('a', { href: `/r/${r}`, 'data-link': '' }, r, ' ')));
  }

  rooms(m) {
    const rows = (m.rooms || []).map((r) => {
      const rating = (k) => (r.ratings && r.ratings[k] !== undefined ? ` (${r.ratings[k]})` : '');
      const seats = Object.entries(r.seats || {}).map(([k, n]) => `${k}: ${n || '\u2014'}${n ? rating(k) : ''}`).join(', ');
      const free = Object.values(r.seats || {}).some((n) => n === null);
      return h('tr', { 'data-room': r.room },
        h('td', {}, r.room), h('td', {}, gameName(r.game)), h('td', {}, r.status), h('td', {}, seats),
        h('td', {}, String(r.spectators)),
        h('td', {}, h('a', { href: `/r/${r.room}`, 'data-link': '' }, r.status === 'waiting' && free ? 'join' : r.status === 'finished' ? 'replay' : 'watch')));
    });
    this.list.replaceChildren(...rows);
    const last = m.rooms && m.rooms.length ? m.rooms[m.rooms.length - 1].room : null;
    this.pager.replaceChildren(`${m.total ?? rows.length} rooms `);
    if (this.after) {
      this.pager.append(h('button', { type: 'button', on: { click: () => { this.after = null; this.up(null); } } }, 'first page'));
    }
    if (m.more && last) {
      this.pager.append(h('button', { type: 'button', on: { click: () => { this.after = last; this.up(null); } } }, 'next page'));
    }
  }
}

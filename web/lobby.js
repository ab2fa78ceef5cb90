// The front door (`/`): what ORION is and a live board (tv.js); who is waiting and the rooms
// waiting for players first (join one click away), then games in progress with their watchers,
// finished rooms apart; "Play now" by game (quick match with the game's defaults, a cancel and
// the count waiting), a room with the engine's options behind "More options"; puzzles with
// their goal; "Play the computer" (a room of one's own with computer players in the other
// seats, at a chosen level, the visitor at the seat he chooses); correspondence seeks (listed
// with "Take it", or "Withdraw" for one's own; a seek form by game and days a move); and the
// visitor's name, account and past games (account.js). The room list is
// the `lobby` watch, one page at a time.

import { games, puzzles, game, gameName, systemOf, systemOptions, serverOptions, isPuzzle, seatsOf } from './catalogue.js';
import { h } from './dom.js';
import { Account } from './account.js';
import { Tv } from './tv.js';

const gameOptions = () => games().map((g) => h('option', { value: g.id }, `${g.name} (${g.players[0] === g.players[1] ? g.players[0] : g.players.join('\u2013')})`));
/** A seat's place in turn order, as "Play the computer" names it. */
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];
/** How often the front door asks for the visitor's games again (ms). */
const MINE_EVERY = 60_000;
const range = ([min, max]) => Array.from({ length: max - min + 1 }, (_, i) => min + i);

/** A form control for one option the catalogue describes (bounds from the server). */
function optionInput(o) {
  const help = o.help ? h('small', { class: 'help', id: `help-${o.name}` }, o.help) : '';
  const described = o.help ? { 'aria-describedby': `help-${o.name}` } : {};
  const input = (label, attrs) => h('label', {}, `${label} `, h('input', { name: o.name, ...described, ...attrs }), help);
  switch (o.kind) {
    case 'number': return input(o.label, { type: 'number', min: o.min, max: o.max });
    case 'millis': return o.auto
      ? input(`${o.label} (s or auto)`, {})
      : input(`${o.label} (s)`, { type: 'number', min: Math.ceil(o.min / 1000), max: o.max / 1000 });
    case 'flag': return h('label', { class: 'flag' }, h('span', {}, h('input', { type: 'checkbox', name: o.name, ...described }), ` ${o.label}`), help);
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
    this.queued = null; // the quick match asked for: {game, players}
    this.vsComputer = null; // "Play the computer" asked for: {level, bots}, until its room is joined
    this.waiting = []; // [{game, players, count}] from the lobby
    this.tv = new Tv(net);
    this.account = new Account(net, () => this.mine());
    // Games by correspondence move while nobody looks: the list is asked for again now and then.
    this.mineTimer = setInterval(() => { if (this.net.up) this.mine(); }, MINE_EVERY);
    this.hooks = window.__orion || (window.__orion = {});
    this.build(host);
    this.off = net.listen((m) => this.message(m));
    if (net.up) this.up(null);
  }

  close() {
    clearInterval(this.mineTimer);
    this.off();
    this.tv.close();
    if (this.net.up) this.net.send({ t: 'lobby', watch: false });
  }

  up(welcome) {
    this.net.sendNow({ t: 'lobby', watch: true, ...(this.after ? { after: this.after } : {}) });
    if (welcome) {
      this.mine();
      this.account.show(welcome);
    }
  }

  build(host) {
    // Play now: one button per game, quick match with its default player count.
    const tiles = games().map((g) => h('li', {}, h('button', {
      type: 'button', class: 'play-game', 'data-quick': g.id,
      on: { click: () => this.quick(g.id, g.default_players) },
    }, h('b', {}, g.name), h('small', {}, `${g.default_players} players`))));
    this.status = h('p', { id: 'quick-status', class: 'note', 'aria-live': 'polite' });
    this.cancel = h('button', { type: 'button', id: 'quick-cancel', hidden: true, on: { click: () => this.unqueue() } }, 'Cancel');
    this.waitingEl = h('ul', { id: 'waiting', class: 'waiting' });

    // More options: a room of one's own with the engine's options, each with its line.
    const cGame = h('select', { id: 'create-game', name: 'game', 'aria-label': 'game' }, ...gameOptions());
    const systems = [...new Set(games().map((g) => g.system))];
    const own = systems.map((system) => h('span', { class: 'only', 'data-system': system },
      ...systemOptions(system).map(optionInput)));
    const players = h('input', { name: 'players', type: 'number', 'aria-describedby': 'help-players' });
    const create = h('form', { id: 'create', class: 'options', on: { submit: (e) => { e.preventDefault(); this.create(create); } } },
      h('label', {}, 'game ', cGame),
      h('label', {}, 'players ', players, h('small', { class: 'help', id: 'help-players' }, 'how many seats the room has')),
      ...own, ...serverOptions().map(optionInput),
      h('label', { class: 'flag' }, h('span', {}, h('input', { type: 'checkbox', name: 'private', 'aria-describedby': 'help-private' }), ' private'),
        h('small', { class: 'help', id: 'help-private' }, 'not listed: friends join with the invite code')),
      h('button', { type: 'submit', id: 'create-room' }, 'Create room'));
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

    const computer = this.computerForm();

    // A correspondence seek: listed in the lobby for days until someone takes it.
    const sGame = h('select', { id: 'seek-game', 'aria-label': 'game' }, ...games().map((g) => h('option', { value: g.id }, g.name)));
    const sDays = h('select', { id: 'seek-days', 'aria-label': 'days a move' }, ...[1, 2, 3, 5, 7, 14].map((d) => h('option', { value: d, selected: d === 3 }, `${d} day${d > 1 ? 's' : ''} a move`)));
    const seek = h('form', { id: 'seek', class: 'inline', on: { submit: (e) => {
      e.preventDefault();
      this.net.send({ t: 'quick', game: sGame.value, days_per_move: Number(sDays.value) });
    } } }, sGame, sDays, h('button', { type: 'submit' }, 'Seek'));

    const joinText = h('input', { id: 'join-text', placeholder: 'room id or invite code', 'aria-label': 'room id or invite code' });
    const join = h('form', { id: 'join', class: 'inline', on: { submit: (e) => {
      e.preventDefault();
      const v = joinText.value.trim();
      if (/^r[0-9a-f]{8}$/i.test(v)) this.go(`/r/${v}`);
      else if (v) this.go(`/i/${v.toUpperCase()}`);
    } } }, joinText, h('button', { type: 'submit' }, 'Join'));

    // Puzzles, each with its goal and the booklet's count.
    const solo = h('ul', { class: 'puzzles' }, ...puzzles().map((p) => h('li', {},
      h('button', { type: 'button', 'data-puzzle': p.id, on: { click: () => this.net.send({ t: 'create', game: p.id }) } }, p.name),
      h('span', { class: 'goal' }, p.goal || '', p.target ? ` Booklet: ${p.target} clicks.` : '', p.optimum ? ` Best possible: ${p.optimum}.` : ''))));

    // Leaderboards and past games.
    const boardGame = h('select', { id: 'board-game', 'aria-label': 'leaderboard of' },
      ...games().map((g) => h('option', { value: g.id }, g.name)),
      ...puzzles().filter((p) => p.leaderboard).map((p) => h('option', { value: p.id }, `${p.name} (puzzle)`)));
    this.boardGame = boardGame;
    const board = h('form', { id: 'board-form', class: 'inline', on: { submit: (e) => { e.preventDefault(); this.board(boardGame.value, 0); } } },
      boardGame, h('button', { type: 'submit' }, 'Leaderboard'));
    this.boardEl = h('div', { id: 'board', class: 'scroll' });
    const gamesPlayer = h('input', { id: 'games-player', placeholder: 'player (you)', 'aria-label': 'whose games', maxlength: 64 });
    const gamesForm = h('form', { id: 'games-form', class: 'inline', on: { submit: (e) => { e.preventDefault(); const named = gamesPlayer.value.trim(); this.games(named ? { player_name: named } : { player_id: this.net.player }, null); } } },
      gamesPlayer, h('button', { type: 'submit' }, 'Games'));
    this.gamesEl = h('div', { id: 'games', class: 'scroll' });

    this.open = h('ul', { id: 'rooms-open', class: 'room-list' });
    this.playing = h('ul', { id: 'rooms-playing', class: 'room-list' });
    this.finished = h('ul', { id: 'rooms-finished', class: 'room-list' });
    this.list = h('div', { id: 'rooms' }, this.open, this.playing);
    this.pager = h('p', { class: 'pager' });
    this.yours = h('section', { id: 'yours', class: 'card', hidden: true, 'aria-labelledby': 'your-games-title' });
    host.append(h('div', { class: 'door' },
      h('section', { class: 'hero', 'aria-labelledby': 'what' },
        h('div', { class: 'pitch' },
          h('h1', { id: 'what' }, 'ORION, the rotor-board game system'),
          this.yours,
          h('p', {}, 'A board of 25 rotors, each turning four pieces around its orbit: every click moves your pieces and everyone else\u2019s, so a line can form or break in one quarter turn. Play its games for two to four here, and the two other games its documents describe, live against people, or solve its puzzles alone.'),
          h('section', { class: 'card now', 'aria-labelledby': 'waiting-title' },
            h('h2', { id: 'waiting-title' }, 'Waiting for a game'),
            this.waitingEl, this.open, this.status, this.cancel),
          h('section', { class: 'card', 'aria-labelledby': 'play-title' },
            h('h2', { id: 'play-title' }, 'Play now'),
            h('p', { class: 'hint' }, 'Pick a game: you are matched with the next player who picks it.'),
            h('ul', { class: 'tiles' }, ...tiles),
            h('details', { id: 'more-options' }, h('summary', {}, 'More options: a room of your own'), create),
            h('h3', {}, 'Play by correspondence'),
            h('p', { class: 'hint' }, 'Days for each move, nobody needs to stay: your seek waits here until someone takes it (claimed names only).'),
            seek,
            h('h3', {}, 'Play the computer'), computer,
            h('h3', {}, 'Join a friend'), join)),
        this.tv.el),
      h('section', { class: 'card', 'aria-labelledby': 'live-title' },
        h('h2', { id: 'live-title' }, 'Games in progress'), this.playing, this.pager,
        h('details', {}, h('summary', {}, 'Finished games'), this.finished)),
      h('section', { class: 'card', 'aria-labelledby': 'puzzles-title' }, h('h2', { id: 'puzzles-title' }, 'Puzzles'), solo),
      h('section', { class: 'card', 'aria-labelledby': 'you-title' }, h('h2', { id: 'you-title' }, 'You'), this.account.el,
        h('h3', {}, 'Past games'), gamesForm, this.gamesEl,
        h('h3', {}, 'Leaderboards'), board, this.boardEl)));
  }

  /** "Play the computer": a game, a level and the visitor's seat (in turn order, or any: one
   * drawn at random); computer players take every other seat, and the game starts at once. */
  computerForm() {
    const cGame = h('select', { id: 'computer-game', name: 'game', 'aria-label': 'game against the computer' },
      ...games().map((g) => h('option', { value: g.id }, `${g.name} (${g.default_players} players)`)));
    const level = h('select', { id: 'computer-level', name: 'level', 'aria-label': 'computer level' },
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: n, selected: n === 4 }, `level ${n}${n === 1 ? ' (random)' : n === 8 ? ' (strongest)' : ''}`)));
    const seat = h('select', { id: 'computer-seat', name: 'seat', 'aria-label': 'your seat' });
    const seats = () => {
      const g = game(cGame.value);
      const list = g ? seatsOf(g.id, g.default_players) : [];
      // The first seat unless the visitor chooses another (or any: one drawn at random).
      seat.replaceChildren(...list.map((s, i) => h('option', { value: s.seat }, `${ORDINALS[i] || `seat ${i + 1}`} (${s.seat})`)),
        h('option', { value: '' }, 'any seat'));
    };
    cGame.addEventListener('change', seats);
    seats();
    return h('form', { id: 'computer', class: 'inline', on: { submit: (e) => {
      e.preventDefault();
      const g = game(cGame.value);
      if (!g) return;
      const list = seatsOf(g.id, g.default_players);
      const mine = seat.value || (list.length ? list[Math.floor(Math.random() * list.length)].seat : '');
      this.vsComputer = { level: Number(level.value), bots: g.default_players - 1 };
      this.net.send(mine ? { t: 'create', game: g.id, seat: mine } : { t: 'create', game: g.id });
    } } }, cGame, level, seat, h('button', { type: 'submit', id: 'play-computer' }, 'Play the computer'));
  }

  /** The room made for "Play the computer": its bots are seated and the visitor says ready. */
  seatComputers(room) {
    const { level, bots } = this.vsComputer;
    this.vsComputer = null;
    for (let i = 0; i < bots; i += 1) this.net.send({ t: 'add_bot', room, level });
    this.net.send({ t: 'ready', room });
  }

  /** Quick match for `id` with `players`. */
  quick(id, players) {
    this.queued = { game: id, players };
    this.net.send({ t: 'quick', game: id, players });
    this.cancel.hidden = false;
    this.showQueued();
  }

  async unqueue() {
    const asked = this.net.request({ t: 'unqueue' });
    this.unqueueId = this.net.lastId; // its refusal is answered here, not in a toast
    const m = await asked;
    // A server without `unqueue` answers bad_request: the page forgets the wait all the same.
    this.queued = null;
    this.cancel.hidden = true;
    this.status.textContent = m.t === 'unqueued' ? 'Quick match cancelled.' : (m.code === 'not_queued' ? 'No longer waiting.' : 'Cancelled here; the server may still match you.');
  }

  showQueued() {
    const q = this.queued;
    if (!q) return;
    const w = this.waiting.find((x) => x.game === q.game && x.players === q.players);
    const others = w ? Math.max(0, w.count - 1) : 0;
    this.status.textContent = `Looking for ${q.players} players for ${gameName(q.game)}\u2026 ${others ? `${others} other${others > 1 ? 's' : ''} waiting` : 'you are the first waiting'}.`;
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
    if (m.t === 'error') {
      if (m.code === 'not_queued' || m.re === this.unqueueId) return;
      this.toast(m.message || m.code);
      return;
    }
    if (m.t === 'queued') { this.showQueued(); return; }
    if (m.t === 'joined') {
      if (this.vsComputer) this.seatComputers(m.room);
      this.go(m.code ? `/i/${m.code}` : `/r/${m.room}`);
      return;
    }
    if (m.t === 'left') { this.mine(); return; }
    if (m.t === 'lobby') this.rooms(m);
  }

  async board(game, after) {
    const m = await this.net.request({ t: 'leaderboard', game, ...(after ? { after } : {}) });
    if (m.t !== 'leaderboard') return;
    const puzzle = m.target !== undefined || m.optimum !== undefined;
    const day = (ms) => new Date(ms).toLocaleDateString();
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
    const day = (ms) => new Date(ms).toLocaleDateString();
    // The winner by name: a seat (`N`) or a team (`S+N`) as its players' names.
    const winner = (g) => {
      if (!g.winner) return 'no winner';
      const names = g.winner.split('+').map((k) => (g.seats || {})[k] || k);
      return names.join(' & ');
    };
    const rows = m.games.map((g) => h('tr', { 'data-room': g.room },
      h('td', {}, h('a', { href: `/g/${g.room}` }, day(g.ended))), h('td', {}, gameName(g.game)),
      h('td', {}, Object.values(g.seats || {}).join(', ')),
      h('td', { class: 'winner' }, winner(g))));
    const last = m.games.length ? m.games[m.games.length - 1].room : null;
    const pager = h('p', { class: 'pager' }, m.games.length ? '' : 'no finished games ',
      before ? h('button', { type: 'button', on: { click: () => this.games(who, null) } }, 'newest') : '',
      m.more && last ? h('button', { type: 'button', id: 'games-next', on: { click: () => this.games(who, last) } }, 'older') : '');
    this.gamesEl.replaceChildren(
      h('table', { class: 'leaders' }, h('thead', {}, h('tr', {}, ...['ended', 'game', 'players', 'winner'].map((t) => h('th', {}, t)))), h('tbody', {}, ...rows)),
      pager);
  }

  /** The visitor's games (`mine`: live and by correspondence, his turn first); the tab's
   * title counts those where he is to move. */
  async mine() {
    const m = await this.net.request({ t: 'mine' });
    if (m.t !== 'mine') return;
    const toPlay = m.games.filter((g) => g.your_turn).length;
    document.title = toPlay ? `(${toPlay}) Orion Online` : 'Orion Online';
    const item = (g) => {
      const names = Object.values(g.seats || {}).filter(Boolean).join(' vs ');
      const state = g.status === 'waiting' ? 'waiting for players' : g.your_turn ? 'your turn' : 'their turn';
      const until = g.deadline ? `, until ${new Date(g.deadline).toLocaleString()}` : '';
      const pace = g.days_per_move ? ` \u00b7 ${g.days_per_move} day${g.days_per_move > 1 ? 's' : ''} a move` : '';
      return h('li', { 'data-room': g.room, 'data-your-turn': String(g.your_turn) },
        h('a', { href: `/r/${g.room}`, 'data-link': '' }, gameName(g.game)), ` ${names} \u00b7 ${state}${until}${pace}`);
    };
    this.yours.hidden = !m.games.length;
    this.yours.replaceChildren(h('h2', { id: 'your-games-title' }, `Your games (${toPlay} to play)`),
      h('ul', { class: 'your-games' }, ...m.games.map(item)));
  }

  /** One room of the list: game, who is in it, watchers, and the one thing to do. */
  roomItem(r) {
    const rating = (k) => (r.ratings && r.ratings[k] !== undefined ? ` (${r.ratings[k]})` : '');
    const seats = Object.entries(r.seats || {});
    const names = seats.filter(([, n]) => n).map(([k, n]) => (r.bots && r.bots[k] ? `computer ${r.bots[k]}${rating(k)}` : `${n}${rating(k)}`));
    const free = seats.filter(([, n]) => n === null).length;
    const what = r.status === 'waiting' ? (free ? `${free} seat${free > 1 ? 's' : ''} free` : 'about to start')
      : r.status === 'playing' ? `${r.spectators || 0} watching` : 'finished';
    const action = r.status === 'waiting' && free ? 'Join' : r.status === 'finished' ? 'Record' : 'Watch';
    const href = r.status === 'finished' ? `/g/${r.room}` : `/r/${r.room}`;
    const days = r.options && r.options.days_per_move;
    if (days && r.status === 'waiting' && free) {
      // A correspondence seek: taken with a seek of the same game and days (seated and
      // ready at once), withdrawn by its owner.
      const mine = seats.some(([, n]) => n === this.net.name);
      const act = mine
        ? h('button', { type: 'button', class: 'withdraw-seek', on: { click: () => this.net.send({ t: 'leave', room: r.room }) } }, 'Withdraw')
        : h('button', { type: 'button', class: 'take-seek', on: { click: () => this.net.send({ t: 'quick', game: r.game, players: seats.length, days_per_move: days }) } }, 'Take it');
      return h('li', { 'data-room': r.room, 'data-status': r.status, 'data-seek': String(days) },
        h('span', {}, h('b', {}, gameName(r.game)), ` ${names.join(' vs ')}`),
        h('span', { class: 'what' }, `seeks a game, ${days} day${days > 1 ? 's' : ''} a move`), act);
    }
    return h('li', { 'data-room': r.room, 'data-status': r.status },
      h('span', {}, h('b', {}, gameName(r.game)), ` ${names.length ? names.join(' vs ') : 'empty'}`),
      h('span', { class: 'what' }, what),
      h('a', { href, 'data-link': '', class: 'button', 'aria-label': `${action} ${gameName(r.game)} ${r.room}` }, action));
  }

  rooms(m) {
    const rooms = m.rooms || [];
    this.tv.choose(rooms);
    this.waiting = m.waiting || [];
    // People waiting in quick match, by game: one click plays them.
    this.waitingEl.replaceChildren(...this.waiting.filter((w) => w.count > 0 && !(this.queued && this.queued.game === w.game && w.count <= 1))
      .map((w) => h('li', { 'data-waiting': w.game },
        `${w.count > 1 ? `${w.count} people are` : 'Someone is'} waiting for ${gameName(w.game)}${w.players !== (game(w.game) || {}).default_players ? ` (${w.players} players)` : ''} \u2014 `,
        h('button', { type: 'button', class: 'play-them', on: { click: () => this.quick(w.game, w.players) } }, w.count > 1 ? 'play them' : 'play them'))));
    const waitingRooms = rooms.filter((r) => r.status === 'waiting' && !isPuzzle(r.game));
    const playing = rooms.filter((r) => r.status === 'playing').sort((a, b) => (b.spectators || 0) - (a.spectators || 0));
    const finished = rooms.filter((r) => r.status === 'finished');
    this.open.replaceChildren(...waitingRooms.map((r) => this.roomItem(r)));
    if (!waitingRooms.length && !this.waiting.length) {
      this.open.append(h('li', { class: 'none' }, 'Nobody is waiting right now: pick a game under Play now and the next visitor sees you here.'));
    }
    this.playing.replaceChildren(...playing.map((r) => this.roomItem(r)));
    if (!playing.length) this.playing.append(h('li', { class: 'none' }, 'No game in progress.'));
    this.finished.replaceChildren(...finished.map((r) => this.roomItem(r)));
    this.showQueued();
    const last = rooms.length ? rooms[rooms.length - 1].room : null;
    this.pager.replaceChildren(`${m.total ?? rooms.length} rooms `);
    if (this.after) {
      this.pager.append(h('button', { type: 'button', on: { click: () => { this.after = null; this.up(null); } } }, 'first page'));
    }
    if (m.more && last) {
      this.pager.append(h('button', { type: 'button', on: { click: () => { this.after = last; this.up(null); } } }, 'next page'));
    }
    this.hooks.lobbyShown = (this.hooks.lobbyShown || 0) + 1;
  }
}

// What the server offers, as it says at `/catalogue.json` (built from its game systems): the
// games and puzzles, their system, players, seats and colours, options with bounds and
// defaults. Loaded once before the first view; the page keeps no copy of its own.

let data = { systems: [], games: [], options: [] };
let byId = new Map();

/** Fetches the catalogue (retrying while the server is away). */
export async function loadCatalogue() {
  for (let wait = 200; ; wait = Math.min(4000, wait * 2)) {
    try {
      const r = await fetch('/catalogue.json');
      if (r.ok) {
        data = await r.json();
        byId = new Map(data.games.map((g) => [g.id, g]));
        return data;
      }
    } catch (e) { /* offline: try again */ }
    await new Promise((done) => setTimeout(done, wait));
  }
}

/** Games (not puzzles), in the server's order. */
export const games = () => data.games.filter((g) => !g.puzzle);
/** Puzzles, in the server's order. */
export const puzzles = () => data.games.filter((g) => g.puzzle);
/** A game's entry (`undefined` for an id the server does not offer). */
export const game = (id) => byId.get(id);
/** The display name of a game or puzzle id. */
export const gameName = (id) => (byId.get(id) || { name: id }).name;
/** Whether `id` is a puzzle. */
export const isPuzzle = (id) => !!(byId.get(id) || {}).puzzle;
/** The game system of a game id (its board module). */
export const systemOf = (id) => (byId.get(id) || { system: (data.systems[0] || {}).id }).system;
/** A system's own options, with their bounds. */
export const systemOptions = (system) => (data.systems.find((s) => s.id === system) || { options: [] }).options;
/** What the front door replays when no game is on: {game, start, clicks}, or null. */
export const demo = () => data.demo || null;
/** The server's own options (clocks, seat hold). */
export const serverOptions = () => data.options;

/** The seats of `game` for `players` in turn order: [{seat, colour}] (from `S:R`). */
export function seatsOf(id, players) {
  const g = byId.get(id);
  const list = g ? g.seats[players] || g.seats[g.default_players] || [] : [];
  return list.map((x) => ({ seat: x.split(':')[0], colour: x.split(':')[1] || '' }));
}

/** The colour letter `seat` moves in `game` for `players` ('' until play decides). */
export function seatColour(id, seat, players) {
  return (seatsOf(id, players).find((s) => s.seat === seat) || { colour: '' }).colour;
}

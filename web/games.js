// What the lobby offers: ORION's games (id, name, players), the other two game systems
// (Orbit, Orbs) and the booklet's puzzles. The rules live in the server; this is only the menu
// and a few display hints.

export const GAMES = [
  { id: 'hydra-2', name: 'Hydra for Two', players: [2, 2] },
  { id: 'hydra-4', name: 'Hydra for Four', players: [3, 4] },
  { id: 'hydra-partners', name: 'Hydra for Partners', players: [4, 4] },
  { id: 'auriga', name: 'Auriga', players: [2, 4] },
  { id: 'lepus', name: 'Lepus', players: [2, 4] },
  { id: 'algol', name: 'Algol', players: [2, 4] },
  { id: 'libra', name: 'Libra', players: [2, 2] },
  { id: 'draco', name: 'Draco', players: [2, 2] },
  { id: 'taurus', name: 'Taurus', players: [2, 2] },
  { id: 'bootes', name: 'Bootes', players: [2, 2] },
  { id: 'cassiopeia', name: 'Cassiopeia', players: [2, 2] },
  { id: 'cassiopeia-five', name: 'Cassiopeia Five', players: [2, 2] },
  { id: 'orion', name: 'Orion', players: [2, 4] },
  { id: 'orbit', name: 'Orbit (16x16 stones)', players: [2, 2] },
  { id: 'orbs', name: 'Orbs (elemental star)', players: [2, 6] },
];

export const PUZZLES = [
  { id: 'aquila', name: 'Aquila' },
  { id: 'aurora-a', name: 'Aurora Borealis A' },
  { id: 'aurora-b', name: 'Aurora Borealis B' },
  { id: 'whirlpool', name: 'Whirlpool Galaxy' },
  { id: 'herdsman', name: 'Herdsman' },
  { id: 'binary-1', name: 'Binary Star 1' },
  { id: 'binary-2', name: 'Binary Star 2' },
  { id: 'binary-3', name: 'Binary Star 3' },
  { id: 'binary-4', name: 'Binary Star 4' },
  { id: 'orbit-a', name: 'Orbit Solitaire A' },
  { id: 'orbit-b', name: 'Orbit Solitaire B' },
  { id: 'aquarius', name: 'Aquarius' },
];

const ALL = new Map([...GAMES, ...PUZZLES].map((g) => [g.id, g]));

/** The display name of a game or puzzle id. */
export const gameName = (id) => (ALL.get(id) || { name: id }).name;
/** Whether `id` is a puzzle (one seat, no turns). */
export const isPuzzle = (id) => PUZZLES.some((p) => p.id === id);
/** Games where the mover builds (places pieces on eligible slots). */
export const builds = (id) => id === 'cassiopeia' || id === 'cassiopeia-five' || id === 'orion';

/** The game system of a game id: `orbit`, `orbs` or `orion`. */
export const systemOf = (id) => (id === 'orbit' || id === 'orbs' ? id : 'orion');

/** Orbs' seats by player count, in turn order (ORBS.md); colours go R, B, G, Y, O, P. */
export const ORBS_SEATS = {
  2: ['S', 'N'], 3: ['S', 'NW', 'NE'], 4: ['SW', 'NW', 'NE', 'SE'],
  5: ['S', 'SW', 'NW', 'N', 'NE'], 6: ['S', 'SW', 'NW', 'N', 'NE', 'SE'],
};

/** The seats of a room of `game` for `players`, in the order they are shown. */
export function seatsOf(game, players) {
  if (game === 'orbit') return ['S', 'N'];
  if (game === 'orbs') return ORBS_SEATS[players] || ORBS_SEATS[2];
  return ['S', 'W', 'N', 'E'];
}

/** The colour letter a seat moves in `game` (ORION.md section 7); Orbit's is its stone's
 *  once chosen (`''` before), Orbs' by its place in the seat order. */
export function seatColour(game, seat, players) {
  if (game === 'orbit') return '';
  if (game === 'orbs') return 'RBGYOP'[seatsOf(game, players).indexOf(seat)] || '';
  if (game === 'hydra-partners') return seat === 'S' || seat === 'N' ? 'R' : 'G';
  return { S: 'R', W: 'G', N: 'B', E: 'Y' }[seat] || 'R';
}

// What a room says in words: whose turn it is ("Your turn", "Waiting for alice"), what a
// `left` or `ready` meant, and a finished game's result ("alice wins with a red chain — bob
// left the game"). Everything comes from the room's state as the server's snapshot and events
// gave it; nothing here knows a rule.

// ORION's chain colours by their letter in `chain` events.
const CHAIN_COLOUR = { R: 'red', B: 'blue', G: 'green', Y: 'yellow' };

/** The name sitting at `seat` (`S`), or the seat itself when nobody does now. */
export function nameAt(s, seat) {
  const o = s.seats[seat];
  if (o && o.name) return o.name;
  return (s.gone && s.gone[seat]) || seat;
}

/** A winner field (`S`, `S+N`) as names: "alice", "alice and carol". */
export function winnerNames(s, winner) {
  return String(winner).split('+').map((k) => nameAt(s, k)).join(' and ');
}

/** The turn line for whoever reads it: `me` is the reader's seat (null: watching). */
export function turnWords(s, me) {
  if (s.status === 'waiting') {
    const free = Object.entries(s.seats).filter(([, o]) => !o).length;
    if (free) return `Waiting for ${free === 1 ? 'a player' : `${free} players`}`;
    const unready = Object.entries(s.seats).filter(([, o]) => o && !o.ready).map(([k]) => k);
    if (!unready.length) return 'Starting…';
    if (me && unready.includes(me)) return 'Press Ready when you are';
    return `Waiting for ${unready.map((k) => nameAt(s, k)).join(' and ')} to be ready`;
  }
  if (s.status !== 'playing') return s.status === 'finished' ? 'Game over' : '';
  const k = s.turn.seat;
  if (!k) return '';
  if (me && k === me) return 'Your turn';
  if (me) return `Waiting for ${nameAt(s, k)}`;
  return `${nameAt(s, k)} (${k}) to move`;
}

/** Scores worth showing: only once someone has scored (a game without scores never does). */
export function scoresShown(scores) {
  const all = Object.values(scores || {});
  return all.length > 0 && all.some((v) => v > 0);
}

/** Why the game ended, when a player (or the clock) ended it: "bob left the game". */
function reasonWords(s, r) {
  const who = r.seat ? nameAt(s, r.seat) : 'a player';
  switch (r.reason) {
    case 'left': return `${who} left the game`;
    case 'away': return `${who} was away past the seat hold`;
    case 'time': return `${who} ran out of time`;
    case 'abandoned': return 'everyone left the game';
    case 'aborted': return 'aborted before everyone had moved: unrated';
    default: return '';
  }
}

/** How the winner won: the server's winning chain, else the last event that decided it
 *  (`s.decider`). */
function howWords(s) {
  const chain = s.result && s.result.chain;
  if (chain) return ` with a chain from ${chain.from} to ${chain.to}`;
  const d = s.decider;
  if (!d) return '';
  if (d.kind === 'chain') return ` with a ${CHAIN_COLOUR[d.colour] || d.colour} chain`;
  if (d.kind === 'capture') return ' by a capture';
  return '';
}

/** A finished game's result in words, for the reader at seat `me`. */
export function resultWords(s, me) {
  const r = s.result;
  if (!r) return '';
  const w = r.winner;
  const why = reasonWords(s, r);
  let text;
  if (w) {
    const mine = me && String(w).split('+').includes(me);
    const names = winnerNames(s, w);
    const plural = String(w).includes('+');
    text = mine ? `You win${plural ? ` with ${names}` : ''}` : `${names} ${plural ? 'win' : 'wins'}`;
    if (!r.reason) text += howWords(s);
  } else {
    text = r.reason ? 'No winner' : 'A draw';
  }
  if (why) text += ` \u2014 ${why}`;
  if (scoresShown(r.scores)) {
    text += ` (${Object.entries(r.scores).map(([k, v]) => `${nameAt(s, k)} ${v}`).join(', ')})`;
  }
  return text;
}

/** What a live region says of event `ev` (already folded into `s`) to the reader at `me`:
 *  another's move, whose turn, a seat taken, ready or left, the result; '' for the rest. */
export function announcement(s, ev, me) {
  switch (ev.kind) {
    case 'click': case 'move': return ev.seat === me ? '' : `${nameAt(s, ev.seat)}: ${ev.click || ev.move}`;
    case 'turn': case 'start': return turnWords(s, me);
    case 'ready': return ev.seat === me ? '' : `${nameAt(s, ev.seat)} is ready`;
    case 'joined': return `${ev.name} sat down at ${ev.seat}`;
    case 'left': return `${nameAt(s, ev.seat)} left${s.status === 'playing' ? ' the game' : ''}`;
    case 'undo': return `${ev.click} taken back: ${ev.used === 1 ? '1 click stands' : `${ev.used} clicks stand`}`;
    case 'hint': return `Hint: ${ev.click}, ${ev.left} clicks to the finish`;
    case 'over': return `Game over: ${resultWords(s, me)}`;
    default: return '';
  }
}

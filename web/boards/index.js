// The board modules, one per game system, by the system id the server's catalogue gives each
// game. Adding a game system adds its module and one line here.
//
// A board module is a class; `new Board(host, room)` draws the empty board into `host`. `room`
// (null in a record view, where nothing is sent) is the room it plays in: `act(req)`,
// `sendMove(text)`, `note(text)`, `render()`, `hint(name)` (a set the server's `hints` named
// for the room's current seq, else []), `hintsPending()`, `afterHints(fn)`, `colourOf(seat)`,
// `myColour()`, `isMyTurn()`, `s` (the state), `seat`, `replaying`, `el`, `hooks`, and
// `watchOnly` (the front door's live board, tv.js: no keys line, no turn buttons). It knows no
// rule: it draws what the events say and highlights what the hints name.
//
//   set(position)          shows a position string at once
//   markLast(null)         forgets the last move's mark
//   controls(button)       its buttons, made with button(id, text, onClick, cls), for the room
//   event(ev, at, live, s) one event: draws or animates it, folds the system's own fields into
//                          the state `s` (`at`: when its frame arrived; `live`: not a replay)
//   fold(ev, s)            (optional) what a replay folds of an event without drawing it
//   line(s)                the turn line (clicks, phase, who is out)
//   render(s, mine)        shows its buttons and highlights after every change
//   liveScores(s)          (optional) scores as the board stands, while playing
//   step(here, next, by)   a replay step from one frame's event to another's, `by` frames on
//   key(e)                 (optional) a key pressed; true when the board used it
//   refused(m)             (optional) an `error` reply came (its own requests' by `re`)
//   swatch(colour)         a colour letter's fill
//   unit                   what a replay counts: 'clicks' or 'moves'
//   watchHints             (optional) spectators ask for hints too (Orbit's territory)

import { OrionBoard } from './orion.js';
import { OrbitBoard } from './orbit.js';
import { OrbsBoard } from './orbs.js';

export const BOARDS = { orion: OrionBoard, orbit: OrbitBoard, orbs: OrbsBoard };

/** The board module of a system id (ORION's for one the page does not know). */
export const boardOf = (system) => BOARDS[system] || OrionBoard;

//! An ORION bot's side of a room: the room followed event by event with its own copy of the
//! game ([`Mirror`]); it asks the AI crate ([`bot::act`]) what to do whenever it is its turn
//! and the events of the last step are all in, claims a chain made for it the moment it appears, chooses a
//! secret man at the start (Algol), and after refusals tries other actions, then gives the
//! turn up rather than stall the table.

use super::bot;
use super::mirror::Mirror;
use super::room::{RoomState, Status};
use crate::bot::level::Level;
use crate::bot::Decider;
use crate::systems::orion::wire::seat as engine_seat;
use crate::systems::{Ending, Player, Tries, MAX_REFUSALS};
use orion_engine::{parse_piece, Action, Colour, Seat};
use orion_protocol::{Event as Ev, Gap, Request, Seat as WireSeat, Snapshot};

/// Turns a bot's action into the request that asks for it.
pub fn request(room: &str, action: Action) -> Request {
    let room = room.to_string();
    match action {
        Action::Click { click, piece } => Request::Click {
            room,
            click: click.to_string(),
            piece: piece.map(|p| p.to_string()),
        },
        Action::Place { slot, from } => Request::Place {
            room,
            slot: slot.to_string(),
            from: from.map(|s| s.to_string()),
        },
        Action::EndTurn | Action::Timeout => Request::EndTurn { room },
        Action::Roll => Request::Roll { room },
        Action::Three => Request::Three { room },
        Action::Claim => Request::Claim { room },
        Action::Secret { piece } => Request::Secret {
            room,
            piece: piece.to_string(),
        },
        Action::Challenge { piece } => Request::Challenge {
            room,
            piece: piece.to_string(),
        },
    }
}

/// An ORION bot in its room.
pub struct OrionPlayer {
    /// Who decides (the AI crate, at the bot's level).
    bot: Decider,
    /// The seat as the wire names it.
    wire_seat: Option<WireSeat>,
    /// The seat as the engine names it.
    seat: Option<Seat>,
    /// The room as its events tell it.
    state: Option<RoomState>,
    /// The bot's copy of the game, for the engine to judge its moves.
    mirror: Mirror,
    /// A secret man was asked for (Algol): never twice.
    secret_sent: bool,
    /// Actions refused since the last event, not to be tried again.
    failed: Vec<Action>,
    /// An action refused for the rate only, to send again.
    retry: Option<Action>,
}

impl OrionPlayer {
    /// A bot of `level` whose random choices follow `seed`.
    pub fn new(level: Level, seed: u64) -> OrionPlayer {
        OrionPlayer {
            bot: Decider::new(level, seed),
            wire_seat: None,
            seat: None,
            state: None,
            mirror: Mirror::new(None),
            secret_sent: false,
            failed: Vec::new(),
            retry: None,
        }
    }

    fn my_colour(&self) -> Option<Colour> {
        let s = self.state.as_ref()?;
        s.colour_of(self.seat?)
    }

    /// Whether the room is in the middle of a step whose other events are still on their way
    /// (the server sends them one by one): a turn whose clicks are used up with nothing to
    /// build ends by itself, and the copy of the game may know the step's end already.
    fn mid_step(&self, state: &RoomState) -> bool {
        let allowed = state.clicks().unwrap_or(0);
        let used_up = allowed > 0 && state.used() >= allowed && state.eligible().is_empty();
        used_up || self.mirror.ahead(state)
    }

    /// Sends `action`, remembered in case it is refused.
    fn send(&mut self, room: &str, action: Action) -> Option<Request> {
        self.failed.push(action);
        Some(request(room, action))
    }
}

impl Player for OrionPlayer {
    fn joined(&mut self, seat: WireSeat) {
        self.wire_seat = Some(seat);
        self.seat = engine_seat(seat);
        if let Some(seat) = self.seat {
            self.mirror.seat(seat);
        }
    }

    fn snapshot(&mut self, snap: &Snapshot) {
        let state = RoomState::from_snapshot(snap, self.wire_seat);
        if let Some(piece) = snap
            .systems
            .orion
            .secret
            .as_deref()
            .and_then(|p| parse_piece(p).ok())
        {
            self.mirror.secret(piece);
            self.secret_sent = true;
        }
        self.mirror.reset(&state);
        self.state = Some(state);
    }

    fn event(&mut self, seq: u64, ev: &Ev<'_>) -> Result<Vec<Request>, Gap> {
        if let Some(s) = self.state.as_mut() {
            // A resume may repeat events the room has already seen.
            if seq > s.seq() {
                s.apply(seq, ev)?;
                self.mirror.follow(s, ev);
            }
        }
        self.failed.clear();
        // A move refused for the rate is decided afresh in the room as it now is.
        self.retry = None;
        let mut out = Vec::new();
        if let (
            Ev::Chain {
                colour,
                claim_until: Some(_),
            },
            Some(s),
        ) = (ev, &self.state)
        {
            if Colour::parse(colour).is_some() && Colour::parse(colour) == self.my_colour() {
                out.push(Request::Claim {
                    room: s.room().to_string(),
                });
            }
        }
        Ok(out)
    }

    fn seq(&self) -> Option<u64> {
        self.state.as_ref().map(RoomState::seq)
    }

    fn rate_limited(&mut self) {
        // Not a judgement on the move: send it again once the bucket has refilled.
        if let Some(a) = self.failed.pop() {
            self.retry = Some(a);
        }
    }

    fn decide(&mut self, tries: &mut Tries) -> Option<Request> {
        let state = self.state.as_ref()?;
        let room = state.room().to_string();
        let seat = self.seat?;
        let game = self.mirror.game(state);
        if !self.secret_sent && state.status() == Status::Playing {
            // Algol: the secret man is chosen at the start, whoever's turn it is.
            if let Some(a @ Action::Secret { piece }) =
                game.and_then(|g| bot::secret(&mut self.bot, g, seat))
            {
                self.secret_sent = true;
                self.mirror.secret(piece);
                return Some(request(&room, a));
            }
        }
        if !state.my_turn() {
            return None;
        }
        if !tries.quiet && self.mid_step(state) {
            return None;
        }
        if let Some(a) = self.retry.take() {
            return self.send(&room, a);
        }
        if tries.in_a_row >= MAX_REFUSALS {
            // Lost: give the turn up rather than stall the table.
            tries.in_a_row = 0;
            return Some(Request::EndTurn { room });
        }
        let Some(game) = game else {
            // The copy lost step (it is set up again at the next turn): after a quiet spell,
            // give the turn up rather than stall the table.
            return tries.quiet.then_some(Request::EndTurn { room });
        };
        let mut action = bot::act(&mut self.bot, game, seat);
        if action.is_none_or(|a| self.failed.contains(&a)) {
            // The server refused it: end the turn (it cannot hand anyone a chain) if the move
            // may end, else any other legal action.
            let legal = game.legal_actions(seat, 0);
            let fresh: Vec<Action> = (legal.iter().copied())
                .filter(|a| !self.failed.contains(a))
                .collect();
            action = if fresh.contains(&Action::EndTurn) {
                Some(Action::EndTurn)
            } else {
                let pick = fresh
                    .get(tries.refused as usize % fresh.len().max(1))
                    .copied();
                if pick.is_none() {
                    // Everything refused: start over rather than stall the table.
                    self.failed.clear();
                }
                pick
            };
        }
        let a = action?;
        self.send(&room, a)
    }

    fn ending(&self) -> Option<Ending> {
        let s = self.state.as_ref()?;
        if s.status() != Status::Finished {
            return None;
        }
        Some(Ending {
            room: s.room().to_string(),
            winner: s
                .result()
                .and_then(|r| r.winner.as_ref().map(|w| w.to_string())),
            scores: s
                .seats()
                .iter()
                .map(|x| (x.seat.to_string(), x.score))
                .collect(),
        })
    }
}

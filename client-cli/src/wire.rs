//! What is the client's own about the wire: turning the protocol's seats into the engine's
//! and an engine event into the event the server would send (the bots' tests play against
//! the engine as if over the wire). The messages themselves are `orion_protocol`'s.

use orion_engine::{position_string, Event, Seat, SlotSet};
use orion_protocol as wire;

/// The engine's seat for a seat on the wire; `None` for a seat ORION does not have (Orbs's).
pub fn seat(seat: wire::Seat) -> Option<Seat> {
    Seat::parse(seat.as_str())
}

/// The wire's seat for an engine seat.
pub fn wire_seat(seat: Seat) -> wire::Seat {
    match seat {
        Seat::S => wire::Seat::S,
        Seat::W => wire::Seat::W,
        Seat::N => wire::Seat::N,
        Seat::E => wire::Seat::E,
    }
}

/// An engine event as the server sends it (PROTOCOL.md, "Events").
pub fn event(e: &Event) -> wire::Event<'static> {
    let slots = |set: SlotSet| set.into_iter().map(|s| s.to_string().into()).collect();
    match e {
        Event::Click {
            seat,
            click,
            position,
        } => wire::Event::Click {
            seat: wire_seat(*seat),
            click: click.to_string().into(),
            position: position_string(position).into(),
        },
        Event::Place {
            seat,
            slot,
            piece,
            from,
            position,
        } => wire::Event::Place {
            seat: wire_seat(*seat),
            slot: slot.to_string().into(),
            piece: piece.to_string().into(),
            from: from.map(|s| s.to_string().into()),
            position: position_string(position).into(),
        },
        Event::Eligible { slots: set } => wire::Event::Eligible { slots: slots(*set) },
        Event::Roll { seat, value } => wire::Event::Roll {
            seat: wire_seat(*seat),
            value: *value,
        },
        Event::Turn {
            seat,
            clicks,
            round,
        } => wire::Event::Turn {
            seat: wire_seat(*seat),
            clicks: *clicks,
            round: *round,
            used: None,
            phase: None,
            colour: None,
            prohibited: None,
            drop: None,
        },
        Event::Chain {
            colour,
            claim_until,
        } => wire::Event::Chain {
            colour: colour.letter().to_string().into(),
            claim_until: *claim_until,
        },
        Event::Claim { seat, ok } => wire::Event::Claim {
            seat: wire_seat(*seat),
            ok: *ok,
        },
        Event::Capture {
            seat,
            slots: set,
            points,
            position,
        } => wire::Event::Capture {
            seat: wire_seat(*seat),
            slots: slots(*set),
            points: *points,
            position: position_string(position).into(),
        },
        Event::Over { outcome } => wire::Event::Over {
            result: wire::GameResult {
                winner: outcome.winner.map(|w| match w {
                    orion_engine::Winner::Seat(s) => wire::Winner::seat(wire_seat(s)),
                    orion_engine::Winner::Team(a, b) => wire::Winner::team([a, b].map(wire_seat))
                        .unwrap_or(wire::Winner::seat(wire_seat(a))),
                }),
                scores: outcome
                    .scores
                    .iter()
                    .map(|(s, p)| (wire_seat(*s), *p))
                    .collect(),
                reveals: None,
                end: None,
                territory: None,
            },
            seed: None,
            salt: None,
            reason: None,
            seat: None,
        },
        Event::Secret { seat, commitment } => wire::Event::Secret {
            seat: wire_seat(*seat),
            commitment: commitment.clone().into(),
        },
        Event::Challenge {
            seat,
            piece,
            hit,
            removed,
            position,
        } => wire::Event::Challenge {
            seat: wire_seat(*seat),
            piece: piece.to_string().into(),
            hit: *hit,
            removed: slots(*removed),
            position: position_string(position).into(),
        },
        Event::Try {
            seat,
            click,
            hit,
            chain,
            tries,
            hits,
        } => wire::Event::Try {
            seat: wire_seat(*seat),
            click: click.to_string().into(),
            hit: *hit,
            chain: slots(*chain),
            tries: *tries,
            hits: *hits,
        },
    }
}

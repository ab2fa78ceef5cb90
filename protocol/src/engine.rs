//! ORION's engine types on the wire (feature `engine`): seats, results and events as the
//! server sends them. Written once here for the server's ORION system and for the client's
//! copy of a room, which must read the same events it would have been sent.

use crate::{Event, GameResult, Reveal, Scores, Seat, Text, Winner};
use orion_engine::{
    position_string, Colour, Event as EngineEvent, Outcome, Seat as EngineSeat, SlotSet,
    Winner as EngineWinner,
};
use std::borrow::Cow;

/// The wire's seat for an engine seat.
pub fn wire_seat(seat: EngineSeat) -> Seat {
    match seat {
        EngineSeat::S => Seat::S,
        EngineSeat::W => Seat::W,
        EngineSeat::N => Seat::N,
        EngineSeat::E => Seat::E,
    }
}

/// A colour's letter, as a static string.
pub fn colour_letter(colour: Colour) -> &'static str {
    match colour.letter() {
        'R' => "R",
        'B' => "B",
        'G' => "G",
        _ => "Y",
    }
}

/// Points by seat.
pub fn scores(scores: &[(EngineSeat, u32)]) -> Scores {
    scores.iter().map(|&(s, p)| (wire_seat(s), p)).collect()
}

/// The `result` of an `over` event or a snapshot; with Algol's secrets revealed so anyone
/// can check them against the commitments.
pub fn result(outcome: &Outcome) -> GameResult {
    let mut r = result_of(outcome.winner, &outcome.scores);
    if !outcome.reveals.is_empty() {
        r.orion.reveals = Some(
            outcome
                .reveals
                .iter()
                .map(|r| Reveal {
                    seat: wire_seat(r.seat),
                    piece: r.piece.to_string(),
                    salt: r.salt.clone(),
                    commitment: r.commitment.clone(),
                })
                .collect(),
        );
    }
    r
}

/// The `result` for a result the server decides (time, abandonment).
pub fn result_of(winner: Option<EngineWinner>, points: &[(EngineSeat, u32)]) -> GameResult {
    GameResult {
        winner: winner.and_then(|w| match w {
            EngineWinner::Seat(s) => Some(Winner::seat(wire_seat(s))),
            EngineWinner::Team(a, b) => Winner::team([a, b].map(wire_seat)),
        }),
        scores: scores(points),
        orion: Default::default(),
        end: None,
        orbit: Default::default(),
    }
}

/// An engine event as it goes on the wire (PROTOCOL.md, "Events"): slot names borrowed,
/// each position string made once. Algol's `secret` carries the commitment only.
pub fn event(event: &EngineEvent) -> Event<'_> {
    let names = |set: SlotSet| -> Vec<Text<'static>> {
        set.into_iter().map(|s| Cow::Borrowed(s.name())).collect()
    };
    match event {
        EngineEvent::Click {
            seat,
            click,
            position,
        } => Event::Click {
            seat: wire_seat(*seat),
            click: click.to_string().into(),
            position: position_string(position).into(),
        },
        EngineEvent::Place {
            seat,
            slot,
            piece,
            from,
            position,
        } => Event::Place {
            seat: wire_seat(*seat),
            slot: Cow::Borrowed(slot.name()),
            piece: piece.to_string().into(),
            from: from.map(|f| Cow::Borrowed(f.name())),
            position: position_string(position).into(),
        },
        EngineEvent::Eligible { slots } => Event::Eligible {
            slots: names(*slots),
        },
        EngineEvent::Roll { seat, value } => Event::Roll {
            seat: wire_seat(*seat),
            value: *value,
        },
        EngineEvent::Turn {
            seat,
            clicks,
            round,
        } => Event::Turn {
            seat: wire_seat(*seat),
            clicks: *clicks,
            round: *round,
            used: None,
            systems: Default::default(),
        },
        EngineEvent::Chain {
            colour,
            claim_until,
        } => Event::Chain {
            colour: Cow::Borrowed(colour_letter(*colour)),
            claim_until: *claim_until,
        },
        EngineEvent::Claim { seat, ok } => Event::Claim {
            seat: wire_seat(*seat),
            ok: *ok,
        },
        EngineEvent::Capture {
            seat,
            slots,
            points,
            position,
        } => Event::Capture {
            seat: wire_seat(*seat),
            slots: names(*slots),
            points: *points,
            position: position_string(position).into(),
        },
        EngineEvent::Over { outcome } => Event::Over {
            result: result(outcome),
            seed: None,
            salt: None,
            reason: None,
            seat: None,
            ratings: None,
            chain: None,
        },
        // Only the commitment is public; the piece stays with the engine and its owner.
        EngineEvent::Secret { seat, commitment } => Event::Secret {
            seat: wire_seat(*seat),
            commitment: Cow::Borrowed(commitment),
        },
        EngineEvent::Challenge {
            seat,
            piece,
            hit,
            removed,
            position,
        } => Event::Challenge {
            seat: wire_seat(*seat),
            piece: piece.to_string().into(),
            hit: *hit,
            removed: names(*removed),
            position: position_string(position).into(),
        },
        EngineEvent::Try {
            seat,
            click,
            hit,
            chain,
            tries,
            hits,
        } => Event::Try {
            seat: wire_seat(*seat),
            click: click.to_string().into(),
            hit: *hit,
            chain: names(*chain),
            tries: *tries,
            hits: *hits,
        },
    }
}

/// The engine's seat for a seat on the wire; `None` for a seat ORION does not have (Orbs's).
pub fn engine_seat(seat: Seat) -> Option<EngineSeat> {
    EngineSeat::parse(seat.as_str())
}

//! ORION's own fields in the shared messages: a puzzle's target in the turn, Algol's secret
//! man in its chooser's snapshot, and every secret revealed in the result. ORION's moves are
//! events of their own (`click`, `place`, `chain`, `capture`…): PROTOCOL.md's base.

use crate::fields;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// ORION's part of a [`Turn`](crate::Turn).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrionTurn {
    /// Puzzle rooms only: the booklet's count (`null` where the booklet gives none).
    /// Absent in other rooms.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::tristate"
    )]
    pub target: Option<Option<u32>>,
}

/// ORION's part of a [`Snapshot`](crate::Snapshot).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrionSnapshot {
    /// Algol: the recipient's own secret man (nobody else's snapshot carries it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// ORION's part of a [`GameResult`](crate::GameResult).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrionResult {
    /// Algol: every secret man, revealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveals: Option<Vec<Reveal>>,
    /// A puzzle solved with hints: how many were shown (such a solve enters no leaderboard;
    /// an addition: README).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<u32>,
}

/// Algol: one seat's secret man, revealed at the end so anyone can check its commitment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveal {
    /// Whose secret.
    pub seat: Seat,
    /// The secret man (piece token, `R5`).
    pub piece: String,
    /// The salt, in hex, hashed with the piece's number.
    pub salt: String,
    /// The commitment published when it was chosen.
    pub commitment: String,
}

//! Orbs' own fields in the shared messages (seed 003): the seats out of the game and the
//! standing draw offer in the snapshot, and the seats a `move` put out. Its draw offers are
//! an event of their own (`draw`).

use crate::fields;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// Orbs' part of a [`Snapshot`](crate::Snapshot).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrbsSnapshot {
    /// The seats out of the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out: Option<Vec<Seat>>,
    /// The standing draw offer (`null`: none). Absent in other systems.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::tristate"
    )]
    pub draw: Option<Option<DrawOffer>>,
}

/// The standing draw offer in a snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawOffer {
    /// Every seat agreeing so far, in turn order.
    pub agreed: Vec<Seat>,
}

/// Orbs' part of a `move` event.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrbsMove {
    /// The seats the move put out of the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out: Option<Vec<Seat>>,
}

//! Each game system's own fields in the shared messages, one file per system and one struct
//! per message it extends, `#[serde(flatten)]`ed into `Turn` and `Snapshot` (through
//! [`TurnParts`] and [`SnapshotParts`], so that code building a turn or a snapshot names no
//! system), `GameResult` and the `turn` and `move` events: the wire is as flat as before, and
//! a system's state is read and written in one place. A field sits here when only that
//! system sends it; what several systems send (`end`, `used`, `timeout`, `forced`) stays in
//! the shared message.

mod orbit;
mod orbs;
mod orion;

pub use orbit::{OrbitMove, OrbitResult, OrbitSnapshot, OrbitTurn};
pub use orbs::{DrawOffer, OrbsMove, OrbsSnapshot};
pub use orion::{OrionResult, OrionSnapshot, OrionTurn, Reveal};

use serde::{Deserialize, Serialize};

/// Every system's own part of a [`Turn`](crate::Turn) and of the `turn` event (where a
/// puzzle's target is never sent), each flattened: the turn's own fields on the wire.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnParts {
    /// ORION's: a puzzle's target.
    #[serde(flatten)]
    pub orion: OrionTurn,
    /// Orbit's: the phase, the colour to drop and where it may not go.
    #[serde(flatten)]
    pub orbit: OrbitTurn,
}

/// Every system's own part of a [`Snapshot`](crate::Snapshot), each flattened.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotParts {
    /// ORION's: Algol's secret man, the recipient's own.
    #[serde(flatten)]
    pub orion: OrionSnapshot,
    /// Orbit's: each colour's prohibited cells and territory.
    #[serde(flatten)]
    pub orbit: OrbitSnapshot,
    /// Orbs': the seats out, the standing draw offer.
    #[serde(flatten)]
    pub orbs: OrbsSnapshot,
}

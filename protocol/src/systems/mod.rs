//! Each game system's own fields in the shared messages, one file per system and one struct
//! per message it extends, `#[serde(flatten)]`ed into `Turn`, `Snapshot`, `GameResult` and
//! the `turn` and `move` events: the wire is as flat as before, and a system's state is read
//! and written in one place. A field sits here when only that system sends it; what several
//! systems send (`end`, `used`, `timeout`, `forced`) stays in the shared message.

mod orbit;
mod orbs;
mod orion;

pub use orbit::{OrbitMove, OrbitResult, OrbitSnapshot, OrbitTurn};
pub use orbs::{DrawOffer, OrbsMove, OrbsSnapshot};
pub use orion::{OrionResult, OrionSnapshot, OrionTurn, Reveal};

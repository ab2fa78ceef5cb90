//! The game systems this server offers, each behind the seam of `system.rs`. Only the files
//! here name a game engine.

mod orion;

use crate::system::GameSystem;
use std::sync::Arc;

pub use orion::Orion;

/// Every game system, in the order the lobby lists their games.
pub fn all() -> Vec<Arc<dyn GameSystem>> {
    vec![Arc::new(Orion::new())]
}

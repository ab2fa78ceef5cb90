//! Who is playing: a connection's identity once it has said hello, and the ids players and
//! rooms are known by.

use std::sync::Arc;

/// A room id.
pub type RoomId = Arc<str>;
/// A player's public id.
pub type PlayerId = Arc<str>;

/// Who a connection speaks for, once it has said hello.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Stable public id (the token stays secret).
    pub id: PlayerId,
    /// Display name.
    pub name: Arc<str>,
}

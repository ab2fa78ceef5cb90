//! ORION on the wire, as the client has it: turning the protocol's seats into the engine's
//! and back, and an engine event into the event the server would send (the bots' tests play
//! against the engine as if over the wire). The mapping itself is the protocol crate's
//! (`orion_protocol::engine`), the same the server's ORION system sends with.

use orion_engine::Event;
use orion_protocol as wire;

pub use orion_protocol::engine::{engine_seat as seat, wire_seat};

/// An engine event as the server sends it (PROTOCOL.md, "Events").
pub fn event(e: &Event) -> wire::Event<'static> {
    wire::engine::event(e).into_owned()
}

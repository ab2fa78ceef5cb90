//! The wire protocol of Orion Online (PROTOCOL.md version 1 and the README's additions):
//! every request, server message, event and error code as typed Rust, serde both ways. The
//! server, the terminal client, the load generator and the tests all speak through it, so a
//! field is named in one place.
//!
//! Reading is strict: a missing or ill-typed field is an error naming the field, never a
//! silent default; fields the spec marks optional are `Option`s, and a field that is always
//! sent but may be `null` must be present. Extra fields are ignored (a server may add some).

mod code;
#[cfg(feature = "engine")]
pub mod engine;
mod event;
mod fields;
mod message;
mod moderation;
mod notice;
mod parse;
mod record;
mod request;
mod room;
mod seat;
mod standing;
mod systems;
mod view;

pub use code::Code;
pub use event::{Event, OverReason, Seed, Text, WinningChain};
pub use message::{ArchivedGame, Logged, Message, MyGame, PlanRefused, Reply, Waiting};
pub use moderation::{AuditEntry, BlockedPlayer, ReportEntry};
pub use notice::{NoticeKind, NotifySettings, PushKeys, PushSubscription};
pub use parse::{from_value, parse_reply, parse_request, peek_id, ParseError, RequestError};
pub use record::{describe_result, GameRecord, RecordError, RecordItem, RecordTurn, RECORD_TITLE};
pub use request::{Envelope, Request, RequestId, VERSION};
pub use room::{
    Claim, ClaimWindow, GameResult, Millis, RoomOptions, RoomSummary, Scores, SeatView, Snapshot,
    Status, Turn,
};
pub use seat::{Seat, Winner};
pub use standing::{LeaderEntry, RatingChange};
pub use systems::{DrawOffer, OrbsMove, OrbsSnapshot};
pub use systems::{OrbitMove, OrbitResult, OrbitSnapshot, OrbitTurn};
pub use systems::{OrionResult, OrionSnapshot, OrionTurn, Reveal};
pub use systems::{SnapshotParts, TurnParts};
pub use view::{ChatLine, Gap, LastClick, RoomView, Sitter, CHAT_TAIL};

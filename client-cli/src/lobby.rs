//! `orion lobby`: connect, ask for the room list once, print it as a table and exit.

use crate::net::{self, NetEvent, TokenStore};
use orion_protocol::{Message, Request, RoomSummary};
use std::time::Duration;

/// How long to wait for the list.
const WAIT: Duration = Duration::from_secs(10);

/// The room list as printed: a header and one line per room.
pub fn table(rooms: &[RoomSummary]) -> String {
    let mut out = format!(
        "{:<12} {:<16} {:<9} {:<6} {:<9} players",
        "room", "game", "status", "seats", "watching"
    );
    if rooms.is_empty() {
        out.push_str("\n(no open rooms)");
    }
    for r in rooms {
        out.push_str(&format!(
            "\n{:<12} {:<16} {:<9} {:<6} {:<9} {}",
            r.room,
            r.game,
            r.status.as_str(),
            format!("{}/{}", taken(r), r.seats.len()),
            r.spectators,
            seat_list(r)
        ));
    }
    out
}

/// Seats taken in a listed room.
pub fn taken(room: &RoomSummary) -> usize {
    room.seats.values().filter(|n| n.is_some()).count()
}

/// A listed room's seats as one line: `S:ann W:-`.
pub fn seat_list(room: &RoomSummary) -> String {
    let names: Vec<String> = room
        .seats
        .iter()
        .map(|(s, n)| format!("{s}:{}", n.as_deref().unwrap_or("-")))
        .collect();
    names.join(" ")
}

/// Fetches the room list of `server`.
pub async fn fetch(server: &str, name: &str) -> Result<Vec<RoomSummary>, String> {
    let mut client = net::connect(server, name, TokenStore::Memory).await?;
    client
        .send(Request::Lobby {
            watch: Some(false),
            after: None,
        })
        .await;
    let wait = async {
        while let Some(ev) = client.recv().await {
            match ev {
                NetEvent::Message(Message::Lobby { rooms, .. }) => return Ok(rooms),
                NetEvent::Message(Message::Error { message, .. }) => return Err(message),
                NetEvent::Gone(why) | NetEvent::Dropped(why) => return Err(why),
                _ => {}
            }
        }
        Err("the connection closed".to_string())
    };
    tokio::time::timeout(WAIT, wait)
        .await
        .map_err(|_| format!("{server} sent no room list within {} s", WAIT.as_secs()))?
}

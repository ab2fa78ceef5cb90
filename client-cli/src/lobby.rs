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

/// A listed room's seats as one line, with each account's rating: `S:ann(1532) W:-`.
pub fn seat_list(room: &RoomSummary) -> String {
    let names: Vec<String> = room
        .seats
        .iter()
        .map(|(s, n)| {
            let rating = room
                .ratings
                .get(s)
                .map(|r| format!("({r})"))
                .unwrap_or_default();
            format!("{s}:{}{rating}", n.as_deref().unwrap_or("-"))
        })
        .collect();
    names.join(" ")
}

/// A seat's rating as shown after its sitter's name: ` (1532)`, ` (1532 +14)` once a rated
/// game has moved it; nothing for a guest.
pub fn rating_text(rating: Option<(i32, Option<i32>)>) -> String {
    match rating {
        None => String::new(),
        Some((r, None)) => format!(" ({r})"),
        Some((r, Some(d))) => format!(" ({r} {d:+})"),
    }
}

/// A leaderboard as lines: a title, one line per place, the asker's own place, and what
/// to type for the next page.
pub fn board_lines(message: &Message<'_>) -> Vec<String> {
    let Message::Leaderboard {
        game,
        entries,
        more,
        total,
        you,
        target,
        optimum,
    } = message
    else {
        return Vec::new();
    };
    let mut out = vec![format!("top {game} · {total} in all")];
    let figure = |f: &Option<Option<u32>>| match f {
        Some(Some(n)) => n.to_string(),
        _ => "-".to_string(),
    };
    if target.is_some() || optimum.is_some() {
        out.push(format!(
            "booklet {} · optimum {} (clicks)",
            figure(target),
            figure(optimum)
        ));
    }
    // Narrow enough for the lobby's side panel: `  1 ann        1532 ×3` (×: games played),
    // a puzzle's `  1 eagle     24 2027-01-15` (clicks, the day first reached).
    let line = |e: &orion_protocol::LeaderEntry| match (e.rating, e.clicks) {
        (Some(r), _) => format!(
            "{:>3} {:<10} {r:>5} ×{}",
            e.rank,
            e.name,
            e.games.unwrap_or(0)
        ),
        (None, Some(c)) => format!(
            "{:>3} {:<10} {c:>3} {}",
            e.rank,
            e.name,
            e.at.map(crate::dates::day).unwrap_or_default()
        ),
        (None, None) => format!("{:>3} {}", e.rank, e.name),
    };
    if entries.is_empty() {
        out.push("(nobody yet)".to_string());
    }
    out.extend(entries.iter().map(line));
    if let Some(me) = you {
        out.push(format!("you: {}", line(me).trim_start()));
    }
    if *more {
        let last = entries.last().map_or(0, |e| e.rank);
        out.push(format!("more: top {game} {last}"));
    }
    out
}

/// One line of `mine`: the room, the game, who plays, and whose turn until when.
pub fn my_game_line(g: &orion_protocol::MyGame) -> String {
    let seats: Vec<String> = (g.seats.iter())
        .map(|(s, n)| format!("{s} {}", n.as_deref().unwrap_or("(free)")))
        .collect();
    let turn = match (g.status, g.your_turn) {
        (orion_protocol::Status::Waiting, _) => "waiting for players".to_string(),
        (_, true) => "your turn".to_string(),
        (_, false) => "their turn".to_string(),
    };
    let until = g.deadline.map_or(String::new(), |at| {
        format!(" until {}", crate::dates::minute(at))
    });
    let pace = g
        .days_per_move
        .map_or(String::new(), |d| format!(" · {d} days a move"));
    format!(
        "{} {} · {} · {turn}{until}{pace}",
        g.room,
        g.game,
        seats.join(", ")
    )
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

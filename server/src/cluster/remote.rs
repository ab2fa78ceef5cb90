//! A room owned by another node, as this node's sessions see it: a [`RoomHandle`] whose
//! commands a proxy task forwards, in order, to the owner over the bus. When the owner does
//! not answer (it died, or let the room go) the proxy asks the directory again and follows
//! the room to its new owner, this node included; while no node has it yet, the command is
//! refused with a `server` error saying to try again, never left hanging. A room landing on
//! its new owner (`transit`) is waited for, a little while.

use super::bus::cmd_subject;
use super::transit::IN_TRANSIT;
use super::wire::{Answer, Command, Forward};
use super::Node;
use crate::player::RoomId;
use crate::protocol::{Code, Refusal};
use crate::room::{RoomCmd, RoomHandle, ROOM_QUEUE};
use std::sync::Arc;
use tokio::sync::mpsc;

/// How soon a command is sent again to an owner landing the room it was sent for.
const LANDING_RETRY: std::time::Duration = std::time::Duration::from_millis(20);

/// Where a room is.
pub enum Located {
    /// On this node.
    Here(RoomHandle),
    /// On another node.
    There(String),
    /// Nowhere live (ended, or between owners).
    Nowhere,
}

/// Starts a proxy for `room`, owned by `owner`.
pub fn spawn(node: Arc<Node>, room: RoomId, code: Option<Arc<str>>, owner: String) -> RoomHandle {
    let (tx, rx) = mpsc::channel(ROOM_QUEUE);
    tokio::spawn(run(node, room.clone(), owner, rx));
    RoomHandle { id: room, code, tx }
}

async fn run(node: Arc<Node>, room: RoomId, mut owner: String, mut rx: mpsc::Receiver<RoomCmd>) {
    while let Some(cmd) = rx.recv().await {
        forward(&node, &room, &mut owner, cmd).await;
    }
}

/// Sends one command to the room's owner and settles it: the owner's answer, the room's
/// new place, or a refusal.
async fn forward(node: &Node, room: &RoomId, owner: &mut String, cmd: RoomCmd) {
    let (command, conn) = Command::of(&cmd);
    if let Some(outbox) = outbox_of(&cmd) {
        node.members.register(outbox);
        if let RoomCmd::Resume { since, .. } = &cmd {
            // What the client says it has seen is the truth now (while this node ran the
            // room, its frames went to the connection without passing here).
            node.members.resumed(outbox.id, room, *since);
        }
    }
    let fwd = Forward {
        room: room.to_string(),
        node: node.name.to_string(),
        conn,
        cmd: command,
    };
    let Ok(payload) = serde_json::to_vec(&fwd) else {
        return;
    };
    let mut gone = false;
    let mut owners = 0;
    let landing_by = std::time::Instant::now() + IN_TRANSIT;
    loop {
        let began = std::time::Instant::now();
        let sent = node
            .bus
            .client
            .request(cmd_subject(owner), payload.clone().into())
            .await;
        node.metrics
            .bus_request
            .observe(began.elapsed().as_secs_f64());
        match sent.map(|m| serde_json::from_slice::<Answer>(&m.payload)) {
            Ok(Ok(Answer::Queued)) => return,
            Ok(Ok(Answer::Described(line))) => {
                if let RoomCmd::Describe { done, .. } = cmd {
                    let _ = done.send(line);
                }
                return;
            }
            Ok(Ok(Answer::Entered(entered))) => {
                settle(cmd, entered);
                return;
            }
            Ok(Ok(Answer::NoRoom)) => gone = true,
            Ok(Err(e)) => tracing::warn!(%room, "unreadable answer: {e}"),
            Err(e) => {
                gone = false;
                tracing::debug!(%room, %owner, "forwarding failed: {e}");
            }
        }
        match node.locate(room).await {
            Located::Here(handle) => {
                let _ = handle.tx.send(cmd).await;
                return;
            }
            Located::There(other) if other != *owner && owners < 3 => {
                owners += 1;
                *owner = other;
            }
            Located::Nowhere if gone => {
                let refusal = Refusal::new(Code::NotFound, format!("room {room} has closed"));
                refuse(cmd, refusal);
                return;
            }
            // Its owner answered that it does not run it, and its lease says it does: it is
            // landing there (its handoff not heard yet, or its restore not done).
            Located::There(same)
                if gone && same == *owner && std::time::Instant::now() < landing_by =>
            {
                tokio::time::sleep(LANDING_RETRY).await;
            }
            _ => break,
        }
    }
    let refusal = Refusal::new(
        Code::Server,
        format!(
            "room {room}'s server is not answering (if it stopped, another takes the room over \
             within seconds): try again shortly"
        ),
    );
    refuse(cmd, refusal);
}

fn outbox_of(cmd: &RoomCmd) -> Option<&crate::outbox::Outbox> {
    match cmd {
        RoomCmd::Join { outbox, .. }
        | RoomCmd::Spectate { outbox, .. }
        | RoomCmd::Leave { outbox, .. }
        | RoomCmd::Ready { outbox, .. }
        | RoomCmd::Act { outbox, .. }
        | RoomCmd::Chat { outbox, .. }
        | RoomCmd::Rematch { outbox, .. }
        | RoomCmd::Resume { outbox, .. } => Some(outbox),
        RoomCmd::Detach { .. }
        | RoomCmd::Describe { .. }
        | RoomCmd::Lost
        | RoomCmd::Close
        | RoomCmd::FillBots { .. }
        | RoomCmd::SeatBots { .. } => None,
    }
}

/// Tells the session whether its connection is now a member.
fn settle(cmd: RoomCmd, entered: bool) {
    match cmd {
        RoomCmd::Join { done, .. }
        | RoomCmd::Spectate { done, .. }
        | RoomCmd::Resume { done, .. } => {
            let _ = done.send(entered);
        }
        _ => {}
    }
}

/// Refuses a command no node could take.
fn refuse(cmd: RoomCmd, refusal: Refusal) {
    cmd.refuse(&refusal);
}

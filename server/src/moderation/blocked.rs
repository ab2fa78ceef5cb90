//! The players a connection's account blocks, by the player id chat lines carry: its outbox
//! drops their `chat` events (from every room, whichever node runs it). Shared between the
//! session (which loads and changes it) and the outbox (which reads it for every frame, so
//! the common case, nobody blocked, is one atomic load).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;

/// One connection's blocked players.
#[derive(Debug, Default)]
pub struct Blocked {
    /// Whether anyone is blocked (the fast path for every frame).
    any: AtomicBool,
    /// Their player ids.
    ids: RwLock<HashSet<String>>,
}

impl Blocked {
    /// Blocks exactly the players `ids` from now on.
    pub fn set<'a>(&self, ids: impl IntoIterator<Item = &'a str>) {
        let ids: HashSet<String> = ids.into_iter().map(str::to_owned).collect();
        self.any.store(!ids.is_empty(), Ordering::Relaxed);
        if let Ok(mut k) = self.ids.write() {
            *k = ids;
        }
    }

    /// Whether `frame` is a chat event from a blocked player.
    pub fn hides(&self, frame: &str) -> bool {
        if !self.any.load(Ordering::Relaxed) || !frame.starts_with("{\"t\":\"event\"") {
            return false;
        }
        if !frame.contains("\"kind\":\"chat\"") {
            return false;
        }
        /// The part of a chat event that says who spoke.
        #[derive(serde::Deserialize)]
        struct Ev {
            ev: Speaker,
        }
        #[derive(serde::Deserialize)]
        struct Speaker {
            kind: String,
            #[serde(default)]
            player: String,
        }
        let Ok(Ev { ev }) = serde_json::from_str::<Ev>(frame) else {
            return false;
        };
        ev.kind == "chat" && self.ids.read().is_ok_and(|k| k.contains(&ev.player))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_chat_from_a_blocked_player_is_hidden() {
        let blocked = Blocked::default();
        let chat = |id: &str| {
            format!(
                r#"{{"t":"event","room":"r1","seq":4,"ev":{{"kind":"chat","seat":null,"name":"Troll","text":"hi","player":"{id}"}}}}"#
            )
        };
        assert!(!blocked.hides(&chat("p0000000a")));
        blocked.set(["p0000000a"]);
        assert!(blocked.hides(&chat("p0000000a")));
        assert!(!blocked.hides(&chat("p0000000b")), "another Troll speaks");
        let click = r#"{"t":"event","room":"r1","seq":5,"ev":{"kind":"click","seat":"R","player":"p0000000a"}}"#;
        assert!(!blocked.hides(click));
        blocked.set([]);
        assert!(!blocked.hides(&chat("p0000000a")));
    }
}

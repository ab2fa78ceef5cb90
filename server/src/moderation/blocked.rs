//! The players a connection's account blocks, by name as chat lines carry it: its outbox
//! drops their `chat` events (from every room, whichever node runs it). Shared between the
//! session (which loads and changes it) and the outbox (which reads it for every frame, so
//! the common case, nobody blocked, is one atomic load).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;

/// One connection's blocked names.
#[derive(Debug, Default)]
pub struct Blocked {
    /// Whether any name is blocked (the fast path for every frame).
    any: AtomicBool,
    /// The names' caseless keys (`text::name_key`).
    keys: RwLock<HashSet<String>>,
}

impl Blocked {
    /// Blocks exactly `names` from now on.
    pub fn set<'a>(&self, names: impl IntoIterator<Item = &'a str>) {
        let keys: HashSet<String> = names.into_iter().map(crate::text::name_key).collect();
        self.any.store(!keys.is_empty(), Ordering::Relaxed);
        if let Ok(mut k) = self.keys.write() {
            *k = keys;
        }
    }

    /// Whether `frame` is a chat event from a blocked name.
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
            name: String,
        }
        let Ok(Ev { ev }) = serde_json::from_str::<Ev>(frame) else {
            return false;
        };
        let key = crate::text::name_key(&ev.name);
        ev.kind == "chat" && self.keys.read().is_ok_and(|k| k.contains(&key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_chat_from_a_blocked_name_is_hidden() {
        let blocked = Blocked::default();
        let chat = |name: &str| {
            format!(
                r#"{{"t":"event","room":"r1","seq":4,"ev":{{"kind":"chat","seat":null,"name":"{name}","text":"hi"}}}}"#
            )
        };
        assert!(!blocked.hides(&chat("Troll")));
        blocked.set(["troll"]);
        assert!(blocked.hides(&chat("Troll")));
        assert!(!blocked.hides(&chat("Ann")));
        let click = r#"{"t":"event","room":"r1","seq":5,"ev":{"kind":"click","seat":"R","name":"Troll"}}"#;
        assert!(!blocked.hides(click));
        blocked.set([]);
        assert!(!blocked.hides(&chat("Troll")));
    }
}

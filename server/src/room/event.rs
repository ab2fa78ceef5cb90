//! The room's own events (the game's come from its system): who joined and left, the start,
//! chat and the end. Typed, so what is stored is what is read back on restore; on the wire
//! they are `ev` objects with their `kind`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An event the room makes itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RoomEvent {
    /// A player took a seat.
    Joined {
        /// The seat.
        seat: String,
        /// His public id.
        player: String,
        /// His name.
        name: String,
    },
    /// A seat was given up (left, or its hold ran out).
    Left {
        /// The seat.
        seat: String,
    },
    /// The game began.
    Start {
        /// The position string.
        position: Value,
        /// Whose turn, and its allowance.
        turn: Value,
        /// Hex SHA-256 of the room's seed and salt (rooms stored before it have none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed_commitment: Option<String>,
    },
    /// A chat line.
    Chat {
        /// The speaker's seat; `None` for a spectator.
        seat: Option<String>,
        /// The speaker's name.
        name: String,
        /// What he said.
        text: String,
    },
    /// The game ended.
    Over {
        /// `{winner, scores, …}`.
        result: Value,
        /// Why, when the room decided it: `time` or `abandoned`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        /// The seat that ran out of time.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<String>,
        /// The room's seed, revealed (a decimal string: it does not fit a JSON number).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<String>,
        /// The salt of the seed's commitment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        salt: Option<String>,
    },
}

impl RoomEvent {
    /// The `ev` object, serialized.
    pub fn text(&self) -> String {
        // Strings and values only: this cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a stored event back, if it is one of the room's own.
    pub fn read(text: &str) -> Option<RoomEvent> {
        serde_json::from_str(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn room_events_keep_their_wire_fields_and_read_back() {
        let cases = [
            (
                RoomEvent::Joined {
                    seat: "S".into(),
                    player: "p1".into(),
                    name: "ann".into(),
                },
                json!({"kind": "joined", "seat": "S", "player": "p1", "name": "ann"}),
            ),
            (
                RoomEvent::Chat {
                    seat: None,
                    name: "w".into(),
                    text: "gg".into(),
                },
                json!({"kind": "chat", "seat": null, "name": "w", "text": "gg"}),
            ),
            (
                RoomEvent::Over {
                    result: json!({"winner": null, "scores": {}}),
                    reason: Some("abandoned".into()),
                    seat: None,
                    seed: Some("12".into()),
                    salt: Some("00ff".into()),
                },
                json!({"kind": "over", "result": {"winner": null, "scores": {}},
                       "reason": "abandoned", "seed": "12", "salt": "00ff"}),
            ),
        ];
        for (event, wire) in cases {
            let text = event.text();
            assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), wire);
            assert_eq!(RoomEvent::read(&text), Some(event));
        }
        // A game system's event is not the room's.
        assert_eq!(RoomEvent::read(r#"{"kind":"click","seat":"S"}"#), None);
    }
}

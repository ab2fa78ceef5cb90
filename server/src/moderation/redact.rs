//! Deleted chat lines (`delete_chat`, a stored redaction): the events a client is shown again
//! (`history`, a `resume` replay) carry such a line with its text emptied and `deleted` set,
//! so the line is gone for good while every `seq` stays in place.

use orion_protocol::{Event, Logged};

/// `logged` with its chat line emptied and marked deleted if its `seq` is in `deleted`.
pub fn redact_logged(logged: &mut Logged<'_>, deleted: &[u64]) {
    if !deleted.contains(&logged.seq) {
        return;
    }
    if let Event::Chat { text, deleted, .. } = &mut logged.ev {
        *text = "".into();
        *deleted = true;
    }
}

/// A stored event's JSON `ev` with its chat line emptied and marked deleted (any other event
/// comes back as it was).
pub fn redact_frame_text(ev: &str) -> String {
    match serde_json::from_str::<Event<'_>>(ev) {
        Ok(Event::Chat {
            seat, name, player, ..
        }) => Event::Chat {
            seat,
            name,
            text: "".into(),
            deleted: true,
            player,
        }
        .to_json(),
        _ => ev.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deleted_line_keeps_its_speaker_and_loses_its_text() {
        let ev = r#"{"kind":"chat","seat":null,"name":"Troll","text":"rude"}"#;
        let out: serde_json::Value = serde_json::from_str(&redact_frame_text(ev)).unwrap();
        assert_eq!(out["text"], "");
        assert_eq!(out["deleted"], true);
        assert_eq!(out["name"], "Troll");
        let click = r#"{"kind":"ready","seat":"R"}"#;
        assert_eq!(redact_frame_text(click), click);
    }
}

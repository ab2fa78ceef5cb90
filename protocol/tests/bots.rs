//! The computer players' wire: `add_bot`, `remove_bot`, `quick` with `bots`, and the `bot`
//! level that seats, `joined` events and lobby lines carry.

use orion_protocol::{parse_reply, parse_request, Code, Event, Message, Request, Seat};

#[test]
fn add_bot_and_remove_bot_read_with_their_optional_fields() {
    let r = parse_request(r#"{"t":"add_bot","id":1,"room":"r1","level":8,"seat":"N"}"#).unwrap();
    assert_eq!(
        r.request,
        Request::AddBot {
            room: "r1".into(),
            level: Some(8),
            seat: Some(Seat::N)
        }
    );
    assert_eq!(r.request.room(), Some("r1"));
    assert_eq!(r.request.kind(), "add_bot");
    let r = parse_request(r#"{"t":"add_bot","room":"r1"}"#).unwrap();
    assert_eq!(
        r.request,
        Request::AddBot {
            room: "r1".into(),
            level: None,
            seat: None
        }
    );
    let r = parse_request(r#"{"t":"remove_bot","room":"r1","seat":"E"}"#).unwrap();
    assert_eq!(
        r.request,
        Request::RemoveBot {
            room: "r1".into(),
            seat: Seat::E
        }
    );
    let r = parse_request(r#"{"t":"quick","game":"hydra-2","bots":true}"#).unwrap();
    assert!(matches!(
        r.request,
        Request::Quick {
            bots: Some(true),
            ..
        }
    ));
}

#[test]
fn a_malformed_add_bot_names_its_field() {
    let e = parse_request(r#"{"t":"add_bot","room":"r1","level":"hard"}"#).unwrap_err();
    assert_eq!(e.code, Code::BadRequest);
    assert!(e.message.contains("`level`"), "{}", e.message);
    let e = parse_request(r#"{"t":"add_bot","room":"r1","level":300}"#).unwrap_err();
    assert!(e.message.contains("`level`"), "{}", e.message);
    let e = parse_request(r#"{"t":"remove_bot","room":"r1"}"#).unwrap_err();
    assert!(e.message.contains("`seat`"), "{}", e.message);
}

#[test]
fn a_computer_player_is_marked_with_its_level() {
    let m = parse_reply(
        r#"{"t":"event","room":"r","seq":2,"ev":{"kind":"joined","seat":"N","player":"bot:4","name":"Computer 4","rating":1500,"bot":4}}"#,
    )
    .unwrap();
    let Message::Event { ev, .. } = m.message else {
        panic!("an event");
    };
    assert!(matches!(ev, Event::Joined { bot: Some(4), .. }));
    let m = parse_reply(r#"{"t":"bot_added","re":3,"room":"r","seat":"N","level":4}"#).unwrap();
    assert_eq!(
        m.message,
        Message::BotAdded {
            room: "r".into(),
            seat: Seat::N,
            level: 4
        }
    );
    // A person's `joined` is written as before: no `bot` field.
    let person = Event::Joined {
        seat: Seat::S,
        player: "p1".into(),
        name: "ann".into(),
        rating: None,
        bot: None,
    };
    assert!(!person.to_json().contains("bot"));
}

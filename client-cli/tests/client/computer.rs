//! `play --computer LEVEL GAME` and `bot LEVEL`: the terminal client asks for a room, then
//! seats computer players of the level in every other seat and says ready; `bot` seats one in
//! the room on screen.

use orion_cli::net::NetEvent;
use orion_cli::tui::app::App;
use orion_protocol::{parse_reply, Message, Request, Seat};

/// The snapshot of a waiting Hydra for Partners with `ann` at `S` and the rest free.
fn partners_snapshot(room: &str) -> Message<'static> {
    let text = format!(
        r#"{{"t":"snapshot","room":"{room}","seq":1,"game":"hydra-partners","options":{{}},"status":"waiting","seats":{{"S":{{"player":"p1","name":"ann","colour":"R","connected":true}},"W":null,"N":null,"E":null}},"spectators":0,"position":"","turn":{{"seat":"S","clicks":3,"used":0,"round":1}},"scores":{{}},"claims":[]}}"#
    );
    parse_reply(&text).expect("a snapshot").message
}

#[test]
fn play_computer_opens_a_room_and_fills_its_other_seats_with_bots() {
    let mut app = App::new("ann", 0);
    app.play_computer("hydra-partners", 6, None).unwrap();
    assert!(matches!(&app.out[..], [Request::Create { game, .. }] if game == "hydra-partners"));
    app.out.clear();
    app.on_net(NetEvent::Message(Message::Joined {
        room: "r1".into(),
        seat: Seat::S,
        code: None,
    }));
    assert!(app.out.is_empty(), "{:?}", app.out);
    app.on_net(NetEvent::Message(partners_snapshot("r1")));
    let bots = app
        .out
        .iter()
        .filter(|r| matches!(r, Request::AddBot { room, level: Some(6), .. } if room == "r1"))
        .count();
    assert_eq!(bots, 3, "{:?}", app.out);
    assert!(matches!(app.out.last(), Some(Request::Ready { room }) if room == "r1"));
    // The next room joined is an ordinary one: no more bots.
    app.out.clear();
    app.on_net(NetEvent::Message(Message::Joined {
        room: "r2".into(),
        seat: Seat::N,
        code: None,
    }));
    app.on_net(NetEvent::Message(partners_snapshot("r2")));
    assert!(!app.out.iter().any(|r| matches!(r, Request::AddBot { .. })));
}

#[test]
fn play_computer_refuses_a_level_out_of_range_a_puzzle_and_an_unknown_game() {
    let mut app = App::new("ann", 0);
    assert!(app
        .play_computer("hydra-2", 9, None)
        .unwrap_err()
        .contains("1 to 8"));
    assert!(app.play_computer("nogame", 3, None).is_err());
    assert!(app
        .play_computer("aquila", 3, None)
        .unwrap_err()
        .contains("puzzle"));
    assert!(app.out.is_empty());
}

#[test]
fn play_computer_sits_the_player_at_the_seat_asked_for_by_number_or_name() {
    let mut app = App::new("ann", 0);
    app.play_computer("hydra-2", 4, Some("2")).unwrap();
    assert!(
        matches!(&app.out[..], [Request::Create { game, seat: Some(Seat::N), .. }] if game == "hydra-2"),
        "{:?}",
        app.out
    );
    app.out.clear();
    // Hydra for Partners: S, W, N, E in turn order; a name in any case.
    app.play_computer("hydra-partners", 4, Some("3")).unwrap();
    app.play_computer("hydra-partners", 4, Some("e")).unwrap();
    app.play_computer("orbs", 4, Some("1")).unwrap();
    let seats: Vec<_> = (app.out.iter())
        .map(|r| match r {
            Request::Create { seat, .. } => *seat,
            _ => None,
        })
        .collect();
    assert_eq!(seats, [Some(Seat::N), Some(Seat::E), Some(Seat::S)]);
    app.out.clear();
    // A seat the game does not have is refused here, with the seats it has.
    let e = app.play_computer("hydra-2", 4, Some("3")).unwrap_err();
    assert!(e.contains("1 S, 2 N"), "{e}");
    let e = app.play_computer("orbit", 4, Some("W")).unwrap_err();
    assert!(e.contains("no seat `W`"), "{e}");
    assert!(app.out.is_empty());
}

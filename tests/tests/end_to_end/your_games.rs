//! The front door's "Your games" (`mine`) in headless Chromium: a claimed player with a
//! correspondence game where it is his turn sees it listed first, with its deadline, and the
//! tab's title counts it; once he has moved, the count goes back to nought.

use crate::chromium;

use chromium::{js, open, press, text, type_into, wait_js, wait_text, Driver};
use orion_protocol::Request;
use orion_tests::{start_room, Client, TestServer};
use serde_json::json;

const PASSWORD: &str = "correct horse battery";

/// A connection logged in as the claimed `name`.
async fn logged_in(server: &TestServer, name: &str) -> Client {
    let mut c = Client::connect(&server.url()).await;
    let w = c
        .ask(Request::Login {
            name: name.into(),
            password: PASSWORD.into(),
            version: Some(orion_protocol::VERSION),
        })
        .await;
    assert_eq!(w["account"], true, "{w}");
    c.token = w["token"].as_str().unwrap_or_default().to_string();
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_correspondence_game_shows_on_the_front_door_his_turn_counted_in_the_title() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    // Pia claims her name on the page; Bob his over the protocol.
    open(&page, &base, "/", "pia").await;
    type_into(&page, "#claim-password", PASSWORD).await;
    press(&page, "#claim button[type=submit]").await;
    wait_js(&page, "window.__orion.account === true", "the claim").await;
    let mut bob = server.player("bob").await;
    let w = bob
        .request(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert_eq!(w["account"], true, "{w}");

    // Pia (on another device) opens a game by correspondence, two days a move, and Bob joins.
    let pia = logged_in(&server, "pia").await;
    let mut players = vec![pia, bob];
    let room = start_room(&mut players, "hydra-2", json!({"days_per_move": 2})).await;
    open(&page, &base, "/", "pia").await;
    wait_text(&page, "#your-games-title", "Your games (1 to play)").await;
    let line = text(&page, &format!("#yours li[data-room=\"{room}\"]")).await;
    assert!(line.contains("your turn, until"), "{line}");
    assert!(line.contains("2 days a move"), "{line}");
    assert!(line.contains("pia vs bob"), "{line}");
    assert_eq!(js(&page, "return document.title").await, "(1) Orion Online");

    // She moves (from the other device): Bob's turn; the front door says so when next asked.
    players[0]
        .play(&room, "click", json!({"click": "A2L"}))
        .await;
    open(&page, &base, "/", "pia").await;
    wait_text(&page, "#your-games-title", "Your games (0 to play)").await;
    let line = text(&page, &format!("#yours li[data-room=\"{room}\"]")).await;
    assert!(line.contains("their turn"), "{line}");
    assert_eq!(js(&page, "return document.title").await, "Orion Online");
    let errors = js(&page, "return window.__orion.jsErrors || []").await;
    assert_eq!(errors, json!([]), "no script errors");
}

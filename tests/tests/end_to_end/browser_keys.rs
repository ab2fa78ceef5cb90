//! Every choice of an ORION game by keyboard alone (headless Chromium, as `browser.rs`): the
//! pieces a player may choose (Algol's secret man here; a challenge and the piece a building
//! move takes use the same buttons) are buttons under the board that Tab reaches, and the
//! keys line says so.

use crate::chromium;

use chromium::{js, keys, open, tab_to, wait_js, wait_text, Driver, ENTER};
use orion_tests::TestServer;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn algols_secret_man_is_chosen_by_keyboard_alone() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut bob = server.player("bob").await;
    let made = bob
        .request(json!({"t": "create", "game": "algol", "options": {"players": 2}}))
        .await;
    assert_eq!(made["t"], "joined", "{made}");
    let room = made["room"].as_str().expect("room").to_string();
    bob.seat = made["seat"].as_str().unwrap_or_default().to_string();
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, &format!("/r/{room}"), "alice").await;
    wait_js(&page, "!!(window.__orion.room || {}).seat", "a seat").await;
    let alice = js(&page, "return window.__orion.room.seat").await;
    let alice = alice.as_str().expect("seat").to_string();
    // Ready by keys too.
    tab_to(&page, "#ready").await;
    keys(&page, ENTER).await;
    bob.send(json!({"t": "ready", "room": room})).await;
    bob.expect_event(&room, "start").await;
    wait_text(&page, ".keys", "a piece to choose (a secret man, a challenge, a piece to move) is a button under the board").await;

    // Her pieces to choose from are buttons; Tab reaches the first, Enter chooses it.
    wait_js(
        &page,
        "(() => { const c = document.getElementById('choices'); return c && !c.hidden && c.querySelectorAll('button').length > 0 })()",
        "the secret man's choices",
    )
    .await;
    let first = js(
        &page,
        "return document.querySelector('#choices button').dataset.choice",
    )
    .await;
    let first = first.as_str().expect("a piece").to_string();
    tab_to(&page, "#choices button").await;
    keys(&page, ENTER).await;
    let secret = bob
        .expect(|m| {
            m["t"] == "event" && m["ev"]["kind"] == "secret" && m["ev"]["seat"] == json!(alice)
        })
        .await;
    assert!(secret["ev"]["commitment"].is_string(), "{secret}");
    // Her page knows which man she chose; the choices are gone.
    wait_js(
        &page,
        &format!("window.__orion.room.s.secrets['{alice}'] !== undefined && document.getElementById('choices').hidden"),
        "the choice made",
    )
    .await;
    let snap = js(
        &page,
        "return Object.keys(window.__orion.room.s.secrets).length",
    )
    .await;
    assert_eq!(snap, 1, "{first}");
    let _ = page.close().await;
}

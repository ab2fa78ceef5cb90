//! The room as a newcomer meets it, in a real browser (headless Chromium driven by
//! `chromedriver`, as `browser.rs`): whose turn it is, in words and names; each seat's ready
//! mark as it is said; the watchers counted on every page; the move list; leaving a game in
//! progress asks first, resigns, and the other page is told it won and why; a spectator who
//! reloads a game in progress stays a spectator; in a correspondence room, a turn planned
//! click by click (the server's preview, nothing played) and then sent.

use crate::chromium;

use chromium::{js, open, press, text, wait_js, wait_text, Driver};
use fantoccini::Client as Browser;
use orion_tests::{Client, TestServer};
use serde_json::{json, Value};

/// A Hydra for Two waiting for its players, with `alice`'s page at N and `bob`'s at S: a
/// client makes it, `alice` opens its link, the client leaves, `bob` opens it.
async fn hydra_of_two_pages(
    server: &TestServer,
    base: &str,
    alice: &Browser,
    bob: &Browser,
) -> String {
    let mut host = server.player("host").await;
    let made = host
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    assert_eq!(made["seat"], "S", "{made}");
    let room = made["room"].as_str().expect("room").to_string();
    open(alice, base, &format!("/r/{room}"), "alice").await;
    wait_text(alice, "#seats [data-seat=N]", "alice").await;
    host.request(json!({"t": "leave", "room": room})).await;
    open(bob, base, &format!("/r/{room}"), "bob").await;
    wait_text(bob, "#seats [data-seat=S]", "bob").await;
    room
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_room_says_whose_turn_in_names_marks_ready_counts_watchers_and_lists_moves() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let alice = driver.browser(1280, 900).await;
    let bob = driver.browser(1280, 900).await;
    let room = hydra_of_two_pages(&server, &base, &alice, &bob).await;
    // Alice says ready: bob's page shows her mark before he says it himself.
    press(&alice, "#ready").await;
    wait_text(&bob, "#seats [data-seat=N]", "ready").await;
    assert!(
        !text(&bob, "#seats [data-seat=S]").await.contains("ready"),
        "bob is not ready yet"
    );
    wait_text(&bob, "#turn", "Press Ready").await;
    press(&bob, "#ready").await;
    // Bob (S) moves first: his page says so, hers names him.
    wait_text(&bob, "#turn", "Your turn").await;
    wait_text(&alice, "#turn", "Waiting for bob").await;
    // Someone watches: the players' pages count him too.
    let mut watcher = server.player("watcher").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["spectators"], 1, "{snap}");
    wait_text(&alice, "#spectators", "1 watching").await;
    wait_text(&bob, "#spectators", "1 watching").await;
    // Bob clicks: both pages list it in booklet notation, and hers announces it.
    press(&bob, "[data-click=\"A2L\"]").await;
    let click = watcher.expect_event(&room, "click").await;
    assert_eq!(click["ev"]["click"], "A2L", "{click}");
    wait_text(&alice, "#moves", "1. bob: A2L").await;
    wait_text(&bob, "#moves", "1. bob: A2L").await;
    wait_text(&alice, "#announce", "bob: A2L").await;
    // The opening's first move is one click: it is her turn now, and both pages say so.
    wait_text(&alice, "#turn", "Your turn").await;
    wait_text(&bob, "#turn", "Waiting for alice").await;
    // A page opened now lists the moves made before it came (from the stored history).
    let carol = driver.browser(1280, 900).await;
    open(&carol, &base, &format!("/r/{room}"), "carol").await;
    wait_text(&carol, "#moves", "1. bob: A2L").await;
    wait_text(&carol, "#turn", "alice (N) to move").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_a_game_in_progress_asks_first_then_the_other_page_is_told_it_won() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let alice = driver.browser(1280, 900).await;
    let bob = driver.browser(1280, 900).await;
    let room = hydra_of_two_pages(&server, &base, &alice, &bob).await;
    let mut watcher = server.player("watcher").await;
    watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    press(&alice, "#ready").await;
    press(&bob, "#ready").await;
    watcher.expect_event(&room, "start").await;
    // Leave asks first; "Stay" keeps the game going.
    press(&alice, "#leave").await;
    wait_text(&alice, "#leave-box", "resigns the game: bob wins").await;
    press(&alice, "#leave-cancel").await;
    wait_js(
        &alice,
        "document.getElementById('leave-box').hidden",
        "the question gone",
    )
    .await;
    assert_eq!(text(&alice, "#status").await, "playing");
    // Asked again and confirmed: she resigns, and bob's page says he won and why.
    press(&alice, "#leave").await;
    press(&alice, "#leave-confirm").await;
    let over = watcher.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["reason"], "left", "{over}");
    assert_eq!(over["ev"]["result"]["winner"], "S", "{over}");
    wait_text(&bob, "#result", "You win").await;
    wait_text(&bob, "#result", "alice left the game").await;
    wait_text(&bob, "#announce", "Game over").await;
    let result = text(&bob, "#result").await;
    assert!(
        !result.contains("S 0"),
        "no scores in a game without: {result}"
    );
    wait_js(
        &alice,
        "location.pathname === '/'",
        "alice back at the lobby",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_who_reloads_a_game_in_progress_stays_a_spectator() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let mut players = vec![server.player("sam").await, server.player("nina").await];
    let room = orion_tests::start_room(&mut players, "hydra-2", json!({})).await;
    let carol = driver.browser(1280, 900).await;
    open(&carol, &base, &format!("/r/{room}"), "carol").await;
    wait_js(
        &carol,
        "document.getElementById('status').textContent === 'playing'",
        "the game in progress",
    )
    .await;
    wait_text(&carol, "#spectators", "1 watching").await;
    // Nina walks away from the game; carol's page reloads.
    let nina: &mut Client = &mut players[1];
    nina.request(json!({"t": "leave", "room": room})).await;
    wait_text(&carol, "#result", "nina left the game").await;
    carol.refresh().await.expect("reload");
    wait_js(
        &carol,
        "document.getElementById('conn') && document.getElementById('conn').className === 'up'",
        "online",
    )
    .await;
    wait_text(&carol, "#seats", "sam").await;
    // She still watches: no seat, no Leave button of a player, nobody is "(you)".
    let seat = js(&carol, "return window.__orion.room.seat").await;
    assert_eq!(seat, Value::Null, "carol was seated");
    let seats = text(&carol, "#seats").await;
    assert!(!seats.contains("carol"), "carol sits: {seats}");
    let mut dan = server.player("dan").await;
    let snap = dan.request(json!({"t": "spectate", "room": room})).await;
    assert!(
        (snap["seats"].as_object().into_iter().flatten())
            .all(|(_, s)| s.is_null() || s["name"] != "carol"),
        "{snap}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_turn_is_planned_click_by_click_then_sent() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut players = Vec::new();
    for name in ["alice", "bob"] {
        let mut c = server.player(name).await;
        c.claim("correct horse battery").await;
        players.push(c);
    }
    let room = orion_tests::start_room(&mut players, "hydra-2", json!({"days_per_move": 2})).await;
    let (s, n) = if players[0].seat == "S" {
        (0, 1)
    } else {
        (1, 0)
    };
    let south_name = if s == 0 { "alice" } else { "bob" };
    // South's one-click opening, North passes: South's second move is two clicks.
    players[s]
        .play(&room, "click", json!({"click": "A2L"}))
        .await;
    players[n].play(&room, "end_turn", json!({})).await;
    let mut watcher = server.player("watcher").await;
    let before = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;

    // South's page, his account's (its token, as a device he logged in on keeps it).
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    page.goto(&format!("{base}/?name={south_name}"))
        .await
        .expect("page loads");
    js(
        &page,
        &format!(
            "localStorage.setItem('orion.token', {}); return 1",
            json!(players[s].token)
        ),
    )
    .await;
    page.goto(&format!("{base}/r/{room}"))
        .await
        .expect("page loads");
    wait_text(&page, "#turn", "Your turn").await;
    press(&page, "#plan-turn").await;
    press(&page, "[data-click=\"B2L\"]").await;
    wait_text(&page, "#note", "Planned: 1 move.").await;
    press(&page, "[data-click=\"C2R\"]").await;
    wait_text(&page, "#note", "Planned: 2 moves, ending your turn").await;
    // Planned, not played: the room is as it was.
    let now = server
        .player("late")
        .await
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(
        (now["seq"].clone(), now["position"].clone()),
        (before["seq"].clone(), before["position"].clone())
    );
    press(&page, "#send-turn").await;
    for click in ["B2L", "C2R"] {
        let ev = watcher.expect_event(&room, "click").await;
        assert_eq!(ev["ev"]["click"], click, "{ev}");
    }
    wait_text(&page, "#note", "Turn sent.").await;
    wait_text(&page, "#turn", "Waiting for").await;
    let _ = page.close().await;
}

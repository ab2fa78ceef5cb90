//! Computer players from the web page, in headless Chromium against a real server: the front
//! door's "Play the computer" seats the visitor first and a level-1 bot in the other seat and
//! starts the game at once; the bot's seat is marked with its level; the bot answers the
//! page's moves; the page resigns and is shown the bot's win. A waiting room's "Add a computer
//! player" seats one at the chosen level, and its × takes it out again.

mod chromium;

use chromium::{js, open, press, wait_js, wait_text, Driver};
use orion_tests::TestServer;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_front_door_plays_the_computer_and_the_bot_answers_the_page() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, "/", "visitor").await;
    js(
        &page,
        "document.getElementById('computer-game').value = 'hydra-2'; \
         document.getElementById('computer-level').value = '1'; return true",
    )
    .await;
    press(&page, "#play-computer").await;
    wait_text(&page, "#status", "playing").await;
    wait_js(
        &page,
        "document.querySelector('#seats [data-seat=N] .bot-mark[data-bot=\"1\"]')",
        "the bot's seat marked level 1",
    )
    .await;
    wait_text(&page, "#seats [data-seat=N]", "computer, level 1").await;
    let room = js(&page, "return location.pathname.split('/').pop()").await;
    let room = room.as_str().unwrap().to_string();
    let mut watcher = server.player("watcher").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["seats"]["N"]["bot"], 1, "{snap}");
    // Three rounds: the page clicks (the opening's first move is one click) or passes, and the
    // bot moves back each time through the room's own events.
    for round in 0..3 {
        wait_text(&page, "#turn", "Your turn").await;
        if round == 0 {
            press(&page, "[data-click=\"A2L\"]").await;
        } else {
            press(&page, "#end-turn").await;
        }
        watcher
            .expect(|m| m["ev"]["kind"] == "click" && m["ev"]["seat"] == "N")
            .await;
    }
    // The page resigns: the bot wins, and the page says so.
    wait_text(&page, "#turn", "Your turn").await;
    press(&page, "#leave").await;
    press(&page, "#leave-confirm").await;
    let over = watcher.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "N", "{over}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_room_adds_a_computer_player_at_the_chosen_level_and_removes_it() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut s = server.player("s").await;
    let joined = s.request(json!({"t": "create", "game": "hydra-4"})).await;
    let room = joined["room"].as_str().unwrap().to_string();
    let mut watcher = server.player("watcher").await;
    watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    // The page opens the room, which seats it, and adds a level-6 computer player.
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, &format!("/r/{room}"), "guest").await;
    wait_js(
        &page,
        "!document.getElementById('add-bot').hidden",
        "the add button",
    )
    .await;
    js(
        &page,
        "document.getElementById('bot-level').value = '6'; return true",
    )
    .await;
    press(&page, "#add-bot").await;
    let added = watcher
        .expect(|m| m["ev"]["kind"] == "joined" && m["ev"]["bot"] == 6)
        .await;
    let seat = added["ev"]["seat"].as_str().unwrap().to_string();
    wait_text(
        &page,
        &format!("#seats [data-seat={seat}]"),
        "computer, level 6",
    )
    .await;
    press(&page, &format!("#seats [data-seat={seat}] .remove-bot")).await;
    watcher
        .expect(|m| m["ev"]["kind"] == "left" && m["ev"]["seat"] == json!(seat))
        .await;
    wait_text(&page, &format!("#seats [data-seat={seat}]"), "free").await;
}

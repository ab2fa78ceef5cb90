//! Computer players from the web page, in headless Chromium against a real server: the front
//! door's "Play the computer" seats the visitor first and a level-1 bot in the other seat and
//! starts the game at once; the bot's seat is marked with its level; the bot answers the
//! page's moves; the page resigns and is shown the bot's win. A waiting room's "Add a computer
//! player" seats one at the chosen level, and its × takes it out again. Whole games of Hydra
//! for Two against level 1 (from the first seat, then a rematch from the second) and level 8
//! (the second seat chosen on the front door), the person's clicks made on the page's own
//! rotors and buttons, to the result the page shows, with every click in its move list.

use crate::chromium;

use chromium::{js, open, press, text, wait_js, wait_text, Driver};
use fantoccini::Client as Browser;
use orion_cli::bot::Level;
use orion_cli::systems::{self, Player, Tries};
use orion_protocol::{parse_reply, Message, Request, Seat};
use orion_tests::{Client, TestServer};
use serde_json::{json, Value};
use std::time::Duration;

/// Most requests the person makes in one game before the test gives up on its ending (a
/// game of Hydra for Two between players who both try to win ends far sooner).
const MOST_PRESSES: usize = 600;

/// How long the person waits for the room to answer a press before deciding again (a press
/// the server refused changes nothing).
const ANSWER: Duration = Duration::from_secs(3);

/// The person at the page. What he does is decided by the terminal client's bot policy,
/// which follows the room's events as a watcher receives them; the test carries each decision
/// out with the page's own controls (a rotor's half, End turn, Claim!).
struct Person {
    /// The policy deciding for the page's seat.
    policy: Box<dyn Player>,
    /// Its refusals and quiet spells.
    tries: Tries,
    /// A watcher of the room: the events the policy follows.
    watcher: Client,
    /// The room.
    room: String,
    /// How many of the watcher's events the policy has followed.
    fed: usize,
}

impl Person {
    /// The person at `seat` of `room` (Hydra for Two), deciding at `level`.
    async fn new(server: &TestServer, room: &str, seat: &str, level: Level) -> Person {
        let mut watcher = server.player("watcher").await;
        let snap = watcher
            .request(json!({"t": "spectate", "room": room}))
            .await;
        let (system, _) = systems::named("hydra-2").expect("hydra-2");
        let mut policy = system.player(level, 7);
        policy.joined(Seat::parse(seat).expect("a seat"));
        let text = snap.to_string();
        match parse_reply(&text).expect("a snapshot").message {
            Message::Snapshot(snap) => policy.snapshot(&snap),
            other => panic!("not a snapshot: {other:?}"),
        }
        let fed = watcher.events.len();
        Person {
            policy,
            tries: Tries::default(),
            watcher,
            room: room.to_string(),
            fed,
        }
    }

    /// Feeds the policy what the watcher has seen since; returns what it wants done at once
    /// (a chain to claim), and the `over` event once the game has ended.
    fn follow(&mut self) -> (Vec<Request>, Option<Value>) {
        let mut now = Vec::new();
        let mut over = None;
        while self.fed < self.watcher.events.len() {
            let e = self.watcher.events[self.fed].clone();
            self.fed += 1;
            if e["room"] != json!(self.room) {
                continue;
            }
            if e["ev"]["kind"] == "over" {
                over = Some(e.clone());
            }
            let text = e.to_string();
            if let Ok(reply) = parse_reply(&text) {
                if let Message::Event { seq, ev, .. } = reply.message {
                    let asked = self
                        .policy
                        .event(seq, &ev)
                        .expect("no gap: events in order");
                    now.extend(asked);
                    self.tries.in_a_row = 0;
                    self.tries.quiet = false;
                }
            }
        }
        (now, over)
    }

    /// Waits up to `wait` for the room's next event; false if none came.
    async fn next_event(&mut self, wait: Duration) -> bool {
        let room = self.room.clone();
        let last = self.watcher.last_seq(&room);
        let next = self
            .watcher
            .expect(|m| m["t"] == "event" && m["room"] == room && m["seq"].as_u64() > Some(last));
        tokio::time::timeout(wait, next).await.is_ok()
    }

    /// Plays through `page` until the game is over; returns the `over` event.
    async fn play_to_the_end(&mut self, page: &Browser) -> Value {
        for _ in 0..MOST_PRESSES {
            let (now, over) = self.follow();
            if let Some(over) = over {
                return over;
            }
            let asked = match now.into_iter().next() {
                Some(claim) => Some(claim),
                None => self.policy.decide(&mut self.tries),
            };
            let Some(request) = asked else {
                if !self.next_event(ANSWER).await {
                    self.tries.quiet = true;
                }
                continue;
            };
            let css = match &request {
                Request::Click { click, .. } => format!("[data-click=\"{click}\"]"),
                Request::EndTurn { .. } => "#end-turn".to_string(),
                Request::Claim { .. } => "#claim".to_string(),
                other => panic!("Hydra for Two asked for {other:?}"),
            };
            if !matches!(request, Request::Claim { .. }) {
                wait_text(page, "#turn", "Your turn").await;
            }
            press(page, &css).await;
            if !self.next_event(ANSWER).await {
                // Refused (the page shows why): the policy decides again.
                self.policy.refused();
                self.tries.in_a_row += 1;
                self.tries.refused += 1;
            }
        }
        panic!("no end after {MOST_PRESSES} presses");
    }

    /// The seat whose turn came first (the one the `start` event gives the turn to), as the
    /// room's stored history has it.
    async fn first_turn(&mut self) -> String {
        let events = self.watcher.history(&self.room).await;
        let start = events.iter().find(|e| e["ev"]["kind"] == "start");
        let seat = start.and_then(|e| e["ev"]["turn"]["seat"].as_str());
        seat.expect("a start in the history").to_string()
    }

    /// Every click of the game, in order, with its seat, as the room's stored history has them.
    async fn clicks(&mut self) -> Vec<(String, String)> {
        let events = self.watcher.history(&self.room).await;
        let clicks = events.iter().filter(|e| e["ev"]["kind"] == "click");
        let of = |e: &Value, k: &str| e["ev"][k].as_str().unwrap_or_default().to_string();
        clicks.map(|e| (of(e, "seat"), of(e, "click"))).collect()
    }
}

/// The page's move list, every click written out (`B4R (2)` is `B4R` twice).
async fn move_list(page: &Browser) -> Vec<String> {
    let entries = js(
        page,
        "return [...document.querySelectorAll('#moves button.move')].map((b) => b.textContent)",
    )
    .await;
    let mut clicks = Vec::new();
    for e in entries.as_array().expect("entries") {
        let e = e.as_str().unwrap_or_default();
        let (click, times) = match e.split_once(" (") {
            Some((click, n)) => (click, n.trim_end_matches(')').parse().unwrap_or(1)),
            None => (e, 1),
        };
        clicks.extend(std::iter::repeat_n(click.to_string(), times));
    }
    clicks
}

/// Checks what the page shows at the end: the result naming the winner (`You win` for the
/// person, else the computer player's name) and the move list holding every click.
/// Returns the clicks, with their seats.
async fn the_page_shows_the_end(
    page: &Browser,
    person: &mut Person,
    over: &Value,
    me: &str,
    level: u8,
) -> Vec<(String, String)> {
    wait_js(
        page,
        "!document.getElementById('result').hidden",
        "the result",
    )
    .await;
    let result = text(page, "#result").await;
    let winner = over["ev"]["result"]["winner"].as_str().expect("a winner");
    if winner == me {
        assert!(result.contains("You win"), "{result} ({over})");
    } else {
        let bot = format!("Computer (level {level}) wins");
        assert!(result.contains(&bot), "{result} ({over})");
    }
    let history = person.clicks().await;
    let clicks: Vec<String> = history.iter().map(|(_, c)| c.clone()).collect();
    assert!(clicks.len() > 2, "{clicks:?}");
    let room = person.room.clone();
    let listed = {
        let mut listed = move_list(page).await;
        for _ in 0..50 {
            if listed.len() >= clicks.len() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            listed = move_list(page).await;
        }
        listed
    };
    assert_eq!(listed, clicks, "the move list of {room}");
    history
}

/// Chooses `game`, `level` and `seat` in the front door's "Play the computer" and starts.
async fn play_the_computer(page: &Browser, game: &str, level: u8, seat: &str) -> String {
    js(
        page,
        &format!(
            "const g = document.getElementById('computer-game'); g.value = '{game}'; \
             g.dispatchEvent(new Event('change')); \
             document.getElementById('computer-level').value = '{level}'; \
             document.getElementById('computer-seat').value = '{seat}'; return true"
        ),
    )
    .await;
    press(page, "#play-computer").await;
    wait_text(page, "#status", "playing").await;
    let room = js(page, "return location.pathname.split('/').pop()").await;
    room.as_str().expect("a room id").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_plays_level_1_to_the_end_then_a_rematch_from_the_other_seat() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, "/", "visitor").await;
    let room = play_the_computer(&page, "hydra-2", 1, "S").await;
    wait_text(&page, "#seats [data-seat=N]", "computer, level 1").await;
    let mut person = Person::new(&server, &room, "S", Level::Greedy).await;
    let over = person.play_to_the_end(&page).await;
    the_page_shows_the_end(&page, &mut person, &over, "S", 1).await;
    // Rematch: the computer agrees at once, the page moves to the new room, where everyone
    // sits one seat on: the computer at S (it moves first), the visitor at N.
    press(&page, "#rematch").await;
    wait_js(
        &page,
        &format!("location.pathname.startsWith('/r/') && !location.pathname.endsWith('{room}')"),
        "the rematch's room",
    )
    .await;
    wait_text(&page, "#status", "playing").await;
    wait_text(&page, "#seats [data-seat=S]", "computer, level 1").await;
    wait_text(&page, "#seats [data-seat=N]", "visitor").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_plays_level_8_from_the_second_seat_to_the_end() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, "/", "visitor").await;
    let room = play_the_computer(&page, "hydra-2", 8, "N").await;
    // The visitor sits second, as chosen; the computer takes the first seat and moves first.
    wait_text(&page, "#seats [data-seat=S]", "computer, level 8").await;
    wait_text(&page, "#seats [data-seat=N]", "visitor").await;
    // The person plays at random (badly): the computer's level 8 wins soon.
    let mut person = Person::new(&server, &room, "N", Level::Random).await;
    let over = person.play_to_the_end(&page).await;
    let clicks = the_page_shows_the_end(&page, &mut person, &over, "N", 8).await;
    // The computer had the first turn, and both sides clicked (not necessarily the computer
    // first: level 8 passes its opening click in a few games of a hundred, 7 of 200 seeds).
    assert_eq!(person.first_turn().await, "S");
    for side in ["S", "N"] {
        assert!(clicks.iter().any(|(seat, _)| seat == side), "{clicks:?}");
    }
}

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
    // bot answers each time through the room's own events: its turn begins, and ends with the
    // turn given back to the page (a level-1 bot may pass as well as click).
    let mut bot_clicks = Vec::new();
    for round in 0..3 {
        wait_text(&page, "#turn", "Your turn").await;
        if round == 0 {
            press(&page, "[data-click=\"A2L\"]").await;
        } else {
            press(&page, "#end-turn").await;
        }
        watcher
            .expect(|m| m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "N")
            .await;
        let back = watcher
            .expect(|m| {
                m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "S"
                    || m["ev"]["kind"] == "click" && m["ev"]["seat"] == "N"
            })
            .await;
        if back["ev"]["kind"] == "click" {
            bot_clicks.push(back["ev"]["click"].clone());
            watcher
                .expect(|m| m["ev"]["kind"] == "turn" && m["ev"]["seat"] == "S")
                .await;
        }
    }
    println!("the bot's clicks in three rounds: {bot_clicks:?}");
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

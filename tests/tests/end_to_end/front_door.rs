//! The front door and what a newcomer meets, in headless Chromium against a real server:
//! the rooms waiting for players come first and one click joins one; a game in progress is
//! listed with its watchers and shown live on the front door's board, click by click; "Play
//! now" quick-matches in one click (a cancel button and the wait shown); a claimed name saved
//! on a second browser asks to log in (no reconnecting loop) and the log-in works, then log
//! out; Orbit and Orbs moves made with the keyboard alone; and axe-core finds no serious or
//! critical violation on the front door, a room of each system, a record and a puzzle.
//!
//! axe-core comes from npm (`tests/axe`, installed by `.ci/run`, or the file `ORION_AXE`
//! names) and is injected into each page from disk: the test fails, never skips, without it.
//! With `ORION_SCREENSHOTS=1` the first test also writes the front door's screenshots
//! (desktop 1280x900, phone 390x844) into `docs/`.

use crate::chromium;

use chromium::{
    axe_source, axe_violations, js, keys, open, press, tab_to, text, type_into, wait_js, Driver,
    ENTER, RIGHT, UP,
};
use fantoccini::Client as Browser;
use orion_engine::puzzles;
use orion_protocol::Request;
use orion_tests::{expand, start_room, Client, TestServer};
use serde_json::{json, Value};

/// Polls the socket client's `hints` for `room` until it names rotors to turn; returns the
/// first such rotor.
async fn a_rotor_to_turn(client: &mut Client, room: &str) -> String {
    let hints = client.request(json!({"t": "hints", "room": room})).await;
    hints["hints"]["turn"][0]
        .as_str()
        .unwrap_or_else(|| panic!("no rotor to turn: {hints}"))
        .to_string()
}

/// Two clients playing a Hydra for Two; returns the room and the two (the mover first).
async fn hydra_in_progress(server: &TestServer, a: &str, b: &str) -> (String, Client, Client) {
    let mut players = [server.player(a).await, server.player(b).await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [p, q] = players;
    let snap = server
        .player("peek")
        .await
        .request(json!({"t": "spectate", "room": room}))
        .await;
    let mover = snap["turn"]["seat"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    if p.seat == mover {
        (room, p, q)
    } else {
        (room, q, p)
    }
}

/// The front door's TV board as a position string (its `data-slot` / `data-piece`).
async fn tv_board(page: &Browser) -> String {
    js(
        page,
        "return [...document.querySelectorAll('#tv [data-slot]')].filter(e => e.dataset.piece)\
         .map(e => e.dataset.slot + ':' + e.dataset.piece).join(' ')",
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_front_door_shows_who_waits_first_the_live_game_and_plays_in_one_click() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    // A game in progress, and a room waiting for a second player.
    let (live, mut mover, _other) = hydra_in_progress(&server, "ann", "ben").await;
    let mut host = server.player("cyd").await;
    let waiting = host
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    assert_eq!(waiting["t"], "joined", "{waiting}");
    let waiting = waiting["room"].as_str().expect("room").to_string();

    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, "/", "dee").await;
    // What ORION is, in words, first.
    let pitch = js(&page, "return document.querySelector('.pitch').textContent").await;
    assert!(
        pitch.as_str().unwrap_or_default().contains("rotor"),
        "{pitch}"
    );
    // The waiting room under "Waiting for a game", with Join one click away; the game in
    // progress under "Games in progress" with its watchers.
    wait_js(
        &page,
        &format!("document.querySelector('#rooms-open [data-room=\"{waiting}\"] a')"),
        "the waiting room listed first",
    )
    .await;
    let open_row = js(
        &page,
        &format!("const li = document.querySelector('#rooms-open [data-room=\"{waiting}\"]'); return [li.textContent, li.querySelector('a').textContent]"),
    )
    .await;
    assert!(
        open_row[0].as_str().unwrap_or_default().contains("cyd"),
        "{open_row}"
    );
    assert!(
        open_row[0]
            .as_str()
            .unwrap_or_default()
            .contains("1 seat free"),
        "{open_row}"
    );
    assert_eq!(open_row[1], "Join");
    wait_js(
        &page,
        &format!("document.querySelector('#rooms-playing [data-room=\"{live}\"]')"),
        "the game in progress listed",
    )
    .await;
    let live_row = js(
        &page,
        &format!(
            "return document.querySelector('#rooms-playing [data-room=\"{live}\"]').textContent"
        ),
    )
    .await;
    let live_row = live_row.as_str().unwrap_or_default();
    assert!(
        live_row.contains("ann") && live_row.contains("ben") && live_row.contains("watching"),
        "{live_row}"
    );
    // Waiting rooms come before games in progress on the page.
    let order = js(
        &page,
        "const a = document.getElementById('rooms-open'), b = document.getElementById('rooms-playing'); \
         return !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING)",
    )
    .await;
    assert_eq!(order, json!(true));

    // The live board shows the game in progress, and follows it click by click.
    wait_js(
        &page,
        &format!(
            "(window.__orion.tv || {{}}).room === '{live}' && (window.__orion.tv || {{}}).live"
        ),
        "the live game on the front door",
    )
    .await;
    let rotor = a_rotor_to_turn(&mut mover, &live).await;
    let ev = mover
        .play(&live, "click", json!({"click": format!("{rotor}R")}))
        .await;
    let after = ev["ev"]["position"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let mut shown = String::new();
    for _ in 0..1000 {
        shown = tv_board(&page).await;
        if canonical(&shown) == canonical(&after) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(canonical(&shown), canonical(&after), "the live board");

    if std::env::var("ORION_SCREENSHOTS").is_ok_and(|v| v == "1") {
        screenshots(&mut driver, &base, &page).await;
    }

    // One click on Join seats the visitor in the waiting room.
    press(&page, &format!("#rooms-open [data-room=\"{waiting}\"] a")).await;
    wait_js(
        &page,
        &format!("location.pathname === '/r/{waiting}' && window.__orion.room && window.__orion.room.seat"),
        "seated in the waiting room",
    )
    .await;

    // Play now: one click on a game asks for a quick match, with a cancel button and the wait
    // in words; the next player who picks it plays him.
    let second = driver.browser(390, 844).await;
    open(&second, &base, "/", "eve").await;
    press(&second, "[data-quick=\"orbit\"]").await;
    wait_js(
        &second,
        "document.getElementById('quick-status').textContent.includes('Looking for 2 players for Orbit')",
        "the wait shown",
    )
    .await;
    press(&second, "#quick-cancel").await;
    wait_js(
        &second,
        "document.getElementById('quick-cancel').hidden",
        "the cancel button gone once pressed",
    )
    .await;
    wait_js(
        &second,
        "document.getElementById('quick-status').textContent.includes('Quick match cancelled')",
        "the server's word that she waits no more",
    )
    .await;
    // Cancel took her out of the server's queue: nobody is shown waiting for Orbit.
    let mut fay = server.player("fay").await;
    let orbit_waiting = |lobby: &serde_json::Value| {
        (lobby["waiting"].as_array().into_iter().flatten())
            .filter(|w| w["game"] == "orbit")
            .map(|w| w["count"].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    let lobby = fay.request(json!({"t": "lobby"})).await;
    assert_eq!(orbit_waiting(&lobby), 0, "cancelled, yet waiting: {lobby}");
    press(&second, "[data-quick=\"orbit\"]").await;
    wait_js(
        &second,
        "!document.getElementById('quick-cancel').hidden && document.getElementById('quick-status').textContent.includes('Looking for')",
        "the cancel button, and the wait in words",
    )
    .await;
    // Everyone sees her wait.
    let lobby = fay.request(json!({"t": "lobby"})).await;
    assert_eq!(orbit_waiting(&lobby), 1, "her wait not shown: {lobby}");
    let matched = fay
        .request(json!({"t": "quick", "game": "orbit", "players": 2}))
        .await;
    assert!(
        matched["t"] == "queued" || matched["t"] == "joined",
        "{matched}"
    );
    wait_js(
        &second,
        "/^\\/r\\//.test(location.pathname) && window.__orion.room && window.__orion.room.seat",
        "in a room of Orbit after one click",
    )
    .await;
    for p in [page, second] {
        let _ = p.close().await;
    }
}

/// A position string with its pairs sorted (the page lists slots in canonical order).
fn canonical(position: &str) -> Vec<String> {
    let mut pairs: Vec<String> = position.split_whitespace().map(str::to_string).collect();
    pairs.sort();
    pairs
}

/// The front door at 1280x900 and 390x844, into `docs/`.
async fn screenshots(driver: &mut Driver, base: &str, desktop: &Browser) {
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs");
    let png = desktop.screenshot().await.expect("screenshot");
    std::fs::write(format!("{docs}/screenshot-door.png"), png).expect("written");
    let phone = driver.browser(390, 844).await;
    open(&phone, base, "/", "phone").await;
    wait_js(
        &phone,
        "(window.__orion.tv || {}).live && document.querySelectorAll('#tv [data-piece]').length > 0",
        "the live board on the phone",
    )
    .await;
    let png = phone.screenshot().await.expect("screenshot");
    std::fs::write(format!("{docs}/screenshot-door-phone.png"), png).expect("written");
    let _ = phone.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_game_on_the_front_door_plays_a_demonstration_click_by_click() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, "/", "sam").await;
    wait_js(
        &page,
        "(window.__orion.tv || {}).demo && window.__orion.tvFrame >= 2",
        "the demonstration under way",
    )
    .await;
    let name = js(&page, "return window.__orion.tv.demo").await;
    let puzzle = puzzles::find(name.as_str().unwrap_or_default()).expect("a puzzle");
    let line =
        orion_engine::parse_moves(puzzle.booklet_solution.expect("printed")).expect("clicks");
    // Every position the engine reaches on the line, from the start.
    let mut positions = vec![puzzle.start];
    for &click in &line {
        let next = positions[positions.len() - 1].clicked(click);
        positions.push(next);
    }
    assert!(puzzle.solved(&positions[line.len()]));
    // The board shows each frame's position as the engine has it, for a few frames running.
    let mut seen = std::collections::BTreeSet::new();
    // A poll, bounded: the demonstration moves on about once a second.
    for _ in 0..300 {
        if seen.len() >= 4 {
            break;
        }
        let now = js(
            &page,
            "return [window.__orion.tvFrame, [...document.querySelectorAll('#tv [data-slot]')]\
             .filter(e => e.dataset.piece).map(e => e.dataset.slot + ':' + e.dataset.piece).join(' ')]",
        )
        .await;
        let frame = now[0].as_u64().expect("a frame") as usize;
        let shown = now[1].as_str().unwrap_or_default();
        assert_eq!(
            canonical(shown),
            canonical(&orion_engine::position_string(&positions[frame])),
            "frame {frame}"
        );
        seen.insert(frame);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(seen.len() >= 4, "the demonstration stood still: {seen:?}");
    let caption = js(
        &page,
        "return document.getElementById('tv-caption').textContent",
    )
    .await;
    assert!(
        caption
            .as_str()
            .unwrap_or_default()
            .starts_with("Demonstration"),
        "{caption}"
    );
    let _ = page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claimed_saved_name_asks_to_log_in_then_logs_in_and_out() {
    const PASSWORD: &str = "correct horse battery";
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut gil = server.player("gil").await;
    let claimed = gil
        .request(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert_eq!(claimed["t"], "welcome", "{claimed}");

    let mut driver = Driver::start();
    let page = driver.browser(1000, 900).await;
    page.goto(&format!("{base}/?name=gil"))
        .await
        .expect("page loads");
    // A log-in prompt with the name filled in, not a reconnecting loop.
    wait_js(
        &page,
        "document.getElementById('claimed') && document.getElementById('claimed-login-name').value === 'gil'",
        "the log-in prompt",
    )
    .await;
    let conn = js(&page, "return document.getElementById('conn').textContent").await;
    assert_eq!(conn, "log in");
    type_into(&page, "#claimed-login-password", PASSWORD).await;
    press(&page, "#claimed-login button").await;
    wait_js(
        &page,
        "document.getElementById('conn').className === 'up' && !document.getElementById('claimed')",
        "logged in",
    )
    .await;
    let me = js(&page, "return document.getElementById('me').textContent").await;
    assert!(me.as_str().unwrap_or_default().starts_with("gil"), "{me}");
    // One place for the account: the claim form is gone, Log out is there.
    wait_js(
        &page,
        "document.getElementById('guest').hidden && !document.getElementById('logout').hidden",
        "the account panel of a claimed name",
    )
    .await;
    // The page says hello with its new token from now on: a reload is still gil.
    page.refresh().await.expect("reload");
    wait_js(
        &page,
        "document.getElementById('conn').className === 'up' && document.getElementById('me').textContent.startsWith('gil')",
        "still gil after a reload",
    )
    .await;
    press(&page, "#logout").await;
    wait_js(
        &page,
        "document.getElementById('conn').className === 'up' && document.getElementById('me').textContent.startsWith('guest-')",
        "a guest again after logging out",
    )
    .await;
    // A guest learns what claiming a name is for.
    let note = js(
        &page,
        "return document.querySelector('#guest .hint').textContent",
    )
    .await;
    assert!(
        note.as_str().unwrap_or_default().contains("leaderboards"),
        "{note}"
    );
    let _ = page.close().await;
}

/// Opens the front door as `name`, creates a room of `game` from "More options", and returns
/// the room id once the page is seated in it.
async fn create_from_front_door(page: &Browser, base: &str, name: &str, game: &str) -> String {
    open(page, base, "/", name).await;
    press(page, "#more-options summary").await;
    js(
        page,
        &format!("const s = document.getElementById('create-game'); s.value = '{game}'; s.dispatchEvent(new Event('change')); return 1"),
    )
    .await;
    press(page, "#create-room").await;
    wait_js(
        page,
        "/^\\/r\\/r[0-9a-f]+$/.test(location.pathname) && window.__orion.room && window.__orion.room.seat",
        "seated in the new room",
    )
    .await;
    let path = js(page, "return location.pathname").await;
    path.as_str()
        .unwrap_or_default()
        .trim_start_matches("/r/")
        .to_string()
}

/// `client` joins `room` and both press Ready (the page with its button); returns the `start`.
async fn join_and_start(page: &Browser, client: &mut Client, room: &str) -> Value {
    let joined = client
        .ask(Request::Join {
            room: Some(room.to_string()),
            code: None,
            seat: None,
        })
        .await;
    assert_eq!(joined["t"], "joined", "{joined}");
    client.seat = joined["seat"].as_str().unwrap_or_default().to_string();
    client
        .send_request(Request::Ready {
            room: room.to_string(),
        })
        .await;
    press(page, "#ready").await;
    client.expect_event(room, "start").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orbit_and_orbs_are_played_with_the_keyboard_alone() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();

    // Orbit: the page's seat drops first; Tab reaches the grid, arrows move, Enter drops.
    let page = driver.browser(1000, 1000).await;
    let room = create_from_front_door(&page, &base, "hal", "orbit").await;
    let mut ivy = server.player("ivy").await;
    let start = join_and_start(&page, &mut ivy, &room).await;
    let page_seat = js(&page, "return window.__orion.room.seat").await;
    assert_eq!(start["ev"]["turn"]["seat"], page_seat, "{start}");
    tab_to(&page, "[data-cell]").await;
    let first = js(&page, "return document.activeElement.dataset.cell").await;
    assert_eq!(first, "h8", "the grid's tab stop");
    keys(&page, &format!("{RIGHT}{RIGHT}{UP}{ENTER}")).await;
    let drop = ivy
        .expect(|m| m["t"] == "event" && m["room"] == room.as_str() && m["ev"]["kind"] == "move")
        .await;
    assert_eq!(drop["ev"]["move"], "j9", "{drop}");
    wait_js(
        &page,
        "document.querySelector('[data-cell=\"j9\"]').dataset.stone",
        "the stone on the page",
    )
    .await;
    let label = js(
        &page,
        "return document.querySelector('[data-cell=\"j9\"]').getAttribute('aria-label')",
    )
    .await;
    assert!(
        label.as_str().unwrap_or_default().contains("stone"),
        "{label}"
    );
    let _ = page.close().await;

    // Orbs: Tab lands on an orb that may move, Enter picks it up and goes to a hole it may
    // take, Enter moves it.
    let page = driver.browser(1000, 1000).await;
    let room = create_from_front_door(&page, &base, "jon", "orbs").await;
    let mut kai = server.player("kai").await;
    let start = join_and_start(&page, &mut kai, &room).await;
    let page_seat = js(&page, "return window.__orion.room.seat").await;
    if start["ev"]["turn"]["seat"] != page_seat {
        // The other side moves first: any move the server offers it.
        let hints = kai.request(json!({"t": "hints", "room": room})).await;
        let mv = hints["hints"]["move"][0]
            .as_str()
            .expect("a move")
            .to_string();
        kai.play(&room, "move", json!({"move": mv})).await;
    }
    wait_js(
        &page,
        "document.querySelector('.hole.can')",
        "the page's orbs that may move",
    )
    .await;
    tab_to(&page, "[data-hole]").await;
    let from = js(&page, "return document.activeElement.dataset.hole").await;
    let from = from.as_str().unwrap_or_default().to_string();
    let movable = js(
        &page,
        &format!(
            "return document.querySelector('[data-hole=\"{from}\"]').classList.contains('can')"
        ),
    )
    .await;
    assert_eq!(movable, json!(true), "Tab lands on an orb that may move");
    keys(&page, ENTER).await;
    wait_js(
        &page,
        "document.activeElement.classList.contains('to')",
        "the keyboard on a hole the orb may take",
    )
    .await;
    let to = js(&page, "return document.activeElement.dataset.hole").await;
    keys(&page, ENTER).await;
    let moved = kai
        .expect(|m| {
            m["t"] == "event"
                && m["room"] == room.as_str()
                && m["ev"]["kind"] == "move"
                && m["ev"]["seat"] == page_seat
        })
        .await;
    assert_eq!(
        moved["ev"]["move"],
        format!("{from}-{}", to.as_str().unwrap_or_default()),
        "{moved}"
    );
    let _ = page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solved_puzzle_is_measured_against_the_booklet_and_tried_again() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1000, 1000).await;
    open(&page, &base, "/", "tia").await;
    // The puzzle's goal is on the front door beside its button.
    wait_js(
        &page,
        "document.querySelector('[data-puzzle=\"aurora-a\"]') !== null",
        "the puzzles",
    )
    .await;
    let goal = js(
        &page,
        "return document.querySelector('[data-puzzle=\"aurora-a\"]').parentElement.textContent",
    )
    .await;
    assert!(
        goal.as_str()
            .unwrap_or_default()
            .contains("Booklet: 14 clicks"),
        "{goal}"
    );
    press(&page, "[data-puzzle=\"aurora-a\"]").await;
    wait_js(
        &page,
        "/^\\/r\\//.test(location.pathname) && document.querySelectorAll('[data-piece]').length > 0",
        "the puzzle's board",
    )
    .await;
    // The puzzle's own page says what it asks, in the words the front door gave beside its
    // button (the server's catalogue, one source).
    wait_js(
        &page,
        "!document.getElementById('puzzle-goal').hidden",
        "the puzzle's goal",
    )
    .await;
    let asks = text(&page, "#puzzle-goal").await;
    assert!(asks.contains("horizontal"), "{asks}");
    assert!(
        goal.as_str().unwrap_or_default().contains(&asks),
        "{asks} / {goal}"
    );
    let puzzle = puzzles::find("aurora-a").expect("aurora-a");
    for click in expand(puzzle.booklet_solution.expect("printed")) {
        let before = js(&page, "return window.__orion.seq || 0").await;
        press(&page, &format!("[data-click=\"{click}\"]")).await;
        wait_js(
            &page,
            &format!("(window.__orion.seq || 0) > {before}"),
            "the click taken",
        )
        .await;
    }
    wait_js(
        &page,
        "document.getElementById('status').textContent === 'finished'",
        "solved",
    )
    .await;
    let result = js(
        &page,
        "return document.getElementById('result').textContent",
    )
    .await;
    let result = result.as_str().unwrap_or_default();
    assert!(
        result.contains("Solved in 14 clicks") && result.contains("the booklet's 14"),
        "{result}"
    );
    let again = js(
        &page,
        "return document.getElementById('rematch').textContent",
    )
    .await;
    assert_eq!(again, "Try again");
    let solved = js(&page, "return location.pathname").await;
    press(&page, "#rematch").await;
    wait_js(
        &page,
        &format!("location.pathname !== '{}' && document.getElementById('status').textContent === 'playing'", solved.as_str().unwrap_or_default()),
        "a fresh try",
    )
    .await;
    let _ = page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn axe_core_finds_no_serious_violation_on_any_page() {
    let axe = axe_source();
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut found = Vec::new();
    // A finished puzzle for its record, and a game in progress for the live board.
    let mut solver = server.player("lee").await;
    let joined = solver
        .request(json!({"t": "create", "game": "aquila"}))
        .await;
    let solved = joined["room"].as_str().expect("room").to_string();
    solver.seat = joined["seat"].as_str().unwrap_or_default().to_string();
    let aquila = puzzles::find("aquila").expect("aquila");
    let mut line = expand(aquila.booklet_solution.expect("printed"));
    // The booklet's last click is a misprint (docs/puzzles.md).
    line[23] = "C5R".into();
    for click in &line {
        solver.play(&solved, "click", json!({"click": click})).await;
    }
    solver.expect_event(&solved, "over").await;
    let (live, _a, _b) = hydra_in_progress(&server, "mae", "ned").await;

    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, "/", "ora").await;
    wait_js(
        &page,
        &format!("(window.__orion.tv || {{}}).room === '{live}' && document.querySelectorAll('#tv [data-piece]').length > 0"),
        "the front door with its live board",
    )
    .await;
    found.extend(
        axe_violations(&page, &axe)
            .await
            .into_iter()
            .map(|v| format!("front door: {v}")),
    );

    // A room of each system, the page seated and the game started.
    for game in ["hydra-2", "orbit", "orbs"] {
        let room = create_from_front_door(&page, &base, "ora", game).await;
        let mut other = server.player(&format!("pat{}", game.len())).await;
        join_and_start(&page, &mut other, &room).await;
        wait_js(
            &page,
            "document.getElementById('status').textContent === 'playing'",
            "the game started",
        )
        .await;
        found.extend(
            axe_violations(&page, &axe)
                .await
                .into_iter()
                .map(|v| format!("{game} room: {v}")),
        );
    }

    // A finished game's record.
    open(&page, &base, &format!("/g/{solved}"), "ora").await;
    wait_js(&page, "window.__orion.recordLoaded", "the record").await;
    found.extend(
        axe_violations(&page, &axe)
            .await
            .into_iter()
            .map(|v| format!("record: {v}")),
    );

    // A puzzle, started from the front door.
    open(&page, &base, "/", "ora").await;
    press(&page, "[data-puzzle=\"herdsman\"]").await;
    wait_js(
        &page,
        "/^\\/r\\//.test(location.pathname) && document.querySelectorAll('[data-piece]').length > 0",
        "the puzzle's board",
    )
    .await;
    found.extend(
        axe_violations(&page, &axe)
            .await
            .into_iter()
            .map(|v| format!("puzzle: {v}")),
    );
    // A puzzle near its finish with a click to undo and a hint lit.
    open(&page, &base, "/", "ora").await;
    press(&page, "[data-puzzle=\"aquila\"]").await;
    wait_js(
        &page,
        "/^\\/r\\//.test(location.pathname) && document.querySelectorAll('[data-piece]').length > 0",
        "aquila's board",
    )
    .await;
    for click in &line[..20] {
        let before = js(&page, "return window.__orion.seq || 0").await;
        press(&page, &format!("[data-click=\"{click}\"]")).await;
        wait_js(
            &page,
            &format!("(window.__orion.seq || 0) > {before}"),
            "the click",
        )
        .await;
    }
    press(&page, "#hint").await;
    wait_js(
        &page,
        "!!document.querySelector('.half.hinted')",
        "a hint lit",
    )
    .await;
    found.extend(
        axe_violations(&page, &axe)
            .await
            .into_iter()
            .map(|v| format!("puzzle with a hint: {v}")),
    );

    // Algol with its secret men to choose: the choices under the board.
    let room = create_from_front_door(&page, &base, "ora", "algol").await;
    let mut other = server.player("pia").await;
    join_and_start(&page, &mut other, &room).await;
    wait_js(
        &page,
        "(() => { const c = document.getElementById('choices'); return c && !c.hidden })()",
        "the secret man's choices",
    )
    .await;
    found.extend(
        axe_violations(&page, &axe)
            .await
            .into_iter()
            .map(|v| format!("algol choices: {v}")),
    );

    // And the front door on a phone.
    let phone = driver.browser(390, 844).await;
    open(&phone, &base, "/", "ray").await;
    // Nothing wider than the phone (a browser widens the page to fit what sticks out): no
    // sideways scrolling.
    wait_js(&phone, "window.__orion.lobbyShown", "the rooms").await;
    let wide = js(
        &phone,
        "return [document.documentElement.scrollWidth, screen.width, \
         [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > screen.width + 1) \
         .filter(e => ![...e.children].some(c => c.getBoundingClientRect().right > screen.width + 1)) \
         .slice(0, 5).map(e => `${e.tagName}#${e.id}`)]",
    )
    .await;
    assert_eq!(wide[1], 390, "{wide}");
    assert!(
        wide[0].as_u64() <= wide[1].as_u64(),
        "the front door is wider than the phone: {wide}"
    );
    found.extend(
        axe_violations(&phone, &axe)
            .await
            .into_iter()
            .map(|v| format!("phone front door: {v}")),
    );
    assert!(found.is_empty(), "axe-core: {found:#?}");
    for p in [page, phone] {
        let _ = p.close().await;
    }
}

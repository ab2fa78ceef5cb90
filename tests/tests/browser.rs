//! The web client in a real browser: headless Chromium (Debian's `chromium`, driven by its
//! `chromedriver` through WebDriver) against a real server on port 0. Two pages play a Hydra
//! for Two by clicking the rotors' `data-click` controls while a third page and a WebSocket
//! client watch, and every page's `data-piece` board is checked against the position of the
//! server's events; a puzzle is solved from the page and replayed; a reload mid-game brings
//! the seat and the board back.
//!
//! No test here is skipped: without `/usr/bin/chromium` and `/usr/bin/chromedriver` they fail
//! and say how to install them.

use fantoccini::{Client as Browser, ClientBuilder, Locator};
use orion_engine::{parse_position, puzzles, solve};
use orion_tests::{Client, TestServer};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// How long a page has to show what the server said (a guard, not a pause: every wait polls).
const PAGE_PATIENCE: Duration = Duration::from_secs(10);

/// A `chromedriver` this test started, in its own process group (so the browsers it starts
/// die with it), and the profile directories of its browsers.
struct Driver {
    child: Child,
    port: u16,
    profiles: Vec<PathBuf>,
}

impl Driver {
    fn start() -> Driver {
        for bin in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                std::path::Path::new(bin).exists(),
                "{bin} is missing: the browser tests need Debian's chromium and chromium-driver \
                 (apt-get update && apt-get install -y chromium chromium-driver)"
            );
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        use std::os::unix::process::CommandExt;
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("chromedriver starts");
        let up = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                up.elapsed() < PAGE_PATIENCE,
                "chromedriver did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Driver {
            child,
            port,
            profiles: Vec::new(),
        }
    }

    /// A new headless browser with a fresh profile (its own localStorage).
    async fn browser(&mut self) -> Browser {
        let profile = std::env::temp_dir().join(format!(
            "orion-chromium-{}-{}-{}",
            std::process::id(),
            self.port,
            self.profiles.len()
        ));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("profile dir");
        let caps = json!({
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--window-size=1000,1000",
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        });
        self.profiles.push(profile);
        let Value::Object(caps) = caps else {
            unreachable!("a JSON object")
        };
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a chromium session")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The whole group: chromedriver and every chromium it started.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        for p in &self.profiles {
            let _ = std::fs::remove_dir_all(p);
        }
    }
}

/// Runs `script` in the page and returns its value.
async fn js(page: &Browser, script: &str) -> Value {
    page.execute(script, vec![]).await.expect("script runs")
}

/// The page's board from its `data-slot` / `data-piece` attributes, as a position string
/// (the slot elements are in canonical order).
async fn board(page: &Browser) -> String {
    let v = js(
        page,
        "return [...document.querySelectorAll('[data-slot]')].filter(e => e.dataset.piece)\
         .map(e => e.dataset.slot + ':' + e.dataset.piece).join(' ')",
    )
    .await;
    v.as_str().unwrap_or_default().to_string()
}

/// Polls `script` (a JS expression) until it is true; fails with `what` after the patience.
async fn wait_js(page: &Browser, script: &str, what: &str) -> Duration {
    let start = Instant::now();
    loop {
        if js(page, &format!("return !!({script})")).await == json!(true) {
            return start.elapsed();
        }
        assert!(start.elapsed() < PAGE_PATIENCE, "page never showed {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Text of the element with id `id`.
async fn text(page: &Browser, id: &str) -> String {
    let v = js(
        page,
        &format!("const e = document.getElementById('{id}'); return e ? e.textContent : null"),
    )
    .await;
    v.as_str().unwrap_or_default().to_string()
}

/// Waits until the page's board is `position`; returns how long that took.
async fn wait_board(page: &Browser, position: &str, who: &str) -> Duration {
    let start = Instant::now();
    loop {
        let now = board(page).await;
        if now == position {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < PAGE_PATIENCE,
            "{who}'s board is {now:?}, the server says {position:?}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Clicks the element `css` once it is shown.
async fn press(page: &Browser, css: &str) {
    let sel = css.replace('\'', "\\'");
    wait_js(
        page,
        &format!("(() => {{ const e = document.querySelector('{sel}'); return e && !e.closest('[hidden]') }})()"),
        css,
    )
    .await;
    page.find(Locator::Css(css))
        .await
        .expect("element")
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// Opens `path` on the server as `name` and waits for the socket to be up.
async fn open(page: &Browser, base: &str, path: &str, name: &str) {
    let sep = if path.contains('?') { '&' } else { '?' };
    page.goto(&format!("{base}{path}{sep}name={name}"))
        .await
        .expect("page loads");
    wait_js(
        page,
        "document.getElementById('conn').className === 'up'",
        "online",
    )
    .await;
}

/// The room id in the page's URL (`/r/ROOM`), once it got there.
async fn room_of(page: &Browser) -> String {
    wait_js(
        page,
        "/^\\/r\\/r[0-9a-f]+$/.test(location.pathname)",
        "a room URL",
    )
    .await;
    let url = page.current_url().await.expect("url");
    url.path().trim_start_matches("/r/").to_string()
}

/// Sets up a Hydra for Two from the pages: `a` creates it in the lobby, `b` opens its link,
/// both press Ready. Returns the room id.
async fn hydra_from_pages(base: &str, a: &Browser, b: &Browser) -> String {
    open(a, base, "/", "alice").await;
    a.find(Locator::Css("#create-game"))
        .await
        .expect("game select")
        .select_by_value("hydra-2")
        .await
        .expect("hydra-2 offered");
    press(a, "#create-room").await;
    let room = room_of(a).await;
    wait_js(
        a,
        "document.getElementById('status').textContent === 'waiting'",
        "waiting",
    )
    .await;
    open(b, base, &format!("/r/{room}"), "bob").await;
    wait_js(
        b,
        "document.getElementById('status').textContent === 'waiting'",
        "waiting",
    )
    .await;
    room
}

/// Plays one click from `page` by pressing its `data-click` control, and waits for the
/// watcher's event of it; returns its position.
async fn click_from_page(page: &Browser, watcher: &mut Client, room: &str, click: &str) -> String {
    let before = watcher.last_seq(room);
    press(page, &format!("[data-click=\"{click}\"]")).await;
    let ev = watcher
        .expect(|m| {
            m["t"] == "event"
                && m["room"] == room
                && m["ev"]["kind"] == "click"
                && m["seq"].as_u64() > Some(before)
        })
        .await;
    assert_eq!(ev["ev"]["click"], click, "{ev}");
    ev["ev"]["position"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_pages_play_hydra_for_two_while_a_page_and_a_client_watch() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let alice = driver.browser().await;
    let bob = driver.browser().await;
    let carol = driver.browser().await;
    let room = hydra_from_pages(&base, &alice, &bob).await;

    let mut watcher = server.player("watcher").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    assert_eq!(snap["t"], "snapshot", "{snap}");
    assert_eq!(snap["seats"]["S"]["name"], "alice");
    assert_eq!(snap["seats"]["N"]["name"], "bob");

    press(&alice, "#ready").await;
    press(&bob, "#ready").await;
    let start = watcher.expect_event(&room, "start").await;
    let position = start["ev"]["position"].as_str().unwrap_or_default();
    // The third page opens the link after both seats are taken: it watches.
    open(&carol, &base, &format!("/r/{room}"), "carol").await;
    let pages = [("alice", &alice), ("bob", &bob), ("carol", &carol)];
    for (who, page) in pages {
        wait_js(
            page,
            "document.getElementById('status').textContent === 'playing'",
            "playing",
        )
        .await;
        wait_board(page, position, who).await;
    }
    assert!(text(&carol, "seats").await.contains("alice"));

    // Standard start: 1 click, then 2, then 3. S's third move stops after two clicks and
    // presses End turn.
    let moves: [(&str, &[&str], bool); 6] = [
        ("S", &["A1R"], false),
        ("N", &["A5R"], false),
        ("S", &["B1R", "B1R"], false),
        ("N", &["B5L", "B5L"], false),
        ("S", &["C1R", "C1R"], true),
        ("N", &["C5R", "C5R", "C5R"], false),
    ];
    let mut lags = Vec::new(); // click sent on the mover's page -> animation on the other's
    let mut arrival_lags = Vec::new(); // event arrival -> animation start, every page
    let mut settle = Duration::ZERO; // event seen by the test client -> page board right
    let mut clicks = 0;
    for (seat, line, end) in moves {
        let (mover, other) = if seat == "S" {
            (&alice, &bob)
        } else {
            (&bob, &alice)
        };
        for (who, page) in pages {
            wait_js(
                page,
                &format!("document.getElementById('turn').textContent === '{seat}'"),
                &format!("{seat} to move on {who}'s page"),
            )
            .await;
        }
        for click in line {
            let position = click_from_page(mover, &mut watcher, &room, click).await;
            clicks += 1;
            for (who, page) in pages {
                settle = settle.max(wait_board(page, &position, who).await);
                wait_js(
                    page,
                    &format!("(window.__orion.animations || 0) >= {clicks}"),
                    "the click's animation",
                )
                .await;
                arrival_lags.push(
                    js(page, "return window.__orion.lastAnimationLag")
                        .await
                        .as_f64()
                        .unwrap_or(f64::NAN),
                );
            }
            let sent = js(mover, "return window.__orion.lastClickSentAt").await;
            let seen = js(other, "return window.__orion.lastAnimationAt").await;
            if let (Some(sent), Some(seen)) = (sent.as_f64(), seen.as_f64()) {
                lags.push(seen - sent);
            }
        }
        if end {
            press(mover, "#end-turn").await;
            watcher.expect_event(&room, "turn").await;
        }
    }
    for (who, page) in pages {
        wait_js(
            page,
            "document.getElementById('turn').textContent === 'S'",
            &format!("S to move on {who}'s page"),
        )
        .await;
    }
    let max = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    eprintln!(
        "click on one page -> animation start on the other: mean {:.1} ms, max {:.1} ms ({} clicks); \
         event arrival -> animation start: mean {:.1} ms, max {:.1} ms; board right within {:?} of the test client's event",
        mean(&lags),
        max(&lags),
        lags.len(),
        mean(&arrival_lags),
        max(&arrival_lags),
        settle
    );
    assert!(
        max(&arrival_lags) < 50.0,
        "an animation started {} ms after its event arrived",
        max(&arrival_lags)
    );
    if let Ok(path) = std::env::var("ORION_SCREENSHOT") {
        wait_js(
            &alice,
            "!window.__orion.room.board.anim",
            "the board at rest",
        )
        .await;
        let png = alice.screenshot().await.expect("screenshot");
        std::fs::write(&path, png).expect("write the screenshot");
        // And the watcher's page on a phone-sized screen (portrait), next to it.
        carol.set_window_size(390, 844).await.expect("resize");
        wait_js(
            &carol,
            "!window.__orion.room.board.anim",
            "the board at rest",
        )
        .await;
        let png = carol.screenshot().await.expect("screenshot");
        let phone = path.replace(".png", "-phone.png");
        std::fs::write(&phone, png).expect("write the phone screenshot");
    }
    for page in [alice, bob, carol] {
        let _ = page.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_from_the_page_and_replayed() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser().await;
    open(&page, &base, "/", "dave").await;
    press(&page, "[data-puzzle=\"orbit-a\"]").await;
    let room = room_of(&page).await;
    wait_js(
        &page,
        "document.getElementById('status').textContent === 'playing'",
        "playing",
    )
    .await;
    let mut watcher = server.player("watcher").await;
    let snap = watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    let start = snap["position"].as_str().unwrap_or_default().to_string();
    wait_board(&page, &start, "dave").await;
    // The page's own board is the puzzle's start: solve it from there.
    let here = parse_position(&board(&page).await).expect("a position");
    let orbit = puzzles::find("orbit-a").expect("orbit-a");
    let line = solve::solve(&orbit.with_start(here).expect("same pieces")).expect("solvable");
    let mut positions = vec![start.clone()];
    for (i, click) in line.clicks.iter().enumerate() {
        let position = click_from_page(&page, &mut watcher, &room, &click.to_string()).await;
        wait_board(&page, &position, "dave").await;
        positions.push(position);
        let used = text(&page, "clicks").await;
        assert!(used.starts_with(&format!("clicks {} / 9", i + 1)), "{used}");
    }
    watcher.expect_event(&room, "over").await;
    wait_js(
        &page,
        "document.getElementById('status').textContent === 'finished'",
        "finished",
    )
    .await;
    let result = text(&page, "result").await;
    assert!(result.starts_with("Solved in"), "{result}");

    // The finished room's link steps through its history, forward and back.
    page.refresh().await.expect("reload");
    wait_js(
        &page,
        "window.__orion && window.__orion.replaying",
        "the replay",
    )
    .await;
    wait_board(&page, positions.last().expect("end"), "the replay's end").await;
    press(&page, "#replay-first").await;
    wait_board(&page, &positions[0], "the replay's start").await;
    for p in &positions[1..] {
        press(&page, "#replay-fwd").await;
        wait_board(&page, p, "the replay, forward").await;
    }
    for p in positions.iter().rev().skip(1) {
        press(&page, "#replay-back").await;
        wait_board(&page, p, "the replay, back").await;
    }
    let _ = page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_mid_game_brings_back_the_seat_and_the_board() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let alice = driver.browser().await;
    let bob = driver.browser().await;
    let room = hydra_from_pages(&base, &alice, &bob).await;
    let mut watcher = server.player("watcher").await;
    watcher
        .request(json!({"t": "spectate", "room": room}))
        .await;
    press(&alice, "#ready").await;
    press(&bob, "#ready").await;
    watcher.expect_event(&room, "start").await;
    click_from_page(&alice, &mut watcher, &room, "A1R").await;
    let position = click_from_page(&bob, &mut watcher, &room, "A5R").await;

    alice.refresh().await.expect("reload");
    wait_js(
        &alice,
        "document.getElementById('status').textContent === 'playing'",
        "playing after the reload",
    )
    .await;
    wait_board(&alice, &position, "alice after the reload").await;
    assert_eq!(text(&alice, "turn").await, "S");
    let seats = text(&alice, "seats").await;
    assert!(seats.contains("alice (you)"), "{seats}");
    // The seat is hers again: her clicks are taken, and Bob sees them.
    let position = click_from_page(&alice, &mut watcher, &room, "B1R").await;
    wait_board(&bob, &position, "bob").await;
    let position = click_from_page(&alice, &mut watcher, &room, "B1R").await;
    wait_board(&bob, &position, "bob").await;
    wait_board(&alice, &position, "alice").await;
    wait_js(
        &bob,
        "document.getElementById('turn').textContent === 'N'",
        "N to move",
    )
    .await;
    for page in [alice, bob] {
        let _ = page.close().await;
    }
}

#[tokio::test]
async fn the_page_and_its_assets_are_served_with_types_and_etags() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start();
    let page = orion_tests::http_get(server.addr, "/r/r0123abcd").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(
        page.contains("content-type: text/html; charset=utf-8"),
        "{page}"
    );
    let (_, body) = page.split_once("\r\n\r\n").expect("a body");
    let mut weight = body.len();
    let assets: Vec<&str> = [
        "style.css",
        "app.js",
        "net.js",
        "lobby.js",
        "room.js",
        "board.js",
        "games.js",
        "orbit.js",
        "orbs.js",
        "icon.svg",
    ]
    .to_vec();
    for name in &assets {
        let answer = orion_tests::http_get(server.addr, &format!("/assets/{name}")).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{name}: {answer}");
        let (head, body) = answer.split_once("\r\n\r\n").expect("a body");
        let wanted = match name.rsplit('.').next() {
            Some("js") => "text/javascript",
            Some("css") => "text/css",
            _ => "image/svg+xml",
        };
        assert!(head.contains(&format!("content-type: {wanted}")), "{head}");
        assert!(head.contains("cache-control: no-cache"), "{head}");
        weight += body.len();
        // A browser holding the same build gets a body-less 304.
        let etag = head
            .lines()
            .find_map(|l| l.strip_prefix("etag: "))
            .expect("an etag");
        let mut stream = tokio::net::TcpStream::connect(server.addr)
            .await
            .expect("connect");
        let request =
            format!("GET /assets/{name} HTTP/1.1\r\nhost: test\r\nif-none-match: {etag}\r\n\r\n");
        stream.write_all(request.as_bytes()).await.expect("write");
        let mut again = String::new();
        stream.read_to_string(&mut again).await.expect("read");
        assert!(again.starts_with("HTTP/1.1 304"), "{again}");
    }
    eprintln!(
        "page weight: {weight} bytes (the page and {} assets, uncompressed)",
        assets.len()
    );
    assert!(weight < 150 * 1024, "{weight} bytes");
    for path in ["/assets/nope.js", "/r/", "/r/a/b"] {
        let answer = orion_tests::http_get(server.addr, path).await;
        assert!(answer.starts_with("HTTP/1.1 404"), "{path}: {answer}");
    }
}

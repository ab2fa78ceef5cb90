//! The room as a newcomer meets it, in a real browser (headless Chromium driven by
//! `chromedriver`, as `browser.rs`): whose turn it is, in words and names; each seat's ready
//! mark as it is said; the watchers counted on every page; the move list; leaving a game in
//! progress asks first, resigns, and the other page is told it won and why; a spectator who
//! reloads a game in progress stays a spectator.

use fantoccini::{Client as Browser, ClientBuilder, Locator};
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
/// die with it), and its browsers' profile directories.
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
                "{bin} is missing: the browser tests need Debian's chromium and chromium-driver"
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
            assert!(up.elapsed() < PAGE_PATIENCE, "chromedriver did not listen");
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
            "orion-room-chromium-{}-{}-{}",
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

async fn js(page: &Browser, script: &str) -> Value {
    page.execute(script, vec![]).await.expect("script runs")
}

/// Text of the element `css` ("" when there is none).
async fn text(page: &Browser, css: &str) -> String {
    let sel = css.replace('\'', "\\'");
    let v = js(
        page,
        &format!("const e = document.querySelector('{sel}'); return e ? e.textContent : ''"),
    )
    .await;
    v.as_str().unwrap_or_default().to_string()
}

/// Polls `script` (a JS expression) until it is true; fails with `what` after the patience.
async fn wait_js(page: &Browser, script: &str, what: &str) {
    let start = Instant::now();
    loop {
        if js(page, &format!("return !!({script})")).await == json!(true) {
            return;
        }
        if start.elapsed() > PAGE_PATIENCE {
            let errors = js(page, "return (window.__orion || {}).jsErrors || []").await;
            let turn = text(page, "#turn").await;
            let result = text(page, "#result").await;
            panic!("page never showed {what} (script errors: {errors}; turn: {turn:?}; result: {result:?})");
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Waits until the element `css` reads `want` somewhere in its text.
async fn wait_text(page: &Browser, css: &str, want: &str) {
    let sel = css.replace('\'', "\\'");
    let want_js = serde_json::to_string(want).expect("a string");
    wait_js(
        page,
        &format!("(document.querySelector('{sel}') || {{textContent: ''}}).textContent.includes({want_js})"),
        &format!("{css} saying {want:?}"),
    )
    .await;
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
    for attempt in 0.. {
        let element = page.find(Locator::Css(css)).await.expect("element");
        match element.click().await {
            Ok(()) => return,
            Err(e) if attempt < 3 && e.to_string().contains("stale element") => continue,
            Err(e) => panic!("click {css}: {e}"),
        }
    }
}

/// Opens `path` as `name` and waits for the socket to be up.
async fn open(page: &Browser, base: &str, path: &str, name: &str) {
    let sep = if path.contains('?') { '&' } else { '?' };
    page.goto(&format!("{base}{path}{sep}name={name}"))
        .await
        .expect("page loads");
    wait_js(
        page,
        "document.getElementById('conn') && document.getElementById('conn').className === 'up'",
        "online",
    )
    .await;
}

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
    let alice = driver.browser().await;
    let bob = driver.browser().await;
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
    let carol = driver.browser().await;
    open(&carol, &base, &format!("/r/{room}"), "carol").await;
    wait_text(&carol, "#moves", "1. bob: A2L").await;
    wait_text(&carol, "#turn", "alice (N) to move").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_a_game_in_progress_asks_first_then_the_other_page_is_told_it_won() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let alice = driver.browser().await;
    let bob = driver.browser().await;
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
    let carol = driver.browser().await;
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

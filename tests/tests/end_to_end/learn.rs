//! Learning to play (`/learn`), in headless Chromium against a real server: every lesson
//! completes by acting on `[data-hint]` alone, step by step (`#lesson-status` `step N/M`,
//! then `done`), and `/learn` shows it done; a wrong click gets the engine's reason and keeps
//! the step; the Hydra lesson's last screen starts a game against the computer; the lessons'
//! HTTP answers refuse what they should in words; axe-core finds no serious or critical
//! violation on `/learn` and on a lesson.

use crate::chromium;

use chromium::{axe_source, axe_violations, js, open, press, text, wait_js, wait_text, Driver};
use fantoccini::Client as Browser;
use orion_tests::TestServer;
use serde_json::Value;

/// The lesson ids `/learn` lists, once it has loaded them.
async fn listed(page: &Browser) -> Vec<String> {
    wait_js(
        page,
        "document.querySelectorAll('[data-lesson]').length > 0",
        "the lessons",
    )
    .await;
    let ids = js(
        page,
        "return [...document.querySelectorAll('[data-lesson]')].map(e => e.dataset.lesson)",
    )
    .await;
    ids.as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(String::from))
        .collect()
}

/// Plays the lesson open on `page` to its end by pressing `[data-hint]` alone; returns how
/// many steps it had.
async fn complete(page: &Browser, id: &str) -> usize {
    wait_text(page, "#lesson-status", "step 1/").await;
    let status = text(page, "#lesson-status").await;
    let steps: usize = status
        .rsplit('/')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{id}: status {status:?}"));
    for n in 1..=steps {
        let here = format!("step {n}/{steps}");
        assert_eq!(text(page, "#lesson-status").await, here, "{id}");
        assert!(
            !text(page, "#lesson-text").await.is_empty(),
            "{id} {here} has a text"
        );
        // Every step marks exactly one element to act on.
        wait_js(
            page,
            "document.querySelectorAll('[data-hint]').length === 1",
            &format!("{id} {here}'s hint"),
        )
        .await;
        let next = if n == steps {
            "done".to_string()
        } else {
            format!("step {}/{steps}", n + 1)
        };
        // An act may take two presses (an orb, then its hole): the hint moves on after the
        // first.
        for press_no in 1.. {
            assert!(press_no <= 3, "{id} {here}: three presses and no step");
            press(page, "[data-hint]").await;
            wait_js(
                page,
                &format!(
                    "document.getElementById('lesson-status').textContent === '{next}' || \
                     (!window.__orion.lesson.busy && document.querySelectorAll('[data-hint]').length === 1)"
                ),
                &format!("{id} after {here}: {next}, or the hint moved on"),
            )
            .await;
            if text(page, "#lesson-status").await == next {
                break;
            }
        }
        assert_eq!(
            text(page, "#lesson-reason").await,
            "",
            "{id} {here}: no refusal"
        );
    }
    steps
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_lesson_completes_by_its_hints_alone_and_hydra_ends_in_a_game() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    // The front door links the lessons.
    open(&page, &base, "/", "kim").await;
    press(&page, "#learn-link").await;
    wait_js(&page, "location.pathname === '/learn'", "/learn").await;
    let ids = listed(&page).await;
    assert!(ids.len() >= 2, "{ids:?}");
    assert_eq!(
        &ids[..2],
        ["basics", "hydra-2"],
        "the basics first, then Hydra"
    );
    for id in &ids {
        open(&page, &base, &format!("/learn/{id}"), "kim").await;
        let steps = complete(&page, id).await;
        assert!(steps >= 3, "{id} has at least three checked steps");
        assert!(text(&page, "#lesson-text").await.contains("complete"));
    }
    // Progress is kept: the list says so.
    open(&page, &base, "/learn", "kim").await;
    listed(&page).await;
    for id in &ids {
        wait_text(
            &page,
            &format!("[data-lesson=\"{id}\"] .lesson-progress"),
            "done",
        )
        .await;
    }
    // Hydra's last screen starts a game against the computer.
    open(&page, &base, "/learn/hydra-2", "kim").await;
    complete(&page, "hydra-2").await;
    // Start again from the last screen: step 1, its hint lit.
    press(&page, "#lesson-reset").await;
    wait_text(&page, "#lesson-status", "step 1/").await;
    wait_js(
        &page,
        "document.querySelectorAll('[data-hint]').length === 1",
        "step 1's hint",
    )
    .await;
    complete(&page, "hydra-2").await;
    press(&page, "#lesson-computer").await;
    wait_js(&page, "/^\\/r\\//.test(location.pathname)", "a room").await;
    wait_text(&page, "#status", "playing").await;
    let errors = js(&page, "return window.__orion.jsErrors || []").await;
    assert_eq!(errors, Value::Array(vec![]), "no script errors");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_click_gets_the_engines_reason_and_keeps_the_step() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, "/learn/basics", "lou").await;
    wait_text(&page, "#lesson-status", "step 1/").await;
    // C3 holds no red piece: the engine says so, as a room would.
    press(&page, "[data-click=\"C3R\"]").await;
    wait_text(
        &page,
        "#lesson-reason",
        "rotor C3 holds none of your pieces",
    )
    .await;
    assert!(text(&page, "#lesson-reason")
        .await
        .contains("Hint: click the right half of C1"));
    assert!(text(&page, "#lesson-status").await.starts_with("step 1/"));
    // The step goes on: the hinted click is taken.
    press(&page, "[data-hint]").await;
    wait_text(&page, "#lesson-status", "step 2/").await;
    // A legal click that is not the step's is said so, and the step stays.
    press(&page, "[data-click=\"A1R\"]").await;
    wait_text(&page, "#lesson-reason", "not what this step asks").await;
    assert!(text(&page, "#lesson-status").await.starts_with("step 2/"));
    // Start again: step 1, the board as it began.
    press(&page, "#lesson-reset").await;
    wait_text(&page, "#lesson-status", "step 1/").await;
    wait_js(
        &page,
        "document.querySelector('[data-slot=\"C1s\"]').dataset.piece === 'R3'",
        "the start again",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_right_answer_is_taken_and_the_lesson_goes_on_from_its_own_line() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, "/learn/algol", "ada").await;
    wait_text(&page, "#lesson-status", "step 1/").await;
    // Algol: any red man may be the secret man, not only the hinted R8.
    wait_js(
        &page,
        "document.querySelector('[data-choice=\"R3\"]') !== null",
        "the secret men's buttons",
    )
    .await;
    press(&page, "[data-choice=\"R3\"]").await;
    wait_text(&page, "#lesson-status", "step 2/").await;
    // Step 2 asks for R8 on one of C2's sides: the hint says C2R, C2L gets there too.
    press(&page, "[data-click=\"C2L\"]").await;
    wait_text(&page, "#lesson-status", "step 3/").await;
    assert_eq!(text(&page, "#lesson-reason").await, "");
    // The lesson goes on from its own line (R8 on C2's left side), and says so.
    wait_js(
        &page,
        "document.querySelector('[data-slot=\"B2e\"]').dataset.piece === 'R8'",
        "step 3 drawn from its own start",
    )
    .await;
    wait_text(&page, "#note", "its own line").await;
    // A click that is legal but does not move R8 up is not the step's.
    press(&page, "[data-click=\"B2R\"]").await;
    wait_text(&page, "#lesson-reason", "not what this step asks").await;
    assert!(text(&page, "#lesson-status").await.starts_with("step 3/"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lessons_http_answers_refuse_in_words() {
    let server = TestServer::start();
    let get = |path: &str| {
        let url = format!("http://{}{path}", server.addr);
        async move { http(&url, None).await }
    };
    let (status, body) = get("/api/lessons").await;
    assert_eq!(status, 200);
    let list: Value = serde_json::from_str(&body).expect("JSON");
    assert!(
        list["lessons"].as_array().is_some_and(|l| l.len() >= 2),
        "{body}"
    );
    let (status, body) = get("/api/lessons/nope").await;
    assert_eq!((status, body.trim()), (404, "no lesson `nope`"));
    let url = |p: &str| format!("http://{}{p}", server.addr);
    let (status, body) = http(
        &url("/api/lessons/basics/1/try"),
        Some("{\"t\":\"click\",\"click\":\"C3R\"}"),
    )
    .await;
    assert_eq!(status, 200);
    let answer: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(answer["reached"], false);
    assert_eq!(answer["reason"], "rotor C3 holds none of your pieces");
    let (status, _) = http(&url("/api/lessons/basics/9/try"), Some("{}")).await;
    assert_eq!(status, 404);
    let (status, body) = http(&url("/api/lessons/basics/1/try"), Some("not json")).await;
    assert_eq!(status, 400, "{body}");
    let big = format!("{{\"t\":\"click\",\"click\":\"{}\"}}", "x".repeat(2000));
    let (status, _) = http(&url("/api/lessons/basics/1/try"), Some(&big)).await;
    assert_eq!(status, 413);
}

/// A GET (or a POST of `body`) over a plain socket; the status and the body.
async fn http(url: &str, body: Option<&str>) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").expect("http");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut s = tokio::net::TcpStream::connect(host)
        .await
        .expect("connects");
    let req = match body {
        None => format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
        Some(b) => format!(
            "POST {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{b}",
            b.len()
        ),
    };
    s.write_all(req.as_bytes()).await.expect("sent");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn axe_core_finds_no_serious_violation_on_the_lessons() {
    let axe = axe_source();
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    let mut found = Vec::new();
    open(&page, &base, "/learn", "max").await;
    listed(&page).await;
    for (what, path) in [("list", None), ("lesson", Some("/learn/hydra-2"))] {
        if let Some(path) = path {
            open(&page, &base, path, "max").await;
            wait_js(
                &page,
                "document.querySelectorAll('[data-hint]').length === 1",
                "the lesson",
            )
            .await;
        }
        for x in axe_violations(&page, &axe).await {
            found.push(format!("{what}: {x}"));
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

//! Lesson progress for a claimed account, kept on the server (`/api/progress`): over HTTP on
//! SQLite (PostgreSQL: `postgres.rs`), and in headless Chromium: a lesson completed while
//! logged in shows done on `/learn` in a fresh browser profile logged in as the same account,
//! while a guest's progress stays in his own browser.

use crate::chromium;

use chromium::{js, open, press, text, type_into, wait_js, wait_text, Driver};
use orion_tests::TestServer;
use serde_json::json;

#[tokio::test]
async fn a_claimed_accounts_progress_is_kept_and_bad_requests_are_refused_in_words() {
    let server = TestServer::start();
    orion_tests::progress::lesson_progress_follows_the_account(&server).await;
}

const PASSWORD: &str = "correct horse battery";

/// Plays the lesson open on `page` to its end by pressing `[data-hint]` alone.
async fn complete(page: &fantoccini::Client, id: &str) {
    wait_text(page, "#lesson-status", "step 1/").await;
    for press_no in 1.. {
        assert!(press_no <= 60, "{id}: no end after 60 presses");
        if text(page, "#lesson-status").await == "done" {
            break;
        }
        wait_js(
            page,
            "document.getElementById('lesson-status').textContent === 'done' || \
             (!window.__orion.lesson.busy && document.querySelectorAll('[data-hint]').length === 1)",
            &format!("{id}: the next hint"),
        )
        .await;
        if text(page, "#lesson-status").await == "done" {
            break;
        }
        press(page, "[data-hint]").await;
    }
    assert_eq!(text(page, "#lesson-reason").await, "", "{id}: no refusal");
}

/// The steps done `/learn` shows for `id` on `page`, once its list is there.
async fn shown(page: &fantoccini::Client, id: &str) -> String {
    let sel = format!("[data-lesson=\"{id}\"] .lesson-progress");
    wait_js(
        page,
        &format!("!!document.querySelector('{sel}')"),
        "the lessons",
    )
    .await;
    text(page, &sel).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_done_logged_in_shows_done_in_a_fresh_browser_logged_in_as_the_same_account() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    // One device: claim the name, then do the basics.
    let first = driver.browser(1280, 900).await;
    open(&first, &base, "/", "pia").await;
    type_into(&first, "#claim-password", PASSWORD).await;
    press(&first, "#claim button[type=submit]").await;
    wait_js(&first, "window.__orion.account === true", "the claim").await;
    open(&first, &base, "/learn/basics", "pia").await;
    wait_js(&first, "window.__orion.account === true", "logged in").await;
    complete(&first, "basics").await;
    // The last step's progress has reached the server.
    let saved = js(
        &first,
        "return window.__orion.lesson.saved.then(() => fetch('/api/progress', {headers: \
         {authorization: 'Bearer ' + localStorage.getItem('orion.token')}})).then(r => r.json())",
    )
    .await;
    assert!(
        saved["progress"]["basics"].as_u64().unwrap_or(0) >= 3,
        "{saved}"
    );
    // Another device, a fresh profile: nothing done there as a guest.
    let second = driver.browser(1280, 900).await;
    open(&second, &base, "/learn", "guest2").await;
    assert!(!shown(&second, "basics").await.contains("done"));
    // It logs in as the same account (the front door's log-in form): /learn shows it done.
    open(&second, &base, "/", "guest2").await;
    type_into(&second, "#login-name", "pia").await;
    type_into(&second, "#login-password", PASSWORD).await;
    press(&second, "#login button[type=submit]").await;
    wait_js(&second, "window.__orion.account === true", "the log-in").await;
    press(&second, "#learn-link").await;
    wait_js(&second, "location.pathname === '/learn'", "/learn").await;
    wait_text(&second, "[data-lesson=\"basics\"] .lesson-progress", "done").await;
    // A guest in a third browser sees nothing of it.
    let third = driver.browser(1280, 900).await;
    open(&third, &base, "/learn", "gus").await;
    assert!(!shown(&third, "basics").await.contains("done"));
    let errors = js(&second, "return window.__orion.jsErrors || []").await;
    assert_eq!(errors, json!([]), "no script errors");
}

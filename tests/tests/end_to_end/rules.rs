//! The rules pages (`/rules`, `/rules/GAME`) in headless Chromium against a real server: the
//! front door links the index, the index lists every game, a game's page holds its rules
//! from `docs/rules.md` with every diagram drawn by the game's own board module, links its
//! lesson and starts a game against the computer; an unknown game gets a 404 in words; the
//! lessons link the rules; axe-core finds no serious or critical violation.

use crate::chromium;

use chromium::{axe_source, axe_violations, js, open, press, text, wait_js, wait_text, Driver};
use orion_tests::progress::http;
use orion_tests::TestServer;
use serde_json::Value;

/// Waits for the rules page open on `page` to have drawn its diagrams; how many it drew.
async fn drawn(page: &fantoccini::Client, id: &str) -> u64 {
    wait_js(
        page,
        &format!("!!(window.__orion.rules && window.__orion.rules.id === '{id}')"),
        &format!("the rules of {id}"),
    )
    .await;
    let rules = js(page, "return window.__orion.rules").await;
    assert_eq!(
        rules["drawn"], rules["diagrams"],
        "{id}: every diagram drawn: {rules}"
    );
    rules["drawn"].as_u64().unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_has_a_rules_page_with_its_diagrams_drawn_and_links_to_learn_and_play() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    // The front door links the index; the index lists every game, Orbit and Orbs too.
    open(&page, &base, "/", "rui").await;
    press(&page, "#rules-link").await;
    wait_js(&page, "location.pathname === '/rules'", "/rules").await;
    wait_js(&page, "window.__orion.rulesGames > 0", "the games").await;
    let ids = js(
        &page,
        "return [...document.querySelectorAll('[data-game]')].map(e => e.dataset.game)",
    )
    .await;
    let ids: Vec<String> = serde_json::from_value(ids).expect("ids");
    for id in ["hydra-2", "algol", "orbit", "orbs"] {
        assert!(ids.iter().any(|i| i == id), "{id} in {ids:?}");
    }
    let (_, catalogue) = http(&server, "GET", "/catalogue.json", None).await;
    let catalogue: Value = serde_json::from_str(&catalogue).expect("the catalogue");
    let games: Vec<&str> = (catalogue["games"].as_array().expect("games").iter())
        .filter(|g| g["puzzle"] != true)
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(
        ids, games,
        "every game of the catalogue, in its order, no puzzle"
    );
    // Every page: its title, its text, every figure drawn with a board and labelled.
    for id in &ids {
        open(&page, &base, &format!("/rules/{id}"), "rui").await;
        assert!(drawn(&page, id).await >= 1, "{id} has a diagram");
        assert!(text(&page, "#rules-title").await.ends_with("the rules"));
        let figures = js(
            &page,
            "return [...document.querySelectorAll('figure.diagram')].map(f => ({svg: \
             !!f.querySelector('svg'), label: document.getElementById(f.querySelector('[role=img]')\
             .getAttribute('aria-labelledby')).textContent}))",
        )
        .await;
        for f in figures.as_array().expect("figures") {
            assert_eq!(f["svg"], true, "{id}: {f}");
            assert!(
                f["label"].as_str().is_some_and(|l| l.len() > 10),
                "{id}: {f}"
            );
        }
    }
    // Hydra's page: its own rules and ORION's, and the way to its lesson.
    open(&page, &base, "/rules/hydra-2", "rui").await;
    drawn(&page, "hydra-2").await;
    let body = text(&page, "#rules-text").await;
    assert!(body.contains("First chain from one"), "its section");
    assert!(body.contains("The five basic rules"), "the shared rules");
    press(&page, "#rules-lesson").await;
    wait_js(
        &page,
        "location.pathname === '/learn/hydra-2'",
        "its lesson",
    )
    .await;
    wait_text(&page, "#lesson-status", "step 1/").await;
    // The lesson links back to the rules.
    press(&page, "#lesson-rules").await;
    wait_js(&page, "location.pathname === '/rules/hydra-2'", "back").await;
    drawn(&page, "hydra-2").await;
    // The lessons' list links each game's rules.
    press(&page, "#learn-link").await;
    wait_js(
        &page,
        "!!document.querySelector('[data-lesson=\"orbs\"] .lesson-rules')",
        "the lessons",
    )
    .await;
    press(&page, "[data-lesson=\"orbs\"] .lesson-rules").await;
    wait_js(&page, "location.pathname === '/rules/orbs'", "Orbs' rules").await;
    drawn(&page, "orbs").await;
    open(&page, &base, "/rules/hydra-2", "rui").await;
    drawn(&page, "hydra-2").await;
    // Play the computer from the rules page.
    press(&page, "#rules-computer").await;
    wait_js(&page, "/^\\/r\\//.test(location.pathname)", "a room").await;
    wait_text(&page, "#status", "playing").await;
    // An unknown game: a 404, in words, on the page and over HTTP.
    let (status, body) = http(&server, "GET", "/rules/chess", None).await;
    assert_eq!(status, 404);
    assert!(body.contains("<html"), "the page itself");
    let (status, body) = http(&server, "GET", "/api/rules/chess", None).await;
    assert_eq!(status, 404);
    assert!(body.contains("there is no game `chess`"), "{body}");
    assert_eq!(http(&server, "GET", "/rules/orbs", None).await.0, 200);
    open(&page, &base, "/rules/chess", "rui").await;
    wait_text(&page, "#rules-missing", "there is no game `chess`").await;
    assert_eq!(text(&page, "#rules-title").await, "No such game");
    let errors = js(&page, "return window.__orion.jsErrors || []").await;
    assert_eq!(errors, Value::Array(vec![]), "no script errors");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn axe_core_finds_no_serious_violation_on_the_rules_pages() {
    let axe = axe_source();
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1280, 900).await;
    let mut found = Vec::new();
    open(&page, &base, "/rules", "max").await;
    wait_js(&page, "window.__orion.rulesGames > 0", "the index").await;
    for x in axe_violations(&page, &axe).await {
        found.push(format!("index: {x}"));
    }
    for id in ["hydra-2", "orbit", "orbs"] {
        open(&page, &base, &format!("/rules/{id}"), "max").await;
        drawn(&page, id).await;
        for x in axe_violations(&page, &axe).await {
            found.push(format!("{id}: {x}"));
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

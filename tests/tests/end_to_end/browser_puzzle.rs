//! A puzzle's help on the page, in a real browser (headless Chromium, as `browser.rs`): the
//! solver takes clicks back with the `u` key and the Undo button (the board, the count and
//! the move list go back with them), and follows hints (`h`, the Hint button: the rotor and
//! the half to press are lit) to the finish; the result says the solve used hints and is not
//! on the board.

use crate::chromium;

use chromium::{js, keys, open, press, wait_js, wait_text, Driver};
use fantoccini::Client as Browser;
use orion_engine::puzzles;
use orion_tests::{expand, TestServer};
use serde_json::Value;

/// Presses the rotor half `click` and waits for the room to take it.
async fn click(page: &Browser, click: &str) {
    let before = js(page, "return window.__orion.seq || 0").await;
    press(page, &format!("[data-click=\"{click}\"]")).await;
    wait_js(
        page,
        &format!("(window.__orion.seq || 0) > {before}"),
        "the click taken",
    )
    .await;
}

/// The clicks the puzzle's turn line counts now (`clicks N / 24`).
async fn used(page: &Browser) -> Value {
    js(page, "return window.__orion.room.s.turn.used").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solver_undoes_by_key_and_button_and_follows_hints_to_a_solve_kept_off_the_board() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let mut driver = Driver::start();
    let page = driver.browser(1000, 1000).await;
    open(&page, &base, "/", "tia").await;
    press(&page, "[data-puzzle=\"aquila\"]").await;
    wait_js(
        &page,
        "/^\\/r\\//.test(location.pathname) && document.querySelectorAll('[data-piece]').length > 0",
        "the puzzle's board",
    )
    .await;
    // Nothing to take back yet: the Undo button is there, and off.
    wait_js(
        &page,
        "(() => { const u = document.getElementById('undo'); return u && !u.hidden && u.disabled })()",
        "an Undo button, off",
    )
    .await;
    wait_text(&page, ".keys", "u undoes your last click, h shows a hint").await;

    let aquila = puzzles::find("aquila").expect("aquila");
    let line = expand(aquila.booklet_solution.expect("printed"));
    for c in &line[..3] {
        click(&page, c).await;
    }
    wait_text(
        &page,
        "#moves",
        &format!("{}, {}, {}", line[0], line[1], line[2]),
    )
    .await;
    let after_two = js(&page, "return window.__orion.room.moves.position").await;

    // The `u` key takes the third back, the Undo button the second.
    keys(&page, "u").await;
    wait_text(
        &page,
        "#note",
        &format!("{} taken back: 2 clicks stand", line[2]),
    )
    .await;
    assert_eq!(used(&page).await, 2);
    press(&page, "#undo").await;
    wait_text(
        &page,
        "#note",
        &format!("{} taken back: 1 click stands", line[1]),
    )
    .await;
    assert_eq!(used(&page).await, 1);
    let moves = js(&page, "return document.getElementById('moves').textContent").await;
    let moves = moves.as_str().unwrap_or_default();
    assert!(
        moves.contains(&format!("1. tia: {}", line[0])) && !moves.contains(&line[1]),
        "the move list lost the clicks taken back: {moves}"
    );
    // The board shows the position after the first click (the one before the second).
    assert_ne!(
        js(&page, "return window.__orion.room.moves.position").await,
        after_two
    );

    // Near the finish, hints lead the way: each lights the half to press.
    for c in &line[1..18] {
        click(&page, c).await;
    }
    let mut hints = 0;
    while js(&page, "return window.__orion.room.s.status").await == "playing" {
        let before = js(&page, "return window.__orion.seq || 0").await;
        if hints % 2 == 0 {
            keys(&page, "h").await;
        } else {
            press(&page, "#hint").await;
        }
        wait_js(
            &page,
            &format!(
                "(window.__orion.seq || 0) > {before} && !!document.querySelector('.half.hinted')"
            ),
            "a hint shown",
        )
        .await;
        hints += 1;
        wait_text(&page, "#note", "Hint: turn").await;
        let lit = js(
            &page,
            "return document.querySelector('.half.hinted').dataset.click",
        )
        .await;
        let lit = lit.as_str().expect("a click").to_string();
        assert!(
            js(
                &page,
                &format!(
                    "return document.querySelector('.rotor.hinted').dataset.rotor === '{}'",
                    &lit[..2]
                )
            )
            .await
                == true,
            "the hinted rotor is ringed"
        );
        click(&page, &lit).await;
        assert!(hints < 10, "hints never reached the finish");
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
    let plural = if hints > 1 { "s" } else { "" };
    assert!(
        result.contains(&format!("with {hints} hint{plural}: not on the board")),
        "{result}"
    );
    let _ = page.close().await;
}

//! `orion learn` end to end, driven in tmux: a real server (in-process, port 0) serves the
//! lessons; the client plays Hydra for Two by keys alone, pressing the key (or typing the
//! word: `end`) the screen says acts on the element it marks (the terminal's `data-hint`), as
//! the Chromium test presses `[data-hint]`; it ends the turn, and claims a chain the
//! teacher's click made. A wrong key gets the engine's reason and the same step; the last screen says
//! `done` and starts a game against the computer; the list then shows the lesson done.
//!
//! It needs tmux (`.ci/run` installs it when missing) and fails, never skips, without it.

use crate::common;

use common::tmux::Session;
use serde_json::Value;

/// The lesson played: its steps' texts, as the server has them.
fn steps(id: &str) -> Vec<String> {
    let path = format!("{}/../lessons/{id}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the lesson file");
    let lesson: Value = serde_json::from_str(&text).expect("a lesson");
    (lesson["steps"].as_array().expect("steps").iter())
        .map(|s| s["text"].as_str().expect("a text").to_string())
        .collect()
}

/// What the screen says acts on the marked element: a key (`▶ rotor A4 is under the cursor:
/// ] turns it right`, `▶ ! claims the chain`) or a word to type (`▶ type end to end the turn`).
#[derive(Debug)]
enum Marked {
    Key(char),
    Line(String),
}

fn marked(screen: &str) -> Option<Marked> {
    let line = screen.lines().find(|l| l.contains("▶ "))?;
    let (_, mark) = line.split_once("▶ ")?;
    if let Some((_, after)) = mark.split_once("is under the cursor: ") {
        return (after.chars().next())
            .filter(|c| matches!(c, '[' | ']'))
            .map(Marked::Key);
    }
    if mark.starts_with("! claims") {
        return Some(Marked::Key('!'));
    }
    let (word, _) = mark.strip_prefix("type ")?.split_once(" to ")?;
    Some(Marked::Line(word.to_string()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_played_by_keys_alone() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    let (_stop, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(orion_server::run(listener, async {
        let _ = rx.await;
    }));
    let config = std::env::temp_dir().join(format!("orion-learn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&config);
    let orion = env!("CARGO_BIN_EXE_orion");
    let env = format!("env ORION_CONFIG_DIR={}", config.display());
    let name = format!("orion-learn-{}", std::process::id());
    let s = Session::start(
        &name,
        &format!("{env} {orion} learn hydra-2 --server {url} --name ann"),
    );
    let texts = steps("hydra-2");
    let count = texts.len();
    // The start of each step's text: the box is wide enough for it on one line.
    let opening = |i: usize| texts[i].chars().take(28).collect::<String>();

    let screen = s.wait_for(&format!("step 1/{count}")).await;
    assert!(screen.contains(&opening(0)), "{screen}");
    assert!(
        matches!(marked(&screen), Some(Marked::Key(_))),
        "the rotor to turn is marked:\n{screen}"
    );
    // A wrong key: the cursor three rotors down, from A4 to A1, which holds no blue piece.
    for _ in 0..3 {
        s.key("Down");
    }
    s.text("]");
    let screen = s.wait_for("holds none of your pieces").await;
    assert!(
        screen.contains("A1"),
        "the engine's reason names the rotor:\n{screen}"
    );
    assert!(
        screen.contains("Hint:"),
        "the hint comes with it:\n{screen}"
    );
    assert!(
        screen.contains(&format!("step 1/{count}")) && screen.contains(&opening(0)),
        "the same step stays:\n{screen}"
    );
    // `?` shows the hint and puts the mark back; the marked key does the step.
    s.text("?");
    let mut screen = s.wait_for("hint: ").await;
    for i in 0..count {
        assert!(
            screen.contains(&opening(i)),
            "step {}'s text:\n{screen}",
            i + 1
        );
        match marked(&screen) {
            Some(Marked::Key(key)) => s.text(&key.to_string()),
            Some(Marked::Line(word)) => s.line(&word),
            None => panic!("no mark at step {}:\n{screen}", i + 1),
        }
        screen = if i + 1 < count {
            let next = format!("step {}/{count}", i + 2);
            s.wait_until(&next, |sc| sc.contains(&next) && marked(sc).is_some())
                .await
        } else {
            s.wait_for("Lesson complete: Hydra for Two").await
        };
    }
    assert!(screen.contains("done"), "{screen}");
    assert!(screen.contains("play the computer"), "{screen}");
    // The last screen's offer: a game against the computer, as `play --computer` starts it.
    s.text("c");
    s.wait_for("a computer player (level 2) sits at").await;
    s.line("quit");
    drop(s);

    // The list remembers the lesson done.
    let s = Session::start(
        &format!("{name}-list"),
        &format!("{env} {orion} learn --server {url}"),
    );
    let screen = s
        .wait_until("Hydra for Two done", |sc| {
            sc.lines()
                .any(|l| l.contains("Hydra for Two") && l.contains("done"))
        })
        .await;
    assert!(
        screen.contains("The board and the five rules"),
        "every lesson is listed:\n{screen}"
    );
    s.text("q");
    drop(s);
    let _ = std::fs::remove_dir_all(config);
}

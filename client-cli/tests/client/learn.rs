//! Every lesson the server lists, completed through `orion learn`'s state machine (no
//! terminal) against a real server (in-process, port 0): at each step the learner types what
//! the board's mark says (`type A4R`, `type h8`, `type end`), the try goes to the server, and
//! the step must be reached; then the replies and the next step follow on a manual clock.
//! The client has no code of its own for any lesson: one it cannot play fails here.

use orion_cli::learn::app::{Call, Learn, Page, Phase, PAUSE};
use orion_cli::learn::http::Server;
use orion_cli::learn::progress::Progress;
use orion_cli::tui::key::Key;

/// Makes every call the state machine asked for, and hands it the answers.
async fn settle(learn: &mut Learn, server: &Server) {
    while !learn.out.is_empty() {
        let calls: Vec<Call> = learn.out.drain(..).collect();
        for call in calls {
            let reply = call.make(server).await;
            learn.on_reply(reply);
        }
    }
}

/// What the mark says to type: the words after `type `, up to ` to ` or `)` (`(or type
/// A4R)`, `type end to end the turn`, `type secret R7 to …`, `type h8`).
fn to_type(target: &str) -> Option<String> {
    let (_, after) = target.split_once("type ")?;
    let words = after.split(')').next()?.split(" to ").next()?.trim();
    (!words.is_empty()).then(|| words.to_string())
}

fn typed(learn: &mut Learn, line: &str) {
    for c in line.chars() {
        learn.on_key(Key::Char(c));
    }
    learn.on_key(Key::Enter);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_lesson_completes_by_its_marks() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    let (_stop, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(orion_server::run(listener, async {
        let _ = rx.await;
    }));
    let server = Server::from_url(&url).unwrap();
    let dir = std::env::temp_dir().join(format!("orion-learn-all-{}", std::process::id()));
    let progress = dir.join("lessons.json");

    let mut list = Learn::new(None, Progress::at(progress.clone()), 0);
    settle(&mut list, &server).await;
    assert!(
        list.lessons.len() >= 13,
        "the server lists its lessons: {:?}",
        list.message
    );
    for lesson in list.lessons.clone() {
        let mut learn = Learn::new(Some(lesson.id.clone()), Progress::at(progress.clone()), 0);
        settle(&mut learn, &server).await;
        assert_eq!(
            learn.page,
            Page::Lesson,
            "{}: {:?}",
            lesson.id,
            learn.message
        );
        let mut now = 0;
        let mut steps = 0;
        while learn.phase != Phase::Done {
            steps += 1;
            assert!(
                steps <= lesson.steps,
                "{}: more steps than listed",
                lesson.id
            );
            assert_eq!(learn.status(), format!("step {steps}/{}", lesson.steps));
            let target = learn.target.clone().unwrap_or_else(|| {
                panic!("{} step {steps}: nothing marked on the board", lesson.id)
            });
            let word = to_type(&target).unwrap_or_else(|| {
                panic!(
                    "{} step {steps}: the mark says no move: {target}",
                    lesson.id
                )
            });
            typed(&mut learn, &word);
            assert_eq!(
                learn.phase,
                Phase::Trying,
                "{} step {steps}: {:?}",
                lesson.id,
                learn.message
            );
            settle(&mut learn, &server).await;
            assert!(
                matches!(learn.phase, Phase::Replies { .. }),
                "{} step {steps}: `{word}` (marked: {target}) not reached: {:?}",
                lesson.id,
                learn.reason
            );
            // The replies after a pause, then the next step after another.
            now += PAUSE;
            learn.tick(now);
            now += PAUSE;
            learn.tick(now);
        }
        assert_eq!(steps, lesson.steps, "{}", lesson.id);
        assert_eq!(learn.status(), "done");
    }
    // The list marks every lesson done.
    let mut again = Learn::new(None, Progress::at(progress), 0);
    settle(&mut again, &server).await;
    for l in &again.lessons {
        assert_eq!(again.progress.mark_text(&l.id, l.steps), "done", "{}", l.id);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_try_keeps_the_step_with_the_engines_reason() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    let (_stop, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(orion_server::run(listener, async {
        let _ = rx.await;
    }));
    let server = Server::from_url(&url).unwrap();
    let dir = std::env::temp_dir().join(format!("orion-learn-wrong-{}", std::process::id()));
    let mut learn = Learn::new(
        Some("basics".into()),
        Progress::at(dir.join("lessons.json")),
        0,
    );
    settle(&mut learn, &server).await;
    assert_eq!(learn.status(), "step 1/5");
    // D5 holds only blue pieces: the engine refuses, the step stays, the hint comes along.
    typed(&mut learn, "D5R");
    settle(&mut learn, &server).await;
    let reason = learn.reason.clone().expect("a reason");
    assert!(
        reason.contains("D5") && reason.contains("Hint:"),
        "{reason}"
    );
    assert_eq!(
        (learn.status(), &learn.phase),
        ("step 1/5".to_string(), &Phase::Open)
    );
    // A legal move that is not the step's: said so, the step stays.
    typed(&mut learn, "C1L");
    settle(&mut learn, &server).await;
    let reason = learn.reason.clone().expect("a reason");
    assert!(reason.contains("not what this step asks"), "{reason}");
    assert_eq!(learn.status(), "step 1/5");
    // Nonsense typed is the game's own parse error, and no try goes out.
    typed(&mut learn, "Z9R");
    assert!(learn.out.is_empty());
    assert!(
        learn
            .message
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("Z9R")),
        "{:?}",
        learn.message
    );
    // `*` sets the step up again: the reason goes, the mark comes back.
    learn.on_key(Key::Char('*'));
    assert!(learn.reason.is_none());
    assert!(
        learn.target.as_deref().is_some_and(|t| t.contains("C1")),
        "{:?}",
        learn.target
    );
    // An unknown lesson: the list, saying so.
    let mut none = Learn::new(
        Some("sudoku".into()),
        Progress::at(dir.join("lessons.json")),
        0,
    );
    settle(&mut none, &server).await;
    assert_eq!(none.page, Page::List);
    assert!(
        none.message
            .as_ref()
            .is_some_and(|(m, _)| m.contains("no lesson `sudoku`")),
        "{:?}",
        none.message
    );
    let _ = std::fs::remove_dir_all(dir);
}

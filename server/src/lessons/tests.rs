//! Every lesson replayed through its engine: each file parses, each step's start sets up,
//! each solution reaches its goal, each step's wrong try is refused with the engine's own
//! reason and keeps the step, and no click the engine refuses reaches any goal.

use super::check::{Lessons, Outcome};
use serde_json::{json, Value};

fn lessons() -> Lessons<'static> {
    static SYSTEMS: std::sync::OnceLock<Vec<std::sync::Arc<dyn crate::system::GameSystem>>> =
        std::sync::OnceLock::new();
    Lessons::new(SYSTEMS.get_or_init(crate::systems::all), super::embedded())
}

#[test]
fn every_lesson_file_parses() {
    for (name, lesson) in super::files() {
        let lesson = lesson.unwrap_or_else(|e| panic!("lessons/{name}.json: {e}"));
        assert_eq!(lesson.id, name, "lessons/{name}.json names itself");
        assert!(!lesson.steps.is_empty(), "{name} has steps");
        assert!(
            lesson.steps[0].setup.is_some(),
            "{name}'s first step sets itself up"
        );
    }
    assert_eq!(super::embedded().len(), super::files().len());
}

#[test]
fn every_solution_reaches_its_goal_through_the_engine() {
    let lessons = lessons();
    for lesson in lessons.all() {
        for (i, step) in lesson.steps.iter().enumerate() {
            let outcome = lessons.attempt(&lesson.id, i, &step.solution);
            match outcome {
                Ok(Outcome::Reached { events, .. }) => {
                    assert!(
                        !events.is_empty(),
                        "{} step {}: the try did something",
                        lesson.id,
                        i + 1
                    )
                }
                other => panic!("{} step {}: {other:?}", lesson.id, i + 1),
            }
            // Another right answer is right too.
            for also in &step.also {
                match lessons.attempt(&lesson.id, i, also).unwrap() {
                    Outcome::Reached { .. } => {}
                    other => panic!("{} step {}: {also}: {other:?}", lesson.id, i + 1),
                }
            }
            // A legal move that is not the goal is said to be so, and is not taken.
            if let Some(missed) = &step.missed {
                let mut stage = lessons.stage(&lesson.id, i).unwrap();
                assert!(stage.engine_takes(missed), "{} step {}", lesson.id, i + 1);
                match lessons.attempt(&lesson.id, i, missed).unwrap() {
                    Outcome::Missed(reason) => assert!(reason.contains("not what this step asks")),
                    other => panic!("{} step {}: {missed}: {other:?}", lesson.id, i + 1),
                }
            }
        }
    }
}

#[test]
fn every_lesson_ends_in_a_game_the_learner_wins() {
    // The last step of every lesson of a game is the end of a short scripted game: its
    // solution ends it, and the learner's side wins.
    let lessons = lessons();
    for lesson in lessons.all().iter().filter(|l| l.id != "basics") {
        let last = lesson.steps.len() - 1;
        let Outcome::Reached { events, .. } = lessons
            .attempt(&lesson.id, last, &lesson.steps[last].solution)
            .unwrap()
        else {
            panic!("{}: the last step is not reached", lesson.id);
        };
        let seat = lessons.stage(&lesson.id, last).unwrap().player().0;
        let over = events
            .iter()
            .filter_map(|e| serde_json::from_str::<Value>(e).ok())
            .find(|e| e["kind"] == "over")
            .unwrap_or_else(|| panic!("{}: the last step ends no game", lesson.id));
        let winner = over["result"]["winner"].as_str().unwrap_or_default();
        assert!(
            winner.split('+').any(|w| w == seat),
            "{}: {over} is not the learner's ({seat}) win",
            lesson.id
        );
    }
}

/// The steps whose goal is of `kind`, with their lesson.
fn steps_of(kind: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for lesson in super::embedded() {
        for (i, step) in lesson.steps.iter().enumerate() {
            let goal = serde_json::to_value(&step.goal).unwrap();
            if goal["kind"] == kind {
                found.push((lesson.id.clone(), i));
            }
        }
    }
    found
}

#[test]
fn a_goal_that_names_what_a_step_teaches_takes_another_right_answer_and_refuses_a_wrong_one() {
    // Reaching a position, a placement, a secret man, a challenge: each kind is taught by
    // some step that takes an answer other than its scripted one, and whose wrong try the
    // engine refuses with its reason (the other checks run over every step).
    let lessons = lessons();
    for kind in ["reach", "place", "event"] {
        let steps = steps_of(kind);
        let taught = steps.iter().any(|(id, i)| {
            let step = &lessons.find(id).unwrap().steps[*i];
            !step.also.is_empty()
                && step.also.iter().all(|a| *a != step.solution)
                && step
                    .wrong
                    .as_ref()
                    .is_some_and(|w| matches!(lessons.attempt(id, *i, w), Ok(Outcome::Refused(_))))
        });
        assert!(
            taught,
            "no `{kind}` step takes another right answer: {steps:?}"
        );
    }
    // A chain: the click that forms it is the goal, another legal click is told it is not.
    let chained = steps_of("chain").iter().any(|(id, i)| {
        let step = &lessons.find(id).unwrap().steps[*i];
        step.missed
            .as_ref()
            .is_some_and(|m| matches!(lessons.attempt(id, *i, m), Ok(Outcome::Missed(_))))
    });
    assert!(
        chained,
        "a chain step tells a legal miss it is not the chain"
    );
    // A challenge: found, it scores and ends the game; a suspect out of line is refused in
    // the engine's words.
    let (id, i) = steps_of("challenge").pop().expect("a challenge step");
    let step = &lessons.find(&id).unwrap().steps[i];
    match lessons
        .attempt(&id, i, step.wrong.as_ref().unwrap())
        .unwrap()
    {
        Outcome::Refused(reason) => assert!(reason.contains("in line"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_reach_goal_counts_the_pieces_on_its_slots() {
    // Libra: four red men on the top border after A5L (C5n, D5n, E5n and the corner).
    let lessons = lessons();
    let libra = lessons.find("libra").unwrap();
    let i = (libra.steps.iter())
        .position(|s| {
            s.goal
                == super::lesson::Goal::Reach {
                    slots: ["A5n", "B5n", "C5n", "D5n", "E5n"]
                        .map(String::from)
                        .to_vec(),
                    pieces: Some("R".into()),
                    count: Some(4),
                }
        })
        .expect("the fourth man's step");
    assert!(matches!(
        lessons
            .attempt("libra", i, &json!({"t":"click","click":"A5L"}))
            .unwrap(),
        Outcome::Reached { .. }
    ));
    // The same step asking for all five is not reached by that click.
    let mut five: super::Lesson = libra.clone();
    five.steps[i].goal = super::lesson::Goal::Reach {
        slots: ["A5n", "B5n", "C5n", "D5n", "E5n"]
            .map(String::from)
            .to_vec(),
        pieces: Some("R".into()),
        count: Some(5),
    };
    let list = [five];
    let systems = crate::systems::all();
    let five = Lessons::new(&systems, &list);
    assert!(matches!(
        five.attempt("libra", i, &json!({"t":"click","click":"A5L"}))
            .unwrap(),
        Outcome::Missed(_)
    ));
}

#[test]
fn a_wrong_try_gets_the_engines_reason_and_keeps_the_step() {
    let lessons = lessons();
    let mut checked = 0;
    for lesson in lessons.all() {
        for (i, step) in lesson.steps.iter().enumerate() {
            let Some(wrong) = &step.wrong else { continue };
            let before = lessons.stage(&lesson.id, i).unwrap().view(&lesson.game);
            match lessons.attempt(&lesson.id, i, wrong).unwrap() {
                Outcome::Refused(reason) => {
                    assert!(!reason.is_empty(), "{} step {}", lesson.id, i + 1)
                }
                other => panic!(
                    "{} step {}: {wrong} was not refused: {other:?}",
                    lesson.id,
                    i + 1
                ),
            }
            // Stateless: the step is set up again as it was.
            let after = lessons.stage(&lesson.id, i).unwrap().view(&lesson.game);
            assert_eq!(before.0.position, after.0.position);
            checked += 1;
        }
    }
    assert!(
        checked >= lessons.all().len(),
        "every lesson has a wrong try somewhere"
    );
}

#[test]
fn no_goal_is_reached_by_an_action_the_engine_refuses() {
    // Every request a page could send on ORION's board (every click, claim, end of turn,
    // the die or three) at every step of every ORION lesson: whatever reaches a goal is an
    // action the engine took.
    let mut tries: Vec<Value> = vec![
        json!({"t":"claim"}),
        json!({"t":"end_turn"}),
        json!({"t":"roll"}),
        json!({"t":"three"}),
    ];
    for colour in ["R", "B"] {
        for n in 1..=16 {
            tries.push(json!({"t":"secret","piece":format!("{colour}{n}")}));
            tries.push(json!({"t":"challenge","piece":format!("{colour}{n}")}));
        }
    }
    for c in "ABCDE".chars() {
        for r in 1..=5 {
            for d in ["L", "R"] {
                tries.push(json!({"t":"click","click":format!("{c}{r}{d}")}));
            }
        }
    }
    // And every move a page could send on Orbit's board: each cell, pass, a colour.
    let mut cells: Vec<Value> = ["pass", "black", "white"]
        .iter()
        .map(|m| json!({"t": "move", "move": m}))
        .collect();
    for c in 'a'..='p' {
        for r in 1..=16 {
            cells.push(json!({"t": "move", "move": format!("{c}{r}")}));
        }
    }
    let lessons = lessons();
    for lesson in lessons.all() {
        let tries = match lesson.game.as_str() {
            "orbit" => &cells,
            "orbs" => continue,
            _ => &tries,
        };
        for i in 0..lesson.steps.len() {
            for t in tries {
                let mut stage = lessons.stage(&lesson.id, i).unwrap();
                let engine = stage.engine_takes(t);
                if let Outcome::Reached { .. } = lessons.attempt(&lesson.id, i, t).unwrap() {
                    assert!(
                        engine,
                        "{} step {}: {t} reached the goal but the engine refuses it",
                        lesson.id,
                        i + 1
                    );
                }
            }
        }
    }
}

#[test]
fn a_try_that_is_not_json_or_not_a_request_is_refused_in_words() {
    let lessons = lessons();
    for bad in [
        json!(3),
        json!({"t":"fly"}),
        json!({"t":"click"}),
        json!({"t":"click","click":"Z9R"}),
    ] {
        match lessons.attempt("hydra-2", 0, &bad).unwrap() {
            Outcome::Refused(reason) => assert!(!reason.is_empty()),
            other => panic!("{bad}: {other:?}"),
        }
    }
    assert!(lessons.attempt("nope", 0, &json!({})).is_err());
    assert!(lessons.attempt("hydra-2", 999, &json!({})).is_err());
}

/// Prints the stages of `LESSON_EXPLORE` (`GAME action;action;…`) for writing lessons:
/// `cargo test -p orion-server explore -- --ignored --nocapture`.
#[test]
#[ignore]
fn explore() {
    let spec = std::env::var("LESSON_EXPLORE").unwrap_or_default();
    let (game, actions) = spec.split_once(' ').unwrap_or((&spec, ""));
    let steps: Vec<String> = actions
        .split(';')
        .filter(|a| !a.trim().is_empty())
        .map(|a| a.trim().to_string())
        .collect();
    let text = json!({"id":"x","game":game,"title":"x","about":"x",
        "options": serde_json::from_str::<Value>(&std::env::var("LESSON_OPTIONS").unwrap_or("{}".into())).unwrap(),
        "steps":[{"text":"","setup":steps,"goal":{"kind":"any"},"solution":{"t":"claim"},"hint":""}]});
    let lesson: super::Lesson = serde_json::from_value(text).unwrap();
    let list = [lesson];
    let systems = crate::systems::all();
    let lessons = Lessons::new(&systems, &list);
    match lessons.stage("x", 0) {
        Ok(stage) => {
            let (snap, hints) = stage.view(game);
            println!(
                "{}",
                serde_json::to_string_pretty(&json!({"snapshot": snap, "hints": hints})).unwrap()
            );
        }
        Err(e) => println!("{e}"),
    }
}

/// Plays `LESSON_SELFPLAY` (`GAME LEVEL SEED`) between computer players and prints every
/// action with its seat, for writing a lesson's scripted game:
/// `cargo test -p orion-server selfplay -- --ignored --nocapture`.
#[test]
#[ignore]
fn selfplay() {
    let spec = std::env::var("LESSON_SELFPLAY").unwrap_or_default();
    let words: Vec<&str> = spec.split_whitespace().collect();
    let (game, level, seed) = (
        words[0],
        words[1].parse().unwrap(),
        words[2].parse().unwrap(),
    );
    let level = orion_ai::Level::new(level).unwrap();
    let systems = crate::systems::all();
    let system = systems.iter().find(|s| s.find(game).is_some()).unwrap();
    let info = system.find(game).unwrap().clone();
    let options = system.options(&info, Default::default()).unwrap();
    let mut table = system.table(&info, &options, seed).unwrap();
    let mut now = 0;
    for turn in 0..400 {
        if table.result().is_some() {
            println!("over: {:?}", table.result());
            return;
        }
        now += 1;
        // The mover first; a claim may come from another seat.
        let mover = table.mover();
        let mut seats: Vec<_> = table.seats().iter().map(|s| s.seat).collect();
        seats.retain(|s| *s != mover);
        seats.insert(0, mover);
        let mut moved = false;
        for seat in seats {
            if let Some(job) = table.bot_job(seat, now) {
                if let Some(mv) = job(level, seed + turn) {
                    table.apply(seat, &mv.action, now).unwrap();
                    println!("{seat}> {}", mv.action);
                    moved = true;
                    break;
                }
            }
        }
        if !moved {
            println!("nobody moves");
            return;
        }
    }
}

//! `orion learn`'s screens as one state machine: the lesson list (Up/Down, Enter) and one
//! lesson played step by step on its game's own board (the game system's [`Room`], set up
//! from each step's start). It takes keys, the server's answers and the time, and gives back
//! the calls to make; no terminal or socket in here, so tests drive it directly. It judges
//! nothing: every try goes to the server, whose engine answers.

use super::api::{self, Answer, Lesson, Summary};
use super::progress::Progress;
use crate::systems::{self, Room};
use crate::tui::key::Key;
use orion_protocol::{Event as Ev, Request, Seat as WireSeat};

/// How long what a try did stays on the board before the replies, and the replies before
/// the next step (ms): long enough to see the move.
pub const PAUSE: u64 = 450;
/// The level of the computer players "play the computer" seats (the web page's).
pub const COMPUTER_LEVEL: u8 = 2;
/// Longest line that may be typed.
const MAX_INPUT: usize = 300;

/// A call to the server's lessons API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    /// `GET /api/lessons`.
    List,
    /// `GET /api/lessons/ID`.
    Lesson(String),
    /// `POST /api/lessons/ID/N/try`.
    Try {
        /// The lesson.
        lesson: String,
        /// The step, from 1.
        step: usize,
        /// The request, without its room.
        body: String,
    },
}

/// The server's answer to a [`Call`] (an `Err`: what went wrong, in words).
#[derive(Clone, Debug)]
pub enum Reply {
    /// The list.
    List(Result<Vec<Summary>, String>),
    /// One lesson.
    Lesson(Result<Lesson, String>),
    /// A try judged.
    Tried {
        /// The lesson.
        lesson: String,
        /// The step, from 1.
        step: usize,
        /// The engine's answer.
        answer: Result<Answer, String>,
    },
}

/// Which page is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// The lessons.
    List,
    /// One lesson.
    Lesson,
}

/// Where the step on screen is.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// It waits for the learner's try.
    Open,
    /// A try is out to the server.
    Trying,
    /// The try reached the goal; the scripted replies are shown at `at` (ms).
    Replies {
        /// Their events.
        replies: Vec<Ev<'static>>,
        /// When.
        at: u64,
    },
    /// The step is done; the next one is shown at `at` (ms).
    Next {
        /// When.
        at: u64,
    },
    /// The last step is done: the lesson's last screen.
    Done,
}

/// What to do once the learn screens close.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum After {
    /// Play the computer in this game (what `orion play --computer` does).
    Computer {
        /// The game.
        game: String,
    },
}

/// The whole of `orion learn`.
pub struct Learn {
    /// Which page is up.
    pub page: Page,
    /// The lessons the server lists.
    pub lessons: Vec<Summary>,
    /// The selected row of the list.
    pub selected: usize,
    /// The lesson named on the command line, until the list is in to find it in.
    wanted: Option<String>,
    /// The lesson on screen.
    pub lesson: Option<Lesson>,
    /// Its step on screen, from 0.
    pub at: usize,
    /// The step's board: the lesson's table as a room of its game.
    pub room: Option<Box<dyn Room>>,
    /// Where the step is.
    pub phase: Phase,
    /// What the board marks for the step, in words (the page's `data-hint`).
    pub target: Option<String>,
    /// The last try the engine turned down: its reason and the hint.
    pub reason: Option<String>,
    /// What the learner reads besides the step's text: the step before's `done`, the hint.
    pub note: Option<String>,
    /// The line being typed.
    pub input: String,
    /// The last message, and whether it is an error.
    pub message: Option<(String, bool)>,
    /// Steps done by lesson, kept on disk.
    pub progress: Progress,
    /// The time (ms), as the caller last said.
    pub now: u64,
    /// Calls to make.
    pub out: Vec<Call>,
    /// Set when the learner leaves.
    pub quit: bool,
    /// What to do after (set with `quit`).
    pub after: Option<After>,
}

impl Learn {
    /// The learn screens at time `now`, asking for the list; `wanted` (a lesson id, or a
    /// game's name) opens that lesson once the list is in.
    pub fn new(wanted: Option<String>, progress: Progress, now: u64) -> Learn {
        Learn {
            page: Page::List,
            lessons: Vec::new(),
            selected: 0,
            message: wanted
                .as_ref()
                .map(|w| (format!("loading the lesson {w}…"), false)),
            wanted,
            lesson: None,
            at: 0,
            room: None,
            phase: Phase::Open,
            target: None,
            reason: None,
            note: None,
            input: String::new(),
            progress,
            now,
            out: vec![Call::List],
            quit: false,
            after: None,
        }
    }

    fn info(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), false));
    }

    fn error(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), true));
    }

    /// `step N/M` while a step is on, `done` at the end (the page's `#lesson-status`).
    pub fn status(&self) -> String {
        match (&self.lesson, &self.phase) {
            (Some(_), Phase::Done) => "done".to_string(),
            (Some(l), _) => format!("step {}/{}", self.at + 1, l.steps.len()),
            (None, _) => String::new(),
        }
    }

    /// Whether the computer can be played in the lesson's game (a puzzle has no opponent).
    pub fn computer_game(&self) -> Option<String> {
        let lesson = self.lesson.as_ref()?;
        let (system, id) = systems::named(&lesson.game)?;
        (!system.puzzles().contains(&id.as_str())).then_some(id)
    }

    /// The lesson `word` names: its id (in any case), else the lesson of the game it names.
    fn find(&self, word: &str) -> Option<String> {
        let by_id = self
            .lessons
            .iter()
            .find(|l| l.id.eq_ignore_ascii_case(word));
        let game = systems::named(word).map(|(_, id)| id);
        let by_game = || self.lessons.iter().find(|l| Some(&l.game) == game.as_ref());
        by_id.or_else(by_game).map(|l| l.id.clone())
    }

    /// An answer from the server.
    pub fn on_reply(&mut self, reply: Reply) {
        match reply {
            Reply::List(Ok(lessons)) => {
                self.lessons = lessons;
                self.selected = self.selected.min(self.lessons.len().saturating_sub(1));
                if let Some(word) = self.wanted.take() {
                    match self.find(&word) {
                        Some(id) => self.open(&id),
                        None => self.error(format!("no lesson `{word}`: choose one below")),
                    }
                }
            }
            Reply::List(Err(e)) => self.error(format!("the lessons could not be loaded: {e}")),
            Reply::Lesson(Ok(lesson)) => {
                self.message = None;
                self.page = Page::Lesson;
                self.room = None;
                self.note = None;
                self.lesson = Some(lesson);
                self.show(0);
            }
            Reply::Lesson(Err(e)) => {
                self.page = Page::List;
                self.error(format!("the lesson could not be loaded: {e}"));
            }
            Reply::Tried {
                lesson,
                step,
                answer,
            } => {
                let current = self.lesson.as_ref().is_some_and(|l| l.id == lesson);
                if current && step == self.at + 1 && self.phase == Phase::Trying {
                    self.judged(answer);
                }
            }
        }
    }

    /// Asks for lesson `id`.
    fn open(&mut self, id: &str) {
        self.info(format!("loading the lesson {id}…"));
        self.out.push(Call::Lesson(id.to_string()));
    }

    /// Step `i` at its start: its board from its start snapshot, the element to act on
    /// marked.
    fn show(&mut self, i: usize) {
        let Some(step) = self.lesson.as_ref().and_then(|l| l.steps.get(i)) else {
            return;
        };
        self.at = i;
        let snap = &step.start.snapshot;
        let mut room = systems::room(snap, WireSeat::parse(&step.start.seat));
        if let Some(old) = self.room.as_deref() {
            room.take_over(old);
        }
        self.target = api::solution(step).and_then(|r| room.point_at(&r));
        self.room = Some(room);
        self.reason = None;
        self.phase = Phase::Open;
    }

    /// The step on screen set up again, as it started.
    fn reset(&mut self) {
        if matches!(self.phase, Phase::Open | Phase::Trying) {
            self.note = None;
            self.show(self.at);
            self.info(format!("{} set up again", self.status()));
        }
    }

    /// The lesson from its first step.
    fn restart(&mut self) {
        if self.lesson.is_some() {
            self.room = None;
            self.note = None;
            self.show(0);
            self.info("the lesson starts again");
        }
    }

    fn show_hint(&mut self) {
        let Some(step) = self.lesson.as_ref().and_then(|l| l.steps.get(self.at)) else {
            return;
        };
        if self.phase == Phase::Open {
            self.note = Some(format!("hint: {}", step.hint));
            self.show_hint_mark();
        }
    }

    /// Requests the board made: the first is the try (a step is one action).
    fn attempt(&mut self, requests: Vec<Request>) {
        let Some(first) = requests.first() else {
            return;
        };
        let Some(lesson) = self.lesson.as_ref().map(|l| l.id.clone()) else {
            return;
        };
        match self.phase {
            Phase::Open => {}
            Phase::Trying => return self.error("wait: your try is being checked"),
            Phase::Replies { .. } | Phase::Next { .. } => return,
            Phase::Done => {
                return self.error("the lesson is done: c plays the computer, l the lessons")
            }
        }
        match api::try_body(first) {
            Ok(body) => {
                self.out.push(Call::Try {
                    lesson,
                    step: self.at + 1,
                    body,
                });
                self.phase = Phase::Trying;
                self.message = if requests.len() > 1 {
                    Some(("one action a step: the first is tried".to_string(), false))
                } else {
                    None
                };
            }
            Err(e) => self.error(e),
        }
    }

    /// The engine's answer to the try out.
    fn judged(&mut self, answer: Result<Answer, String>) {
        match answer {
            Err(e) => {
                self.phase = Phase::Open;
                self.reason = Some(format!("the try was not checked: {e}"));
            }
            Ok(Answer::Missed { reason, hint }) => {
                self.phase = Phase::Open;
                self.reason = Some(if hint.is_empty() {
                    reason
                } else {
                    format!("{reason}. Hint: {hint}")
                });
                self.show_hint_mark();
            }
            Ok(Answer::Reached {
                events,
                replies,
                done,
            }) => {
                self.reason = None;
                self.target = None;
                self.play(&events);
                self.note = done;
                let id = self
                    .lesson
                    .as_ref()
                    .map(|l| l.id.clone())
                    .unwrap_or_default();
                if let Err(e) = self.progress.mark(&id, self.at + 1) {
                    self.error(e);
                }
                self.phase = Phase::Replies {
                    replies,
                    at: self.now + PAUSE,
                };
            }
        }
    }

    /// The mark put back on the element to act on (where the learner had moved the cursor
    /// away).
    fn show_hint_mark(&mut self) {
        let Some(step) = self.lesson.as_ref().and_then(|l| l.steps.get(self.at)) else {
            return;
        };
        if let (Some(room), Some(request)) = (self.room.as_mut(), api::solution(step)) {
            self.target = room.point_at(&request).or(self.target.take());
        }
    }

    /// Events folded into the board, as a room folds a room's.
    fn play(&mut self, events: &[Ev<'static>]) {
        let Some(room) = self.room.as_mut() else {
            return;
        };
        for ev in events {
            let seq = room.base().seq() + 1;
            // Numbered here, in order: no gap can arise.
            let _ = room.apply(seq, ev);
        }
    }

    /// The clock moved on: the replies, then the next step, each after a pause.
    pub fn tick(&mut self, now: u64) {
        self.now = now;
        loop {
            match std::mem::replace(&mut self.phase, Phase::Open) {
                Phase::Replies { replies, at } if now >= at => {
                    self.play(&replies);
                    let pause = if replies.is_empty() { 0 } else { PAUSE };
                    self.phase = Phase::Next { at: now + pause };
                }
                Phase::Next { at } if now >= at => self.next(),
                other => {
                    self.phase = other;
                    return;
                }
            }
        }
    }

    fn next(&mut self) {
        let steps = self.lesson.as_ref().map_or(0, |l| l.steps.len());
        if self.at + 1 < steps {
            self.show(self.at + 1);
        } else {
            self.phase = Phase::Done;
            self.target = None;
            self.reason = None;
        }
    }

    /// Back to the list.
    fn back_to_list(&mut self) {
        self.page = Page::List;
        self.lesson = None;
        self.room = None;
        self.note = None;
        self.reason = None;
        self.target = None;
        self.phase = Phase::Open;
        self.message = None;
    }

    /// One key.
    pub fn on_key(&mut self, key: Key) {
        let typing = !self.input.is_empty();
        match key {
            Key::Interrupt => self.quit = true,
            Key::Backspace => {
                self.input.pop();
            }
            Key::Esc if typing => self.input.clear(),
            Key::Enter if typing => {
                let line = std::mem::take(&mut self.input);
                self.submit(&line);
            }
            Key::Char(c) if typing => self.push(c),
            _ => match self.page {
                Page::List => self.list_key(key),
                Page::Lesson if self.phase == Phase::Done => self.done_key(key),
                Page::Lesson => self.board_key(key),
            },
        }
    }

    fn push(&mut self, c: char) {
        if self.input.chars().count() < MAX_INPUT {
            self.input.push(c);
        }
    }

    fn list_key(&mut self, key: Key) {
        match key {
            Key::Up => self.selected = self.selected.saturating_sub(1),
            Key::Down => {
                self.selected = (self.selected + 1).min(self.lessons.len().saturating_sub(1))
            }
            Key::Enter => match self.lessons.get(self.selected).map(|l| l.id.clone()) {
                Some(id) => self.open(&id),
                None => self.error("no lessons listed yet"),
            },
            Key::Char('q') | Key::Esc => self.quit = true,
            _ => {}
        }
    }

    fn done_key(&mut self, key: Key) {
        match key {
            Key::Char('c') => match self.computer_game() {
                Some(game) => {
                    self.after = Some(After::Computer { game });
                    self.quit = true;
                }
                None => self.error("no computer plays this lesson's game"),
            },
            Key::Char('l') | Key::Enter | Key::Esc => self.back_to_list(),
            Key::Char('q') => self.quit = true,
            Key::Char('*') => self.restart(),
            _ => {}
        }
    }

    fn board_key(&mut self, key: Key) {
        match key {
            Key::Char('?') => return self.show_hint(),
            Key::Char('*') => return self.reset(),
            _ => {}
        }
        let on_board = self.room.as_mut().and_then(|room| room.key(key, false));
        match (on_board, key) {
            (Some(requests), _) => self.attempt(requests),
            (None, Key::Char(c)) => self.push(c),
            _ => {}
        }
    }

    /// One typed line: the learn screens' words, else a move of the lesson's game.
    pub fn submit(&mut self, line: &str) {
        let word = line.trim().to_ascii_lowercase();
        match word.as_str() {
            "quit" | "exit" => return self.quit = true,
            "lessons" | "list" | "back" => return self.back_to_list(),
            _ => {}
        }
        if self.page == Page::List {
            return match self.find(line.trim()) {
                Some(id) => self.open(&id),
                None => self.error(format!("no lesson `{}`", line.trim())),
            };
        }
        match word.as_str() {
            "hint" => return self.show_hint(),
            "reset" | "retry" => return self.reset(),
            "restart" => return self.restart(),
            "computer" | "play" if self.phase == Phase::Done => {
                return self.done_key(Key::Char('c'))
            }
            _ => {}
        }
        let typed = match self.room.as_mut() {
            Some(room) => room.typed(line),
            None => return,
        };
        match typed {
            Ok(requests) => self.attempt(requests),
            Err(e) => self.error(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lesson of two steps as the server serves it (the second continues the first).
    fn lesson() -> Lesson {
        let start = |turn: &str| {
            format!(
                r#"{{"seat":"N","snapshot":{{"room":"lesson","seq":0,"game":"hydra-2","options":{{}},
                "status":"playing","seats":{{"S":null,"N":null}},"spectators":0,
                "position":"A4e:B1 C1s:R1","turn":{turn},"scores":{{}},"claims":[],"result":null}}}}"#
            )
        };
        let text = format!(
            r#"{{"id":"two","game":"hydra-2","title":"Two steps","steps":[
              {{"text":"Turn A4 right.","hint":"A4R","solution":{{"t":"click","click":"A4R"}},"start":{}}},
              {{"text":"Now B4.","hint":"B4R","solution":{{"t":"click","click":"B4R"}},"start":{}}}]}}"#,
            start(r#"{"seat":"N","clicks":1,"used":0,"round":1}"#),
            start(r#"{"seat":"N","clicks":2,"used":0,"round":2}"#),
        );
        api::lesson(&text).expect("a lesson")
    }

    fn typed(learn: &mut Learn, line: &str) {
        for c in line.chars() {
            learn.on_key(Key::Char(c));
        }
        learn.on_key(Key::Enter);
    }

    #[test]
    fn a_step_moves_on_only_when_the_server_says_it_is_reached() {
        let dir = std::env::temp_dir().join(format!("orion-learn-app-{}", std::process::id()));
        let mut learn = Learn::new(Some("two".into()), Progress::at(dir.join("p.json")), 1000);
        assert_eq!(learn.out, vec![Call::List]);
        learn.out.clear();
        learn.on_reply(Reply::List(Ok(vec![Summary {
            id: "two".into(),
            game: "hydra-2".into(),
            title: "Two steps".into(),
            about: String::new(),
            steps: 2,
        }])));
        assert_eq!(learn.out, vec![Call::Lesson("two".into())]);
        learn.out.clear();
        learn.on_reply(Reply::Lesson(Ok(lesson())));
        assert_eq!(
            (learn.page, learn.status()),
            (Page::Lesson, "step 1/2".to_string())
        );
        // The board marks the rotor of the solution: the cursor is on it.
        assert!(learn
            .target
            .as_deref()
            .is_some_and(|t| t.contains("rotor A4") && t.contains("]")));
        // `]` turns the rotor under the cursor: the try goes to the server, and only one at once.
        learn.on_key(Key::Char(']'));
        let body = r#"{"click":"A4R","t":"click"}"#.to_string();
        assert_eq!(
            learn.out,
            vec![Call::Try {
                lesson: "two".into(),
                step: 1,
                body
            }]
        );
        learn.out.clear();
        typed(&mut learn, "A4L");
        assert!(
            learn.out.is_empty(),
            "a second try waits for the first's answer"
        );
        // The engine's refusal: the step stays, with its reason.
        learn.on_reply(Reply::Tried {
            lesson: "two".into(),
            step: 1,
            answer: Ok(Answer::Missed {
                reason: "nope".into(),
                hint: "A4R".into(),
            }),
        });
        assert_eq!(
            (learn.status(), learn.reason.as_deref()),
            ("step 1/2".to_string(), Some("nope. Hint: A4R"))
        );
        typed(&mut learn, "A4R");
        let reached = Answer::Reached {
            events: vec![Ev::Click {
                seat: WireSeat::N,
                click: "A4R".into(),
                position: "A4s:B1 C1s:R1".into(),
            }],
            replies: vec![Ev::Click {
                seat: WireSeat::S,
                click: "C1R".into(),
                position: "A4s:B1 C1w:R1".into(),
            }],
            done: Some("well done".into()),
        };
        learn.on_reply(Reply::Tried {
            lesson: "two".into(),
            step: 1,
            answer: Ok(reached.clone()),
        });
        let log = |l: &Learn| {
            l.room
                .as_ref()
                .map(|r| r.base().log.iter().cloned().collect::<Vec<_>>())
                .unwrap_or_default()
        };
        assert_eq!(log(&learn), vec!["N: A4R"]);
        assert_eq!(learn.progress.done("two"), 1);
        // The replies show after a pause, then the next step after another.
        learn.tick(1000 + PAUSE - 1);
        assert_eq!(log(&learn).len(), 1);
        learn.tick(1000 + PAUSE);
        assert_eq!(log(&learn), vec!["N: A4R", "S: C1R"]);
        assert_eq!(learn.status(), "step 1/2");
        learn.tick(1000 + 2 * PAUSE);
        assert_eq!(learn.status(), "step 2/2");
        assert_eq!(learn.note.as_deref(), Some("well done"));
        // A late answer for the step before changes nothing.
        learn.on_reply(Reply::Tried {
            lesson: "two".into(),
            step: 1,
            answer: Ok(reached),
        });
        assert_eq!(
            (learn.status(), &learn.phase),
            ("step 2/2".to_string(), &Phase::Open)
        );
        // The last step done: `done`, and the computer offered.
        typed(&mut learn, "B4R");
        learn.on_reply(Reply::Tried {
            lesson: "two".into(),
            step: 2,
            answer: Ok(Answer::Reached {
                events: vec![],
                replies: vec![],
                done: None,
            }),
        });
        learn.tick(1000 + 3 * PAUSE);
        assert_eq!(learn.status(), "done");
        learn.on_key(Key::Char('c'));
        assert!(learn.quit);
        assert_eq!(
            learn.after,
            Some(After::Computer {
                game: "hydra-2".into()
            })
        );
        assert_eq!(Progress::at(dir.join("p.json")).done("two"), 2);
        let _ = std::fs::remove_dir_all(dir);
    }
}

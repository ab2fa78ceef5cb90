//! `orion learn [LESSON]`: the lessons the server serves (`/api/lessons`, README "Learning
//! to play"), played in the full-screen terminal on each game's own board. `app` is the state
//! machine, `draw` its screen, `api` the lessons as served, `http` the calls, `progress` the
//! steps done kept on disk; this file runs the terminal and the calls. A lesson's last screen
//! can go on to a game against the computer (`orion play --computer`).

pub mod api;
pub mod app;
mod draw;
pub mod http;
pub mod progress;

use crate::tui::{self, now_ms, Computer};
use app::{After, Call, Learn, Reply, COMPUTER_LEVEL};
use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use http::Server;
use progress::Progress;
use std::time::Duration;
use tokio::task::JoinSet;

/// Most calls out at once (a learner sends one try at a time; the list and a lesson besides).
const MAX_CALLS: usize = 4;

impl Call {
    /// The call made to `server`, and its answer read.
    pub async fn make(self, server: &Server) -> Reply {
        match self {
            Call::List => Reply::List(match server.get("/api/lessons").await {
                Ok(body) => api::list(&body),
                Err(e) => Err(e),
            }),
            Call::Lesson(id) => Reply::Lesson(match server.get(&lesson_path(&id)).await {
                Ok(body) => api::lesson(&body),
                Err(e) => Err(e),
            }),
            Call::Try { lesson, step, body } => {
                let path = format!("{}/{step}/try", lesson_path(&lesson));
                let answer = match server.post(&path, body).await {
                    Ok(body) => api::answer(&body),
                    Err(e) => Err(e),
                };
                Reply::Tried {
                    lesson,
                    step,
                    answer,
                }
            }
        }
    }
}

/// `/api/lessons/ID`, the id percent-encoded but for letters, digits, `-` and `_`.
fn lesson_path(id: &str) -> String {
    let mut path = "/api/lessons/".to_string();
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            path.push(char::from(b));
        } else {
            path.push_str(&format!("%{b:02X}"));
        }
    }
    path
}

/// `orion learn`: the lessons of `server` (`ws://HOST:PORT/ws`, as `orion play` takes it),
/// `wanted` opened at once; until the learner quits, or plays the computer from a lesson's
/// last screen as `name`.
pub async fn run(server: &str, name: &str, wanted: Option<String>) -> Result<(), String> {
    let http = Server::from_url(server)?;
    let mut learn = Learn::new(wanted, Progress::user(), now_ms());
    {
        let (mut terminal, _restore) = tui::open()?;
        let mut keys = EventStream::new();
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        let mut calls: JoinSet<Reply> = JoinSet::new();
        loop {
            // Past the bound, calls wait their turn in `out`.
            while calls.len() < MAX_CALLS && !learn.out.is_empty() {
                let call = learn.out.remove(0);
                let http = http.clone();
                calls.spawn(async move { call.make(&http).await });
            }
            if learn.quit {
                break;
            }
            terminal
                .draw(|f| learn.draw(f))
                .map_err(|e| e.to_string())?;
            tokio::select! {
                k = keys.next() => match k {
                    Some(Ok(Event::Key(k))) => {
                        if let Some(k) = tui::key(k) {
                            learn.on_key(k);
                        }
                    }
                    Some(Ok(_)) => {}
                    Some(Err(_)) | None => break,
                },
                Some(done) = calls.join_next() => {
                    if let Ok(reply) = done {
                        learn.on_reply(reply);
                    }
                }
                _ = tick.tick() => learn.tick(now_ms()),
            }
        }
        // The calls still out end with the screens (the JoinSet aborts them as it drops).
    }
    match learn.after {
        Some(After::Computer { game }) => {
            let computer = Computer {
                game,
                level: COMPUTER_LEVEL,
                seat: None,
            };
            tui::run_with(server, name, None, Some(computer)).await
        }
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::lesson_path;

    #[test]
    fn a_lesson_id_is_one_path_segment() {
        assert_eq!(lesson_path("hydra-2"), "/api/lessons/hydra-2");
        assert_eq!(lesson_path("a/b c"), "/api/lessons/a%2Fb%20c");
    }
}

//! The full-screen terminal client (ratatui + crossterm): `orion play` and `orion watch`.
//! This file owns the terminal and the event loop — keys, network reports and a clock tick
//! go into [`app::App`], its requests go out, and the screen is redrawn after each.

pub mod app;
pub mod input;
pub mod key;

use crate::net::{self, TokenStore};
use app::{App, Key};
use crossterm::event::{Event, EventStream, KeyCode, KeyEventKind, KeyModifiers};
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use futures::StreamExt;
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::Stdout;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds since the epoch (the server's claim deadlines use the same clock).
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Puts the terminal back however the client ends.
pub(crate) struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        let _ = disable_raw_mode();
        let _ = crossterm::execute!(
            std::io::stdout(),
            LeaveAlternateScreen,
            crossterm::cursor::Show
        );
    }
}

/// A terminal key event as the screens take it (`None`: one they do not use).
pub(crate) fn key(ev: crossterm::event::KeyEvent) -> Option<Key> {
    if ev.kind == KeyEventKind::Release {
        return None;
    }
    if ev.modifiers.contains(KeyModifiers::CONTROL) && ev.code == KeyCode::Char('c') {
        return Some(Key::Interrupt);
    }
    Some(match ev.code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Esc => Key::Esc,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Tab => Key::Tab,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        _ => return None,
    })
}

/// The full-screen terminal: raw, on the alternate screen, until the guard drops.
pub(crate) type Screen = Terminal<CrosstermBackend<Stdout>>;

/// Takes the terminal over: raw mode and the alternate screen, given back when the returned
/// guard drops (however the caller ends).
pub(crate) fn open() -> Result<(Screen, Restore), String> {
    enable_raw_mode().map_err(|e| format!("cannot use this terminal: {e}"))?;
    let restore = Restore;
    crossterm::execute!(std::io::stdout(), EnterAlternateScreen)
        .map_err(|e| format!("cannot use this terminal: {e}"))?;
    let terminal =
        Terminal::new(CrosstermBackend::new(std::io::stdout())).map_err(|e| e.to_string())?;
    Ok((terminal, restore))
}

/// Plays (or, with `watch`, watches a room) on `server` as `name` until the player quits.
pub async fn run(server: &str, name: &str, watch: Option<String>) -> Result<(), String> {
    run_with(server, name, watch, None).await
}

/// What `play --computer LEVEL GAME [--seat N]` asks for.
#[derive(Debug, Clone)]
pub struct Computer {
    /// The game.
    pub game: String,
    /// The computer players' level, 1 to 8.
    pub level: u8,
    /// The player's seat: its number in turn order from 1, or its name (`None`: the first).
    pub seat: Option<String>,
}

/// [`run`], and with `computer` (`play --computer LEVEL GAME`) starts in a room of that game
/// whose other seats computer players of that level take.
pub async fn run_with(
    server: &str,
    name: &str,
    watch: Option<String>,
    computer: Option<Computer>,
) -> Result<(), String> {
    let mut app = App::new(name, now_ms());
    if let Some(c) = computer {
        app.play_computer(&c.game, c.level, c.seat.as_deref())?;
    }
    let mut client = net::connect(server, name, TokenStore::user()).await?;
    if let Some(room) = watch {
        app.watch(&room);
    }
    let (mut terminal, _restore) = open()?;
    let mut keys = EventStream::new();
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let mut net_open = true;
    loop {
        tokio::select! {
            k = keys.next() => match k {
                Some(Ok(Event::Key(k))) => {
                    if let Some(k) = key(k) {
                        app.on_key(k);
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => break,
            },
            ev = client.recv(), if net_open => match ev {
                Some(ev) => app.on_net(ev),
                None => net_open = false,
            },
            _ = tick.tick() => app.tick(now_ms()),
        }
        for r in app.out.drain(..) {
            if !client.send(r).await {
                net_open = false;
            }
        }
        if app.quit {
            break;
        }
        terminal.draw(|f| app.draw(f)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

//! Games against the server's computer players, run beside the measured rooms: does a bot
//! thinking slow anyone else's broadcast? Each bot game is one connection that creates a
//! Hydra for Two, seats a computer player of the given level, starts, and answers each of its
//! own turns at once with random legal clicks (a local engine mirror, stepped with the room's
//! events, says which are legal) — so the server's bots think all the time — and starts
//! another game when one ends. It also times each bot's answer as a player sees it: from the
//! event that gave the bot the turn to the bot's first click.

use crate::room::{connect, expect, expect_start, send, Sink, Source};
use anyhow::{anyhow, bail};
use futures::StreamExt;
use hdrhistogram::Histogram;
use orion_engine::{games, Action, Click, Game, Options, Seat};
use orion_protocol::{parse_reply, Event, Message as Msg, Request};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;

/// The wait before each of our requests.
const PACE: Duration = Duration::from_millis(250);

/// What the bot games did while they ran.
pub struct BotTally {
    /// Games that reached their end.
    pub finished: u64,
    /// Turns the bots took.
    pub bot_turns: u64,
    /// Each bot turn's wait, from the turn's start to the bot's first click, microseconds.
    pub replies: Histogram<u64>,
    /// Games given up or not started (a refused request: the server's cap on bot games, the
    /// rate limit, or the mirror and the room disagreeing).
    pub abandoned: u64,
}

impl BotTally {
    fn new() -> BotTally {
        BotTally {
            finished: 0,
            bot_turns: 0,
            replies: Histogram::new_with_bounds(1, 600_000_000, 3).expect("histogram bounds"),
            abandoned: 0,
        }
    }

    fn add(&mut self, other: BotTally) -> anyhow::Result<()> {
        self.finished += other.finished;
        self.bot_turns += other.bot_turns;
        self.abandoned += other.abandoned;
        self.replies.add(&other.replies)?;
        Ok(())
    }
}

/// Starts `games` bot games of `level` on `url`; they run until `stop` says true, then
/// their tallies are summed. Each game is set up before this returns (an error if any
/// cannot be).
pub async fn start(
    url: &str,
    games: usize,
    level: u8,
    stop: watch::Receiver<bool>,
) -> anyhow::Result<JoinHandle<anyhow::Result<BotTally>>> {
    let mut tasks = Vec::with_capacity(games);
    for g in 0..games {
        let (sink, source) = connect(url, &format!("botload{g}")).await?;
        tasks.push(tokio::spawn(play(
            sink,
            source,
            level,
            g as u64,
            stop.clone(),
        )));
    }
    Ok(tokio::spawn(async move {
        let mut total = BotTally::new();
        for t in tasks {
            total.add(t.await??)?;
        }
        Ok(total)
    }))
}

/// One connection's games, one after another, until `stop`.
async fn play(
    mut sink: Sink,
    mut source: Source,
    level: u8,
    seed: u64,
    mut stop: watch::Receiver<bool>,
) -> anyhow::Result<BotTally> {
    let mut tally = BotTally::new();
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    while !*stop.borrow() {
        let (room, me) = match open(&mut sink, &mut source, level).await {
            Ok(opened) => opened,
            Err(e) => {
                // Refused (`full`: the server's cap on bot games; `rate_limited`): again later.
                if tally.abandoned == 0 {
                    eprintln!("a bot game could not start: {e:#}");
                }
                tally.abandoned += 1;
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        tokio::select! {
            r = one_game(&mut sink, &mut source, &room, me, &mut rng, &mut tally) => {
                if let Err(e) = r {
                    if tally.abandoned == 0 {
                        eprintln!("a bot game given up: {e:#}");
                    }
                    tally.abandoned += 1;
                    let _ = send(&mut sink, &Request::Leave { room: room.clone() }).await;
                }
            }
            _ = stop.changed() => break,
        }
    }
    Ok(tally)
}

/// Creates a Hydra for Two, seats a bot of `level` and starts it; returns the room's id and
/// the creator's seat.
async fn open(sink: &mut Sink, source: &mut Source, level: u8) -> anyhow::Result<(String, Seat)> {
    let create = Request::Create {
        game: "hydra-2".into(),
        options: None,
        private: None,
    };
    send(sink, &create).await?;
    let Msg::Joined { room, seat, .. } = expect(source, "joined").await? else {
        bail!("`joined` expected");
    };
    let me = Seat::parse(seat.as_str()).ok_or_else(|| anyhow!("unknown seat `{seat}`"))?;
    let add = Request::AddBot {
        room: room.clone(),
        level: Some(level),
        seat: None,
    };
    send(sink, &add).await?;
    send(sink, &Request::Ready { room: room.clone() }).await?;
    expect_start(source).await?;
    Ok((room, me))
}

/// Plays `room` to its end: random legal clicks on our turns, the bot's timed on its.
async fn one_game(
    sink: &mut Sink,
    source: &mut Source,
    room: &str,
    me: Seat,
    rng: &mut u64,
    tally: &mut BotTally,
) -> anyhow::Result<()> {
    let rules = games::find("hydra-2").ok_or_else(|| anyhow!("hydra-2 missing"))?;
    let mut mirror = Game::new(rules, Options::default(), 0)?;
    let mut bot_since: Option<Instant> = None;
    let mut my_click_out = false;
    loop {
        if mirror.outcome().is_some() {
            return Ok(());
        }
        if mirror.mover() == me && !my_click_out {
            let legal: Vec<Click> = Click::ALL
                .into_iter()
                .filter(|&c| mirror.check_click(me, c).is_ok())
                .collect();
            let request = if legal.is_empty() {
                Request::EndTurn {
                    room: room.to_owned(),
                }
            } else {
                *rng ^= *rng << 13;
                *rng ^= *rng >> 7;
                *rng ^= *rng << 17;
                let click = legal[(*rng % legal.len() as u64) as usize];
                Request::Click {
                    room: room.to_owned(),
                    click: click.to_string(),
                    piece: None,
                }
            };
            // A person's pace, well inside the request rate limit.
            tokio::time::sleep(PACE).await;
            send(sink, &request).await?;
            my_click_out = true;
        }
        let msg = tokio::time::timeout(Duration::from_secs(60), source.next())
            .await
            .map_err(|_| anyhow!("nothing from the room for 60 s"))?
            .ok_or_else(|| anyhow!("connection closed"))??;
        let Message::Text(text) = msg else { continue };
        let Ok(reply) = parse_reply(text.as_str()) else {
            continue;
        };
        match reply.message {
            Msg::Error { code, message, .. } => bail!("refused: {code}: {message}"),
            Msg::Event { ev, room: r, .. } if r == room => match ev {
                Event::Click { seat, click, .. } => {
                    let seat = Seat::parse(seat.as_str()).ok_or_else(|| anyhow!("seat"))?;
                    let click = orion_engine::parse_click(&click)?;
                    if seat == me {
                        my_click_out = false;
                    } else if let Some(since) = bot_since.take() {
                        tally.bot_turns += 1;
                        let us = since.elapsed().as_micros().clamp(1, 600_000_000) as u64;
                        let _ = tally.replies.record(us);
                    }
                    mirror.step(seat, Action::Click { click, piece: None }, 0)?;
                }
                Event::Turn { seat, .. } => {
                    let seat = Seat::parse(seat.as_str()).ok_or_else(|| anyhow!("seat"))?;
                    if seat != mirror.mover() {
                        let mover = mirror.mover();
                        mirror.step(mover, Action::EndTurn, 0)?;
                    }
                    if seat != me {
                        // Our `end_turn`, if we sent one, is answered.
                        my_click_out = false;
                        bot_since = Some(Instant::now());
                    }
                }
                Event::Over { .. } => {
                    tally.finished += 1;
                    return Ok(());
                }
                _ => {}
            },
            _ => {}
        }
    }
}

//! One load room: four player connections (and spectators) playing a real Hydra for Four game
//! through the real protocol. A local mirror of the game (the engine, stepped with the events
//! the server broadcasts) picks each next legal click. Clicks are sent open loop at the room's
//! scheduled times, but never before the sender has seen the previous click.

use crate::measure::Proc;
use anyhow::{anyhow, bail, Context};
use futures::stream::{SelectAll, StreamExt};
use futures::SinkExt;
use hdrhistogram::Histogram;
use orion_engine::{games, Action, Click, Game, Options, Seat};
use orion_protocol::{parse_reply, Event, Message as Msg, Request, RoomOptions, VERSION};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async_with_config, MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;
pub(crate) type Sink = futures::stream::SplitSink<Ws, Message>;
pub(crate) type Source = futures::stream::SplitStream<Ws>;
type Frame = Result<Message, tokio_tungstenite::tungstenite::Error>;
/// A member's reader whose frames carry the member's index.
type Tagged = futures::stream::Map<Source, Box<dyn FnMut(Frame) -> (usize, Frame) + Send>>;

/// How long any single setup step may take before the run gives up.
const SETUP_TIMEOUT: Duration = Duration::from_secs(30);
/// Rooms set up at once.
const SETUP_PARALLEL: usize = 16;

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// WebSocket endpoint.
    pub server: String,
    /// Rooms of four players.
    pub rooms: usize,
    /// Spectators per room.
    pub spectators: usize,
    /// Clicks per second offered in each room.
    pub rate_per_room: f64,
    /// Load before measuring.
    pub warmup: Duration,
    /// Measured load.
    pub measure: Duration,
}

/// What a run measured.
pub struct Outcome {
    /// Send-to-all-members latency of each measured click, microseconds.
    pub latencies: Histogram<u64>,
    /// Scheduled-time-to-all-members latency, microseconds.
    pub late: Histogram<u64>,
    /// Each measured click's second of the run (from the start of measuring, by its send)
    /// and latency, microseconds: for the worst second's p99.
    pub by_second: Vec<(u32, u64)>,
    /// The same, from the scheduled time.
    pub late_by_second: Vec<(u32, u64)>,
    /// When measuring began.
    pub measured_from: Instant,
    /// Clicks delivered to every member inside the measured window.
    pub measured_clicks: u64,
    /// Error replies received.
    pub errors: u64,
    /// Games that ended during the run.
    pub finished: u64,
    /// Server reading when measuring began.
    pub proc_start: Option<Proc>,
    /// Server reading when measuring ended.
    pub proc_end: Option<Proc>,
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("valid bounds")
}

pub(crate) async fn connect(url: &str, name: &str) -> anyhow::Result<(Sink, Source)> {
    // Nagle off, as a real game client would: each click is one small frame.
    let (ws, _) = tokio::time::timeout(
        SETUP_TIMEOUT,
        connect_async_with_config(url, Some(ws_config()), true),
    )
    .await
    .context("connect timed out")??;
    let (mut sink, mut source) = ws.split();
    let hello = Request::Hello {
        name: name.to_string(),
        version: VERSION,
        token: None,
    };
    send(&mut sink, &hello).await?;
    expect(&mut source, "welcome").await?;
    Ok((sink, source))
}

pub(crate) async fn send(sink: &mut Sink, r: &Request) -> anyhow::Result<()> {
    sink.send(Message::text(r.to_json())).await?;
    Ok(())
}

/// Reads until a message of type `t` arrives (skipping others); errors end the wait.
pub(crate) async fn expect(source: &mut Source, t: &str) -> anyhow::Result<Msg<'static>> {
    let wait = async {
        while let Some(msg) = source.next().await {
            if let Message::Text(text) = msg? {
                match parse_reply(text.as_str())?.message {
                    m if m.kind() == t => return Ok(m),
                    Msg::Error { code, message, .. } => bail!("server refused: {code}: {message}"),
                    _ => {}
                }
            }
        }
        bail!("connection closed while waiting for `{t}`")
    };
    tokio::time::timeout(SETUP_TIMEOUT, wait)
        .await
        .map_err(|_| anyhow!("timed out waiting for `{t}`"))?
}

/// Reads until the room's `start` event.
pub(crate) async fn expect_start(source: &mut Source) -> anyhow::Result<()> {
    loop {
        if let Msg::Event {
            ev: Event::Start { .. },
            ..
        } = expect(source, "event").await?
        {
            return Ok(());
        }
    }
}

/// Opens `n` connections, says hello on each, holds them for `hold`, and returns how many
/// were open at the end.
pub async fn hold_idle(url: &str, n: usize, hold: Duration) -> anyhow::Result<usize> {
    let conns: Vec<_> = futures::stream::iter(0..n)
        .map(|i| async move { connect(url, &format!("idle{i}")).await })
        .buffer_unordered(64)
        .collect()
        .await;
    let mut open: Vec<_> = conns.into_iter().filter_map(Result::ok).collect();
    tokio::time::sleep(hold).await;
    // Answer pings so the server keeps counting them as live; count who is still there.
    let mut alive = 0;
    for (sink, _) in open.iter_mut() {
        if send(sink, &Request::Ping).await.is_ok() {
            alive += 1;
        }
    }
    Ok(alive)
}

/// One room's connections and mirror.
struct Room {
    /// Writers, by member index (0..4 are players in seat order S, W, N, E; then spectators).
    sinks: Vec<Sink>,
    /// Readers, tagged with the member index.
    sources: SelectAll<Tagged>,
    /// Room id.
    id: String,
    /// The game as the members have seen it.
    mirror: Game,
}

async fn open_room(plan: &Plan, r: usize) -> anyhow::Result<Room> {
    let mut players = Vec::new();
    for k in 0..4 {
        players.push(connect(&plan.server, &format!("load{r}p{k}")).await?);
    }
    let create = Request::Create {
        game: "hydra-4".into(),
        options: Some(RoomOptions {
            clicks: Some(Some(3)),
            players: Some(Some(4)),
            ..RoomOptions::default()
        }),
        private: None,
    };
    send(&mut players[0].0, &create).await?;
    let Msg::Joined { room: id, seat, .. } = expect(&mut players[0].1, "joined").await? else {
        bail!("`joined` expected");
    };
    let mut seats = vec![seat];
    for (sink, source) in players.iter_mut().skip(1) {
        let join = Request::Join {
            room: Some(id.clone()),
            code: None,
            seat: None,
        };
        send(sink, &join).await?;
        let Msg::Joined { seat, .. } = expect(source, "joined").await? else {
            bail!("`joined` expected");
        };
        seats.push(seat);
    }
    for (sink, _) in players.iter_mut() {
        send(sink, &Request::Ready { room: id.clone() }).await?;
    }
    for (_, source) in players.iter_mut() {
        expect_start(source).await?;
    }
    // Order the players by seat so member i plays seat Seat::ALL[i].
    let mut by_seat: Vec<Option<(Sink, Source)>> = (0..4).map(|_| None).collect();
    for (conn, seat) in players.into_iter().zip(seats) {
        let seat = Seat::parse(seat.as_str()).ok_or_else(|| anyhow!("unknown seat `{seat}`"))?;
        by_seat[seat as usize] = Some(conn);
    }
    let mut members: Vec<(Sink, Source)> = by_seat
        .into_iter()
        .map(|c| c.ok_or_else(|| anyhow!("a seat was not filled")))
        .collect::<anyhow::Result<_>>()?;
    for k in 0..plan.spectators {
        let (mut sink, mut source) = connect(&plan.server, &format!("load{r}s{k}")).await?;
        send(
            &mut sink,
            &Request::Spectate {
                room: id.clone(),
                quiet: false,
            },
        )
        .await?;
        expect(&mut source, "snapshot").await?;
        members.push((sink, source));
    }
    let mut sinks = Vec::new();
    let mut sources = SelectAll::new();
    for (i, (sink, source)) in members.into_iter().enumerate() {
        sinks.push(sink);
        let tag: Box<dyn FnMut(_) -> _ + Send> = Box::new(move |m| (i, m));
        sources.push(source.map(tag));
    }
    let rules = games::find("hydra-4").ok_or_else(|| anyhow!("hydra-4 missing"))?;
    let mirror = Game::new(
        rules,
        Options {
            clicks: Some(3),
            players: Some(4),
            ..Options::default()
        },
        0,
    )?;
    Ok(Room {
        sinks,
        sources,
        id,
        mirror,
    })
}

/// A click in flight: when it was due, when it was sent, who has seen it.
struct InFlight {
    scheduled: Instant,
    sent: Instant,
    click: Click,
    /// The click as the server writes it, to match events without formatting each time.
    text: String,
    seen: Vec<bool>,
    /// How many of `seen` are true (a room of thousands of spectators counts, not scans).
    seen_count: usize,
}

impl InFlight {
    /// Notes that `member` has the click; the first sight of it (the click was accepted) moves
    /// the room's mirror. True once every member has it.
    fn saw(&mut self, member: usize, mirror: &mut Game) -> bool {
        if !self.seen[member] {
            self.seen[member] = true;
            self.seen_count += 1;
            if self.seen_count == 1 {
                let seat = mirror.mover();
                let _ = mirror.step(
                    seat,
                    Action::Click {
                        click: self.click,
                        piece: None,
                    },
                    0,
                );
            }
        }
        self.seen_count == self.seen.len()
    }
}

/// What a spectator's frame is read for: only whether it is a click event, and which. The
/// rest of the frame (the position, most of its bytes) is skipped, not decoded: with
/// thousands of spectators on one core, decoding every event would make the driver, not the
/// server, the slowest part of the fan-out.
#[derive(serde::Deserialize)]
struct SpectatorView<'a> {
    #[serde(borrow)]
    ev: Option<SpectatorEvent<'a>>,
}

#[derive(serde::Deserialize)]
struct SpectatorEvent<'a> {
    kind: &'a str,
    click: Option<&'a str>,
}

/// Per-room tallies, merged at the end.
struct Tally {
    latencies: Histogram<u64>,
    late: Histogram<u64>,
    by_second: Vec<(u32, u64)>,
    late_by_second: Vec<(u32, u64)>,
    clicks: u64,
    errors: u64,
    finished: u64,
}

impl Tally {
    /// Counts a click every member has now seen, if it was sent inside the measured window.
    fn record(&mut self, f: &InFlight, arrived: Instant, measure_from: Instant) {
        if f.sent < measure_from {
            return;
        }
        let us = |d: Duration| d.as_micros().clamp(1, 60_000_000) as u64;
        let (sent, late) = (
            us(arrived - f.sent),
            us(arrived.saturating_duration_since(f.scheduled)),
        );
        let _ = self.latencies.record(sent);
        let _ = self.late.record(late);
        let second = (f.sent - measure_from).as_secs() as u32;
        self.by_second.push((second, sent));
        self.late_by_second.push((second, late));
        self.clicks += 1;
    }
}

async fn drive(
    mut room: Room,
    rate: f64,
    measure_from: Instant,
    stop: Instant,
    seed: u64,
) -> Tally {
    let mut tally = Tally {
        latencies: histogram(),
        late: histogram(),
        by_second: Vec::new(),
        late_by_second: Vec::new(),
        clicks: 0,
        errors: 0,
        finished: 0,
    };
    let period = Duration::from_secs_f64(1.0 / rate.max(1e-3));
    // Rooms start at spread-out offsets so their clicks are evenly spaced overall.
    let mut next_due = Instant::now() + period.mul_f64((seed % 1000) as f64 / 1000.0);
    let mut in_flight: Option<InFlight> = None;
    let mut rng = seed
        .wrapping_mul(2862933555777941757)
        .wrapping_add(3037000493);
    let members = room.sinks.len();
    loop {
        let now = Instant::now();
        if now >= stop || room.mirror.outcome().is_some() {
            break;
        }
        let wake = if in_flight.is_none() {
            next_due.min(stop)
        } else {
            stop
        };
        tokio::select! {
            _ = tokio::time::sleep_until(wake.into()), if in_flight.is_none() => {
                let seat = room.mirror.mover();
                let legal: Vec<Click> = Click::ALL
                    .into_iter()
                    .filter(|&c| room.mirror.check_click(seat, c).is_ok())
                    .collect();
                let sender = seat as usize;
                if legal.is_empty() {
                    let _ = send(&mut room.sinks[sender], &Request::EndTurn { room: room.id.clone() }).await;
                    // The turn event will come back; pace the room as for a click.
                    next_due += period;
                    continue;
                }
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let click = legal[(rng >> 33) as usize % legal.len()];
                let sent = Instant::now();
                let request = Request::Click { room: room.id.clone(), click: click.to_string(), piece: None };
                if send(&mut room.sinks[sender], &request).await.is_err() {
                    break;
                }
                in_flight = Some(InFlight { scheduled: next_due, sent, click, text: click.to_string(), seen: vec![false; members], seen_count: 0 });
                next_due += period;
            }
            msg = room.sources.next() => {
                let Some((member, msg)) = msg else { break };
                let Ok(Message::Text(text)) = msg else {
                    if msg.is_err() { break; }
                    continue;
                };
                if member >= 4 {
                    let Ok(view) = serde_json::from_str::<SpectatorView>(text.as_str()) else { continue };
                    let Some(ev) = view.ev.filter(|ev| ev.kind == "click") else { continue };
                    let arrived = Instant::now();
                    let Some(f) = in_flight.as_mut() else { continue };
                    if ev.click == Some(f.text.as_str()) && f.saw(member, &mut room.mirror) {
                        tally.record(f, arrived, measure_from);
                        in_flight = None;
                    }
                    continue;
                }
                // A frame that is not the protocol's is skipped, as a client would.
                let Ok(reply) = parse_reply(text.as_str()) else { continue };
                match reply.message {
                    Msg::Error { .. } => {
                        tally.errors += 1;
                        if in_flight.as_ref().is_some_and(|f| f.seen_count == 0) {
                            // Our click was refused: drop it and try another at the next slot.
                            in_flight = None;
                        }
                    }
                    Msg::Event { ev, .. } => {
                        match ev {
                            Event::Click { click, .. } => {
                                let arrived = Instant::now();
                                let Some(f) = in_flight.as_mut() else { continue };
                                if click == f.text && f.saw(member, &mut room.mirror) {
                                    tally.record(f, arrived, measure_from);
                                    in_flight = None;
                                }
                            }
                            Event::Turn { seat, .. } if member == 0 => {
                                // A pass we asked for: follow it in the mirror.
                                if let Some(seat) = Seat::parse(seat.as_str()) {
                                    if seat != room.mirror.mover() {
                                        let mover = room.mirror.mover();
                                        let _ = room.mirror.step(mover, Action::EndTurn, 0);
                                    }
                                }
                            }
                            Event::Over { .. } => {
                                tally.finished += 1;
                                break;
                            }
                            _ => {}
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    for sink in room.sinks.iter_mut() {
        let _ = sink.send(Message::Close(None)).await;
    }
    tally
}

/// Sets up every room, drives them for warm-up plus measurement, and gathers the results.
pub async fn run(plan: &Plan, pid: Option<u32>) -> anyhow::Result<Outcome> {
    let rooms: Vec<anyhow::Result<Room>> = futures::stream::iter(0..plan.rooms)
        .map(|r| open_room(plan, r))
        .buffer_unordered(SETUP_PARALLEL)
        .collect()
        .await;
    let rooms: Vec<Room> = rooms.into_iter().collect::<anyhow::Result<_>>()?;
    let begin = Instant::now();
    let measure_from = begin + plan.warmup;
    let stop = measure_from + plan.measure;
    let mut tasks = Vec::new();
    for (i, room) in rooms.into_iter().enumerate() {
        tasks.push(tokio::spawn(drive(
            room,
            plan.rate_per_room,
            measure_from,
            stop,
            i as u64 * 7919 + 1,
        )));
    }
    let proc_start = match pid {
        Some(p) => {
            tokio::time::sleep_until(measure_from.into()).await;
            Some(Proc::read(p)?)
        }
        None => None,
    };
    let mut outcome = Outcome {
        latencies: histogram(),
        late: histogram(),
        by_second: Vec::new(),
        late_by_second: Vec::new(),
        measured_from: measure_from,
        measured_clicks: 0,
        errors: 0,
        finished: 0,
        proc_start,
        proc_end: None,
    };
    tokio::time::sleep_until(stop.into()).await;
    if let Some(p) = pid {
        outcome.proc_end = Some(Proc::read(p)?);
    }
    for t in tasks {
        let tally = t.await?;
        outcome.latencies.add(&tally.latencies)?;
        outcome.late.add(&tally.late)?;
        outcome.by_second.extend(tally.by_second);
        outcome.late_by_second.extend(tally.late_by_second);
        outcome.measured_clicks += tally.clicks;
        outcome.errors += tally.errors;
        outcome.finished += tally.finished;
    }
    Ok(outcome)
}

/// Small buffers, as the server uses: tungstenite's default 128 KiB read buffer is cleared on
/// every read and would make the driver, not the server, the bottleneck.
fn ws_config() -> tokio_tungstenite::tungstenite::protocol::WebSocketConfig {
    tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
}

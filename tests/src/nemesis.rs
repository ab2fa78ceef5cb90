//! The parts of the cluster's fault tests: members (players and spectators) that keep at
//! their game through any fault the way the clients do (they reconnect to another node,
//! resume a room at once when told it `moved`, and retry what the cluster refuses with
//! `server`) while recording every event they receive; a game driver that plays a Hydra for
//! Two to its end through them; a nemesis that pauses, kills and restarts nodes and restarts
//! PostgreSQL and NATS; and a checker that holds what every member received against the
//! stored history.

use crate::cluster::ClusterNode;
use crate::nats::Nats;
use crate::pg::Postgres;
use crate::{expand, HYDRA_TWO};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The nodes' WebSocket URLs as they are now (a restarted node listens on a new port).
pub type Urls = Arc<Mutex<Vec<String>>>;

/// How long one step of a game may take through faults before the test gives up.
const STEP_LIMIT: Duration = Duration::from_secs(60);

/// A player or spectator of one room that carries on through faults.
pub struct Member {
    /// The name it says hello with.
    pub name: String,
    /// Its token, once welcomed (a reconnection gets the same seats back).
    token: Option<String>,
    /// Its room, once in one.
    pub room: Option<String>,
    /// The nodes.
    urls: Urls,
    /// The node it tries first.
    at: usize,
    /// Its connection (`None`: to be made again).
    ws: Option<Ws>,
    /// Next request id.
    next_id: u64,
    /// Every event of its room received, in arrival order, as `(seq, event)`.
    pub received: Vec<(u64, Value)>,
    /// Its room's events by seq (what it has seen of the room).
    pub seen: BTreeMap<u64, Value>,
    /// Every message, in order (`note`).
    log: Vec<String>,
    /// The `resume` in flight (`moved`, a reconnection) and when it was sent.
    resuming: Option<(u64, Instant)>,
    /// The `hints` sent right after that `resume`: its reply comes after every event the
    /// resume sends, so once it is in, the resume has landed (a resume with nothing to send
    /// has no reply of its own).
    landing: Option<u64>,
    /// When to resume again (the room was still between nodes).
    resume_due: Option<Instant>,
    /// `moved` messages received.
    pub moved: u32,
    /// Reconnections made.
    pub reconnects: u32,
    /// Connections made (the first one included).
    connections: u32,
    /// Requests refused with `server` (and retried).
    pub refused: u32,
    /// Connections closed with 1012 (the node stopped, its rooms handed over).
    pub restarts: u32,
}

impl Member {
    /// A member named `name` that connects to node `at` first.
    pub fn new(name: &str, urls: &Urls, at: usize) -> Member {
        Member {
            name: name.to_owned(),
            token: None,
            room: None,
            urls: urls.clone(),
            at,
            ws: None,
            next_id: 1,
            received: Vec::new(),
            seen: BTreeMap::new(),
            log: Vec::new(),
            resuming: None,
            landing: None,
            resume_due: None,
            moved: 0,
            reconnects: 0,
            connections: 0,
            refused: 0,
            restarts: 0,
        }
    }

    /// Notes a message sent (`>`) or received (`<`) in its log.
    fn note(&mut self, way: &str, text: &str) {
        let at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() % 100_000);
        let short: String = text.chars().take(120).collect();
        self.log.push(format!("{at:05} {way} {short}"));
    }

    /// Every message it sent and received (each cut to 120 characters): a failure's cause
    /// may lie far back.
    fn whole_log(&self) -> String {
        self.log.join("\n  ")
    }

    /// What it is stuck on, for a failure's message: its room, node and last messages.
    pub fn report(&self) -> String {
        let history: Vec<String> = (self.seen.iter())
            .map(|(seq, ev)| {
                let what = [&ev["kind"], &ev["seat"], &ev["click"], &ev["round"]];
                let what: Vec<String> = (what.iter())
                    .filter(|v| !v.is_null())
                    .map(|v| v.to_string().trim_matches('"').to_owned())
                    .collect();
                format!("{seq}:{}", what.join("/"))
            })
            .collect();
        format!(
            "{} in room {:?}, last seq {}, at node {}; seen {}; every message:\n  {}",
            self.name,
            self.room,
            self.last(),
            self.at,
            history.join(" "),
            self.whole_log()
        )
    }

    /// The last seq of its room it has seen.
    pub fn last(&self) -> u64 {
        self.seen.keys().next_back().copied().unwrap_or(0)
    }

    /// Connects (to the first node that answers, from the one it used last) and says hello;
    /// in a room, resumes it from the last seq seen.
    async fn connect(&mut self) {
        let began = Instant::now();
        loop {
            assert!(
                began.elapsed() < STEP_LIMIT,
                "{}: no node answers",
                self.name
            );
            let urls = self.urls.lock().expect("urls").clone();
            let url = urls[self.at % urls.len()].clone();
            if let Some(ws) = self.hello(&url).await {
                self.ws = Some(ws);
                self.connections += 1;
                if self.room.is_some() {
                    // Resumed at the next read.
                    self.reconnects += 1;
                    self.resume_due = Some(Instant::now());
                }
                return;
            }
            self.at += 1;
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    async fn hello(&mut self, url: &str) -> Option<Ws> {
        let wait = Duration::from_secs(3);
        let (mut ws, _) = tokio::time::timeout(wait, tokio_tungstenite::connect_async(url))
            .await
            .ok()?
            .ok()?;
        let mut hello = json!({"t": "hello", "name": self.name, "version": 1});
        if let Some(token) = &self.token {
            hello["token"] = json!(token);
        }
        ws.send(Message::text(hello.to_string())).await.ok()?;
        let welcome = tokio::time::timeout(wait, async {
            while let Some(Ok(m)) = ws.next().await {
                if let Message::Text(t) = m {
                    return serde_json::from_str::<Value>(&t).ok();
                }
            }
            None
        })
        .await
        .ok()??;
        if welcome["t"] != "welcome" {
            return None;
        }
        self.token = welcome["token"].as_str().map(str::to_owned);
        Some(ws)
    }

    /// Sends a request with a fresh id (connecting first if need be); returns the id.
    pub async fn send(&mut self, mut req: Value) -> u64 {
        if self.ws.is_none() {
            self.connect().await;
        }
        let id = self.next_id;
        self.next_id += 1;
        req["id"] = json!(id);
        self.note(">", &req.to_string());
        if let Some(ws) = &mut self.ws {
            if ws.send(Message::text(req.to_string())).await.is_err() {
                self.ws = None;
            }
        }
        id
    }

    /// Resumes its room from the last seq seen (a spectator too).
    async fn resume(&mut self) {
        let Some(room) = self.room.clone() else {
            return;
        };
        self.resume_due = None;
        let since = self.last();
        let id = self
            .send(json!({"t": "resume", "room": room, "since": since}))
            .await;
        self.resuming = Some((id, Instant::now()));
        let hints = self.send(json!({"t": "hints", "room": room})).await;
        self.landing = Some(hints);
    }

    /// The next message within `wait` (`None`: none came), after taking in what it says of
    /// the room (events, `moved`, a resume refused while the room is between nodes). A lost
    /// connection is made again.
    pub async fn next(&mut self, wait: Duration) -> Option<Value> {
        if self.ws.is_none() {
            self.connect().await;
        }
        if self.resume_due.is_some_and(|at| at <= Instant::now()) {
            self.resume().await;
        }
        let ws = self.ws.as_mut()?;
        let msg = match tokio::time::timeout(wait, ws.next()).await {
            Err(_) => return None,
            Ok(Some(Ok(Message::Text(t)))) => {
                self.note("<", &t);
                serde_json::from_str::<Value>(&t).ok()?
            }
            Ok(Some(Ok(Message::Close(Some(frame))))) if u16::from(frame.code) == 1012 => {
                // The node is stopping and its rooms run elsewhere: the next node, at once.
                self.note("<", "(closed: 1012, restarting)");
                self.restarts += 1;
                self.at += 1;
                self.ws = None;
                return None;
            }
            Ok(Some(Ok(Message::Close(_)) | Err(_)) | None) => {
                self.note("<", "(closed)");
                self.ws = None;
                return None;
            }
            Ok(Some(Ok(_))) => return None,
        };
        let mine = self.room.as_deref().is_some_and(|r| msg["room"] == r);
        if self.landing.is_some() && msg["re"].as_u64() == self.landing {
            // The resume has landed (unless it was refused): everything it sent is in. A
            // `moved` heard meanwhile is acted on now, not a second later.
            let landed = self.resuming.take().is_some();
            self.landing = None;
            if landed && self.resume_due.is_some() {
                self.resume_due = Some(Instant::now());
            }
        }
        match msg["t"].as_str() {
            Some("event") if mine => {
                let seq = msg["seq"].as_u64().expect("an event's seq");
                self.received.push((seq, msg["ev"].clone()));
                self.seen.insert(seq, msg["ev"].clone());
            }
            Some("snapshot") if mine => {
                // What it has seen up to here is the snapshot's.
                if let Some(seq) = msg["seq"].as_u64() {
                    self.seen.entry(seq).or_insert(Value::Null);
                }
            }
            Some("moved") if mine => {
                self.moved += 1;
                match self.resuming {
                    // One sent a moment ago may have gone to the room's old place: one more
                    // when it has had time to be answered (a room never loses a member who
                    // resumes it once too often).
                    Some((_, at)) if at.elapsed() < Duration::from_secs(1) => {
                        let again = at + Duration::from_secs(1);
                        self.resume_due = Some(self.resume_due.map_or(again, |d| d.min(again)));
                    }
                    _ => self.resume().await,
                }
            }
            Some("error") => {
                let resume = self.resuming.map(|(id, _)| id);
                if msg["re"].as_u64().is_some() && msg["re"].as_u64() == resume {
                    self.resuming = None;
                    if msg["code"] == "server" || msg["code"] == "not_found" {
                        self.refused += 1;
                        self.resume_due = Some(Instant::now() + Duration::from_millis(300));
                    }
                }
            }
            _ => {}
        }
        Some(msg)
    }

    /// Whether a resume is due or was sent a moment ago (its events may be on their way).
    fn settling(&self) -> bool {
        self.resume_due.is_some()
            || self
                .resuming
                .is_some_and(|(_, at)| at.elapsed() < Duration::from_millis(1500))
    }

    /// Takes in whatever has arrived, without waiting.
    pub async fn drain(&mut self) {
        while self.next(Duration::from_millis(1)).await.is_some() {}
    }

    /// Sends `req` until its reply is not refused with `server` (or `not_found` while a
    /// room is between nodes); returns the reply.
    pub async fn request(&mut self, req: Value) -> Value {
        let began = Instant::now();
        loop {
            assert!(
                began.elapsed() < STEP_LIMIT,
                "{}: {req} never answered",
                self.name
            );
            let id = self.send(req.clone()).await;
            let sent = Instant::now();
            while sent.elapsed() < Duration::from_secs(3) && self.ws.is_some() {
                if let Some(m) = self.next(Duration::from_millis(200)).await {
                    if m["re"].as_u64() == Some(id) {
                        if m["t"] == "error" && (m["code"] == "server" || m["code"] == "not_found")
                        {
                            self.refused += 1;
                            break;
                        }
                        return m;
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }

    /// Learns the room's last seq (a `hints` request: its reply comes after every event
    /// before it, and names the seq) and resumes until it has seen that far.
    pub async fn catch_up(&mut self) {
        let Some(room) = self.room.clone() else {
            return;
        };
        let began = Instant::now();
        loop {
            assert!(
                began.elapsed() < STEP_LIMIT,
                "could not catch up: {}",
                self.report()
            );
            let id = self.send(json!({"t": "hints", "room": room})).await;
            let asked = Instant::now();
            let mut head = None;
            while asked.elapsed() < Duration::from_secs(3) && self.ws.is_some() {
                if let Some(m) = self.next(Duration::from_millis(100)).await {
                    if m["re"].as_u64() == Some(id) {
                        head = m["seq"].as_u64();
                        if m["code"] == "not_found" && self.read_ended().await {
                            return;
                        }
                        break;
                    }
                }
            }
            if let Some(head) = head {
                if self.last() < head {
                    self.resume().await;
                    let resumed = Instant::now();
                    while self.last() < head && resumed.elapsed() < Duration::from_secs(3) {
                        self.next(Duration::from_millis(100)).await;
                    }
                }
                if self.last() >= head {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }

    /// A room no node runs may have ended while its members were cut off (its last events
    /// stored, never sent): as a client would, reads what it missed with `history`. Whether
    /// the room has finished and everything in it is seen now.
    async fn read_ended(&mut self) -> bool {
        let since = self.last();
        (self.read_history(since).await)
            .is_some_and(|page| page["status"] == "finished" && page["more"] != true)
    }

    /// Reads with `history` the events a snapshot stood for (its seq is kept as a bare
    /// marker in `seen`): what a client showing the moves does after a snapshot.
    /// History is read from the last event seen one by one before the snapshot, not from
    /// the snapshot's own seq: a snapshot at 7 after events up to 5 stands for 6 as well (a
    /// member that read from 6 never saw 6, a click of its own, and sent it for ever).
    pub async fn fill_from_history(&mut self) {
        let Some(bare) = (self.seen.iter())
            .find(|(_, ev)| ev.is_null())
            .map(|(s, _)| *s)
        else {
            return;
        };
        let mut since = (self.seen.range(..bare))
            .filter(|(_, ev)| !ev.is_null())
            .map(|(seq, _)| *seq)
            .max()
            .unwrap_or(0);
        // Pages until the snapshot's seq is covered.
        while since < bare {
            let Some(page) = self.read_history(since).await else {
                return;
            };
            let last = (page["events"].as_array().into_iter().flatten())
                .filter_map(|e| e["seq"].as_u64())
                .max();
            match last {
                Some(last) if last > since && page["more"] == true => since = last,
                _ => return,
            }
        }
    }

    /// Asks `history` of its room after `since` and takes the events into `seen` (not into
    /// `received`: the checker checks what was sent unasked); the reply, if one came.
    async fn read_history(&mut self, since: u64) -> Option<Value> {
        let room = self.room.clone()?;
        let id = (self.send(json!({"t": "history", "room": room, "since": since}))).await;
        let asked = Instant::now();
        while asked.elapsed() < Duration::from_secs(3) && self.ws.is_some() {
            let Some(m) = self.next(Duration::from_millis(100)).await else {
                continue;
            };
            if m["re"].as_u64() != Some(id) {
                continue;
            }
            for logged in m["events"].as_array().into_iter().flatten() {
                if let Some(seq) = logged["seq"].as_u64() {
                    self.seen.insert(seq, logged["ev"].clone());
                }
            }
            return Some(m);
        }
        None
    }

    /// Waits (taking messages in) until `done` holds of what it has seen.
    /// Every few seconds without it, it catches up with the room as a client would (the
    /// room may have ended while it was cut off).
    pub async fn until(&mut self, what: &str, done: impl Fn(&Member) -> bool) {
        let began = Instant::now();
        let mut looked = Instant::now();
        while !done(self) {
            assert!(
                began.elapsed() < STEP_LIMIT,
                "{what} never came: {}",
                self.report()
            );
            self.next(Duration::from_millis(200)).await;
            if looked.elapsed() > Duration::from_secs(5) && !done(self) {
                self.catch_up().await;
                looked = Instant::now();
            }
        }
    }
}

/// How many events of `kind` with `seat` = `seat` a member has seen.
fn count(m: &Member, kind: &str, seat: &str) -> usize {
    (m.seen.values())
        .filter(|ev| ev["kind"] == kind && ev["seat"] == seat)
        .count()
}

/// One game's members: South and North, and a spectator.
pub struct Game {
    /// South (makes the room).
    pub s: Member,
    /// North.
    pub n: Member,
    /// The spectator.
    pub w: Member,
    /// The room.
    pub room: String,
}

impl Game {
    /// South on node `s`, North on node `n`, the spectator on node `w`: a Hydra for Two made,
    /// joined, watched and started.
    pub async fn start(tag: &str, urls: &Urls, [s, n, w]: [usize; 3]) -> Game {
        let mut south = Member::new(&format!("s{tag}"), urls, s);
        let mut north = Member::new(&format!("n{tag}"), urls, n);
        let mut watcher = Member::new(&format!("w{tag}"), urls, w);
        let made = south
            .request(json!({"t": "create", "game": "hydra-2"}))
            .await;
        assert_eq!(made["t"], "joined", "{made}");
        let room = made["room"].as_str().expect("room").to_string();
        south.room = Some(room.clone());
        let joined = north.request(json!({"t": "join", "room": room})).await;
        assert_eq!(joined["t"], "joined", "{joined}");
        north.room = Some(room.clone());
        let snap = watcher
            .request(json!({"t": "spectate", "room": room}))
            .await;
        assert_eq!(snap["t"], "snapshot", "{snap}");
        watcher.room = Some(room.clone());
        if let Some(seq) = snap["seq"].as_u64() {
            watcher.seen.insert(seq, Value::Null);
        }
        // `ready` has no reply: both say it again until both have seen the start (one said
        // again after it is refused, and ignored).
        let started = |m: &Member| m.seen.values().any(|ev| ev["kind"] == "start");
        let began = Instant::now();
        while !(started(&south) && started(&north)) {
            assert!(
                began.elapsed() < STEP_LIMIT,
                "{room} never started: {}\n{}",
                south.report(),
                north.report()
            );
            for p in [&mut south, &mut north] {
                if !started(p) {
                    // It may have missed the start (a `ready` refused as "already
                    // started"): it catches up first, as a client must.
                    p.catch_up().await;
                    p.fill_from_history().await;
                }
                if !started(p) {
                    p.send(json!({"t": "ready", "room": room})).await;
                }
            }
            let wait = Instant::now();
            while wait.elapsed() < Duration::from_secs(3) && !(started(&south) && started(&north)) {
                south.next(Duration::from_millis(50)).await;
                north.next(Duration::from_millis(50)).await;
            }
        }
        Game {
            s: south,
            n: north,
            w: watcher,
            room,
        }
    }

    /// Plays South's `moves` of [`HYDRA_TWO`] from move `from` (North passing after each but
    /// the game's last), each action sent until it is seen applied.
    pub async fn play(&mut self, from: usize, moves: usize) {
        let room = self.room.clone();
        // South's clicks before move `from`: each click is wanted as the game's n-th, not as
        // one more than he has seen, so one sent outside `play` and applied meanwhile (a
        // test's click into a paused node) is not played a second time.
        let mut clicks = (HYDRA_TWO.iter().take(from))
            .map(|(m, _)| expand(m).len())
            .sum::<usize>();
        for (i, (m, end)) in HYDRA_TWO.iter().enumerate().skip(from).take(moves) {
            for click in expand(m) {
                clicks += 1;
                let want = clicks;
                let req = json!({"t": "click", "room": room, "click": click});
                self.act(true, req, move |m| count(m, "click", "S") >= want)
                    .await;
            }
            // The turn passes to North (by itself when the move used every click).
            let to_n = i + 1;
            if *end {
                let req = json!({"t": "end_turn", "room": room});
                self.act(true, req, move |m| count(m, "turn", "N") >= to_n)
                    .await;
            }
            if i + 1 < HYDRA_TWO.len() {
                self.s
                    .until("the turn to N", |m| count(m, "turn", "N") >= to_n)
                    .await;
                let to_s = i + 1;
                self.n
                    .until("the turn to N", |m| count(m, "turn", "N") >= to_n)
                    .await;
                let req = json!({"t": "end_turn", "room": room});
                self.act(false, req, move |m| count(m, "turn", "S") >= to_s)
                    .await;
            }
        }
    }

    /// Pass number `p` of a game where both players only pass (South first, so even passes
    /// are South's), sent until seen applied; returns how long from the mover's first
    /// `end_turn` until he saw the turn pass.
    pub async fn pass(&mut self, p: usize) -> Duration {
        let room = self.room.clone();
        let req = json!({"t": "end_turn", "room": room});
        let want = p / 2 + 1;
        let (south, to) = if p.is_multiple_of(2) {
            (true, "N")
        } else {
            (false, "S")
        };
        let from = if south { "S" } else { "N" };
        let me = if south { &mut self.s } else { &mut self.n };
        // His turn first (the other's pass seen), as a client waits for it.
        me.until("the turn", |m| {
            m.seen.values().any(|ev| ev["kind"] == "start")
                && count(m, "turn", from) >= p.div_ceil(2)
        })
        .await;
        let began = Instant::now();
        self.act(south, req, move |m| count(m, "turn", to) >= want)
            .await;
        began.elapsed()
    }

    /// Plays the whole game from move `from` to South's win, seen by all three.
    pub async fn finish(&mut self, from: usize) {
        self.play(from, HYDRA_TWO.len() - from).await;
        let over = |m: &Member| m.seen.values().any(|ev| ev["kind"] == "over");
        for m in [&mut self.s, &mut self.n, &mut self.w] {
            m.until("over", over).await;
        }
    }

    /// Has South (`south`) or North send `req` until `done` holds of what he has seen:
    /// refused with `server` (the room is between nodes), not answered (its node is paused or
    /// died), or answered with a refusal that an action applied but not yet seen explains
    /// (`not_your_turn`: he resumes and looks again), it is sent again.
    async fn act(&mut self, south: bool, req: Value, done: impl Fn(&Member) -> bool) {
        let began = Instant::now();
        loop {
            let (me, others) = if south {
                (&mut self.s, [&mut self.n, &mut self.w])
            } else {
                (&mut self.n, [&mut self.s, &mut self.w])
            };
            if done(me) {
                return;
            }
            assert!(
                began.elapsed() < STEP_LIMIT,
                "{req} never applied: {}",
                me.report()
            );
            if me.settling() {
                // What it resumes may show the action applied already: look before sending
                // it again.
                me.next(Duration::from_millis(100)).await;
                continue;
            }
            let id = me.send(req.clone()).await;
            let sent = Instant::now();
            let connection = me.connections;
            // Its answer is awaited on the connection it went on: one that closes meanwhile
            // may have taken it with it (the node stopped), and it is looked for at once.
            while sent.elapsed() < Duration::from_secs(3)
                && !done(me)
                && me.ws.is_some()
                && me.connections == connection
            {
                let Some(m) = me.next(Duration::from_millis(100)).await else {
                    continue;
                };
                if m["re"].as_u64() == Some(id) && m["t"] == "error" {
                    if matches!(m["code"].as_str(), Some("server" | "not_found")) {
                        me.refused += 1;
                    }
                    break;
                }
            }
            if !done(me) {
                // Unanswered, refused (a node that stopped answering may still apply it when
                // it wakes, before it learns it lost the room), or refused as a copy of it
                // applied earlier would explain: an action is not sent again before he
                // knows it was not applied — he catches up with the room first (a `hints`
                // reply comes after every event before it), as a client must.
                me.catch_up().await;
                // A snapshot it resumed with may stand for events it never saw one by one:
                // it reads them, as a page's move list does.
                me.fill_from_history().await;
            }
            for o in others {
                o.drain().await;
            }
            if !done(me) {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

/// What a nemesis did.
#[derive(Debug, Default)]
pub struct Faults {
    /// Nodes paused (SIGSTOP) for longer than a lease, then continued.
    pub pauses: u32,
    /// Nodes killed (SIGKILL) and started again.
    pub kills: u32,
    /// PostgreSQL restarts.
    pub db_restarts: u32,
    /// NATS restarts.
    pub bus_restarts: u32,
}

/// A small deterministic random source (xorshift), seeded per run and printed, so a failing
/// run can be repeated.
pub struct Dice(u64);

impl Dice {
    /// Seeded from `ORION_NEMESIS_SEED`, else the clock.
    pub fn new() -> Dice {
        let seed = std::env::var("ORION_NEMESIS_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            })
            | 1;
        eprintln!("nemesis seed {seed} (ORION_NEMESIS_SEED={seed} repeats it)");
        Dice(seed)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }

    /// A duration between `lo` and `hi` milliseconds.
    pub fn ms(&mut self, lo: u64, hi: u64) -> Duration {
        Duration::from_millis(lo + self.below(hi - lo + 1))
    }
}

impl Default for Dice {
    fn default() -> Dice {
        Dice::new()
    }
}

/// Injects faults, one at a time with a pause between, until `until`: pauses a node for
/// longer than a lease, kills one and starts it again, restarts PostgreSQL or NATS. Keeps
/// `urls` up to date; leaves everything running.
pub async fn nemesis(
    nodes: &mut [ClusterNode],
    pg: &mut Postgres,
    nats: &mut Nats,
    urls: &Urls,
    until: Instant,
    dice: &mut Dice,
) -> Faults {
    let mut faults = Faults::default();
    while Instant::now() < until {
        tokio::time::sleep(dice.ms(1000, 2500)).await;
        let i = dice.below(nodes.len() as u64) as usize;
        match dice.below(10) {
            0..=3 => {
                nodes[i].pause();
                tokio::time::sleep(dice.ms(4000, 6500)).await;
                nodes[i].cont();
                faults.pauses += 1;
            }
            4..=6 => {
                nodes[i].kill();
                tokio::time::sleep(dice.ms(500, 2000)).await;
                nodes[i].restart();
                urls.lock().expect("urls")[i] = nodes[i].url();
                faults.kills += 1;
            }
            7 | 8 => {
                pg.stop();
                tokio::time::sleep(dice.ms(500, 4000)).await;
                pg.restart();
                faults.db_restarts += 1;
            }
            _ => {
                nats.stop();
                tokio::time::sleep(dice.ms(500, 2000)).await;
                nats.restart();
                faults.bus_restarts += 1;
            }
        }
    }
    faults
}

/// Checks one room: its stored history is seqs 1..=n without a gap; every event any member
/// received is the stored one at that seq; no member received a seq twice or out of order.
/// Returns how many events were checked.
pub async fn check_room(store: &dyn orion_server::Store, room: &str, members: &[&Member]) -> usize {
    let stored = store
        .events(room, 0, 1_000_000)
        .await
        .unwrap_or_else(|e| panic!("room {room}'s history: {e}"));
    let seqs: Vec<u64> = stored.iter().map(|(s, _)| *s).collect();
    assert_eq!(
        seqs,
        (1..=stored.len() as u64).collect::<Vec<_>>(),
        "room {room}'s stored history has a gap"
    );
    let mut checked = 0;
    for m in members {
        let mut last = 0;
        for (seq, ev) in &m.received {
            assert!(
                *seq > last,
                "{} got seq {seq} of {room} after {last} (twice, or out of order): {}",
                m.name,
                m.report()
            );
            last = *seq;
            let (_, text) = stored
                .get(*seq as usize - 1)
                .unwrap_or_else(|| panic!("{} got seq {seq} of {room}, never stored", m.name));
            let stored_ev: Value = serde_json::from_str(text).expect("a stored event");
            assert_eq!(
                &stored_ev, ev,
                "{} got another event {seq} of {room} than the stored one",
                m.name
            );
            checked += 1;
        }
    }
    checked
}

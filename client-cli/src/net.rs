//! The connection to a server: one task owns the WebSocket, says `hello` with the token saved
//! from an earlier session, and after a dropped connection reconnects on its own, says
//! `hello` with the same token and `resume`s every room it was in from the last `seq` seen
//! (at once after a close 1012, a cluster node restarting; with backoff after anything else).
//! The UI and the bots talk to it through two bounded channels.

use futures::{SinkExt, StreamExt};
use orion_protocol::{parse_reply, Code, Message as Incoming, Request, VERSION};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

/// Requests waiting to be written; a sender that outruns the socket waits.
pub const REQUEST_QUEUE: usize = 64;
/// Messages read but not yet taken by the UI or bot; the reader waits when it is full.
pub const MESSAGE_QUEUE: usize = 1024;
/// The close code of a cluster node that stops after handing its rooms to the others
/// (RFC 6455's Service Restart): the client reconnects at once, without backoff.
pub const RESTART_CLOSE: u16 = 1012;
/// Reconnection attempts after a drop before giving up.
pub const RECONNECT_TRIES: u32 = 20;
/// How often, and how many times, a room that moved to another server node (`moved`) is
/// resumed again while the cluster answers `server` (it is still between nodes).
const FOLLOW_EVERY: Duration = Duration::from_secs(1);
const FOLLOW_TRIES: u8 = 10;
/// Largest frame the client accepts (a snapshot is a few KB).
pub const MAX_FRAME: usize = 1 << 20;

/// Where the token of a name on a server is kept between sessions.
#[derive(Clone, Debug)]
pub enum TokenStore {
    /// Only for this process (bots: each run is a new player).
    Memory,
    /// A JSON file of `{"SERVER NAME": "token"}` (the UI: `orion/tokens.json` in the user's
    /// config directory, or `$ORION_CONFIG_DIR/tokens.json`).
    File(PathBuf),
}

impl TokenStore {
    /// The user's token file.
    pub fn user() -> TokenStore {
        let dir = std::env::var_os("ORION_CONFIG_DIR")
            .map(PathBuf::from)
            .or_else(|| dirs::config_dir().map(|d| d.join("orion")));
        match dir {
            Some(d) => TokenStore::File(d.join("tokens.json")),
            None => TokenStore::Memory,
        }
    }

    fn key(server: &str, name: &str) -> String {
        format!("{server} {name}")
    }

    fn read(path: &PathBuf) -> HashMap<String, String> {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// The saved token for `name` on `server`.
    pub fn load(&self, server: &str, name: &str) -> Option<String> {
        match self {
            TokenStore::Memory => None,
            TokenStore::File(path) => Self::read(path).remove(&Self::key(server, name)),
        }
    }

    /// Saves the token (best effort: a read-only config directory only costs the resume
    /// after a restart of the client).
    pub fn save(&self, server: &str, name: &str, token: &str) {
        if let TokenStore::File(path) = self {
            let mut all = Self::read(path);
            all.insert(Self::key(server, name), token.to_string());
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            if let Ok(text) = serde_json::to_string_pretty(&all) {
                let _ = std::fs::write(path, text);
            }
        }
    }
}

/// What the connection task reports.
// Nearly every value is a `Message` (the large variant): boxing it would add an allocation
// per frame to save space only in the rare small ones.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum NetEvent {
    /// Connected and welcomed (again, after a reconnect).
    Welcome {
        /// Player id.
        player: String,
        /// Rooms where this player holds a seat.
        rooms: Vec<String>,
        /// Whether this is a reconnection.
        again: bool,
    },
    /// A message from the server (the `welcome` is reported as [`NetEvent::Welcome`]).
    Message(Incoming<'static>),
    /// A frame that is not a message of the protocol: what was wrong with it. Nothing the
    /// server sends can crash the client; this is shown, otherwise ignored.
    Malformed(String),
    /// The connection dropped; reconnecting.
    Dropped(String),
    /// The connection is gone for good.
    Gone(String),
}

/// The handle on a connection task.
pub struct Client {
    /// Requests to send.
    pub tx: mpsc::Sender<Request>,
    /// What arrives.
    pub rx: mpsc::Receiver<NetEvent>,
}

impl Client {
    /// Sends a request; `false` when the connection task has ended.
    pub async fn send(&self, r: Request) -> bool {
        self.tx.send(r).await.is_ok()
    }

    /// The next report; `None` when the task has ended.
    pub async fn recv(&mut self) -> Option<NetEvent> {
        self.rx.recv().await
    }
}

/// What one room needs to be resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Member {
    /// Holds a seat: `resume` from the last seq.
    Player(u64),
    /// Watches: `spectate` again.
    Spectator(u64),
}

/// Connects to `url` as `name`, and keeps the connection up in a task.
pub async fn connect(url: &str, name: &str, tokens: TokenStore) -> Result<Client, String> {
    let saved = tokens.load(url, name);
    let opened = match open(url, name, saved.clone()).await {
        // The server no longer knows the saved token (pruned, or revoked by `logout all` on
        // another device): a new identity, as the browser does.
        Err((Some(Code::NotFound), _)) if saved.is_some() => open(url, name, None).await,
        other => other,
    };
    let (ws, welcome) = opened.map_err(|(_, e)| e)?;
    tokens.save(url, name, &welcome.token);
    let (req_tx, req_rx) = mpsc::channel(REQUEST_QUEUE);
    let (ev_tx, ev_rx) = mpsc::channel(MESSAGE_QUEUE);
    let _ = ev_tx
        .send(NetEvent::Welcome {
            player: welcome.player,
            rooms: welcome.rooms,
            again: false,
        })
        .await;
    let task = Task {
        url: url.to_string(),
        name: name.to_string(),
        tokens,
        token: welcome.token,
        rooms: HashMap::new(),
        following: HashMap::new(),
        restarting: false,
        tx: ev_tx,
    };
    tokio::spawn(task.run(ws, req_rx));
    Ok(Client {
        tx: req_tx,
        rx: ev_rx,
    })
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The server's `welcome`.
struct Welcome {
    player: String,
    token: String,
    rooms: Vec<String>,
}

/// Why a connection could not be opened: the code of the server's refusal (if it refused),
/// and what to tell the user.
type OpenError = (Option<Code>, String);

/// Opens the socket and says hello; returns the welcome.
async fn open(url: &str, name: &str, token: Option<String>) -> Result<(Ws, Welcome), OpenError> {
    let failed = |e: String| (None, e);
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .max_message_size(Some(MAX_FRAME))
        .max_frame_size(Some(MAX_FRAME));
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), false)
        .await
        .map_err(|e| failed(format!("cannot connect to {url}: {e}")))?;
    let hello = Request::Hello {
        name: name.to_string(),
        version: VERSION,
        token,
    };
    ws.send(Message::text(hello.to_json()))
        .await
        .map_err(|e| failed(format!("connection to {url} failed: {e}")))?;
    while let Some(msg) = ws.next().await {
        let msg = msg.map_err(|e| failed(format!("connection to {url} failed: {e}")))?;
        let Message::Text(text) = msg else {
            continue;
        };
        match parse_reply(&text).map(|r| r.message) {
            Ok(Incoming::Welcome {
                player,
                token,
                rooms,
                ..
            }) => {
                return Ok((
                    ws,
                    Welcome {
                        player,
                        token,
                        rooms,
                    },
                ))
            }
            Ok(Incoming::Error { message, code, .. }) => {
                return Err((Some(code), format!("the server refused: {message}")))
            }
            _ => {}
        }
    }
    Err(failed(format!(
        "{url} closed the connection before welcoming us"
    )))
}

/// Reads one text frame from the server: a message, or what was wrong with it.
pub fn read(text: &str) -> NetEvent {
    match parse_reply(text) {
        Ok(reply) => NetEvent::Message(reply.message),
        Err(e) => NetEvent::Malformed(e.to_string()),
    }
}

/// The connection task's state.
struct Task {
    url: String,
    name: String,
    tokens: TokenStore,
    /// The token of the first welcome, to get the same seats back.
    token: String,
    /// Rooms this connection is in, with the last seq seen, to resume after a drop.
    rooms: HashMap<String, Member>,
    /// Rooms that moved to another server node (`moved`), with the resumes left to send
    /// while the cluster still answers `server`.
    following: HashMap<String, u8>,
    /// The last close was 1012 (a restarting node): the next reconnection starts at once.
    restarting: bool,
    tx: mpsc::Sender<NetEvent>,
}

impl Task {
    async fn run(mut self, mut ws: Ws, mut requests: mpsc::Receiver<Request>) {
        loop {
            let why = self.pump(&mut ws, &mut requests).await;
            let Some(why) = why else {
                let _ = ws.close(None).await;
                return; // The client dropped its handle.
            };
            if self.tx.send(NetEvent::Dropped(why.clone())).await.is_err() {
                return;
            }
            match self.reconnect().await {
                Some(new) => ws = new,
                None => {
                    let _ = self.tx.send(NetEvent::Gone(why)).await;
                    return;
                }
            }
        }
    }

    /// Moves frames both ways until the socket fails (`Some(why)`) or the client hangs up.
    async fn pump(
        &mut self,
        ws: &mut Ws,
        requests: &mut mpsc::Receiver<Request>,
    ) -> Option<String> {
        let mut retry = tokio::time::interval(FOLLOW_EVERY);
        let mut refused = false;
        loop {
            tokio::select! {
                _ = retry.tick(), if !self.following.is_empty() => {
                    if !std::mem::take(&mut refused) {
                        continue;
                    }
                    // A `server` refusal came since the last resume: the room was still
                    // between nodes. Ask again (a resume that worked costs nothing more).
                    self.following.retain(|_, left| { *left = left.saturating_sub(1); *left > 0 });
                    for room in self.following.keys().cloned().collect::<Vec<_>>() {
                        if let Some(r) = self.resume_request(&room) {
                            if let Err(e) = ws.send(Message::text(r.to_json())).await {
                                return Some(format!("send failed: {e}"));
                            }
                        }
                    }
                }
                r = requests.recv() => {
                    let r = r?;
                    if let Request::Spectate { room, .. } = &r {
                        self.rooms.entry(room.clone()).or_insert(Member::Spectator(0));
                    }
                    if let Request::Leave { room } = &r {
                        self.rooms.remove(room);
                    }
                    if let Err(e) = ws.send(Message::text(r.to_json())).await {
                        return Some(format!("send failed: {e}"));
                    }
                }
                m = ws.next() => {
                    let text = match m {
                        None => return Some("the server closed the connection".to_string()),
                        Some(Err(e)) => return Some(format!("connection lost: {e}")),
                        Some(Ok(Message::Text(t))) => t,
                        Some(Ok(Message::Close(f))) => {
                            // 1012: a cluster node restarting, its rooms already elsewhere.
                            self.restarting = f.as_ref().is_some_and(|f| u16::from(f.code) == RESTART_CLOSE);
                            return Some(f.map_or("the server closed the connection".to_string(),
                                |f| format!("the server closed the connection: {}", f.reason)));
                        }
                        Some(Ok(_)) => continue,
                    };
                    let incoming = read(&text);
                    if let NetEvent::Message(m) = &incoming {
                        self.track(m);
                        match m {
                            // The room moved to another server node: resume it there at once.
                            Incoming::Moved { room } => {
                                if let Some(r) = self.resume_request(room) {
                                    self.following.insert(room.clone(), FOLLOW_TRIES);
                                    if let Err(e) = ws.send(Message::text(r.to_json())).await {
                                        return Some(format!("send failed: {e}"));
                                    }
                                }
                            }
                            Incoming::Error { code: orion_protocol::Code::Server, .. } => refused = true,
                            Incoming::Event { room, .. } => {
                                self.following.remove(&**room);
                            }
                            _ => {}
                        }
                    }
                    if self.tx.send(incoming).await.is_err() {
                        return None;
                    }
                }
            }
        }
    }

    fn track(&mut self, m: &Incoming<'_>) {
        match m {
            Incoming::Joined { room, .. } => {
                let seq = match self.rooms.get(room) {
                    Some(Member::Player(s) | Member::Spectator(s)) => *s,
                    None => 0,
                };
                self.rooms.insert(room.clone(), Member::Player(seq));
            }
            Incoming::Left { room } => {
                self.rooms.remove(room);
            }
            Incoming::Snapshot(s) => self.seen(&s.room, s.seq),
            Incoming::Event { room, seq, .. } => self.seen(room, *seq),
            // `register` and `login` answer with a `welcome`: from then on this connection is
            // that account, and a reconnection says hello with its token.
            Incoming::Welcome { token, name, .. } => {
                self.token.clone_from(token);
                self.name.clone_from(name);
                self.tokens.save(&self.url, name, token);
            }
            _ => {}
        }
    }

    /// The `resume` for a room this connection is in (a watcher resumes too), from the last
    /// seq seen.
    fn resume_request(&self, room: &str) -> Option<Request> {
        match self.rooms.get(room)? {
            Member::Player(since) | Member::Spectator(since) => Some(Request::Resume {
                room: room.to_string(),
                since: *since,
            }),
        }
    }

    fn seen(&mut self, room: &str, seq: u64) {
        match self.rooms.get_mut(room) {
            Some(Member::Player(s) | Member::Spectator(s)) => *s = (*s).max(seq),
            None => {
                self.rooms.insert(room.to_string(), Member::Spectator(seq));
            }
        }
    }

    /// Reconnects with the saved token and resumes every room; `None` after too many tries.
    async fn reconnect(&mut self) -> Option<Ws> {
        let mut delay = Duration::from_millis(100);
        // A restarting node's rooms run on another node already: at once, no backoff.
        if std::mem::take(&mut self.restarting) {
            delay = Duration::ZERO;
        }
        for _ in 0..RECONNECT_TRIES {
            tokio::time::sleep(delay).await;
            delay = delay.max(Duration::from_millis(100));
            delay = (delay * 2).min(Duration::from_secs(5));
            let Ok((mut ws, welcome)) = open(&self.url, &self.name, Some(self.token.clone())).await
            else {
                continue;
            };
            self.token = welcome.token;
            self.tokens.save(&self.url, &self.name, &self.token);
            let again = NetEvent::Welcome {
                player: welcome.player,
                rooms: welcome.rooms,
                again: true,
            };
            if self.tx.send(again).await.is_err() {
                return None;
            }
            let mut ok = true;
            for (room, member) in self.rooms.clone() {
                let r = match member {
                    Member::Player(since) => Request::Resume { room, since },
                    Member::Spectator(_) => Request::Spectate { room, quiet: false },
                };
                ok &= ws.send(Message::text(r.to_json())).await.is_ok();
            }
            if ok {
                return Some(ws);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_kept_per_server_and_name() {
        let dir = std::env::temp_dir().join(format!("orion-tokens-{}", std::process::id()));
        let store = TokenStore::File(dir.join("tokens.json"));
        assert_eq!(store.load("ws://a/ws", "ann"), None);
        store.save("ws://a/ws", "ann", "t1");
        store.save("ws://b/ws", "ann", "t2");
        assert_eq!(store.load("ws://a/ws", "ann").as_deref(), Some("t1"));
        assert_eq!(store.load("ws://b/ws", "ann").as_deref(), Some("t2"));
        assert_eq!(store.load("ws://a/ws", "bob"), None);
        let _ = std::fs::remove_dir_all(dir);
        assert_eq!(TokenStore::Memory.load("ws://a/ws", "ann"), None);
    }
}

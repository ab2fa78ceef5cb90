//! End-to-end test support: a real server on a port-0 listener, run on its own thread and
//! runtime so a test can stop it gracefully or kill it abruptly, and a WebSocket client that
//! keeps every message it receives so tests can assert on whole event streams; `pg` starts a
//! real PostgreSQL for the tests of that store.

pub mod cluster;
pub mod nats;
pub mod nemesis;
pub mod nginx;
pub mod pg;
pub mod progress;
pub mod solo;

use futures::{SinkExt, StreamExt};
use orion_protocol::{Envelope, Request, RequestId};
use orion_server::{Config, ManualClock};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The time the test clock starts at (any fixed epoch milliseconds).
pub const T0: u64 = 1_800_000_000_000;
/// How long a test waits for a message before failing (a guard, never a pause).
pub const PATIENCE: Duration = Duration::from_secs(10);

/// A server running on its own thread.
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its clock, moved by the test.
    pub clock: Arc<ManualClock>,
    /// Send `true` to shut down gracefully, `false` (or drop) to kill.
    stop: Option<oneshot::Sender<bool>>,
    /// The server thread.
    thread: Option<JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server on a throwaway in-memory store.
    pub fn start() -> TestServer {
        TestServer::start_on(":memory:", Arc::new(ManualClock::new(T0)))
    }

    /// Starts a server on the store at `db` (a SQLite path, `:memory:`, or a PostgreSQL URL
    /// such as [`pg::Postgres::url`]) with `clock`.
    pub fn start_on(db: &str, clock: Arc<ManualClock>) -> TestServer {
        TestServer::start_with(db, clock, orion_server::SEND_QUEUE, None)
    }

    /// Starts a server with a given per-connection send queue and, optionally, a fixed
    /// kernel send buffer for its sockets (on loopback the kernel would otherwise grow it to
    /// megabytes, hiding a client that stops reading for a long time).
    pub fn start_with(
        db: &str,
        clock: Arc<ManualClock>,
        send_queue: usize,
        sndbuf: Option<u32>,
    ) -> TestServer {
        let config = Config {
            db: db.to_string(),
            clock: clock.clone(),
            send_queue,
            ..Config::default()
        };
        TestServer::start_config(config, clock, sndbuf)
    }

    /// Starts a throwaway server whose `Config` `tune` has changed (limits, timeouts, origins).
    pub fn start_tuned(tune: impl FnOnce(&mut Config)) -> TestServer {
        let clock = Arc::new(ManualClock::new(T0));
        let mut config = Config {
            clock: clock.clone(),
            ..Config::default()
        };
        tune(&mut config);
        TestServer::start_config(config, clock, None)
    }

    /// Starts a server with `config`, whose clock is `clock`, and optionally a fixed kernel
    /// send buffer for its sockets.
    pub fn start_config(
        config: Config,
        clock: Arc<ManualClock>,
        sndbuf: Option<u32>,
    ) -> TestServer {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stop_rx) = oneshot::channel::<bool>();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let socket = tokio::net::TcpSocket::new_v4().expect("socket");
                if let Some(size) = sndbuf {
                    socket.set_send_buffer_size(size).expect("sndbuf");
                }
                socket
                    .bind("127.0.0.1:0".parse().expect("addr"))
                    .expect("bind");
                let listener = socket.listen(1024).expect("listen");
                addr_tx
                    .send(listener.local_addr().expect("addr"))
                    .expect("send addr");
                let (graceful_tx, graceful_rx) = oneshot::channel::<()>();
                let server = orion_server::serve(listener, config, async {
                    let _ = graceful_rx.await;
                });
                tokio::pin!(server);
                tokio::select! {
                    res = &mut server => res.expect("server failed"),
                    how = stop_rx => {
                        if how == Ok(true) {
                            let _ = graceful_tx.send(());
                            server.await.expect("server failed");
                        }
                        // Otherwise: return at once; dropping the runtime below cancels every
                        // task mid-flight, like a killed process.
                    }
                }
            });
            drop(rt);
        });
        let addr = addr_rx.recv().expect("server address");
        TestServer {
            addr,
            clock,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// The WebSocket URL.
    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Stops the server abruptly: every task is dropped where it stands.
    pub fn kill(mut self) {
        self.finish(false);
    }

    /// Shuts the server down gracefully and waits for it.
    pub fn shutdown(mut self) {
        self.finish(true);
    }

    fn finish(&mut self, graceful: bool) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(graceful);
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Connects a client and says hello as `name`.
    pub async fn player(&self, name: &str) -> Client {
        let c = Client::connect(&self.url()).await;
        Self::hello(c, name).await
    }

    /// Connects a client whose socket receive buffer is tiny (so the server's writes to it
    /// block soon once it stops reading) and says hello as `name`.
    pub async fn small_player(&self, name: &str) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket.set_recv_buffer_size(4096).expect("rcvbuf");
        let stream = socket.connect(self.addr).await.expect("connect");
        let (ws, _) = tokio_tungstenite::client_async(self.url(), MaybeTlsStream::Plain(stream))
            .await
            .expect("handshake");
        Self::hello(Client::from_ws(ws), name).await
    }

    /// Reconnects as the player holding `token`.
    pub async fn reconnect(&self, name: &str, token: &str) -> (Client, Value) {
        let mut c = Client::connect(&self.url()).await;
        let welcome = c
            .ask(Request::Hello {
                name: name.into(),
                version: orion_protocol::VERSION,
                token: Some(token.into()),
            })
            .await;
        c.token = token.to_string();
        (c, welcome)
    }

    async fn hello(mut c: Client, name: &str) -> Client {
        let welcome = c
            .ask(Request::Hello {
                name: name.into(),
                version: orion_protocol::VERSION,
                token: None,
            })
            .await;
        assert_eq!(welcome["t"], "welcome", "{welcome}");
        c.token = welcome["token"].as_str().unwrap_or_default().to_string();
        c
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.finish(false);
    }
}

/// A WebSocket client that remembers what it received.
pub struct Client {
    /// The socket.
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Received but not yet consumed by an `expect`.
    pending: VecDeque<Value>,
    /// Every `event` message received, in arrival order.
    pub events: Vec<Value>,
    /// Next request id.
    next_id: u64,
    /// The token from `welcome`.
    pub token: String,
    /// The seat this client took in the room it plays in.
    pub seat: String,
}

impl Client {
    /// Connects to `url`.
    pub async fn connect(url: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connect");
        Client::from_ws(ws)
    }

    /// Connects to `url` with extra request headers (`("origin", "https://…")`); the error
    /// is the handshake's, e.g. the server's refusal.
    pub async fn connect_with(
        url: &str,
        headers: &[(&'static str, &str)],
    ) -> Result<Client, tokio_tungstenite::tungstenite::Error> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        use tokio_tungstenite::tungstenite::http::HeaderValue;
        let mut request = url.into_client_request()?;
        for (name, value) in headers {
            let value = HeaderValue::from_str(value).expect("a header value");
            request.headers_mut().insert(*name, value);
        }
        let (ws, _) = tokio_tungstenite::connect_async(request).await?;
        Ok(Client::from_ws(ws))
    }

    /// Connects to `url` from the local address `from` (any of 127.0.0.0/8, so a test can
    /// be several clients of a proxy), with extra request headers; the error is the
    /// handshake's.
    pub async fn connect_from(
        url: &str,
        from: std::net::IpAddr,
        headers: &[(&'static str, &str)],
    ) -> Result<Client, tokio_tungstenite::tungstenite::Error> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        use tokio_tungstenite::tungstenite::http::HeaderValue;
        let mut request = url.into_client_request()?;
        for (name, value) in headers {
            let value = HeaderValue::from_str(value).expect("a header value");
            request.headers_mut().insert(*name, value);
        }
        let uri = request.uri();
        let to: SocketAddr = format!(
            "{}:{}",
            uri.host().unwrap_or_default(),
            uri.port_u16().unwrap_or(80)
        )
        .parse()
        .expect("a ws://IP:PORT url");
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .bind(SocketAddr::new(from, 0))
            .expect("bind the client's address");
        let stream = socket.connect(to).await?;
        let (ws, _) =
            tokio_tungstenite::client_async(request, MaybeTlsStream::Plain(stream)).await?;
        Ok(Client::from_ws(ws))
    }

    fn from_ws(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Client {
        Client {
            ws,
            pending: VecDeque::new(),
            events: Vec::new(),
            next_id: 1,
            token: String::new(),
            seat: String::new(),
        }
    }

    /// Sends a raw text frame.
    pub async fn send_text(&mut self, text: impl Into<String>) {
        self.ws
            .send(Message::text(text.into()))
            .await
            .expect("send");
    }

    /// Sends a raw text frame; false if the connection is already gone.
    pub async fn try_send_text(&mut self, text: impl Into<String>) -> bool {
        self.ws.send(Message::text(text.into())).await.is_ok()
    }

    /// Sends a JSON request without an id.
    pub async fn send(&mut self, v: Value) {
        self.send_text(v.to_string()).await;
    }

    /// Sends a request with a fresh id; returns the id.
    pub async fn send_with_id(&mut self, mut v: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        v["id"] = json!(id);
        self.send(v).await;
        id
    }

    /// Sends a typed request with a fresh id; returns the id.
    pub async fn send_request(&mut self, request: Request) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let envelope = Envelope {
            id: Some(RequestId::Number(id.into())),
            request,
        };
        let text = serde_json::to_string(&envelope).expect("a request serialises");
        self.send_text(text).await;
        id
    }

    /// Sends a typed request and waits for its direct reply.
    pub async fn ask(&mut self, request: Request) -> Value {
        let id = self.send_request(request).await;
        self.expect(|m| m["re"] == json!(id)).await
    }

    /// Sends a request and waits for its direct reply (the message with `re` = its id).
    pub async fn request(&mut self, v: Value) -> Value {
        let id = self.send_with_id(v).await;
        self.expect(|m| m["re"] == json!(id)).await
    }

    /// Every stored event of `room`, a `history` page at a time (`since` the last seq read).
    pub async fn history(&mut self, room: &str) -> Vec<Value> {
        let mut events = Vec::new();
        let mut since = 0;
        loop {
            let req = json!({"t": "history", "room": room, "since": since});
            let page = self.request(req).await;
            assert_eq!(page["t"], "history", "{page}");
            let list = page["events"].as_array().cloned().unwrap_or_default();
            since = list.last().and_then(|e| e["seq"].as_u64()).unwrap_or(since);
            events.extend(list);
            if page["more"] != json!(true) {
                return events;
            }
        }
    }

    /// Reads the next message from the socket; `None` when the connection ended.
    async fn read(&mut self) -> Option<Result<Value, Option<u16>>> {
        loop {
            let msg = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .expect("no message within the patience limit")?;
            match msg {
                Ok(Message::Text(t)) => {
                    // Every frame of every test is read by the protocol crate too: a message
                    // the server sends but the crate cannot read (a renamed field, a new
                    // message never typed) fails the test that provoked it.
                    if let Err(e) = orion_protocol::parse_reply(&t) {
                        panic!("the server sent a frame outside the protocol ({e}): {t}");
                    }
                    let v: Value = serde_json::from_str(&t).expect("server sent JSON");
                    if v["t"] == "event" {
                        self.events.push(v.clone());
                    }
                    return Some(Ok(v));
                }
                Ok(Message::Close(frame)) => return Some(Err(frame.map(|f| f.code.into()))),
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
    }

    /// Waits for the first message matching `pred`, keeping the others for later.
    pub async fn expect(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.pending.iter().position(&pred) {
            return self.pending.remove(i).expect("index");
        }
        loop {
            match self.read().await {
                Some(Ok(v)) if pred(&v) => return v,
                Some(Ok(v)) => self.pending.push_back(v),
                other => panic!(
                    "connection ended while waiting: {other:?}; pending {:?}",
                    self.pending
                ),
            }
        }
    }

    /// Waits for the next message of type `t`.
    pub async fn expect_t(&mut self, t: &str) -> Value {
        self.expect(|m| m["t"] == t).await
    }

    /// Waits for the close frame and returns its code (`None` if the socket just ended).
    pub async fn expect_close(&mut self) -> Option<u16> {
        loop {
            match self.read().await {
                Some(Ok(v)) => self.pending.push_back(v),
                Some(Err(code)) => return code,
                None => return None,
            }
        }
    }

    /// Waits for an event of `kind` in `room`.
    pub async fn expect_event(&mut self, room: &str, kind: &str) -> Value {
        self.expect(|m| m["t"] == "event" && m["room"] == room && m["ev"]["kind"] == kind)
            .await
    }

    /// Waits until this client has received event `seq` of `room`.
    pub async fn sync_to(&mut self, room: &str, seq: u64) {
        while !self
            .events
            .iter()
            .any(|e| e["room"] == room && e["seq"].as_u64() >= Some(seq))
        {
            match self.read().await {
                Some(Ok(v)) => self.pending.push_back(v),
                other => panic!("connection ended before seq {seq}: {other:?}"),
            }
        }
    }

    /// The highest seq received in `room`.
    pub fn last_seq(&self, room: &str) -> u64 {
        self.events
            .iter()
            .filter(|e| e["room"] == room)
            .filter_map(|e| e["seq"].as_u64())
            .max()
            .unwrap_or(0)
    }

    /// The seat to move according to this client's events up to `seq` in `room`.
    pub fn mover_known(&self, room: &str, seq: u64) -> Option<String> {
        self.events
            .iter()
            .filter(|e| e["room"] == room && e["seq"].as_u64() <= Some(seq))
            .filter_map(|e| match e["ev"]["kind"].as_str() {
                Some("turn") => e["ev"]["seat"].as_str(),
                Some("start") => e["ev"]["turn"]["seat"].as_str(),
                _ => None,
            })
            .next_back()
            .map(str::to_string)
    }

    /// The `error` messages received so far and not consumed.
    pub fn errors(&self) -> Vec<&Value> {
        self.pending.iter().filter(|m| m["t"] == "error").collect()
    }

    /// Sends a game request (`{t, room, ..extra}`) and waits for the event it causes (its
    /// own click, place, roll or claim, or for `end_turn`/`three` the next turn); panics if
    /// the server refuses it.
    pub async fn play(&mut self, room: &str, t: &str, extra: Value) -> Value {
        let mut req = json!({"t": t, "room": room});
        if let Value::Object(m) = extra {
            for (k, v) in m {
                req[k] = v;
            }
        }
        let before = self.last_seq(room);
        let me = self.seat.clone();
        let kind = match t {
            "end_turn" | "three" => "turn",
            other => other,
        };
        // The seat to move as this client last knew it; `turn` events are followed in order
        // so that `end_turn` waits for the turn that leaves *this* seat, not an older one
        // still in flight.
        let mover = std::cell::RefCell::new(self.mover_known(room, before));
        // Game requests go out typed: a test that misnames a field fails here, not at the
        // server.
        let typed: Request = orion_protocol::from_value(&req)
            .unwrap_or_else(|e| panic!("{req} is not a request of the protocol: {e}"));
        let id = self.send_request(typed).await;
        let reply = self
            .expect(|m| {
                if m["re"] == json!(id) {
                    return true;
                }
                let ev = &m["ev"];
                if m["t"] != "event" || m["room"] != room || ev["kind"] != kind {
                    return false;
                }
                let newer = m["seq"].as_u64() > Some(before);
                match t {
                    "end_turn" => {
                        let was = mover.replace(ev["seat"].as_str().map(str::to_string));
                        newer && was.as_deref() == Some(me.as_str()) && ev["seat"] != json!(me)
                    }
                    _ => newer && ev["seat"] == json!(me),
                }
            })
            .await;
        assert_ne!(reply["t"], "error", "{req} refused: {reply}");
        reply
    }

    /// Claims this client's name with `password` (`register`), which must be taken: the
    /// client is an account's after it.
    pub async fn claim(&mut self, password: &str) {
        let w = self
            .request(json!({"t": "register", "password": password}))
            .await;
        assert_eq!(w["account"], true, "{w}");
    }

    /// Sends a game request that must be refused; returns the error.
    pub async fn refused(&mut self, req: Value) -> Value {
        let reply = self.request(req.clone()).await;
        assert_eq!(reply["t"], "error", "{req} was accepted: {reply}");
        reply
    }

    /// Plays one move of booklet clicks (`"B4R (2), B5L"`), ending the turn when clicks are
    /// left (`end` true).
    pub async fn clicks(&mut self, room: &str, moves: &str, end: bool) {
        for click in expand(moves) {
            self.play(room, "click", json!({"click": click})).await;
        }
        if end {
            self.play(room, "end_turn", json!({})).await;
        }
    }
}

/// Expands booklet move text into single clicks: `"B4R (2), B5L"` → `B4R B4R B5L`.
pub fn expand(moves: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in moves.split(',') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (click, n) = match part.split_once('(') {
            Some((c, n)) => (
                c.trim(),
                n.trim_end_matches(')').trim().parse().unwrap_or(1),
            ),
            None => (part, 1),
        };
        for _ in 0..n {
            out.push(click.to_string());
        }
    }
    out
}

/// A fresh store file path under the system temp dir (removed with its WAL by `remove_db`).
pub fn temp_db(tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let path = std::env::temp_dir().join(format!("orion-{tag}-{}-{nanos}.db", std::process::id()));
    path.to_string_lossy().into_owned()
}

/// Removes a store file made by `temp_db`.
pub fn remove_db(path: &str) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{path}{suffix}"));
    }
}

/// Fetches `path` over plain HTTP from the server and returns the whole response.
pub async fn http_get(addr: SocketAddr, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nhost: test\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut out = String::new();
    tokio::time::timeout(PATIENCE, stream.read_to_string(&mut out))
        .await
        .expect("http response in time")
        .expect("read");
    out
}

/// Seats `players` in a new room of `game` (first one creates, the others join in order,
/// all ready) and waits for the start. Returns the room id.
pub async fn start_room(players: &mut [Client], game: &str, options: Value) -> String {
    let options = orion_protocol::from_value(&options)
        .unwrap_or_else(|e| panic!("{options} are not room options: {e}"));
    let joined = players[0]
        .ask(Request::Create {
            game: game.into(),
            options: Some(options),
            private: None,
            seat: None,
        })
        .await;
    assert_eq!(joined["t"], "joined", "{joined}");
    let room = joined["room"].as_str().expect("room id").to_string();
    players[0].seat = joined["seat"].as_str().unwrap_or_default().to_string();
    for p in players.iter_mut().skip(1) {
        let j = p
            .ask(Request::Join {
                room: Some(room.clone()),
                code: None,
                seat: None,
            })
            .await;
        assert_eq!(j["t"], "joined", "{j}");
        p.seat = j["seat"].as_str().unwrap_or_default().to_string();
    }
    for p in players.iter_mut() {
        p.send_request(Request::Ready { room: room.clone() }).await;
    }
    for p in players.iter_mut() {
        p.expect_event(&room, "start").await;
    }
    room
}

/// The `Sec-WebSocket-Key` of the hand-made upgrade requests (RFC 6455's example nonce).
pub const UPGRADE_KEY: &str = "dGhlIHNhbXBsZSBub25jZQ==";

/// Sends an upgrade request for `path` by hand, with `extra` header lines (`"origin: …"`), and
/// reads the answer: the socket and the response head, followed by the body up to the end of
/// the connection unless the answer is a 101.
pub async fn raw_upgrade(addr: SocketAddr, path: &str, extra: &[&str]) -> (TcpStream, String) {
    raw_upgrade_then(addr, path, extra, &[]).await
}

/// `raw_upgrade` with `behind` (say, frames) sent in the same write as the request.
pub async fn raw_upgrade_then(
    addr: SocketAddr,
    path: &str,
    extra: &[&str],
    behind: &[u8],
) -> (TcpStream, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let mut request = format!(
        "GET {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: upgrade\r\nupgrade: websocket\r\n\
         sec-websocket-version: 13\r\nsec-websocket-key: {UPGRADE_KEY}\r\n"
    );
    for line in extra {
        request.push_str(line);
        request.push_str("\r\n");
    }
    request.push_str("\r\n");
    let mut bytes = request.into_bytes();
    bytes.extend_from_slice(behind);
    stream.write_all(&bytes).await.expect("write");
    // Byte by byte up to the blank line, so no frame behind a 101 is taken with the head.
    let mut head = Vec::new();
    tokio::time::timeout(PATIENCE, async {
        while !head.ends_with(b"\r\n\r\n") {
            let mut byte = [0u8; 1];
            if stream.read(&mut byte).await.expect("read") == 0 {
                break;
            }
            head.push(byte[0]);
        }
        if !head.starts_with(b"HTTP/1.1 101") {
            stream.read_to_end(&mut head).await.expect("read");
        }
    })
    .await
    .expect("an answer in time");
    (stream, String::from_utf8_lossy(&head).into_owned())
}

/// One client frame made by hand: `first` is the FIN, RSV and opcode byte (`0x81` is a final
/// text frame); masked (with a fixed key) as RFC 6455 asks of clients when `masked`.
pub fn raw_frame(first: u8, payload: &[u8], masked: bool) -> Vec<u8> {
    let key = [0x37u8, 0xfa, 0x21, 0x3d];
    let mask_bit = if masked { 0x80 } else { 0 };
    let mut out = vec![first];
    match payload.len() {
        n if n < 126 => out.push(mask_bit | n as u8),
        n if n <= u16::MAX as usize => {
            out.push(mask_bit | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(mask_bit | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    if masked {
        out.extend_from_slice(&key);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
    } else {
        out.extend_from_slice(payload);
    }
    out
}

/// Reads the server's frames from a hand-made connection until its close frame: the text
/// frames before it, and the close code (`None` if the connection ended without one).
pub async fn raw_read_until_close(stream: &mut TcpStream) -> (Vec<String>, Option<u16>) {
    use tokio::io::AsyncReadExt;
    let mut texts = Vec::new();
    let code = tokio::time::timeout(PATIENCE, async {
        loop {
            let mut head = [0u8; 2];
            if stream.read_exact(&mut head).await.is_err() {
                return None;
            }
            let len = match head[1] & 0x7f {
                126 => {
                    let mut n = [0u8; 2];
                    stream.read_exact(&mut n).await.ok()?;
                    u16::from_be_bytes(n) as usize
                }
                127 => {
                    let mut n = [0u8; 8];
                    stream.read_exact(&mut n).await.ok()?;
                    u64::from_be_bytes(n) as usize
                }
                n => n as usize,
            };
            let mut payload = vec![0u8; len];
            stream.read_exact(&mut payload).await.ok()?;
            match head[0] & 0x0f {
                0x1 => texts.push(String::from_utf8_lossy(&payload).into_owned()),
                0x8 => return payload.get(..2).map(|c| u16::from_be_bytes([c[0], c[1]])),
                _ => {}
            }
        }
    })
    .await
    .expect("a close or the end of the connection in time");
    (texts, code)
}

/// Hydra for Two: `S`'s moves as booklet clicks and whether he ends the turn early (`N`
/// passes every turn); the last move makes his chain. Found by a search over the engine.
pub const HYDRA_TWO: &[(&str, bool)] = &[
    ("A2L", false),
    ("B2L, C2R", false),
    ("B2L, B3L, C3R", false),
    ("D2L, E2R, E3R", false),
    ("D3L, D4R", true),
    ("C4R (2), C5R", false),
];

/// Plays `moves` for `s`, `n` passing after each (but the last when `last`).
pub async fn play_moves(
    s: &mut Client,
    n: &mut Client,
    room: &str,
    moves: &[(&str, bool)],
    last: bool,
) {
    for (i, (m, end)) in moves.iter().enumerate() {
        s.clicks(room, m, *end).await;
        if !(last && i + 1 == moves.len()) {
            n.play(room, "end_turn", json!({})).await;
        }
    }
}

/// Finishes a Hydra for Two that was cut off in the middle of South's fourth move (after its
/// first click): South's last two clicks of it, then the rest of `HYDRA_TWO` to South's win.
/// South is synced to the `over` event, whose `seq` is returned.
pub async fn finish_hydra_two_from_mid_move(s: &mut Client, n: &mut Client, room: &str) -> u64 {
    s.clicks(room, "E2R, E3R", false).await;
    n.play(room, "end_turn", json!({})).await;
    play_moves(s, n, room, &HYDRA_TWO[4..], true).await;
    let over = n.expect_event(room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S");
    let last = over["seq"].as_u64().expect("seq");
    s.sync_to(room, last).await;
    last
}

/// A Hydra for Two on a server over the store at `store` (a SQLite path or a PostgreSQL URL):
/// killed in the middle of a move and started again on the same store, it loses no event —
/// the players come back with `hello` + token, resume, see every event once in order, and
/// finish the game; a third start shows the room finished.
pub async fn a_killed_server_loses_no_event(store: &str) {
    let clock = Arc::new(ManualClock::new(T0));
    let server = TestServer::start_on(store, clock.clone());
    let mut players = vec![server.player("south").await, server.player("north").await];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut s, mut n] = <[Client; 2]>::try_from(players).ok().unwrap();
    play_moves(&mut s, &mut n, &room, &HYDRA_TWO[..3], false).await;
    // South starts his fourth move: one click, and the server dies.
    s.play(&room, "click", json!({"click": "D2L"})).await;
    let seen = s.last_seq(&room);
    let old: Vec<Value> = s.events.clone();
    server.kill();

    let server = TestServer::start_on(store, clock.clone());
    let (mut s2, welcome) = server.reconnect("south", &s.token).await;
    assert_eq!(welcome["rooms"], json!([room]), "{welcome}");
    s2.seat = "S".into();
    // Everything from the first event on comes back, identical, once each, in order.
    s2.send(json!({"t": "resume", "room": room, "since": 0}))
        .await;
    s2.sync_to(&room, seen).await;
    assert_eq!(s2.events.len() as u64, seen);
    for (i, e) in s2.events.iter().enumerate() {
        assert_eq!(e["seq"].as_u64(), Some(i as u64 + 1));
    }
    for e in &old {
        let seq = e["seq"].as_u64().unwrap() as usize;
        assert_eq!(
            &s2.events[seq - 1],
            e,
            "event {seq} differs after the restart"
        );
    }
    // North resumes from where he was; the game goes on mid-move and to the win.
    let (mut n2, _) = server.reconnect("north", &n.token).await;
    n2.seat = "N".into();
    n2.send(json!({"t": "resume", "room": room, "since": n.last_seq(&room)}))
        .await;
    n2.sync_to(&room, seen).await;
    let last = finish_hydra_two_from_mid_move(&mut s2, &mut n2, &room).await;
    // South saw every event after the restart once, in order, up to the end.
    let all: Vec<u64> = s2.events.iter().filter_map(|e| e["seq"].as_u64()).collect();
    assert_eq!(all, (1..=last).collect::<Vec<_>>());
    server.shutdown();

    // A third start finds nothing unfinished; the game's history is still there.
    let server = TestServer::start_on(store, clock);
    let mut c = server.player("reader").await;
    let history = c.request(json!({"t": "history", "room": room})).await;
    assert_eq!(history["status"], "finished");
    assert_eq!(
        history["events"].as_array().map(Vec::len),
        Some(last as usize)
    );
    let lobby = c.request(json!({"t": "lobby"})).await;
    assert_eq!(lobby["rooms"], json!([]));
    server.shutdown();
}

/// What every store promises of the archive (SQLite and PostgreSQL alike): a player's
/// finished games by id or by name, newest first, paged with `before`, filtered by game; a
/// `before` that names no archived game is `None`; pruning a room takes its archive rows with
/// it; `actions` gives a room's actions in order.
pub async fn the_archive_keeps_a_players_games(store: &dyn orion_server::Store) {
    use orion_server::{
        ActionRecord, Append, ArchivedRoom, ArchivedSeat, GamesQuery, PlayerQuery, RoomRecord,
    };
    let seat = |seat: &str, player: &str, name: &str| ArchivedSeat {
        seat: seat.into(),
        player: player.into(),
        name: name.into(),
    };
    for i in 0..5u64 {
        let id = format!("g{i}");
        store
            .create_room(&RoomRecord {
                id: id.clone(),
                game: if i == 2 { "orion" } else { "hydra-2" }.into(),
                options: "{}".into(),
                seed: i,
                private: false,
                code: None,
                salt: None,
            })
            .await
            .expect("room");
        store
            .archive(&ArchivedRoom {
                room: id,
                game: if i == 2 { "orion" } else { "hydra-2" }.into(),
                ended_at: T0 + i * 1_000,
                winner: (i % 2 == 0).then(|| "S".to_string()),
                seats: vec![
                    seat("S", "p-ann", "ann"),
                    seat("N", &format!("p-{i}"), "bo"),
                ],
            })
            .await
            .expect("archive");
    }
    // Ids here start with `p-`; anything else is a name.
    let query = |player: &str, game: Option<&str>, before: Option<&str>, limit| GamesQuery {
        player: if player.starts_with("p-") {
            PlayerQuery::Id(player.into())
        } else {
            PlayerQuery::Name(player.into())
        },
        game: game.map(str::to_string),
        before: before.map(str::to_string),
        limit,
    };
    let rooms = |games: Vec<ArchivedRoom>| games.into_iter().map(|g| g.room).collect::<Vec<_>>();
    let first = store
        .games(&query("ann", None, None, 2))
        .await
        .expect("games")
        .expect("page");
    assert_eq!(first[0].seats.len(), 2);
    assert_eq!(first[0].winner.as_deref(), Some("S"));
    assert_eq!(first[0].ended_at, T0 + 4_000);
    assert_eq!(rooms(first), ["g4", "g3"]);
    let next = store
        .games(&query("ann", None, Some("g3"), 2))
        .await
        .expect("games");
    assert_eq!(rooms(next.expect("page")), ["g2", "g1"]);
    let by_id = store
        .games(&query("p-ann", None, Some("g1"), 9))
        .await
        .expect("games");
    assert_eq!(rooms(by_id.expect("page")), ["g0"]);
    let orion = store
        .games(&query("bo", Some("orion"), None, 9))
        .await
        .expect("games");
    assert_eq!(rooms(orion.expect("page")), ["g2"]);
    let one = store
        .games(&query("p-3", None, None, 9))
        .await
        .expect("games");
    assert_eq!(rooms(one.expect("page")), ["g3"]);
    assert!(store
        .games(&query("ann", None, Some("nope"), 9))
        .await
        .expect("games")
        .is_none());
    assert!(store
        .games(&query("zed", None, None, 9))
        .await
        .expect("games")
        .expect("page")
        .is_empty());
    // By id and by name are apart: an id is not a name, a name is not an id.
    let id_as_name = GamesQuery {
        player: PlayerQuery::Name("p-ann".into()),
        ..query("x", None, None, 9)
    };
    let name_as_id = GamesQuery {
        player: PlayerQuery::Id("ann".into()),
        ..query("x", None, None, 9)
    };
    for q in [id_as_name, name_as_id] {
        let page = store.games(&q).await.expect("games").expect("page");
        assert!(page.is_empty(), "{q:?}");
    }

    // Actions come back in order, whether still in the journal or moved to the log.
    let append = |n: u64, action: &str| Append {
        room: std::sync::Arc::from("g0"),
        n,
        action: Some(ActionRecord {
            seat: "S".into(),
            action: action.into(),
            at: T0 + n,
        }),
        events: vec![(n, format!("{{\"n\":{n}}}"))],
        seq: n,
    };
    let commits = vec![
        store.append(append(1, "click C1R")),
        store.append(append(2, "end")),
    ];
    for c in commits {
        c.wait().await.expect("committed");
    }
    let actions = store.actions("g0").await.expect("actions");
    let texts: Vec<&str> = actions.iter().map(|a| a.action.as_str()).collect();
    assert_eq!(texts, ["click C1R", "end"]);
    assert_eq!(actions[1].at, T0 + 2);

    // Pruning the oldest rooms takes their archive rows.
    for i in 0..5 {
        store
            .set_status(&format!("g{i}"), "finished", T0 + i * 1_000)
            .await
            .expect("status");
    }
    store.prune(T0 + 2_500).await.expect("prune");
    let left = store
        .games(&query("ann", None, None, 9))
        .await
        .expect("games")
        .expect("page");
    assert_eq!(rooms(left), ["g4", "g3"]);
}

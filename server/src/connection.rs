//! One WebSocket connection: framing, limits and the bounded send queue. Frames are read
//! here, checked for size and rate, and handed to the `Session` as text; everything the
//! client is sent goes through its `Outbox`, a bounded queue that a separate write loop
//! drains, so a client that stops reading can never delay a room.
//!
//! Policies, each bound stated where it is defined:
//! * a connection that has not said `hello` within `Config::hello_timeout` (`HELLO_TIMEOUT`)
//!   gets `bad_request` and close 1008;
//! * a frame over `MAX_FRAME` gets `too_big` and close 1009;
//! * requests beyond the token bucket get `rate_limited`; `MAX_STRIKES` in a row close 1008;
//! * a text frame that is not UTF-8 gets close 1007, any other breach of RFC 6455 (reserved
//!   bits, an unmasked frame, an unknown opcode, a fragmented control frame...) close 1002,
//!   each after a `bad_request` saying what it was (tungstenite reports these as errors and
//!   sends nothing itself);
//! * a connection whose token another device revoked (`logout_all`) gets `not_found` and
//!   close 1008;
//! * a connection whose player a moderator kicks or bans gets `forbidden` (kick) or `banned`
//!   (with the reason and the end) and close 1008 (`moderation/`);
//! * a full send queue disconnects the client at once (it may reconnect and `resume`);
//! * a reply over `MAX_OUT_FRAME` is not sent: the client gets a `server` error in its place.

use crate::outbox::{Out, Outbox, MAX_OUT_FRAME};
use crate::protocol::{Code, Refusal};
use crate::revocations::Revocation;
use crate::session::Session;
use crate::shared::Shared;
use futures::{Sink, SinkExt, Stream, StreamExt};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, watch, Notify};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::error::ProtocolError;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

/// Largest text frame a client may send (16 KiB).
pub const MAX_FRAME: usize = 16 * 1024;
/// How long an upgraded connection has to say `hello` (the default of
/// `Config::hello_timeout`); after it, `bad_request` and close 1008. Together with the HTTP
/// handshake timeout this bounds how long a socket that never becomes a player holds one of
/// the `MAX_CONNECTIONS` places.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// Frames queued for one client before it counts as too slow and is disconnected (the
/// default of `Config::send_queue`). A room event is a few hundred bytes, so this is well
/// over a whole game's worth of bursts.
pub const SEND_QUEUE: usize = 512;
/// Token bucket: burst size in requests.
pub const RATE_BURST: f64 = 40.0;
/// Token bucket: refill in requests per second.
pub const RATE_PER_SEC: f64 = 20.0;
/// Consecutive refused requests before the connection is closed with 1008.
pub const MAX_STRIKES: u32 = 20;
/// The socket read buffer of each connection, in bytes.
const READ_BUFFER: usize = 2 * 1024;
/// Bytes tungstenite gathers before it writes them to the socket.
const WRITE_BUFFER: usize = 4 * 1024;
/// Room in the write buffer beyond one frame's payload: its header (up to 14 bytes) and a
/// control frame tungstenite queues itself (a pong or a close reply, at most 131 bytes).
const FRAME_OVERHEAD: usize = 1024;

/// Frames the write loop hands to the socket before one flush.
const WRITE_BATCH: usize = 64;
/// The close code of a cluster node's connections when it stops after handing its rooms to
/// other nodes (`SIGTERM`): RFC 6455's 1012, Service Restart. Clients reconnect at once, with
/// no backoff, to any node, and resume their rooms there.
pub const RESTART_CLOSE: u16 = 1012;
/// Its reason.
pub const RESTART_REASON: &str = "server restarting: reconnect now";
/// How long the write loop may take to deliver a final close frame.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// tungstenite settings: messages above 64 KiB are cut off by the library itself (ours are
/// refused at 16 KiB with a proper error first); small buffers keep an idle connection to a
/// few KiB.
///
/// The write buffer's cap must never end a connection (tungstenite fails a write that would
/// take it over the cap with `WriteBufferFull`, and the write loop would drop the client):
/// tungstenite writes the buffer out whenever it holds more than `WRITE_BUFFER`, and after a
/// short write the sink waits until all of it is out before it takes the next frame, so
/// however many frames a batch holds, the buffer never has more than `WRITE_BUFFER` bytes
/// when a frame is added. A frame of up to `MAX_OUT_FRAME` bytes therefore always fits under
/// `WRITE_BUFFER + MAX_OUT_FRAME + FRAME_OVERHEAD`. A slow reader is dropped by its send queue
/// (`SEND_QUEUE`), never by this cap.
pub fn ws_config() -> WebSocketConfig {
    // Small buffers: requests are short (a click is ~60 bytes) and a buffer grows for the
    // rare big frame; the default 128 KiB read buffer would dominate an idle connection.
    WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(WRITE_BUFFER + MAX_OUT_FRAME + FRAME_OVERHEAD)
        .max_message_size(Some(4 * MAX_FRAME))
        .max_frame_size(Some(4 * MAX_FRAME))
}

/// A token bucket for one connection's requests.
#[derive(Debug)]
struct RateLimit {
    /// Requests available now.
    tokens: f64,
    /// When `tokens` was last refilled.
    last: Instant,
    /// Requests refused in a row.
    strikes: u32,
}

impl RateLimit {
    fn new() -> RateLimit {
        RateLimit {
            tokens: RATE_BURST,
            last: Instant::now(),
            strikes: 0,
        }
    }

    /// Takes a token; false when the bucket is empty.
    fn take(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * RATE_PER_SEC).min(RATE_BURST);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.strikes = 0;
            true
        } else {
            self.strikes += 1;
            false
        }
    }
}

/// Why a connection ended, for the log.
#[derive(Debug)]
enum End {
    /// The client closed or the socket failed.
    Gone,
    /// We closed it (limits or shutdown).
    Closed,
    /// Its send queue overflowed.
    Slow,
}

/// Serves one upgraded WebSocket until the client leaves, breaks a limit, falls behind, or
/// the server shuts down. Generic over the socket so it can be driven over channels; `peer`
/// is the client's address (the password throttle counts tries by it).
pub async fn serve<S>(
    socket: S,
    shared: Arc<Shared>,
    peer: IpAddr,
    mut shutdown: watch::Receiver<bool>,
) where
    S: Stream<Item = Result<Message, WsError>>
        + Sink<Message, Error = WsError>
        + Unpin
        + Send
        + 'static,
{
    let id = shared.next_conn_id();
    let (outbox, rx) = Outbox::new(id, shared.metrics.clone(), shared.send_queue);
    let kick = outbox.kicked();
    let (sink, mut stream) = socket.split();
    // The write loop is a task of its own, so a frame queued for this client wakes only it,
    // not the reader's wait on the socket, the lobby and the shutdown signal as well.
    let mut writer = tokio::spawn(write_loop(sink, rx, kick));
    let mut session = Session::new(shared.clone(), outbox.clone(), peer);
    let end = {
        let reader = async {
            let mut rate = RateLimit::new();
            let hello_by = Instant::now() + shared.hello_timeout;
            let mut lobby = shared.lobby.watch();
            // Made once and remade only when it yields, for the same reason as `stopping`.
            let revoked = next_revocation(shared.revocations.subscribe());
            tokio::pin!(revoked);
            // Once we have queued a close frame: until when we keep reading (and dropping)
            // what the client still sends, so its socket is not reset before it reads ours.
            let mut closing: Option<Instant> = None;
            // Made once: a fresh `changed()` per message would join and leave the shutdown
            // watch's waiter list (a lock each way) for every request.
            let stopping = shutdown.changed();
            tokio::pin!(stopping);
            loop {
                let message = tokio::select! {
                    m = stream.next() => m,
                    _ = tokio::time::sleep_until(closing.unwrap_or_else(Instant::now)), if closing.is_some() => return End::Closed,
                    _ = tokio::time::sleep_until(hello_by), if closing.is_none() && !session.has_player() => {
                        let wait = shared.hello_timeout.as_secs_f64();
                        outbox.refuse(&None, &Refusal::new(Code::BadRequest, format!("say hello within {wait} s")));
                        outbox.close(1008, "no hello");
                        closing = Some(Instant::now() + CLOSE_GRACE);
                        continue;
                    }
                    _ = &mut stopping, if closing.is_none() => {
                        outbox.refuse(&None, &Refusal::new(Code::Server, "the server is shutting down"));
                        if shared.lobby.rooms.handed_off() {
                            // 1012, Service Restart: the rooms run on other nodes already.
                            outbox.close(RESTART_CLOSE, RESTART_REASON);
                        } else {
                            outbox.close(1001, "server shutting down");
                        }
                        closing = Some(Instant::now() + CLOSE_GRACE);
                        continue;
                    }
                    (receiver, revocation) = &mut revoked, if closing.is_none() && session.has_player() => {
                        revoked.set(next_revocation(receiver));
                        let revocation = match revocation {
                            Ok(r) => r,
                            // Fell behind: whatever was missed, the store knows.
                            Err(broadcast::error::RecvError::Lagged(_)) => Revocation::Recheck,
                            // Never while `shared` lives, which it does as long as we do.
                            Err(broadcast::error::RecvError::Closed) => return End::Gone,
                        };
                        if let Revocation::Sanction(sanction) = &revocation {
                            if let Some((refusal, reason)) = session.sanctioned(sanction).await {
                                outbox.refuse(&None, &refusal);
                                outbox.close(1008, reason);
                                closing = Some(Instant::now() + CLOSE_GRACE);
                            }
                            continue;
                        }
                        if matches!(revocation, Revocation::Recheck) {
                            if let Some(refusal) = session.banned_now().await {
                                outbox.refuse(&None, &refusal);
                                outbox.close(1008, "banned");
                                closing = Some(Instant::now() + CLOSE_GRACE);
                                continue;
                            }
                        }
                        if session.revoked_by(&revocation).await {
                            outbox.refuse(&None, &Refusal::new(
                                Code::NotFound,
                                "this device was logged out (log out everywhere, or ten newer logins): log in again",
                            ));
                            outbox.close(1008, "logged out");
                            closing = Some(Instant::now() + CLOSE_GRACE);
                        }
                        continue;
                    }
                    changed = lobby.changed(), if closing.is_none() && session.watching() => {
                        if changed.is_ok() {
                            let frame = lobby.borrow_and_update().1.clone();
                            outbox.send(frame);
                        }
                        continue;
                    }
                };
                if let (Some(Err(e)), None) = (&message, closing) {
                    if let Some((refusal, code, reason)) = breach(e) {
                        // tungstenite only reports these: the error and the close frame
                        // that RFC 6455 asks for are ours to send. The stream ends after an
                        // error, so the reader ends next; the writer gets its grace.
                        outbox.refuse(&None, &refusal);
                        outbox.close(code, reason);
                        closing = Some(Instant::now() + CLOSE_GRACE);
                        continue;
                    }
                }
                let message = match message {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => {
                        return if closing.is_some() {
                            End::Closed
                        } else {
                            End::Gone
                        };
                    }
                    Some(Ok(_)) if closing.is_some() => continue,
                    Some(Ok(m)) => m,
                };
                let text = match message {
                    Message::Text(text) => text,
                    Message::Binary(_) => {
                        if !rate.take() && rate.strikes >= MAX_STRIKES {
                            flood(&outbox);
                            closing = Some(Instant::now() + CLOSE_GRACE);
                            continue;
                        }
                        outbox.refuse(
                            &None,
                            &Refusal::new(Code::BadJson, "send text frames holding JSON"),
                        );
                        continue;
                    }
                    _ => continue, // ping/pong: tungstenite answers pings itself
                };
                if text.len() > MAX_FRAME {
                    outbox.refuse(
                        &None,
                        &Refusal::new(
                            Code::TooBig,
                            format!(
                                "frame of {} bytes is over the {MAX_FRAME}-byte limit",
                                text.len()
                            ),
                        ),
                    );
                    outbox.close(1009, "frame too big");
                    closing = Some(Instant::now() + CLOSE_GRACE);
                    continue;
                }
                if !rate.take() {
                    if rate.strikes >= MAX_STRIKES {
                        flood(&outbox);
                        closing = Some(Instant::now() + CLOSE_GRACE);
                        continue;
                    }
                    outbox.refuse(
                        &orion_protocol::peek_id(&text),
                        &Refusal::new(Code::RateLimited, "too many requests: slow down"),
                    );
                    continue;
                }
                // Boxed: a request's handling is the largest state the reader ever holds, and
                // an idle connection's task would otherwise carry room for it all along.
                Box::pin(session.handle(&text)).await;
            }
        };
        tokio::pin!(reader);
        tokio::select! {
            end = &mut writer => {
                let end = end.unwrap_or(End::Gone);
                if matches!(end, End::Closed) {
                    // Our close frame is out: let the reader drain until the client answers.
                    let _ = tokio::time::timeout(CLOSE_GRACE, &mut reader).await;
                }
                end
            }
            end = &mut reader => {
                if matches!(end, End::Closed) {
                    let _ = tokio::time::timeout(CLOSE_GRACE, &mut writer).await;
                }
                writer.abort();
                end
            }
        }
    };
    tracing::debug!(conn = id, ?end, "connection ended");
    session.close().await;
}

/// The next revocation, with the receiver it came from: one wait that lasts across requests.
async fn next_revocation(
    mut receiver: broadcast::Receiver<Revocation>,
) -> (
    broadcast::Receiver<Revocation>,
    Result<Revocation, broadcast::error::RecvError>,
) {
    let revocation = receiver.recv().await;
    (receiver, revocation)
}

/// Drains a client's send queue into its socket, a batch of frames per flush, until the
/// queue closes, the socket fails, a close frame has gone out, or the queue overflowed
/// (`kick`).
async fn write_loop<K>(mut sink: K, mut rx: mpsc::Receiver<Out>, kick: Arc<Notify>) -> End
where
    K: Sink<Message, Error = WsError> + Unpin,
{
    // Made once, as the reader's shutdown wait is: a fresh `notified()` in every select
    // would join and leave the notifier's waiter list for every frame written.
    let kicked = kick.notified();
    tokio::pin!(kicked);
    loop {
        let mut next = tokio::select! {
            biased;
            _ = &mut kicked => return End::Slow,
            item = rx.recv() => item,
        };
        // Feed what is already queued (up to a batch), then flush once.
        let mut last = false;
        for fed in 1..=WRITE_BATCH {
            let message = match next {
                None => return End::Gone,
                Some(Out::Text(frame)) => Message::Text(frame),
                Some(Out::Close(code, reason)) => {
                    last = true;
                    Message::Close(Some(CloseFrame {
                        code: CloseCode::from(code),
                        reason: reason.into(),
                    }))
                }
            };
            tokio::select! {
                biased;
                _ = &mut kicked => return End::Slow,
                fed = sink.feed(message) => if fed.is_err() { return End::Gone },
            }
            // A full batch takes nothing more from the queue: an item taken here would be
            // overwritten by the next `recv` above, and lost.
            if last || fed == WRITE_BATCH {
                break;
            }
            match rx.try_recv() {
                Ok(item) => next = Some(item),
                Err(_) => break,
            }
        }
        tokio::select! {
            biased;
            _ = &mut kicked => return End::Slow,
            flushed = sink.flush() => if flushed.is_err() { return End::Gone },
        }
        if last {
            return End::Closed;
        }
    }
}

/// The refusal and close code for a read error that is the client's fault; `None` for a
/// connection that simply went away.
fn breach(e: &WsError) -> Option<(Refusal, u16, &'static str)> {
    match e {
        // Over even tungstenite's own cap: refused as a frame over `MAX_FRAME` is.
        WsError::Capacity(e) => Some((
            Refusal::new(
                Code::TooBig,
                format!("frame over the {MAX_FRAME}-byte limit ({e})"),
            ),
            1009,
            "frame too big",
        )),
        WsError::Utf8 => Some((
            Refusal::new(Code::BadRequest, "a text frame must be valid UTF-8"),
            1007,
            "invalid UTF-8",
        )),
        // The client dropped the socket without a close frame: nobody to tell.
        WsError::Protocol(ProtocolError::ResetWithoutClosingHandshake) => None,
        WsError::Protocol(p) => Some((
            Refusal::new(
                Code::BadRequest,
                format!("WebSocket protocol violation: {p}"),
            ),
            1002,
            "protocol error",
        )),
        _ => None,
    }
}

fn flood(outbox: &Outbox) {
    outbox.refuse(
        &None,
        &Refusal::new(Code::RateLimited, "still flooding after warnings: closing"),
    );
    outbox.close(1008, "rate limit");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::Metrics;
    use crate::protocol::Frame;
    use tokio_tungstenite::tungstenite::protocol::Role;
    use tokio_tungstenite::WebSocketStream;

    fn text(frame: &Frame) -> serde_json::Value {
        serde_json::from_str(frame.as_str()).expect("JSON")
    }

    #[tokio::test]
    async fn a_reply_over_max_out_frame_becomes_an_error_for_its_request() {
        let metrics = Arc::new(Metrics::default());
        let (outbox, mut rx) = Outbox::new(1, metrics.clone(), 8);
        let fits = format!(r#"{{"t":"lobby","re":6,"pad":"{}"}}"#, "x".repeat(100));
        let big = format!(
            r#"{{"t":"lobby","re":7,"pad":"{}"}}"#,
            "x".repeat(MAX_OUT_FRAME)
        );
        let big_len = big.len();
        assert!(outbox.send(Frame::from(fits.clone())));
        assert!(outbox.send(Frame::from(big)));
        let Some(Out::Text(first)) = rx.recv().await else {
            panic!("a text frame")
        };
        assert_eq!(first.as_str(), fits);
        let Some(Out::Text(second)) = rx.recv().await else {
            panic!("a text frame")
        };
        let e = text(&second);
        assert_eq!(e["t"], "error");
        assert_eq!(e["re"], 7);
        assert_eq!(e["code"], "server");
        assert_eq!(
            e["message"],
            format!("a reply of {big_len} bytes is over the {MAX_OUT_FRAME}-byte limit")
        );
        assert_eq!(metrics.oversized_replies.get(), 1);
        assert!(metrics
            .render(&[])
            .contains("orion_oversized_replies_total 1\n"));
    }

    #[tokio::test]
    async fn frames_up_to_max_out_frame_reach_a_slow_reader_in_full() {
        // A pipe of 4 KiB: the writer is blocked on it for nearly every frame.
        let (server_end, client_end) = tokio::io::duplex(4 * 1024);
        let server =
            WebSocketStream::from_raw_socket(server_end, Role::Server, Some(ws_config())).await;
        let client_config = WebSocketConfig::default()
            .max_message_size(None)
            .max_frame_size(None);
        let mut client =
            WebSocketStream::from_raw_socket(client_end, Role::Client, Some(client_config)).await;
        let metrics = Arc::new(Metrics::default());
        let (outbox, rx) = Outbox::new(1, metrics, SEND_QUEUE);
        let kick = outbox.kicked();
        let (sink, _stream) = server.split();
        let writer = tokio::spawn(write_loop(sink, rx, kick));
        // A whole batch queued before the writer runs: small frames between the largest.
        let sizes: Vec<usize> = (0..WRITE_BATCH + 8)
            .map(|i| if i % 4 == 0 { MAX_OUT_FRAME } else { 3000 })
            .collect();
        for (i, size) in sizes.iter().enumerate() {
            let frame = format!("{i:>8}{}", "y".repeat(size - 8));
            assert!(outbox.send(Frame::from(frame)));
        }
        outbox.close(1000, "done");
        let patience = Duration::from_secs(10);
        for (i, size) in sizes.iter().enumerate() {
            match tokio::time::timeout(patience, client.next())
                .await
                .ok()
                .flatten()
            {
                Some(Ok(Message::Text(t))) => {
                    assert_eq!(t.len(), *size, "frame {i}");
                    assert_eq!(t.as_str()[..8].trim(), i.to_string());
                }
                other => panic!("frame {i} of {size} bytes lost: {other:?}"),
            }
        }
        let close = tokio::time::timeout(patience, client.next()).await;
        assert!(matches!(close, Ok(Some(Ok(Message::Close(_))))));
        assert!(matches!(writer.await, Ok(End::Closed)));
    }
}

//! Notifications with real components: Web Push posted to an HTTP endpoint this test runs on
//! 127.0.0.1 and decrypted with the subscription's own private key, as a browser would; an
//! endpoint answering 410 dropped; endpoints of this machine's network refused unless
//! `--allow-push-endpoint` allows them; mail through a real SMTP server (Debian's aiosmtpd)
//! with its confirmation and unsubscribe links followed over HTTP; the page's service worker
//! and in-page notice in Chromium; a correspondence game between two accounts across `kill -9`s
//! of a real server process, each player told by push and by mail that it is his turn, the
//! loser warned a day before his days run out, days of it driven by the server's manual clock.
//!
//! The trigger is the live rooms' own: when the turn passes to a player whose connection to
//! the room is gone (his seat held), the room tells the notifier. Nothing here is sent to any
//! address but 127.0.0.1.

use crate::chromium;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chromium::{js, wait_js, wait_text, Driver};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request as HttpRequest, Response, StatusCode};
use hyper_util::rt::TokioIo;
use orion_tests::solo::SoloServer;
use orion_tests::{http_get, remove_db, start_room, temp_db, Client, TestServer, PATIENCE, T0};
use serde_json::{json, Value};
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;
use web_push_native::p256::elliptic_curve::rand_core::{OsRng, RngCore};
use web_push_native::p256::elliptic_curve::sec1::ToEncodedPoint;
use web_push_native::p256::SecretKey;
use web_push_native::Auth;

const PASSWORD: &str = "correct horse battery";

/// A player who says hello as `name` and claims it; its `welcome` from `register`.
async fn claimed(server: &TestServer, name: &str) -> (Client, Value) {
    let mut c = server.player(name).await;
    let w = c
        .request(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert_eq!(w["t"], "welcome", "{w}");
    (c, w)
}

/// One POST an endpoint received.
struct Posted {
    /// Its headers, lower-case names.
    headers: Vec<(String, String)>,
    /// Its body.
    body: Vec<u8>,
}

impl Posted {
    fn header(&self, name: &str) -> &str {
        (self.headers.iter())
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }
}

/// A push endpoint on 127.0.0.1 answering every POST with `status`; what it received comes
/// out of the receiver.
async fn push_endpoint(status: u16) -> (String, mpsc::UnboundedReceiver<Posted>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!(
        "http://{}/push/{status}",
        listener.local_addr().expect("addr")
    );
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let tx = tx.clone();
            let service = hyper::service::service_fn(move |req: HttpRequest<Incoming>| {
                let tx = tx.clone();
                async move {
                    let headers = (req.headers().iter())
                        .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or("").to_string()))
                        .collect();
                    let body = req.into_body().collect().await?.to_bytes().to_vec();
                    let _ = tx.send(Posted { headers, body });
                    let mut response = Response::new(Full::new(Bytes::new()));
                    *response.status_mut() = StatusCode::from_u16(status).expect("a status");
                    Ok::<_, hyper::Error>(response)
                }
            });
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service),
            );
        }
    });
    (url, rx)
}

/// A browser's side of a subscription: its P-256 key pair and auth secret, made as a browser
/// makes them.
struct BrowserKeys {
    secret: SecretKey,
    auth: [u8; 16],
}

impl BrowserKeys {
    fn new() -> BrowserKeys {
        let mut auth = [0u8; 16];
        OsRng.fill_bytes(&mut auth);
        BrowserKeys {
            secret: SecretKey::random(&mut OsRng),
            auth,
        }
    }

    /// `PushSubscription.toJSON()` for `endpoint`.
    fn subscription(&self, endpoint: &str) -> Value {
        let public = self.secret.public_key().to_encoded_point(false);
        json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(public.as_bytes()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            }
        })
    }

    /// The push message's payload, decrypted (RFC 8291).
    fn decrypt(&self, body: &[u8]) -> Value {
        let auth = Auth::clone_from_slice(&self.auth);
        let plain = web_push_native::decrypt(body.to_vec(), &self.secret, &auth)
            .expect("the payload decrypts with the subscription's key");
        serde_json::from_slice(&plain).expect("the payload is JSON")
    }
}

/// The next POST `rx` receives (within the patience).
async fn next_post(rx: &mut mpsc::UnboundedReceiver<Posted>) -> Posted {
    tokio::time::timeout(PATIENCE, rx.recv())
        .await
        .expect("a push within the patience")
        .expect("the endpoint runs")
}

/// Waits until `seat`'s sitter in `room` shows as away, asked through `watcher`'s snapshots.
async fn until_away(watcher: &mut Client, room: &str, seat: &str) {
    for _ in 0..500 {
        let snap = watcher
            .request(json!({"t": "spectate", "room": room, "quiet": true}))
            .await;
        assert_eq!(snap["t"], "snapshot", "{snap}");
        let connected = snap["seats"][seat]["connected"].clone();
        watcher
            .request(json!({"t": "unspectate", "room": room}))
            .await;
        if connected == json!(false) {
            return;
        }
        tokio::task::yield_now().await;
    }
    panic!("{seat} never showed as away in {room}");
}

/// The settings of `c`'s account.
async fn settings(c: &mut Client) -> Value {
    let s = c.request(json!({"t": "notify_settings"})).await;
    assert_eq!(s["t"], "notify_settings", "{s}");
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_away_player_is_pushed_his_turn_encrypted_to_his_browser_and_a_gone_endpoint_is_dropped()
{
    let server = TestServer::start_tuned(|c| {
        c.notify.allow_push_endpoints = vec!["http://127.0.0.1:".into()];
    });
    let (alice, _) = claimed(&server, "alice").await;
    let (mut bob, welcome) = claimed(&server, "bob").await;
    let vapid = welcome["vapid_key"]
        .as_str()
        .expect("an account's welcome has the VAPID key");
    assert_eq!(
        URL_SAFE_NO_PAD.decode(vapid).expect("base64url").len(),
        65,
        "an uncompressed P-256 public key"
    );
    // Two browsers: one whose push service has forgotten it (410), subscribed first, and a
    // live one.
    let (gone_url, mut gone) = push_endpoint(410).await;
    let (live_url, mut live) = push_endpoint(201).await;
    let (gone_keys, live_keys) = (BrowserKeys::new(), BrowserKeys::new());
    for (keys, url) in [(&gone_keys, &gone_url), (&live_keys, &live_url)] {
        let r = bob
            .request(json!({"t": "push_subscribe", "subscription": keys.subscription(url)}))
            .await;
        assert_eq!(r["t"], "push_subscribed", "{r}");
        server.clock.advance(1000);
    }
    assert_eq!(settings(&mut bob).await["subscriptions"], 2);
    // Bob also has the lobby open in another tab: that connection is told too.
    let (mut bob_tab, w) = server.reconnect("bob", &bob.token).await;
    assert_eq!(w["account"], true, "{w}");

    let mut players = vec![alice, bob];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut alice, bob] = <[Client; 2]>::try_from(players).ok().expect("two");
    let bob_seat = bob.seat.clone();
    let bob_token = bob.token.clone();
    drop(bob);
    let mut watcher = server.player("watcher").await;
    until_away(&mut watcher, &room, &bob_seat).await;

    alice.clicks(&room, "A2L", false).await;
    let told = bob_tab.expect_t("notify").await;
    assert_eq!(told["kind"], "your_turn", "{told}");
    assert_eq!(told["room"], json!(room), "{told}");
    assert!(
        told["url"]
            .as_str()
            .unwrap_or("")
            .ends_with(&format!("/r/{room}")),
        "{told}"
    );
    let first_gone = next_post(&mut gone).await;
    let pushed = next_post(&mut live).await;
    for post in [&first_gone, &pushed] {
        assert_eq!(post.header("content-encoding"), "aes128gcm");
        let auth = post.header("authorization");
        assert!(auth.starts_with("vapid t="), "{auth}");
        assert!(auth.ends_with(&format!("k={vapid}")), "{auth}");
    }
    let payload = live_keys.decrypt(&pushed.body);
    assert_eq!(payload["room"], json!(room), "{payload}");
    assert_eq!(payload["kind"], "your_turn", "{payload}");
    assert!(
        payload["body"].as_str().unwrap_or("").contains(&room),
        "the text names the room: {payload}"
    );
    assert_eq!(gone_keys.decrypt(&first_gone.body)["room"], json!(room));
    assert_eq!(
        settings(&mut bob_tab).await["subscriptions"],
        1,
        "the endpoint that answered 410 is dropped"
    );

    // Bob comes back, moves, goes away again; Alice moves: a second notice.
    let (mut bob, _) = server.reconnect("bob", &bob_token).await;
    let r = bob.request(json!({"t": "join", "room": room})).await;
    assert_eq!(r["t"], "joined", "{r}");
    bob.send(json!({"t": "end_turn", "room": room})).await;
    let alice_seat = alice.seat.clone();
    alice
        .expect(|m| {
            m["t"] == "event" && m["ev"]["kind"] == "turn" && m["ev"]["seat"] == json!(alice_seat)
        })
        .await;
    drop(bob);
    until_away(&mut watcher, &room, &bob_seat).await;
    alice.clicks(&room, "B2L, C2R", false).await;
    let again = next_post(&mut live).await;
    assert_eq!(live_keys.decrypt(&again.body)["room"], json!(room));
    // The gone endpoint was posted to before the live one for the first notice: had it been
    // kept, it would have had the second before the live one did.
    assert!(
        gone.try_recv().is_err(),
        "nothing more goes to a gone endpoint"
    );
}

#[tokio::test]
async fn push_endpoints_of_this_machine_are_refused_unless_allowed_and_guests_cannot_subscribe() {
    let server = TestServer::start_tuned(|c| {
        c.notify.allow_push_endpoints = vec!["http://127.0.0.1:".into()];
    });
    let (mut alice, _) = claimed(&server, "alice").await;
    let keys = BrowserKeys::new();
    for (endpoint, why) in [
        ("https://127.0.0.2/push", "loopback"),
        ("http://127.0.0.2:1/", "https://"),
        ("https://[::ffff:127.0.0.2]/push", "loopback"),
        ("https://10.0.0.1/push", "private"),
        ("https://169.254.169.254/latest", "link-local"),
        ("https://[fd00::1]/push", "private"),
    ] {
        let r = alice
            .request(json!({"t": "push_subscribe", "subscription": keys.subscription(endpoint)}))
            .await;
        assert_eq!(r["t"], "error", "{endpoint}: {r}");
        assert_eq!(r["code"], "bad_request", "{endpoint}: {r}");
        assert!(
            r["message"].as_str().unwrap_or("").contains(why),
            "{endpoint}: {r}"
        );
    }
    // Keys that are not a browser's.
    let mut bad = keys.subscription("http://127.0.0.1:9/push");
    bad["keys"]["auth"] = json!("AAAA");
    let r = alice
        .request(json!({"t": "push_subscribe", "subscription": bad}))
        .await;
    assert!(
        r["message"].as_str().unwrap_or("").contains("keys.auth"),
        "{r}"
    );
    assert_eq!(settings(&mut alice).await["subscriptions"], 0);
    // At most MAX_PUSH_SUBSCRIPTIONS browsers.
    for n in 0..orion_server::MAX_PUSH_SUBSCRIPTIONS {
        let sub = keys.subscription(&format!("http://127.0.0.1:9/push/{n}"));
        let r = alice
            .request(json!({"t": "push_subscribe", "subscription": sub}))
            .await;
        assert_eq!(r["t"], "push_subscribed", "{r}");
    }
    let sub = keys.subscription("http://127.0.0.1:9/push/more");
    let r = alice
        .request(json!({"t": "push_subscribe", "subscription": sub}))
        .await;
    assert!(
        r["message"].as_str().unwrap_or("").contains("at most"),
        "{r}"
    );
    let r = alice
        .request(json!({"t": "push_unsubscribe", "endpoint": "http://127.0.0.1:9/push/0"}))
        .await;
    assert_eq!(r["removed"], true, "{r}");

    let mut guest = server.player("guest").await;
    let r = guest
        .request(json!({"t": "push_subscribe", "subscription": keys.subscription("http://127.0.0.1:9/g")}))
        .await;
    assert!(
        r["message"].as_str().unwrap_or("").contains("accounts"),
        "{r}"
    );
}

/// Debian's aiosmtpd on 127.0.0.1, printing every message it takes to its stdout, which a
/// thread reads into whole messages.
struct Smtp {
    child: Child,
    port: u16,
    mails: std::sync::mpsc::Receiver<String>,
}

impl Smtp {
    fn start() -> Smtp {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        // Debian's interpreter, which the package installs into (not another on the PATH).
        let mut child = Command::new("/usr/bin/python3")
            .args([
                "-u",
                "-m",
                "aiosmtpd",
                "-n",
                "-l",
                &format!("127.0.0.1:{port}"),
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 -m aiosmtpd starts (Debian's python3-aiosmtpd)");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, mails) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut mail: Option<String> = None;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if line.starts_with("---------- MESSAGE FOLLOWS") {
                    mail = Some(String::new());
                } else if line.starts_with("------------ END MESSAGE") {
                    if let Some(m) = mail.take() {
                        let _ = tx.send(m);
                    }
                } else if let Some(m) = &mut mail {
                    m.push_str(&line);
                    m.push('\n');
                }
            }
        });
        let up = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(up.elapsed() < PATIENCE, "aiosmtpd did not listen on {port}");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Smtp { child, port, mails }
    }

    /// The next message it took, headers unfolded and quoted-printable decoded.
    fn next(&self) -> String {
        let mail = tokio::task::block_in_place(|| self.mails.recv_timeout(PATIENCE));
        decode(&mail.expect("a mail within the patience"))
    }
}

impl Drop for Smtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A mail as a reader sees it: folded header lines joined, soft line breaks removed and
/// `=XX` decoded (lettre sends long lines quoted-printable).
fn decode(mail: &str) -> String {
    let unfolded = mail.replace("\n ", " ").replace("\n\t", " ");
    let joined = unfolded.replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&joined[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The first `http://…` link in `mail` containing `part`.
fn link(mail: &str, part: &str) -> String {
    mail.split(|c: char| c.is_whitespace() || c == '<' || c == '>')
        .find(|w| w.starts_with("http://") && w.contains(part))
        .unwrap_or_else(|| panic!("no link with {part} in:\n{mail}"))
        .to_string()
}

/// `path` (with its query) of an absolute link to the test server.
fn path_of(url: &str) -> String {
    let rest = url.split_once("://").expect("a URL").1;
    rest[rest.find('/').expect("a path")..].to_string()
}

/// A POST of `body` to `path` on `addr`; the whole response.
async fn http_post(addr: std::net::SocketAddr, path: &str, body: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).await.expect("write");
    let mut out = String::new();
    tokio::time::timeout(PATIENCE, stream.read_to_string(&mut out))
        .await
        .expect("a response in time")
        .expect("read");
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_is_confirmed_by_its_link_told_the_turn_by_mail_and_unsubscribed_in_one_click() {
    let smtp = Smtp::start();
    let smtp_url = format!("smtp://127.0.0.1:{}", smtp.port);
    let server = TestServer::start_tuned(move |c| {
        c.notify.smtp = Some(smtp_url);
        c.notify.mail_from = Some("Orion Online <orion@example.org>".into());
    });
    let (alice, _) = claimed(&server, "alice").await;
    let (mut bob, _) = claimed(&server, "bob").await;

    for (address, why) in [
        ("bob", "not an e-mail address"),
        ("bob@localhost", "not an e-mail address"),
        (&*format!("{}@example.org", "b".repeat(250)), "at most"),
    ] {
        let r = bob.request(json!({"t": "email", "address": address})).await;
        assert_eq!(r["code"], "bad_request", "{address}: {r}");
        assert!(r["message"].as_str().unwrap_or("").contains(why), "{r}");
    }
    let r = bob
        .request(json!({"t": "email", "address": "bob@example.org"}))
        .await;
    assert_eq!(r["t"], "email_sent", "{r}");
    let s = settings(&mut bob).await;
    assert_eq!(
        (s["address"].clone(), s["confirmed"].clone()),
        (json!("bob@example.org"), json!(false))
    );
    let confirmation = smtp.next();
    assert!(
        confirmation.contains("To: bob@example.org"),
        "{confirmation}"
    );
    let confirm = link(&confirmation, "/email/confirm?token=");
    let page = http_get(server.addr, &path_of(&confirm)).await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("Address confirmed"), "{page}");
    assert_eq!(settings(&mut bob).await["confirmed"], true);
    let again = http_get(server.addr, &path_of(&confirm)).await;
    assert!(
        again.starts_with("HTTP/1.1 404"),
        "a link confirms once: {again}"
    );

    let mut players = vec![alice, bob];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut alice, bob] = <[Client; 2]>::try_from(players).ok().expect("two");
    let (bob_seat, bob_token) = (bob.seat.clone(), bob.token.clone());
    drop(bob);
    let mut watcher = server.player("watcher").await;
    until_away(&mut watcher, &room, &bob_seat).await;
    alice.clicks(&room, "A2L", false).await;
    let notice = smtp.next();
    assert!(notice.contains("To: bob@example.org"), "{notice}");
    assert!(
        notice.contains(&format!("Subject: Your turn in room {room}")),
        "{notice}"
    );
    assert!(
        notice.contains(&format!("/r/{room}")),
        "the room's link: {notice}"
    );
    assert!(
        notice.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
        "{notice}"
    );
    let unsubscribe = link(&notice, "/email/unsubscribe?token=");
    assert!(
        notice.contains(&format!("List-Unsubscribe: <{unsubscribe}>")),
        "{notice}"
    );
    // Following the link shows a button (a mail scanner's GET unsubscribes nobody); the
    // one-click POST, as a mail client sends it, unsubscribes.
    let page = http_get(server.addr, &path_of(&unsubscribe)).await;
    assert!(page.contains("<form method=\"post\""), "{page}");
    let (mut bob, _) = server.reconnect("bob", &bob_token).await;
    assert_eq!(settings(&mut bob).await["email"], true);
    let done = http_post(
        server.addr,
        &path_of(&unsubscribe),
        "List-Unsubscribe=One-Click",
    )
    .await;
    assert!(done.starts_with("HTTP/1.1 200"), "{done}");
    assert!(done.contains("Unsubscribed"), "{done}");
    assert_eq!(settings(&mut bob).await["email"], false);
    let forged = format!("{}0", path_of(&unsubscribe));
    let refused = http_post(server.addr, &forged, "").await;
    assert!(refused.starts_with("HTTP/1.1 404"), "{refused}");

    // A flood of addresses: three an hour, then a clear refusal.
    for n in 0..2 {
        let r = bob
            .request(json!({"t": "email", "address": format!("bob{n}@example.org")}))
            .await;
        assert_eq!(r["t"], "email_sent", "{r}");
    }
    let r = bob
        .request(json!({"t": "email", "address": "bob9@example.org"}))
        .await;
    assert_eq!(r["code"], "rate_limited", "{r}");
    assert!(
        r["message"].as_str().unwrap_or("").contains("an hour"),
        "{r}"
    );
    let mut guest = server.player("guest").await;
    let r = guest
        .request(json!({"t": "email", "address": "g@example.org"}))
        .await;
    assert!(
        r["message"].as_str().unwrap_or("").contains("accounts"),
        "{r}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_registers_its_service_worker_and_shows_a_notice_that_arrives() {
    let server = TestServer::start();
    let base = format!("http://{}", server.addr);
    let manifest = http_get(server.addr, "/manifest.webmanifest").await;
    assert!(manifest.contains("application/manifest+json"), "{manifest}");
    assert!(manifest.contains("icon-512.png"), "{manifest}");
    let (alice, _) = claimed(&server, "alice").await;
    let (bob, _) = claimed(&server, "bob").await;

    let mut driver = Driver::start();
    let page = driver.browser(1000, 800).await;
    // The page speaks for Bob's account (his token, as a device he logged in on keeps it).
    page.goto(&format!("{base}/?name=bob"))
        .await
        .expect("page loads");
    js(
        &page,
        &format!(
            "localStorage.setItem('orion.token', {}); return 1",
            json!(bob.token)
        ),
    )
    .await;
    page.goto(&format!("{base}/")).await.expect("page loads");
    wait_js(
        &page,
        "window.__orion && window.__orion.account === true",
        "Bob's account",
    )
    .await;
    wait_js(
        &page,
        "window.__orion.serviceWorker",
        "the service worker registered",
    )
    .await;
    assert_eq!(
        js(&page, "return navigator.serviceWorker.getRegistration().then(r => !!(r && r.active || r.installing || r.waiting))").await,
        json!(true)
    );
    wait_js(
        &page,
        "!document.getElementById('notify').hidden",
        "the notifications part of the account panel",
    )
    .await;
    assert_eq!(
        js(
            &page,
            "return document.querySelector('link[rel=manifest]').href"
        )
        .await,
        json!(format!("{base}/manifest.webmanifest"))
    );

    let mut players = vec![alice, bob];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut alice, bob] = <[Client; 2]>::try_from(players).ok().expect("two");
    let bob_seat = bob.seat.clone();
    drop(bob);
    let mut watcher = server.player("watcher").await;
    until_away(&mut watcher, &room, &bob_seat).await;
    alice.clicks(&room, "A2L", false).await;
    wait_text(&page, "#notice", &format!("Your turn in room {room}")).await;
    assert_eq!(
        js(
            &page,
            "return document.querySelector('#notice a').getAttribute('href')"
        )
        .await,
        json!(format!("/r/{room}"))
    );
    let _ = page.close().await;
}

/// The server binary the correspondence game kills and starts again.
const NODE: &str = env!("CARGO_BIN_EXE_orion-node");
const DAY: u64 = 24 * 3_600_000;

/// An account on `server` named `name`, with a browser subscribed at `endpoint` and the
/// address `name@example.org` confirmed through `smtp`: its client, token and keys.
async fn subscribed(
    server: &SoloServer,
    smtp: &Smtp,
    name: &str,
    endpoint: &str,
) -> (Client, BrowserKeys) {
    let mut c = server.player(name, None).await;
    c.claim(PASSWORD).await;
    let keys = BrowserKeys::new();
    let r = c
        .request(json!({"t": "push_subscribe", "subscription": keys.subscription(endpoint)}))
        .await;
    assert_eq!(r["t"], "push_subscribed", "{r}");
    let address = format!("{name}@example.org");
    let r = c.request(json!({"t": "email", "address": address})).await;
    assert_eq!(r["t"], "email_sent", "{r}");
    let confirm = link(&smtp.next(), "/email/confirm?token=");
    let page = http_get(server.addr, &path_of(&confirm)).await;
    assert!(page.contains("Address confirmed"), "{page}");
    (c, keys)
}

/// The next push to `posts`, decrypted with `keys`: it is of `kind` and for `room`.
async fn pushed(
    posts: &mut mpsc::UnboundedReceiver<Posted>,
    keys: &BrowserKeys,
    kind: &str,
    room: &str,
) {
    let payload = keys.decrypt(&next_post(posts).await.body);
    assert_eq!(
        (payload["kind"].clone(), payload["room"].clone()),
        (json!(kind), json!(room)),
        "{payload}"
    );
}

/// The next mail: to `to`, its subject naming `room`.
fn mailed(smtp: &Smtp, to: &str, room: &str) -> String {
    let mail = decode(&smtp.next());
    assert!(mail.contains(&format!("To: {to}")), "{mail}");
    assert!(
        mail.lines()
            .any(|l| l.starts_with("Subject:") && l.contains(room)),
        "{mail}"
    );
    mail
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_game_across_kill_9s_tells_each_player_by_push_and_mail() {
    let smtp = Smtp::start();
    let (alice_endpoint, mut alice_posts) = push_endpoint(201).await;
    let (bob_endpoint, mut bob_posts) = push_endpoint(201).await;
    let db = temp_db("correspondence-kill");
    let flags: Vec<String> = [
        "--smtp",
        &format!("smtp://127.0.0.1:{}", smtp.port),
        "--mail-from",
        "Orion Online <orion@example.org>",
        "--allow-push-endpoint",
        "http://127.0.0.1:",
    ]
    .map(String::from)
    .to_vec();
    let mut server = SoloServer::start(NODE, &db, T0, &flags);
    let (mut alice, alice_keys) = subscribed(&server, &smtp, "alice", &alice_endpoint).await;
    let (bob, bob_keys) = subscribed(&server, &smtp, "bob", &bob_endpoint).await;
    let (alice_token, bob_token) = (alice.token.clone(), bob.token.clone());
    drop(bob);

    // Alice seeks a game, two days a move, and goes; the server is killed the moment she is
    // answered. Her seat and her `ready` were stored together, before the answer: the
    // snapshot that comes with it says so, and the restarted server starts the game as
    // soon as the seek is taken.
    let seek = json!({"t": "quick", "game": "hydra-2", "days_per_move": 2});
    let joined = alice.request(seek.clone()).await;
    assert_eq!(joined["seat"], "S", "{joined}");
    let room = joined["room"].as_str().expect("room").to_string();
    let snapshot = alice
        .expect(|m| m["t"] == "snapshot" && m["room"] == json!(room))
        .await;
    server.kill_and_restart();
    assert_eq!(snapshot["seats"]["S"]["ready"], true, "{snapshot}");
    drop(alice);

    // A day later Bob takes it: the game starts, and Alice, away, is told it is her turn.
    server.advance(DAY);
    let mut bob = server.player("bob", Some(&bob_token)).await;
    let taken = bob.request(seek).await;
    assert_eq!(taken["room"], json!(room), "{taken}");
    bob.expect_event(&room, "start").await;
    pushed(&mut alice_posts, &alice_keys, "your_turn", &room).await;
    mailed(&smtp, "alice@example.org", &room);
    drop(bob);

    // Alice comes back, moves, goes: Bob, away, is told.
    let mut watcher = server.player("watcher", None).await;
    until_away(&mut watcher, &room, "N").await;
    let mut alice = server.player("alice", Some(&alice_token)).await;
    alice.seat = "S".into();
    alice
        .send(json!({"t": "resume", "room": room, "since": 0}))
        .await;
    alice.expect_event(&room, "start").await;
    alice.play(&room, "click", json!({"click": "A2L"})).await;
    drop(alice);
    pushed(&mut bob_posts, &bob_keys, "your_turn", &room).await;
    mailed(&smtp, "bob@example.org", &room);
    // Bob answers (he passes) and goes: Alice, away, is told.
    until_away(&mut watcher, &room, "S").await;
    let mut bob = server.player("bob", Some(&bob_token)).await;
    bob.seat = "N".into();
    bob.send(json!({"t": "resume", "room": room, "since": 0}))
        .await;
    bob.expect_event(&room, "click").await;
    bob.play(&room, "end_turn", json!({})).await;
    let moved = server.now;
    pushed(&mut alice_posts, &alice_keys, "your_turn", &room).await;
    mailed(&smtp, "alice@example.org", &room);
    drop((bob, watcher));

    // Killed again; Alice does not come back. A day before her time is up she is warned, by
    // push and mail; then she loses on time, and both are told.
    server.kill_and_restart();
    server.advance(DAY);
    pushed(&mut alice_posts, &alice_keys, "deadline", &room).await;
    mailed(&smtp, "alice@example.org", &room);
    server.advance(DAY);
    pushed(&mut alice_posts, &alice_keys, "over", &room).await;
    pushed(&mut bob_posts, &bob_keys, "over", &room).await;
    let mut to = [smtp.next(), smtp.next()].map(|m| {
        let m = decode(&m);
        m.lines()
            .find_map(|l| l.strip_prefix("To: ").map(str::to_owned))
            .unwrap_or_default()
    });
    to.sort();
    assert_eq!(to, ["alice@example.org", "bob@example.org"]);
    let mut reader = server.player("reader", None).await;
    let history = reader.request(json!({"t": "history", "room": room})).await;
    assert_eq!(history["status"], "finished", "{history}");
    let events = history["events"].as_array().expect("events");
    let over = events.last().expect("an end");
    assert_eq!(
        (
            over["ev"]["reason"].clone(),
            over["ev"]["seat"].clone(),
            over["ev"]["result"]["winner"].clone()
        ),
        (json!("time"), json!("S"), json!("N")),
        "{over}"
    );
    let last_turn: Vec<&Value> = (events.iter())
        .filter(|e| e["ev"]["kind"] == "deadline" && e["ev"]["seat"] == "S")
        .filter(|e| e["ev"]["round"] == 2 && e["ev"]["at"] == json!(moved + 2 * DAY))
        .collect();
    assert_eq!(
        last_turn.len(),
        2,
        "told as it began, warned once: {last_turn:?}"
    );
    assert_eq!(last_turn[1]["ev"]["warning"], true, "{last_turn:?}");
    drop(server);
    remove_db(&db);
}

//! Behind a real reverse proxy: Debian's nginx (`orion_tests::nginx`, the README's
//! configuration) in front of a real server. The page is served and a game is played through
//! it over the WebSocket upgrade; the same-origin check passes for the proxy's own pages and
//! still refuses others; the client address the server keys by (here: the password throttle)
//! is the one nginx forwards when the proxy is trusted (`--trust-proxy`), and nginx's own
//! when it is not, whatever a client writes in `X-Forwarded-For` itself. A Chromium page
//! loaded through nginx, plain and with TLS terminated there, opens its own WebSocket.

use crate::chromium;

use orion_tests::nginx::Nginx;
use orion_tests::{play_moves, start_room, Client, TestServer, HYDRA_TWO, PATIENCE};
use serde_json::{json, Value};
use std::net::IpAddr;

/// nginx's address, trusted as a proxy by the servers that are told to.
const PROXY: &str = "127.0.0.1/32";

/// `GET path` through the proxy, asking it to close the connection after (nginx keeps a
/// client's connection alive otherwise): the whole response.
async fn get_via(nginx: &Nginx, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(nginx.addr)
        .await
        .expect("connect to nginx");
    let request = format!(
        "GET {path} HTTP/1.1\r\nhost: {}\r\nconnection: close\r\n\r\n",
        nginx.addr
    );
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut out = String::new();
    tokio::time::timeout(PATIENCE, stream.read_to_string(&mut out))
        .await
        .expect("the page in time")
        .expect("read");
    out
}

/// A client of the proxy at `from`, its page's origin the proxy's, said hello as `name`.
async fn player_via(
    nginx: &Nginx,
    from: &str,
    name: &str,
    extra: &[(&'static str, &str)],
) -> Client {
    let origin = nginx.base();
    let mut headers = vec![("origin", origin.as_str())];
    headers.extend_from_slice(extra);
    let ip: IpAddr = from.parse().expect("an address");
    let mut c = Client::connect_from(&nginx.ws_url(), ip, &headers)
        .await
        .unwrap_or_else(|e| panic!("upgrade through nginx refused: {e}\n{}", nginx.log()));
    let welcome = c
        .request(json!({"t": "hello", "name": name, "version": 1}))
        .await;
    assert_eq!(welcome["t"], "welcome", "{welcome}");
    c.token = welcome["token"].as_str().unwrap_or_default().into();
    c
}

/// A wrong-password `login` from `from` through the proxy: the error code it gets.
async fn guess_from(
    nginx: &Nginx,
    from: &str,
    name: &str,
    extra: &[(&'static str, &str)],
) -> String {
    let ip: IpAddr = from.parse().expect("an address");
    let origin = nginx.base();
    let mut headers = vec![("origin", origin.as_str())];
    headers.extend_from_slice(extra);
    let mut c = Client::connect_from(&nginx.ws_url(), ip, &headers)
        .await
        .expect("upgrade through nginx");
    let e: Value = c
        .refused(json!({"t": "login", "name": name, "password": "not the password", "version": 1}))
        .await;
    e["code"].as_str().unwrap_or_default().to_string()
}

/// One address's 20 free guesses (the per-address throttle, `PER_ADDRESS.free`) from
/// 127.0.0.4, each at another name so that no account's own budget runs out first.
async fn spend_an_address(nginx: &Nginx) {
    let free = orion_server::PER_ADDRESS.free;
    for i in 0..free {
        let code = guess_from(nginx, "127.0.0.4", &format!("guess{i}"), &[]).await;
        assert_ne!(code, "rate_limited", "guess {i} of {free}");
    }
    let code = guess_from(nginx, "127.0.0.4", "guess-over", &[]).await;
    assert_eq!(
        code, "rate_limited",
        "the 21st guess from one address waits"
    );
}

#[tokio::test]
async fn a_game_is_played_through_nginx_which_is_trusted_for_the_client_address() {
    let server = TestServer::start_tuned(|c| {
        c.trusted_proxies = vec![PROXY.parse().expect("a network")];
    });
    let nginx = Nginx::start(server.addr);

    // The page, through the proxy.
    let page = get_via(&nginx, "/").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<html"), "{page}");

    // Two players from two addresses play a Hydra for Two to its end through nginx.
    let mut players = vec![
        player_via(&nginx, "127.0.0.2", "south", &[]).await,
        player_via(&nginx, "127.0.0.3", "north", &[]).await,
    ];
    let room = start_room(&mut players, "hydra-2", json!({})).await;
    let [mut s, mut n] = <[Client; 2]>::try_from(players).ok().expect("two");
    play_moves(&mut s, &mut n, &room, HYDRA_TWO, true).await;
    let over = n.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["result"]["winner"], "S", "{over}");

    // A page of another site is still refused, and so is a page that says https when the
    // proxy says the client came in over http.
    let refused = |origin: String| {
        let url = nginx.ws_url();
        async move {
            Client::connect_with(&url, &[("origin", origin.as_str())])
                .await
                .is_err()
        }
    };
    assert!(refused("http://evil.example".into()).await);
    assert!(refused(format!("https://{}", nginx.addr)).await);

    // The throttle keys by the forwarded address: 127.0.0.4 spends its guesses ...
    spend_an_address(&nginx).await;
    // ... and 127.0.0.5 still has its own, even claiming to be 127.0.0.4 in a header of its
    // own (nginx appends the real address; the server believes only that one).
    let code = guess_from(
        &nginx,
        "127.0.0.5",
        "other",
        &[("x-forwarded-for", "127.0.0.4")],
    )
    .await;
    assert_eq!(code, "not_found", "a second address is not throttled");
}

#[tokio::test]
async fn without_trust_the_forwarded_address_is_ignored() {
    // The same nginx, but the server does not trust it: every client is nginx's address.
    let server = TestServer::start();
    let nginx = Nginx::start(server.addr);
    spend_an_address(&nginx).await;
    let code = guess_from(&nginx, "127.0.0.5", "other", &[]).await;
    assert_eq!(
        code, "rate_limited",
        "everyone behind an untrusted proxy is one address"
    );
}

#[tokio::test]
async fn a_browser_page_through_nginx_opens_its_websocket_plain_and_over_tls() {
    let server = TestServer::start_tuned(|c| {
        c.trusted_proxies = vec![PROXY.parse().expect("a network")];
    });
    let plain = Nginx::start(server.addr);
    let tls = Nginx::start_tls(server.addr);
    let mut driver = chromium::Driver::start();
    for (nginx, name) in [(&plain, "plainpage"), (&tls, "tlspage")] {
        let page = driver.browser(1024, 768).await;
        // Online: the page's own WebSocket (ws:// or wss://, Origin http:// or https://)
        // went through nginx and the server welcomed it.
        chromium::open(&page, &nginx.base(), "/", name).await;
        let scheme = chromium::js(&page, "return location.protocol").await;
        assert_eq!(scheme, json!(if nginx.tls { "https:" } else { "http:" }));
        page.close().await.expect("close the page");
    }
}

//! Who a request really comes from when a reverse proxy the operator trusts
//! (`--trust-proxy CIDR`) stands in front: the client's address (`X-Forwarded-For`, or the
//! `for=` of RFC 7239's `Forwarded`), and the host and scheme the client asked for
//! (`X-Forwarded-Host`/`-Proto`, or `host=`/`proto=`), which the same-origin check compares
//! the page's `Origin` with.
//!
//! Policy: the headers are read only when the TCP peer is a trusted proxy; from anyone else
//! they are ignored (a client could write anything there). The address chain is walked from
//! its right end, the hop the trusted proxy added, past every trusted proxy: the first address
//! that is not one is the client (an address the client wrote itself, further left, is never
//! believed). An entry that is not an address (`unknown`, an obfuscated name) ends the walk at
//! the last proxy. This one address is what every per-address policy keys by (the password
//! throttle, and whatever else keys by address): `connection.rs`'s `peer`.

use hyper::header::HeaderMap;
use ipnet::IpNet;
use std::net::{IpAddr, SocketAddr};

/// Who a request comes from, as far as the trusted proxies say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forwarded {
    /// The client's address: the TCP peer, or the one a trusted proxy forwarded for.
    pub client: IpAddr,
    /// The host (and port) the client asked for, as a trusted proxy said; `None` when no
    /// trusted proxy said (then the `Host` header is it).
    pub host: Option<String>,
    /// The scheme the client used (`http` or `https`), as a trusted proxy said.
    pub proto: Option<String>,
}

/// Reads `headers` of a request whose TCP peer is `peer`, believing them only if `peer` is in
/// `trusted`.
pub fn forwarded(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> Forwarded {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(&canonical(*ip)));
    let mut out = Forwarded {
        client: peer,
        host: None,
        proto: None,
    };
    if !is_trusted(&peer) {
        return out;
    }
    let elements = rfc7239(headers);
    let chain: Vec<&str> = if elements.is_empty() {
        values(headers, "x-forwarded-for")
    } else {
        elements.iter().filter_map(|e| get(e, "for")).collect()
    };
    for entry in chain.iter().rev() {
        let Some(ip) = address(entry) else {
            break;
        };
        out.client = ip;
        if !is_trusted(&ip) {
            break;
        }
    }
    // Host and scheme: what the proxy nearest this server says (the last value), which is
    // the one a proxy in front of it told it, or the client's request if it is alone.
    if elements.is_empty() {
        out.host = values(headers, "x-forwarded-host")
            .last()
            .map(|s| s.to_string());
        out.proto = values(headers, "x-forwarded-proto")
            .last()
            .map(|s| s.to_ascii_lowercase());
    } else {
        out.host = elements
            .iter()
            .rev()
            .find_map(|e| get(e, "host"))
            .map(|s| s.to_string());
        out.proto = elements
            .iter()
            .rev()
            .find_map(|e| get(e, "proto"))
            .map(|s| s.to_ascii_lowercase());
    }
    out.host = out.host.filter(|h| !h.is_empty());
    out.proto = out.proto.filter(|p| p == "http" || p == "https");
    out
}

/// An IPv4 address written as IPv6 (`::ffff:10.0.0.1`, as a dual-stack listener sees it) as
/// the IPv4 address it is.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Every comma-separated value of every `name` header, trimmed, in order.
fn values<'a>(headers: &'a HeaderMap, name: &str) -> Vec<&'a str> {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .collect()
}

/// The elements of the `Forwarded` headers (RFC 7239), each its `key=value` pairs (keys in
/// lower case, quotes removed), in order.
fn rfc7239(headers: &HeaderMap) -> Vec<Vec<(String, &str)>> {
    values(headers, "forwarded")
        .into_iter()
        .map(|element| {
            element
                .split(';')
                .filter_map(|pair| pair.split_once('='))
                .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().trim_matches('"')))
                .collect()
        })
        .collect()
}

/// The value of `key` in one `Forwarded` element.
fn get<'a>(element: &[(String, &'a str)], key: &str) -> Option<&'a str> {
    element.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
}

/// The address in a chain entry: `203.0.113.7`, `203.0.113.7:4711`, `2001:db8::1`,
/// `[2001:db8::1]:4711`; `None` for anything else (`unknown`, `_hidden`).
fn address(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    if let Ok(ip) = entry.parse::<IpAddr>() {
        return Some(canonical(ip));
    }
    if let Ok(sock) = entry.parse::<SocketAddr>() {
        return Some(canonical(sock.ip()));
    }
    entry
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .and_then(|ip| ip.parse().ok())
        .map(canonical)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn the_client_is_the_first_untrusted_address_from_the_right() {
        let trusted: Vec<IpNet> = vec![
            "127.0.0.1/32".parse().unwrap(),
            "10.0.0.0/8".parse().unwrap(),
        ];
        for (peer, pairs, client) in [
            // No proxy trusted: the peer, whatever the headers say.
            (
                "192.0.2.9",
                vec![("x-forwarded-for", "203.0.113.7")],
                "192.0.2.9",
            ),
            // One proxy: the address it added.
            (
                "127.0.0.1",
                vec![("x-forwarded-for", "203.0.113.7")],
                "203.0.113.7",
            ),
            // What the client wrote itself, left of it, is not believed.
            (
                "127.0.0.1",
                vec![("x-forwarded-for", "198.51.100.1, 203.0.113.7")],
                "203.0.113.7",
            ),
            // Two trusted proxies in a row, over two headers.
            (
                "127.0.0.1",
                vec![
                    ("x-forwarded-for", "198.51.100.1, 203.0.113.7"),
                    ("x-forwarded-for", "10.1.2.3"),
                ],
                "203.0.113.7",
            ),
            // `unknown` stops the walk at the last proxy.
            (
                "127.0.0.1",
                vec![("x-forwarded-for", "unknown")],
                "127.0.0.1",
            ),
            // RFC 7239, with a port and IPv6 brackets.
            (
                "127.0.0.1",
                vec![(
                    "forwarded",
                    "for=\"[2001:db8::1]:4711\";proto=https, for=10.0.0.2",
                )],
                "2001:db8::1",
            ),
            // A trusted peer written as IPv4 in IPv6.
            (
                "::ffff:127.0.0.1",
                vec![("x-forwarded-for", "203.0.113.8")],
                "203.0.113.8",
            ),
        ] {
            let got = forwarded(ip(peer), &headers(&pairs), &trusted);
            assert_eq!(got.client, ip(client), "{peer} {pairs:?}");
        }
    }

    #[test]
    fn host_and_scheme_are_believed_from_a_trusted_proxy_only() {
        let trusted: Vec<IpNet> = vec!["127.0.0.1/32".parse().unwrap()];
        let h = headers(&[
            ("x-forwarded-host", "orion.example"),
            ("x-forwarded-proto", "HTTPS"),
        ]);
        let got = forwarded(ip("127.0.0.1"), &h, &trusted);
        assert_eq!(got.host.as_deref(), Some("orion.example"));
        assert_eq!(got.proto.as_deref(), Some("https"));
        let got = forwarded(ip("192.0.2.1"), &h, &trusted);
        assert_eq!((got.host, got.proto), (None, None));
        let h = headers(&[(
            "forwarded",
            "for=203.0.113.7;host=orion.example:8443;proto=https",
        )]);
        let got = forwarded(ip("127.0.0.1"), &h, &trusted);
        assert_eq!(got.host.as_deref(), Some("orion.example:8443"));
        assert_eq!(got.proto.as_deref(), Some("https"));
    }
}

//! Which Web Push endpoints the server will post to: `https://` only, and never an address
//! of its own network (loopback, private, link-local, unique-local, CGNAT, multicast,
//! unspecified; v4 and v6, v4 mapped or embedded in v6 included), or the server would be a
//! way for any account to make requests inside it. An endpoint starting with a prefix given
//! by `--allow-push-endpoint` is taken as it is (tests, a push service run in-house).
//! Checked at `push_subscribe` and again at every send, where the resolver the push client
//! connects through ([`PublicResolver`]) refuses the same addresses: DNS may change between
//! the two, and a name resolved twice might not give the same answer.

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// Longest endpoint kept (the push services' are under 500 bytes).
pub const MAX_ENDPOINT: usize = 1024;

/// Why an endpoint is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    /// Not a URL with a host.
    #[error("the endpoint is not a URL with a host")]
    Malformed,
    /// Longer than [`MAX_ENDPOINT`].
    #[error("the endpoint is longer than {MAX_ENDPOINT} bytes")]
    TooLong,
    /// Not `https://`.
    #[error("a push endpoint must be https://")]
    NotHttps,
    /// It is, or resolves to, an address of the server's own network.
    #[error("the push endpoint's address {0} is loopback, private or link-local: refused")]
    Private(IpAddr),
    /// Its host name does not resolve.
    #[error("the push endpoint's host {0} does not resolve")]
    Unresolved(String),
}

/// The prefixes `--allow-push-endpoint` gave.
#[derive(Clone, Debug, Default)]
pub struct Allowed(Arc<Vec<String>>);

impl Allowed {
    /// Endpoints starting with any of `prefixes` skip the checks.
    pub fn new(prefixes: Vec<String>) -> Allowed {
        Allowed(Arc::new(prefixes))
    }

    /// Whether `endpoint` starts with an allowed prefix.
    pub fn allows(&self, endpoint: &str) -> bool {
        self.0.iter().any(|p| endpoint.starts_with(p.as_str()))
    }

    /// Whether host `name` is the host of an allowed prefix (the resolver lets it resolve to
    /// anything).
    fn allows_host(&self, name: &str) -> bool {
        self.0.iter().any(|p| host_of(p) == Some(name))
    }
}

/// The host of a URL (without brackets or port), if it has one.
fn host_of(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if let Some(v6) = authority.strip_prefix('[') {
        return v6.split_once(']').map(|(h, _)| h);
    }
    let host = authority.split(':').next()?;
    (!host.is_empty()).then_some(host)
}

/// Checks `endpoint` (resolving its host name): `Ok` if the server may post to it.
pub async fn check(endpoint: &str, allowed: &Allowed) -> Result<(), EndpointError> {
    if endpoint.len() > MAX_ENDPOINT {
        return Err(EndpointError::TooLong);
    }
    let uri: hyper::Uri = endpoint.parse().map_err(|_| EndpointError::Malformed)?;
    let host = uri.host().ok_or(EndpointError::Malformed)?;
    if allowed.allows(endpoint) {
        return Ok(());
    }
    if uri.scheme_str() != Some("https") {
        return Err(EndpointError::NotHttps);
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return public(ip);
    }
    let port = uri.port_u16().unwrap_or(443);
    let addrs = tokio::net::lookup_host((bare, port))
        .await
        .map_err(|_| EndpointError::Unresolved(bare.to_string()))?;
    let mut any = false;
    for addr in addrs {
        public(addr.ip())?;
        any = true;
    }
    if any {
        Ok(())
    } else {
        Err(EndpointError::Unresolved(bare.to_string()))
    }
}

/// `Ok` for an address outside the server's own network.
pub fn public(ip: IpAddr) -> Result<(), EndpointError> {
    if is_public(ip) {
        Ok(())
    } else {
        Err(EndpointError::Private(ip))
    }
}

/// Whether `ip` is a public unicast address.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        // Shared address space (carrier-grade NAT), 100.64.0.0/10.
        || (a == 100 && (64..128).contains(&b))
        // IETF protocol assignments, 192.0.0.0/24; benchmarking, 198.18.0.0/15.
        || (a == 192 && b == 0 && ip.octets()[2] == 0)
        || (a == 198 && (b == 18 || b == 19))
        // Reserved, 240.0.0.0/4.
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    let s = ip.segments();
    // IPv4-compatible (::a.b.c.d, deprecated) and NAT64 (64:ff9b::/96): the v4 inside counts.
    if (s[..6] == [0; 6] && !ip.is_unspecified() && !ip.is_loopback())
        || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0]
    {
        let [a, b] = s[6].to_be_bytes();
        let [c, d] = s[7].to_be_bytes();
        return is_public_v4(Ipv4Addr::new(a, b, c, d));
    }
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        // Unique local, fc00::/7.
        || (s[0] & 0xfe00) == 0xfc00
        // Link-local, fe80::/10; site-local (deprecated), fec0::/10.
        || (s[0] & 0xffc0) == 0xfe80
        || (s[0] & 0xffc0) == 0xfec0
        // Documentation, 2001:db8::/32.
        || (s[0] == 0x2001 && s[1] == 0x0db8))
}

/// The push client's resolver: the system's, with every address of the server's own network
/// left out (a name that has no other is an error), except for hosts of allowed prefixes.
#[derive(Clone, Debug)]
pub struct PublicResolver {
    /// Hosts whose addresses are not checked.
    pub allowed: Allowed,
}

impl Resolve for PublicResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allowed = self.allowed.clone();
        Box::pin(async move {
            let host = name.as_str().to_string();
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let open = allowed.allows_host(&host);
            let kept: Vec<SocketAddr> = found
                .into_iter()
                .filter(|a| open || is_public(a.ip()))
                .collect();
            if kept.is_empty() {
                let e: Box<dyn std::error::Error + Send + Sync> =
                    Box::new(EndpointError::Unresolved(host));
                return Err(e);
            }
            let addrs: Addrs = Box::new(kept.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_of_the_servers_own_network_are_not_public() {
        let table = [
            ("127.0.0.2", false),
            ("10.1.2.3", false),
            ("172.16.0.1", false),
            ("192.168.1.1", false),
            ("169.254.169.254", false),
            ("100.64.0.1", false),
            ("0.0.0.0", false),
            ("224.0.0.1", false),
            ("255.255.255.255", false),
            ("::1", false),
            ("::", false),
            ("fe80::1", false),
            ("fd00::1", false),
            ("fc00::1", false),
            ("::ffff:127.0.0.1", false),
            ("::ffff:10.0.0.1", false),
            ("::127.0.0.1", false),
            ("64:ff9b::a00:1", false),
            ("ff02::1", false),
            ("8.8.8.8", true),
            ("2a00:1450:4001::1", true),
            ("::ffff:8.8.8.8", true),
        ];
        for (ip, want) in table {
            let ip: IpAddr = ip.parse().unwrap();
            assert_eq!(is_public(ip), want, "{ip}");
        }
    }

    #[tokio::test]
    async fn an_endpoint_must_be_https_and_public_unless_allowed() {
        let none = Allowed::default();
        assert_eq!(
            check("http://8.8.8.8/push", &none).await,
            Err(EndpointError::NotHttps)
        );
        assert_eq!(
            check("https://127.0.0.2/push", &none).await,
            Err(EndpointError::Private("127.0.0.2".parse().unwrap()))
        );
        assert_eq!(
            check("https://[::ffff:7f00:1]/push", &none).await,
            Err(EndpointError::Private("::ffff:127.0.0.1".parse().unwrap()))
        );
        assert!(
            matches!(
                check("https://localhost/push", &none).await,
                Err(EndpointError::Private(_))
            ),
            "localhost resolves to loopback"
        );
        assert_eq!(
            check("not a url", &none).await,
            Err(EndpointError::Malformed)
        );
        let tests = Allowed::new(vec!["http://127.0.0.1:".into()]);
        assert_eq!(check("http://127.0.0.1:9/p", &tests).await, Ok(()));
        assert_eq!(
            check("http://127.0.0.2:1/", &tests).await,
            Err(EndpointError::NotHttps)
        );
        assert_eq!(host_of("http://127.0.0.1:80/x"), Some("127.0.0.1"));
        assert_eq!(host_of("https://[::1]:80/x"), Some("::1"));
    }
}

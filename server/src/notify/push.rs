//! Web Push: the server's VAPID key pair (RFC 8292), made on first start and kept in the
//! store so every node and every restart signs with the same one (browsers subscribed with
//! its public key), and one push message encrypted `aes128gcm` to a browser's keys (RFC 8291)
//! by `web-push-native` and posted with `reqwest` (rustls) through [`PublicResolver`], with
//! no redirects followed and a deadline of [`PUSH_TIMEOUT`].

use super::endpoint::{self, Allowed, PublicResolver};
use crate::store::{PushRecord, Store, StoreError};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use std::sync::Arc;
use std::time::Duration;
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike, ES256KeyPair};
use web_push_native::{p256, Auth, WebPushBuilder};

/// How long one push service has to answer.
pub const PUSH_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a push service keeps a message for a browser that is offline.
const TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// The store's name for the VAPID private key (base64url of the P-256 scalar).
const VAPID_SECRET: &str = "vapid_private";

/// Why a subscription's keys are refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// `keys.p256dh` is not a P-256 public key in base64url.
    #[error("keys.p256dh is not a P-256 public key (base64url, 65 bytes)")]
    P256dh,
    /// `keys.auth` is not 16 bytes in base64url.
    #[error("keys.auth is not a 16-byte secret (base64url)")]
    Auth,
}

/// The browser's keys, decoded.
fn keys(sub: &PushRecord) -> Result<(p256::PublicKey, Auth), KeyError> {
    let decode = |s: &str| {
        URL_SAFE_NO_PAD
            .decode(s.trim_end_matches('='))
            .map_err(|_| ())
    };
    let p256dh = decode(&sub.p256dh).map_err(|_| KeyError::P256dh)?;
    let public = p256::PublicKey::from_sec1_bytes(&p256dh).map_err(|_| KeyError::P256dh)?;
    let auth = decode(&sub.auth).map_err(|_| KeyError::Auth)?;
    if auth.len() != 16 {
        return Err(KeyError::Auth);
    }
    Ok((public, Auth::clone_from_slice(&auth)))
}

/// Checks a subscription's keys before it is kept.
pub fn check_keys(sub: &PushRecord) -> Result<(), KeyError> {
    keys(sub).map(|_| ())
}

/// What became of one push.
#[derive(Debug)]
pub enum Pushed {
    /// The push service took it.
    Sent,
    /// The push service says the subscription is gone (404, 410): drop it.
    Gone,
    /// It did not go (refused endpoint, network, another status): kept for the next notice.
    Failed(String),
}

/// The server's side of Web Push.
pub struct Push {
    /// The VAPID key pair.
    key: ES256KeyPair,
    /// Its public key as `pushManager.subscribe` takes it (base64url, uncompressed).
    public: String,
    /// The VAPID `sub` claim: how a push service reaches the operator.
    contact: String,
    /// The HTTP client (rustls, the checking resolver, no redirects).
    client: reqwest::Client,
    /// `--allow-push-endpoint`.
    allowed: Allowed,
}

impl Push {
    /// The key pair the store keeps (made now if it keeps none), and a client.
    pub async fn load(
        store: &Arc<dyn Store>,
        contact: String,
        allowed: Allowed,
    ) -> Result<Push, StoreError> {
        let fresh = URL_SAFE_NO_PAD.encode(ES256KeyPair::generate().to_bytes());
        let kept = store.notify_secret(VAPID_SECRET, &fresh).await?;
        let bytes = URL_SAFE_NO_PAD
            .decode(kept.as_bytes())
            .map_err(|_| StoreError::Corrupt("the stored VAPID key is not base64url".into()))?;
        let key = ES256KeyPair::from_bytes(&bytes)
            .map_err(|_| StoreError::Corrupt("the stored VAPID key is not a P-256 key".into()))?;
        let public = URL_SAFE_NO_PAD.encode(key.public_key().public_key().to_bytes_uncompressed());
        let client = reqwest::Client::builder()
            .dns_resolver(Arc::new(PublicResolver {
                allowed: allowed.clone(),
            }))
            .redirect(reqwest::redirect::Policy::none())
            .timeout(PUSH_TIMEOUT)
            .build()
            .map_err(|e| StoreError::Corrupt(format!("no HTTP client for Web Push: {e}")))?;
        Ok(Push {
            key,
            public,
            contact,
            client,
            allowed,
        })
    }

    /// The VAPID public key (`welcome`'s `vapid_key`).
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// Whether `endpoint` may be posted to (`endpoint::check`).
    pub async fn check_endpoint(&self, endpoint: &str) -> Result<(), endpoint::EndpointError> {
        endpoint::check(endpoint, &self.allowed).await
    }

    /// Encrypts `payload` to `sub`'s keys and posts it, the endpoint checked again first.
    pub async fn send(&self, sub: &PushRecord, payload: &[u8]) -> Pushed {
        if let Err(e) = self.check_endpoint(&sub.endpoint).await {
            return Pushed::Failed(e.to_string());
        }
        let (public, auth) = match keys(sub) {
            Ok(k) => k,
            Err(e) => return Pushed::Failed(e.to_string()),
        };
        let Ok(uri) = sub.endpoint.parse() else {
            return Pushed::Failed("the endpoint is not a URL".into());
        };
        let built = WebPushBuilder::new(uri, public, auth)
            .with_valid_duration(TTL)
            .with_vapid(&self.key, &self.contact)
            .build(payload.to_vec());
        let request = match built.map(reqwest::Request::try_from) {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => return Pushed::Failed(e.to_string()),
            Err(e) => return Pushed::Failed(e.to_string()),
        };
        match self.client.execute(request).await {
            Ok(r) if r.status().is_success() => Pushed::Sent,
            Ok(r) if matches!(r.status().as_u16(), 404 | 410) => Pushed::Gone,
            Ok(r) => Pushed::Failed(format!("the push service answered {}", r.status())),
            Err(e) => Pushed::Failed(e.to_string()),
        }
    }
}

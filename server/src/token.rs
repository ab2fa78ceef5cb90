//! A player's token: 128 random bits handed to the client in `welcome`, and the only form the
//! server keeps of it, its SHA-256. The store never sees a token in clear, so a copy of the
//! database (a backup, a leak) reaches nobody's seats or account.

use rand::Rng;
use sha2::{Digest, Sha256};

/// A fresh token, as the client is given it: 32 hex digits (128 bits from the thread's
/// cryptographic generator).
pub fn fresh() -> String {
    hex::encode(rand::thread_rng().gen::<[u8; 16]>())
}

/// What the store keeps of `token`: the hex SHA-256 of its text. A token has 128 random bits,
/// so a plain hash is enough (there is nothing to guess, and no salt or slow hash is needed);
/// it is the same on every node, so a token is found by its hash.
pub fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_and_kept_only_as_their_sha256() {
        let (a, b) = (fresh(), fresh());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_ne!(hash(&a), a);
        assert_eq!(hash(&a), hash(&a.clone()));
    }
}

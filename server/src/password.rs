//! Passwords of claimed names: bounded, hashed with Argon2id (the `argon2` crate, PHC strings
//! with their own salt and parameters), checked in constant time, and never kept, logged or
//! echoed in clear. Hashing is deliberately slow and memory-hard, so it runs on the blocking
//! pool, at most [`HASHING_AT_ONCE`] at a time server-wide: a crowd of logins queues rather
//! than starving the rooms of CPU.

use crate::protocol::{Code, Refusal};
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use tokio::sync::Semaphore;

/// Shortest password, in characters.
pub const MIN_PASSWORD: usize = 8;
/// Longest password, in characters (a hash costs the same for any length; the bound keeps a
/// frame's worth of text from being hashed).
pub const MAX_PASSWORD: usize = 128;
/// Hashes computed at once, server-wide (the machine's cores are the rooms' first).
pub const HASHING_AT_ONCE: usize = 2;

/// A hash no password is known to match, made with the parameters every stored hash has
/// (`Argon2::default()`: Argon2id, 19 MiB, 2 passes, 1 lane; the digest is SHA-256 of a phrase,
/// not of any password): a `login` for an unknown name is checked against it, so it costs what
/// a wrong password for a real name costs and the two cannot be told apart by time.
pub const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$v4TzgvGefzUohoUAd5w1ZQ$HLINjyprlnDpv09YDJO4kOVglU1zhzZt5863zn2pXZk";

/// Permits to hash.
static HASHING: Semaphore = Semaphore::const_new(HASHING_AT_ONCE);

/// A password as typed, checked for length and characters. Its `Debug` hides it, so it
/// cannot reach a log by accident.
pub struct Password(String);

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(…)")
    }
}

impl Password {
    /// Checks `text`: [`MIN_PASSWORD`] to [`MAX_PASSWORD`] characters, no control characters
    /// (a password is typed; a NUL or an escape is a client's mistake). Not trimmed: spaces
    /// count.
    pub fn new(text: String) -> Result<Password, Refusal> {
        let count = text.chars().count();
        if !(MIN_PASSWORD..=MAX_PASSWORD).contains(&count) {
            return Err(Refusal::new(
                Code::BadRequest,
                format!("a password must be {MIN_PASSWORD} to {MAX_PASSWORD} characters"),
            ));
        }
        if text.chars().any(char::is_control) {
            return Err(Refusal::new(
                Code::BadRequest,
                "a password may not hold control characters",
            ));
        }
        Ok(Password(text))
    }

    /// The PHC string of a fresh Argon2id hash (random salt, the crate's default cost).
    pub async fn hash(self) -> Result<String, Refusal> {
        let _permit = HASHING.acquire().await.map_err(|_| busy())?;
        tokio::task::spawn_blocking(move || {
            let salt = SaltString::generate(&mut OsRng);
            Argon2::default()
                .hash_password(self.0.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| Refusal::new(Code::Server, format!("cannot hash: {e}")))
        })
        .await
        .map_err(|_| busy())?
    }

    /// Whether this is the password `phc` (a stored hash) was made from.
    pub async fn matches(self, phc: String) -> Result<bool, Refusal> {
        let _permit = HASHING.acquire().await.map_err(|_| busy())?;
        tokio::task::spawn_blocking(move || {
            let hash = PasswordHash::new(&phc)
                .map_err(|e| Refusal::new(Code::Server, format!("stored hash unreadable: {e}")))?;
            Ok(Argon2::default()
                .verify_password(self.0.as_bytes(), &hash)
                .is_ok())
        })
        .await
        .map_err(|_| busy())?
    }
}

fn busy() -> Refusal {
    Refusal::new(Code::Server, "the server is shutting down")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_long_and_control_passwords_are_refused_with_the_reason() {
        let short = Password::new("seven77".into()).unwrap_err();
        assert_eq!(short.code, Code::BadRequest);
        assert!(short.message.contains("8 to 128"), "{}", short.message);
        assert!(Password::new("x".repeat(MAX_PASSWORD + 1)).is_err());
        assert!(Password::new("é".repeat(MAX_PASSWORD)).is_ok());
        let nul = Password::new("correct\0horse".into()).unwrap_err();
        assert!(nul.message.contains("control"), "{}", nul.message);
        assert!(Password::new("  spaced out  ".into()).is_ok());
    }

    #[test]
    fn a_password_is_never_shown_in_debug_output() {
        let p = Password::new("hunter2hunter2".into()).unwrap();
        assert!(!format!("{p:?}").contains("hunter2"));
    }

    #[tokio::test]
    async fn the_dummy_hash_has_the_parameters_of_a_real_one_and_matches_nothing() {
        let real = Password::new("correct horse".into())
            .unwrap()
            .hash()
            .await
            .unwrap();
        let params = |phc: &str| {
            let h = PasswordHash::new(phc).unwrap();
            (h.algorithm.to_string(), h.version, h.params.to_string())
        };
        assert_eq!(params(DUMMY_HASH), params(&real));
        for guess in [
            "correct horse",
            "password123",
            "orion dummy hash: no password has it",
        ] {
            let p = Password::new(guess.into()).unwrap();
            assert!(!p.matches(DUMMY_HASH.into()).await.unwrap(), "{guess}");
        }
    }

    #[tokio::test]
    async fn a_hash_is_argon2id_salted_and_matches_only_its_password() {
        let a = Password::new("correct horse".into())
            .unwrap()
            .hash()
            .await
            .unwrap();
        let b = Password::new("correct horse".into())
            .unwrap()
            .hash()
            .await
            .unwrap();
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert!(!a.contains("correct horse"));
        assert_ne!(a, b, "each hash has its own salt");
        let yes = Password::new("correct horse".into()).unwrap();
        assert!(yes.matches(a.clone()).await.unwrap());
        let no = Password::new("correct horsE".into()).unwrap();
        assert!(!no.matches(a).await.unwrap());
    }
}

//! Commitments to hidden choices (Algol's secret man): SHA-256 of the choice and a random
//! salt, published when the choice is made and checkable by anyone once the salt is revealed.

use sha2::{Digest, Sha256};

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The commitment to secret man `number` with `salt`: hex SHA-256 of `"{number}:{salt hex}"`.
pub fn commitment(number: u8, salt: &[u8]) -> String {
    let text = format!("{number}:{}", hex(salt));
    hex(&Sha256::digest(text.as_bytes()))
}

/// The commitment to a room's random seed with `salt`: hex SHA-256 of `"{seed}:{salt hex}"`
/// (the seed in decimal). Published at the start, checked by anyone once `over` reveals both.
pub fn seed_commitment(seed: u64, salt: &[u8]) -> String {
    let text = format!("{seed}:{}", hex(salt));
    hex(&Sha256::digest(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commitment_is_sha256_of_number_and_salt() {
        // `printf '7:00ff' | sha256sum`
        assert_eq!(
            commitment(7, &[0x00, 0xff]),
            "0cd46b9b13971d2090e3a4d9b9452bdbd9bfd78c45c7250b1bc5cda126c7eb86"
        );
    }

    #[test]
    fn the_seed_commitment_is_sha256_of_seed_and_salt() {
        // `printf '12345:00ff' | sha256sum`
        assert_eq!(
            seed_commitment(12345, &[0x00, 0xff]),
            "01e1f3ffeb7cca80dae87a2461793621a577642e440b75638b036114908e4878"
        );
        assert_ne!(
            seed_commitment(12345, &[0x00]),
            seed_commitment(12346, &[0x00])
        );
    }
}

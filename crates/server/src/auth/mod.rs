//! Who a caller is: operator-signed JWTs ([`jwt::Verifier`], built once at start) and secrets
//! compared in constant time (operator keys, invite codes).

pub mod jwt;

/// Whether two secrets are equal, comparing every byte (no early exit at the first
/// difference, so the time taken does not say how much of a guess was right).
pub fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_equal_only_when_every_byte_is() {
        assert!(same_key("ABC234", "ABC234"));
        assert!(!same_key("ABC234", "ABC235"));
        assert!(!same_key("ABC234", "ABC2345"));
        assert!(!same_key("", "A"));
    }
}

//! Hex encoding.

/// Encodes bytes as lowercase hex.
pub fn encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn encodes() {
        assert_eq!(super::encode(&[0, 255]), "00ff");
    }
}

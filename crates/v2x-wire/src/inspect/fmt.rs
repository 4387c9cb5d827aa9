//! Value formatting shared by the inspectors: hex and hex input (times: [`crate::tai`]).

/// Lower-case hex of bytes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// Decodes hex text; `None` when `raw` is not hex text (so it is taken as binary).
pub(crate) fn hex_text(raw: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(raw).ok()?;
    let mut digits = String::with_capacity(text.len());
    for token in text.split(|c: char| c.is_ascii_whitespace() || c == ':' || c == ',') {
        let t = token
            .strip_prefix("0x")
            .or_else(|| token.strip_prefix("0X"))
            .unwrap_or(token);
        if !t.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        digits.push_str(t);
    }
    if digits.is_empty() || digits.len() % 2 == 1 {
        return None;
    }
    hex::decode(digits).ok()
}

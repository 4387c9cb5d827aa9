//! Value formatting shared by the inspectors: hex, RFC 3339 times, hex input.

/// Lower-case hex of bytes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// RFC 3339 UTC time of a Unix time in microseconds (`YYYY-MM-DDTHH:MM:SS[.ffffff]Z`).
pub fn rfc3339_from_unix(unix_micros: i64) -> String {
    let secs = unix_micros.div_euclid(1_000_000);
    let micros = unix_micros.rem_euclid(1_000_000);
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    let frac = if micros == 0 {
        String::new()
    } else {
        format!(".{micros:06}")
    };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}{frac}Z",
        sod / 3600,
        sod % 3600 / 60,
        sod % 60
    )
}

/// Proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_known_values() {
        assert_eq!(rfc3339_from_unix(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339_from_unix(1_072_915_200_000_000), "2004-01-01T00:00:00Z");
        assert_eq!(rfc3339_from_unix(951_782_400_000_001), "2000-02-29T00:00:00.000001Z");
        assert_eq!(rfc3339_from_unix(1_763_769_599_000_000), "2025-11-21T23:59:59Z");
        assert_eq!(rfc3339_from_unix(-1_000_000), "1969-12-31T23:59:59Z");
    }
}

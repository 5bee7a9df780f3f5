//! The URL hash: the scenario link plus the time cursor, so any moment is a link.
//!
//! Format: `#v2.<payload>&t=<seconds>`, e.g. `#v2.eJx…&t=90.5` (or an older `#v1.` link).
//! The payload is base64url, so `&` cannot occur in it. The `&t=` part is optional (a plain share link from the CLI opens
//! paused at t = 0); an unreadable cursor is ignored rather than rejecting the link.

use faultline_sim::SimTime;

/// A parsed URL hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashState {
    /// The scenario link (`v1.…`), without `#` and without the cursor.
    pub link: String,
    /// Where the cursor was, if the hash says.
    pub cursor: Option<SimTime>,
}

/// Splits a hash (`#v2.…&t=12.5`, with or without `#`).
pub fn parse(hash: &str) -> HashState {
    let hash = hash.trim().trim_start_matches('#');
    let (link, rest) = match hash.find('&') {
        Some(i) => (&hash[..i], &hash[i + 1..]),
        None => (hash, ""),
    };
    let cursor = rest
        .split('&')
        .find_map(|kv| kv.strip_prefix("t="))
        .and_then(parse_secs);
    HashState {
        link: link.to_string(),
        cursor,
    }
}

/// Writes `#<link>&t=<seconds>` (the cursor to the microsecond, trailing zeros dropped).
pub fn format(link: &str, cursor: SimTime) -> String {
    let us = cursor.as_micros();
    let frac = format!("{:06}", us % 1_000_000);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        format!("#{link}&t={}", us / 1_000_000)
    } else {
        format!("#{link}&t={}.{frac}", us / 1_000_000)
    }
}

/// Seconds with up to six decimals; no sign, no exponent (so no float rounding either).
fn parse_secs(text: &str) -> Option<SimTime> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || frac.len() > 6
        || !(whole.chars().chain(frac.chars())).all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let secs: u64 = whole.parse().ok()?;
    let frac_us: u64 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<6}").parse().ok()?
    };
    secs.checked_mul(1_000_000)?
        .checked_add(frac_us)
        .map(SimTime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let h = format("v1.abc", SimTime(90_500_000));
        assert_eq!(h, "#v1.abc&t=90.5");
        assert_eq!(
            parse(&h),
            HashState {
                link: "v1.abc".into(),
                cursor: Some(SimTime(90_500_000))
            }
        );
        assert_eq!(format("v1.x", SimTime(3_000_000)), "#v1.x&t=3");
    }

    #[test]
    fn cursor_is_optional_and_tolerant() {
        assert_eq!(parse("#v1.abc").cursor, None);
        assert_eq!(parse("#v1.abc&t=oops").cursor, None);
        assert_eq!(parse("#v1.abc&t=-1").cursor, None);
        assert_eq!(parse("#v1.abc&t=99999999999999999999").cursor, None);
        assert_eq!(parse("v1.abc&x=1&t=2").cursor, Some(SimTime(2_000_000)));
        assert_eq!(parse("").link, "");
    }
}

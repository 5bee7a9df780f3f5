//! Simulated time. Nothing in the model reads a wall clock; time only moves when the kernel
//! pops the next event.

use std::fmt;

/// A point in simulated time, in microseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// A span of simulated time, in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimDuration(pub u64);

impl SimDuration {
    /// Zero length.
    pub const ZERO: SimDuration = SimDuration(0);
    /// From microseconds.
    pub const fn from_micros(us: u64) -> Self {
        SimDuration(us)
    }
    /// From milliseconds.
    pub const fn from_millis(ms: u64) -> Self {
        SimDuration(ms * 1_000)
    }
    /// From seconds.
    pub const fn from_secs(s: u64) -> Self {
        SimDuration(s * 1_000_000)
    }
    /// Length in microseconds.
    pub const fn as_micros(self) -> u64 {
        self.0
    }
    /// Length in whole milliseconds.
    pub const fn as_millis(self) -> u64 {
        self.0 / 1_000
    }
    /// Length in seconds as a float (for display and metrics only).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    /// Multiplies by an integer, saturating.
    pub const fn mul(self, n: u64) -> Self {
        SimDuration(self.0.saturating_mul(n))
    }
}

impl SimTime {
    /// The start of every run.
    pub const ZERO: SimTime = SimTime(0);
    /// Microseconds since the start.
    pub const fn as_micros(self) -> u64 {
        self.0
    }
    /// Seconds since the start as a float (display and metrics only).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    /// This time plus a duration, saturating at the end of time.
    pub const fn plus(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
    /// Time elapsed since `earlier` (zero if `earlier` is later).
    pub const fn since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl fmt::Display for SimDuration {
    /// Human form used in scenario files and logs: `1h2m3s`, `1.5s`, `250ms`, `0s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let us = self.0;
        if us == 0 {
            return write!(f, "0s");
        }
        if !us.is_multiple_of(1_000_000) {
            return if us.is_multiple_of(1_000) {
                write!(f, "{}ms", us / 1_000)
            } else {
                write!(f, "{us}us")
            };
        }
        let mut s = us / 1_000_000;
        let h = s / 3600;
        s %= 3600;
        let m = s / 60;
        s %= 60;
        if h > 0 {
            write!(f, "{h}h")?;
        }
        if m > 0 {
            write!(f, "{m}m")?;
        }
        if s > 0 {
            write!(f, "{s}s")?;
        }
        Ok(())
    }
}

impl fmt::Display for SimTime {
    /// `mm:ss.mmm` (or `h:mm:ss.mmm`), the form the timeline shows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0 / 1_000;
        let (h, m, s, milli) = (
            ms / 3_600_000,
            (ms / 60_000) % 60,
            (ms / 1000) % 60,
            ms % 1000,
        );
        if h > 0 {
            write!(f, "{h}:{m:02}:{s:02}.{milli:03}")
        } else {
            write!(f, "{m:02}:{s:02}.{milli:03}")
        }
    }
}

/// Error from [`parse_duration`]: says what was wrong with the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DurationParseError(pub String);

impl fmt::Display for DurationParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DurationParseError {}

/// Parses `90s`, `1m30s`, `500ms`, `1.5s`, `2h`, `10us`. A bare number is rejected so the unit
/// is never ambiguous.
pub fn parse_duration(text: &str) -> Result<SimDuration, DurationParseError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(DurationParseError(
            "empty duration; write e.g. `10s`, `500ms`, `5m`".into(),
        ));
    }
    let bad = || {
        DurationParseError(format!(
            "`{text}` is not a duration; write a number with a unit (us, ms, s, m, h), e.g. `10s`, `1m30s`, `500ms`"
        ))
    };
    let mut total: u128 = 0;
    let bytes = t.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        if start == i {
            return Err(bad());
        }
        let num = &t[start..i];
        let ustart = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        let unit_us: u128 = match &t[ustart..i] {
            "us" => 1,
            "ms" => 1_000,
            "s" => 1_000_000,
            "m" => 60_000_000,
            "h" => 3_600_000_000,
            _ => return Err(bad()),
        };
        total += scaled(num, unit_us).ok_or_else(bad)?;
        if total > u64::MAX as u128 / 2 {
            return Err(DurationParseError(format!(
                "`{text}` is too long a duration"
            )));
        }
    }
    Ok(SimDuration(total as u64))
}

/// `num` (an integer or decimal, at most 6 decimals) times `unit_us`, exactly.
fn scaled(num: &str, unit_us: u128) -> Option<u128> {
    let (int, frac) = match num.split_once('.') {
        Some((a, b)) => (a, b),
        None => (num, ""),
    };
    if int.is_empty() || frac.len() > 6 || frac.contains('.') || int.len() > 12 {
        return None;
    }
    let int: u128 = int.parse().ok()?;
    let mut value = int * unit_us;
    if !frac.is_empty() {
        let f: u128 = frac.parse().ok()?;
        let denom = 10u128.pow(frac.len() as u32);
        if !(f * unit_us).is_multiple_of(denom) {
            return None;
        }
        value += f * unit_us / denom;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_durations() {
        assert_eq!(parse_duration("90s").unwrap(), SimDuration::from_secs(90));
        assert_eq!(parse_duration("1m30s").unwrap(), SimDuration::from_secs(90));
        assert_eq!(
            parse_duration("500ms").unwrap(),
            SimDuration::from_millis(500)
        );
        assert_eq!(
            parse_duration("1.5s").unwrap(),
            SimDuration::from_millis(1500)
        );
        assert_eq!(SimDuration::from_secs(90).to_string(), "1m30s");
        assert_eq!(SimDuration::from_millis(250).to_string(), "250ms");
        for bad in ["", "10", "s", "10x", "1..5s", "-3s"] {
            assert!(parse_duration(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn display_round_trips() {
        for d in [0, 1, 999, 1_000, 1_500_000, 3_600_000_000, 3_723_000_000] {
            let d = SimDuration(d);
            assert_eq!(parse_duration(&d.to_string()).unwrap(), d, "{d}");
        }
    }
}

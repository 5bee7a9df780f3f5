//! Durations in scenario files: human text (`"10s"`, `"5m"`) in TOML, a plain integer of
//! microseconds in the compact binary form of share links.

use std::fmt;

use faultline_sim::{parse_duration, SimDuration, SimTime};
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// A duration (or an offset from the start of the run), in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Dur(pub u64);

impl Dur {
    /// From seconds.
    pub const fn secs(s: u64) -> Dur {
        Dur(s * 1_000_000)
    }
    /// From milliseconds.
    pub const fn millis(ms: u64) -> Dur {
        Dur(ms * 1_000)
    }
    /// As a kernel duration.
    pub fn to_sim(self) -> SimDuration {
        SimDuration(self.0)
    }
    /// As an instant measured from the start of the run.
    pub fn to_time(self) -> SimTime {
        SimTime(self.0)
    }
    /// Seconds, for display.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
}

impl fmt::Display for Dur {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        SimDuration(self.0).fmt(f)
    }
}

impl Serialize for Dur {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_str(&self.to_string())
        } else {
            s.serialize_u64(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for Dur {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if d.is_human_readable() {
            d.deserialize_any(DurVisitor)
        } else {
            u64::deserialize(d).map(Dur)
        }
    }
}

struct DurVisitor;

impl de::Visitor<'_> for DurVisitor {
    type Value = Dur;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a duration such as \"10s\", \"500ms\" or \"5m\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Dur, E> {
        parse_duration(v)
            .map(|d| Dur(d.0))
            .map_err(|e| E::custom(e.0))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Dur, E> {
        Err(E::custom(format!(
            "a bare number ({v}) has no unit; write e.g. \"{v}s\" or \"{v}ms\""
        )))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Dur, E> {
        Err(E::custom(format!(
            "a bare number ({v}) has no unit; write e.g. \"{v}s\""
        )))
    }
}

/// Parses a duration given on a command line (`90s`, `5m`).
pub fn parse_duration_arg(text: &str) -> Result<Dur, String> {
    parse_duration(text).map(|d| Dur(d.0)).map_err(|e| e.0)
}

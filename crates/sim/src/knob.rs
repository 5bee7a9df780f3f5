//! A knob: one tunable parameter of a model, described once as plain data (after TigerBeetle's
//! `PacketSimulatorOptions`): its scenario key, unit, default, allowed range and a doc line.
//!
//! The crate that owns the mechanism defines its knobs as constants (`faultline_tikv::knobs`,
//! `faultline_cdc::knobs`); the model's config defaults read them, and the scenario layer
//! derives the file format's fields, their validation and the format reference from them.
//! Values are stored as `u64`: microseconds for durations, the number itself for counts,
//! 0/1 for flags, so one `const` type covers them all.

use crate::time::SimDuration;

/// What a knob's raw `u64` value means, and how it is written in scenario files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnobUnit {
    /// A duration in microseconds, written as text with a unit (`"10s"`).
    Duration,
    /// A plain integer count (stores, ticks, partitions, rows, per-second rates).
    Count,
    /// A boolean, 0 or 1, written `true` / `false`.
    Flag,
}

impl KnobUnit {
    /// How the unit reads in the format reference.
    pub fn describe(self) -> &'static str {
        match self {
            KnobUnit::Duration => "duration",
            KnobUnit::Count => "integer",
            KnobUnit::Flag => "bool",
        }
    }
}

/// One knob. Build them with [`Knob::duration`], [`Knob::count`] or [`Knob::flag`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knob {
    /// Dotted scenario key, e.g. `hibernate.unreachable_backoff`.
    pub key: &'static str,
    /// What the raw value means.
    pub unit: KnobUnit,
    /// Default, raw.
    pub default: u64,
    /// Smallest allowed value, raw.
    pub min: u64,
    /// Largest allowed value, raw.
    pub max: u64,
    /// One line for the format reference: what it does and, where it mirrors one, the
    /// upstream setting's name and default.
    pub doc: &'static str,
}

impl Knob {
    /// A duration knob; `min..=max` is the allowed range.
    pub const fn duration(
        key: &'static str,
        default: SimDuration,
        min: SimDuration,
        max: SimDuration,
        doc: &'static str,
    ) -> Knob {
        Knob::checked(key, KnobUnit::Duration, default.0, min.0, max.0, doc)
    }

    /// A count knob; `min..=max` is the allowed range.
    pub const fn count(
        key: &'static str,
        default: u32,
        min: u32,
        max: u32,
        doc: &'static str,
    ) -> Knob {
        Knob::checked(
            key,
            KnobUnit::Count,
            default as u64,
            min as u64,
            max as u64,
            doc,
        )
    }

    /// An on/off knob.
    pub const fn flag(key: &'static str, default: bool, doc: &'static str) -> Knob {
        Knob::checked(key, KnobUnit::Flag, default as u64, 0, 1, doc)
    }

    const fn checked(
        key: &'static str,
        unit: KnobUnit,
        default: u64,
        min: u64,
        max: u64,
        doc: &'static str,
    ) -> Knob {
        // Evaluated at compile time for every `const` knob: a table whose default lies outside
        // its own range does not build.
        assert!(
            min <= default && default <= max,
            "knob default outside its range"
        );
        Knob {
            key,
            unit,
            default,
            min,
            max,
            doc,
        }
    }

    /// The default as a duration (meaningful for [`KnobUnit::Duration`] knobs).
    pub const fn default_duration(&self) -> SimDuration {
        SimDuration(self.default)
    }

    /// The default as a count. Counts are built from `u32`, so this never truncates.
    pub const fn default_count(&self) -> u32 {
        self.default as u32
    }

    /// The default as a flag.
    pub const fn default_flag(&self) -> bool {
        self.default != 0
    }

    /// The largest allowed value as a count.
    pub const fn max_count(&self) -> u32 {
        self.max as u32
    }

    /// A raw value as written in a scenario file: `10s`, `16`, `true`.
    pub fn format_value(&self, raw: u64) -> String {
        match self.unit {
            KnobUnit::Duration => SimDuration(raw).to_string(),
            KnobUnit::Count => raw.to_string(),
            KnobUnit::Flag => (raw != 0).to_string(),
        }
    }

    /// The allowed range as the format reference and error messages write it: `1..=16`,
    /// `10ms..=24h`.
    pub fn range_text(&self) -> String {
        if self.unit == KnobUnit::Flag {
            return "true or false".to_string();
        }
        format!(
            "{}..={}",
            self.format_value(self.min),
            self.format_value(self.max)
        )
    }

    /// Checks a raw value against the range; the error says the value and what is allowed.
    pub fn check(&self, raw: u64) -> Result<(), String> {
        if raw < self.min || raw > self.max {
            return Err(self.out_of_range(&self.format_value(raw)));
        }
        Ok(())
    }

    /// The message for a value outside the range, given as the user wrote it (it may not
    /// fit in a `u64`, e.g. `-5`).
    pub fn out_of_range(&self, written: &str) -> String {
        format!("{written} is out of range; allowed {}", self.range_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICK: Knob = Knob::duration(
        "raft.base_tick",
        SimDuration::from_secs(1),
        SimDuration::from_millis(10),
        SimDuration::from_secs(10),
        "tick",
    );

    #[test]
    fn checks_and_formats_by_unit() {
        assert_eq!(TICK.check(1_000_000), Ok(()));
        assert_eq!(
            TICK.check(SimDuration::from_secs(11).0),
            Err("11s is out of range; allowed 10ms..=10s".to_string())
        );
        let stores = Knob::count("topology.stores", 3, 1, 16, "stores");
        assert_eq!(
            stores.check(0),
            Err("0 is out of range; allowed 1..=16".to_string())
        );
        assert_eq!(stores.default_count(), 3);
        assert_eq!(Knob::flag("x.y", true, "on").range_text(), "true or false");
    }
}

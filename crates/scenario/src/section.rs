//! `knob_section!`: one `[section]` of the scenario format generated from knob rows, so each
//! knob's definition (`faultline_tikv::knobs`, `faultline_cdc::knobs`,
//! `faultline_sim::network_knobs`) is the only place its default and range are written.
//!
//! A row `field: Type = knob(KNOB) => cfg.path` gives the section:
//! - the field, serialised under its name (files) or by position (share links);
//! - its default, `KNOB.default`;
//! - its range check, naming `KNOB.key` and the allowed range;
//! - its copy into the model's config (`cdc.kafka.partitions = ...`);
//! - its line in the format reference ([`crate::reference`]).
//!
//! A row `field: Type = plain(default)` is a field that is not a knob (an enum, an optional
//! time): it only gets the serde plumbing and its default.
//!
//! `Deserialize` is written out rather than derived so that a count that does not fit (`-5`,
//! `1000000000000`) is reported with the knob's key and range, and so that several bad values
//! are reported together (see [`crate::deferred`]). It accepts exactly what the derive with
//! `deny_unknown_fields, default` accepted, in TOML and in the share links' binary form.

use std::fmt;

use faultline_cdc::CdcConfig;
use faultline_sim::{Knob, SimDuration};
use faultline_tikv::TikvConfig;
use serde::de::{self, DeserializeSeed, MapAccess};

use crate::dur::Dur;

/// The two model configs a scenario's sections are copied into.
pub struct ModelConfigs {
    /// TiKV/PD.
    pub tikv: TikvConfig,
    /// TiCDC and the workload.
    pub cdc: CdcConfig,
}

/// A type a knob row can hold: the knob's raw `u64` converts to and from it.
pub trait KnobValue: Sized {
    /// The value in the knob's raw unit.
    fn to_raw(&self) -> u64;
    /// The value from the knob's raw unit.
    fn from_raw(raw: u64) -> Self;
    /// Reads the value of the current map entry.
    fn read<'de, A: MapAccess<'de>>(map: &mut A, knob: &Knob) -> Result<Self, A::Error>;
}

impl KnobValue for u32 {
    fn to_raw(&self) -> u64 {
        u64::from(*self)
    }
    fn from_raw(raw: u64) -> Self {
        u32::try_from(raw).unwrap_or(u32::MAX)
    }
    fn read<'de, A: MapAccess<'de>>(map: &mut A, knob: &Knob) -> Result<Self, A::Error> {
        map.next_value_seed(CountSeed(knob))
    }
}

impl KnobValue for Dur {
    fn to_raw(&self) -> u64 {
        self.0
    }
    fn from_raw(raw: u64) -> Self {
        Dur(raw)
    }
    fn read<'de, A: MapAccess<'de>>(map: &mut A, _: &Knob) -> Result<Self, A::Error> {
        map.next_value()
    }
}

impl KnobValue for bool {
    fn to_raw(&self) -> u64 {
        u64::from(*self)
    }
    fn from_raw(raw: u64) -> Self {
        raw != 0
    }
    fn read<'de, A: MapAccess<'de>>(map: &mut A, _: &Knob) -> Result<Self, A::Error> {
        map.next_value()
    }
}

/// Reads an integer of any size and sign, so one that does not fit a `u32` is reported
/// against the knob's range instead of as "expected u32".
struct CountSeed<'k>(&'k Knob);

impl<'de> DeserializeSeed<'de> for CountSeed<'_> {
    type Value = u32;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<u32, D::Error> {
        d.deserialize_i64(self)
    }
}

impl de::Visitor<'_> for CountSeed<'_> {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an integer in {}", self.0.range_text())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u32, E> {
        u32::try_from(v).map_err(|_| E::custom(self.0.out_of_range(&v.to_string())))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u32, E> {
        u32::try_from(v).map_err(|_| E::custom(self.0.out_of_range(&v.to_string())))
    }
}

/// Reads a section key, rejecting an unknown one while the key is being read, so the error
/// carries the key's position (as the derived impl's did), not the section's.
pub struct KeySeed(pub &'static [&'static str]);

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = &'static str;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<&'static str, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl de::Visitor<'_> for KeySeed {
    type Value = &'static str;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<&'static str, E> {
        match self.0.iter().find(|name| **name == v) {
            Some(name) => Ok(name),
            None => Err(E::unknown_field(v, self.0)),
        }
    }
}

/// Converts a format value into the model config's type.
pub trait IntoModel<T> {
    /// The model's value.
    fn into_model(self) -> T;
}

impl<T> IntoModel<T> for T {
    fn into_model(self) -> T {
        self
    }
}

impl IntoModel<SimDuration> for Dur {
    fn into_model(self) -> SimDuration {
        self.to_sim()
    }
}

impl IntoModel<Option<SimDuration>> for Option<Dur> {
    fn into_model(self) -> Option<SimDuration> {
        self.map(Dur::to_sim)
    }
}

/// One generated row's default. Internal to [`knob_section!`].
macro_rules! row_default {
    (knob $knob:expr) => {
        $crate::section::KnobValue::from_raw($knob.default)
    };
    (plain $default:expr) => {
        $default
    };
}

/// Reads one row's value into `$out`, deferring a knob's value error. Internal to
/// [`knob_section!`].
macro_rules! row_read {
    (knob $knob:expr, $map:ident, $out:expr) => {
        match $crate::section::KnobValue::read(&mut $map, &$knob) {
            Ok(v) => $out = v,
            Err(e) => $crate::deferred::defer($knob.key, e)?,
        }
    };
    (plain $default:expr, $map:ident, $out:expr) => {
        $out = $map.next_value()?
    };
}

/// One row's range check. Internal to [`knob_section!`].
macro_rules! row_check {
    (knob $knob:expr, $p:ident, $value:expr) => {
        if let Err(m) = $knob.check($crate::section::KnobValue::to_raw(&$value)) {
            $p.add($knob.key, m);
        }
    };
    (plain $default:expr, $p:ident, $value:expr) => {};
}

/// One row's knob, for the reference. Internal to [`knob_section!`].
macro_rules! row_knob {
    (knob $knob:expr) => {
        Some($knob)
    };
    (plain $default:expr) => {
        None
    };
}

/// Generates a format section from knob rows; see the module doc.
macro_rules! knob_section {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty = $how:ident ( $src:expr ) $(=> $tgt:ident $(. $path:ident)+)?
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )+
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $crate::section::row_default!($how $src), )+ }
            }
        }

        impl $name {
            /// The section's keys, in file order, with the knob behind each (None for a
            /// field that is not a knob).
            pub const FIELDS: &'static [(&'static str, Option<faultline_sim::Knob>)] =
                &[$( (stringify!($field), $crate::section::row_knob!($how $src)), )+];

            /// Checks every knob's range, naming the knob's key.
            pub(crate) fn check_ranges(&self, p: &mut $crate::error::Problems) {
                $( $crate::section::row_check!($how $src, p, self.$field); )+
            }

            /// Copies the knobs into the model configs.
            #[allow(unused_variables)]
            pub fn apply(&self, cfg: &mut $crate::section::ModelConfigs) {
                $($( cfg.$tgt $(.$path)+ =
                    $crate::section::IntoModel::into_model(self.$field.clone()); )?)+
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                const NAMES: &[&str] = &[$(stringify!($field)),+];
                struct Visitor;
                impl<'de> serde::de::Visitor<'de> for Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str(concat!("struct ", stringify!($name)))
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$name, A::Error> {
                        let mut out = $name::default();
                        let keys = || $crate::section::KeySeed(NAMES);
                        while let Some(key) = map.next_key_seed(keys())? {
                            match key {
                                $( stringify!($field) =>
                                    $crate::section::row_read!($how $src, map, out.$field), )+
                                _ => unreachable!("KeySeed returns one of NAMES"),
                            }
                        }
                        Ok(out)
                    }
                    // The share links' binary form: fields by position; missing trailing
                    // fields keep their defaults, as `#[serde(default)]` did.
                    fn visit_seq<A: serde::de::SeqAccess<'de>>(
                        self,
                        mut seq: A,
                    ) -> Result<$name, A::Error> {
                        let mut out = $name::default();
                        $( match seq.next_element()? {
                            Some(v) => out.$field = v,
                            None => return Ok(out),
                        } )+
                        Ok(out)
                    }
                }
                d.deserialize_struct(stringify!($name), NAMES, Visitor)
            }
        }
    };
}

pub(crate) use {knob_section, row_check, row_default, row_knob, row_read};

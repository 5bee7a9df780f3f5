//! Deserialising the scenario format's field-less enums through one shared visitor.
//!
//! `#[derive(Deserialize)]` gives every enum its own visitor, so each enum instantiates each
//! deserializer's enum code again (toml's is about 1.3 KB of wasm per enum). Here every enum
//! maps to a variant index through [`variant_index`], generic only over the deserializer; the
//! per-enum part is a table lookup. Messages match the derived ones word for word.
//! `Serialize` stays derived: links carry the variant index, files the name.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, Unexpected, VariantAccess};

/// Reads a unit variant of enum `name` and returns its index in `variants`.
pub(crate) fn variant_index<'de, D: Deserializer<'de>>(
    d: D,
    name: &'static str,
    variants: &'static [&'static str],
) -> Result<usize, D::Error> {
    d.deserialize_enum(name, variants, EnumVisitor { name, variants })
}

struct EnumVisitor {
    name: &'static str,
    variants: &'static [&'static str],
}

impl<'de> de::Visitor<'de> for EnumVisitor {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "enum {}", self.name)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<usize, A::Error> {
        let (index, variant) = data.variant_seed(Variant(self.variants))?;
        variant.unit_variant()?;
        Ok(index)
    }
}

/// The variant identifier: a name in text formats, an index in the binary form.
struct Variant(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for Variant {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> de::Visitor<'de> for Variant {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<usize, E> {
        match usize::try_from(v) {
            Ok(i) if i < self.0.len() => Ok(i),
            _ => Err(E::invalid_value(
                Unexpected::Unsigned(v),
                &IndexBelow(self.0.len()),
            )),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|name| *name == v)
            .ok_or_else(|| E::unknown_variant(v, self.0))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<usize, E> {
        match self.0.iter().position(|name| name.as_bytes() == v) {
            Some(i) => Ok(i),
            None => Err(E::unknown_variant(&String::from_utf8_lossy(v), self.0)),
        }
    }
}

/// "variant index 0 <= i < N", as serde's derive words it.
struct IndexBelow(usize);

impl de::Expected for IndexBelow {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "variant index 0 <= i < {}", self.0)
    }
}

/// `impl Deserialize` for a field-less enum: `unit_enum_deserialize!(Agg { Last = "last", .. })`
/// with the names the enum's serde attributes give (a test checks they agree).
macro_rules! unit_enum_deserialize {
    ($ty:ident { $($variant:ident = $name:literal),+ $(,)? }) => {
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                const ALL: &[$ty] = &[$($ty::$variant),+];
                crate::unit_enum::variant_index(d, stringify!($ty), &[$($name),+]).map(|i| ALL[i])
            }
        }
    };
}

pub(crate) use unit_enum_deserialize;

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use crate::format::*;

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Field<T> {
        #[allow(dead_code)]
        v: T,
    }

    /// Every variant reads back from its serialised name (files) and index (links).
    fn round_trips<'a, T>(all: impl IntoIterator<Item = &'a T>)
    where
        T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug + 'a,
    {
        #[derive(Serialize, Deserialize)]
        struct Wrap<T> {
            v: T,
        }
        for x in all {
            let text = toml::to_string(&Wrap { v: x }).unwrap();
            assert_eq!(&toml::from_str::<Wrap<T>>(&text).unwrap().v, x, "{text}");
            let bytes = postcard::to_allocvec(&Wrap { v: x }).unwrap();
            assert_eq!(&postcard::from_bytes::<Wrap<T>>(&bytes).unwrap().v, x);
        }
    }

    #[test]
    fn names_and_indices_match_serialize() {
        round_trips(&[KafkaProtocol::OpenProtocol, KafkaProtocol::CanalJson]);
        round_trips(&[SinkKind::Mysql, SinkKind::Kafka]);
        round_trips(&[
            ProcessorCloseOnSessionLoss::Deferred,
            ProcessorCloseOnSessionLoss::Immediate,
        ]);
        round_trips(&[
            SinkClose::Sync,
            SinkClose::Async,
            SinkClose::AsyncClosingState,
        ]);
        round_trips(&[KvClientEvict::OnWorkerExit, KvClientEvict::AfterJoin]);
        round_trips(&[
            UnreachableBroadcast::EveryFailedAttempt,
            UnreachableBroadcast::OncePerDisconnect,
            UnreachableBroadcast::RepeatIfNewMessages,
        ]);
        round_trips(&[
            WorkloadKind::OltpUpdateNonIndex,
            WorkloadKind::OltpWriteOnly,
            WorkloadKind::Insert,
        ]);
        round_trips(&FaultAction::ALL);
        round_trips(&[Agg::Last, Agg::Max, Agg::Min, Agg::All, Agg::Any]);
        round_trips(&[Cmp::Gt, Cmp::Ge, Cmp::Lt, Cmp::Le, Cmp::Eq]);
    }

    /// What `#[derive(Deserialize)]` did before, to compare messages with.
    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "snake_case")]
    #[allow(dead_code)]
    enum Derived {
        OnWorkerExit,
        AfterJoin,
    }

    #[test]
    fn errors_read_as_the_derived_ones() {
        fn toml_err<T: for<'de> Deserialize<'de>>(v: &str) -> String {
            match toml::from_str::<Field<T>>(&format!("v = {v}")) {
                Ok(_) => String::new(),
                Err(e) => e.message().to_string(),
            }
        }
        fn link_err<T: for<'de> Deserialize<'de>>(index: u8) -> String {
            match postcard::from_bytes::<Field<T>>(&[index]) {
                Ok(_) => String::new(),
                Err(e) => e.to_string(),
            }
        }
        for v in [
            "\"after_join\"",
            "\"sometimes\"",
            "3",
            "{ after_join = 1 }",
            "[1]",
        ] {
            let ours = toml_err::<KvClientEvict>(v);
            assert_eq!(ours, toml_err::<Derived>(v), "{v}");
        }
        assert!(toml_err::<KvClientEvict>("\"sometimes\"")
            .contains("unknown variant `sometimes`, expected `on_worker_exit` or `after_join`"));
        for index in [0, 1, 2, 200] {
            assert_eq!(link_err::<KvClientEvict>(index), link_err::<Derived>(index));
        }
    }
}

//! Link format v2: a self-describing payload (CBOR: every field tagged with its name), so a
//! field added later takes its default in an older link, and a newer link names what this
//! build does not know instead of failing on a checksum.
//!
//! The payload is a map `{model, scenario, record?}`: the model version that wrote it, the
//! scenario, and optionally what the run showed when it was shared ([`RunRecord`]).

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use super::record::{RecordWire, RunRecord};
use super::{LinkError, SharedLink};
use crate::format::Scenario;
use crate::model_version::MODEL_VERSION;

#[derive(Serialize)]
struct EnvelopeOut {
    model: u32,
    scenario: ciborium::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<RecordWire>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnvelopeIn {
    model: u32,
    scenario: Scenario,
    #[serde(default)]
    record: Option<RecordWire>,
}

/// Only the model version: read when the whole envelope does not decode, to tell a link from a
/// newer model (a message naming the field) from a corrupted one.
#[derive(Deserialize)]
struct Head {
    model: u32,
}

/// The v2 payload bytes of a link.
pub(crate) fn to_bytes(scenario: &Scenario, record: Option<&RunRecord>) -> Vec<u8> {
    let env = EnvelopeOut {
        model: MODEL_VERSION,
        scenario: super::prune::pruned_value(scenario),
        record: record.map(RecordWire::from),
    };
    let mut out = Vec::new();
    ciborium::into_writer(&env, &mut out).expect("writing to a Vec cannot fail");
    out
}

/// Serialises any scenario-shaped value into the v2 scenario encoding (v1 layouts use it to
/// become a current [`Scenario`], taking defaults for the fields they lack).
pub(crate) fn scenario_value_bytes<T: Serialize>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::into_writer(value, &mut out).expect("writing to a Vec cannot fail");
    out
}

/// Decodes a scenario from [`scenario_value_bytes`].
pub(crate) fn scenario_from_bytes(bytes: &[u8]) -> Result<Scenario, String> {
    let mut reader = bytes;
    let Tracked(s) = ciborium::from_reader::<Tracked<Scenario>, _>(&mut reader)
        .map_err(|e| PathFailure::from_cbor(&e).to_string())?;
    Ok(s)
}

/// Decodes a v2 payload.
pub(crate) fn from_bytes(bytes: &[u8]) -> Result<SharedLink, LinkError> {
    let mut reader = bytes;
    let env = match ciborium::from_reader::<Tracked<EnvelopeIn>, _>(&mut reader) {
        Ok(Tracked(env)) => env,
        Err(e) => return Err(explain_failure(bytes, PathFailure::from_cbor(&e))),
    };
    if !reader.is_empty() {
        return Err(LinkError::BadScenario(format!(
            "{} unexpected bytes after the scenario",
            reader.len()
        )));
    }
    let record = env
        .record
        .map(RecordWire::into_record)
        .transpose()
        .map_err(LinkError::BadScenario)?;
    Ok(SharedLink {
        scenario: env.scenario,
        model_version: Some(env.model),
        record,
    })
}

/// A link from a newer model that does not decode here names the field it uses; anything else
/// that does not decode is corruption.
fn explain_failure(bytes: &[u8], failure: PathFailure) -> LinkError {
    match ciborium::from_reader::<Head, _>(bytes) {
        Ok(head) if head.model > MODEL_VERSION => LinkError::NewerModel {
            what: failure.what(),
            link_model: head.model,
        },
        _ => LinkError::BadScenario(failure.to_string()),
    }
}

/// Where decoding failed (`scenario.faults[3].action`) and serde's message.
struct PathFailure {
    path: String,
    message: String,
}

/// Separates the path from the message inside the one string a CBOR error can carry.
const PATH_SEPARATOR: char = '\u{1f}';

impl PathFailure {
    fn from_cbor<E: std::fmt::Debug>(e: &ciborium::de::Error<E>) -> PathFailure {
        let text = match e {
            ciborium::de::Error::Semantic(_, msg) => msg.clone(),
            other => bare_message(&format!("{other:?}")),
        };
        match text.split_once(PATH_SEPARATOR) {
            Some((path, message)) => PathFailure {
                path: path.strip_prefix("scenario.").unwrap_or(path).to_string(),
                message: message.to_string(),
            },
            None => PathFailure {
                path: String::new(),
                message: text,
            },
        }
    }

    /// `faults[3].action = split` for an unknown value, `cdc.new_knob` for an unknown field
    /// (the path already ends in the field's name).
    fn what(&self) -> String {
        let quoted = self.message.split('`').nth(1);
        match quoted {
            Some(v) if self.message.starts_with("unknown variant") => {
                format!("{} = {v}", self.path)
            }
            _ if self.message.starts_with("unknown field") => self.path.clone(),
            _ => format!("{} ({})", self.path, self.message),
        }
    }
}

/// ciborium's errors display as their `Debug` form, even inside the path tracking: keeps the
/// `msg` of `Semantic(None, "msg")`, and says what the others mean for the link instead of
/// naming the decoder's enum (`Io(Error { kind: UnexpectedEof, .. })`, `Syntax(12)`).
fn bare_message(text: &str) -> String {
    if text.starts_with("Io(") {
        return "it ends in the middle of the scenario: part of the link is missing".into();
    }
    if let Some(at) = text
        .strip_prefix("Syntax(")
        .and_then(|t| t.strip_suffix(')'))
    {
        return format!("its data is damaged at byte {at}: the link was edited");
    }
    if text.starts_with("RecursionLimitExceeded") {
        return "it nests values deeper than any scenario: the link was edited".into();
    }
    match (text.find('"'), text.rfind('"')) {
        (Some(a), Some(b)) if text.starts_with("Semantic(") && b > a => {
            text[a + 1..b].replace("\\\"", "\"").replace("\\\\", "\\")
        }
        _ => text.to_string(),
    }
}

impl std::fmt::Display for PathFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.path.as_str() {
            "" | "." => write!(f, "{}", self.message),
            p => write!(f, "at `{p}`: {}", self.message),
        }
    }
}

/// Deserialises `T` recording the path of a failure (ciborium's deserializer is private, so the
/// tracking wraps the target type and carries the path inside the error message).
struct Tracked<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Tracked<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_path_to_error::deserialize(d)
            .map(Tracked)
            .map_err(|e| {
                let message = bare_message(&e.inner().to_string());
                de::Error::custom(format!("{}{PATH_SEPARATOR}{message}", e.path()))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_or_damaged_payloads_are_described_without_the_decoders_words() {
        let whole = to_bytes(&crate::default_scenario(), None);
        let cut = &whole[..whole.len() / 2];
        // 0x1c is a reserved CBOR header: no value starts with it.
        let damaged = [&[0xa3, 0x1c][..], &whole[2..]].concat();
        for (bytes, says) in [
            (cut, "part of the link is missing"),
            (&damaged[..], "damaged"),
        ] {
            let text = from_bytes(bytes).unwrap_err().to_string();
            assert!(text.contains(says), "{text}");
            for word in ["Io(", "Syntax(", "UnexpectedEof"] {
                assert!(!text.contains(word), "{text}");
            }
        }
    }
}

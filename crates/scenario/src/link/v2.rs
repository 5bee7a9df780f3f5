//! Link format v2: a self-describing payload (CBOR: every field tagged with its name), so a
//! field added later takes its default in an older link, and a newer link names what this
//! build does not know instead of failing on a checksum.
//!
//! The payload is a map `{model, scenario, record?}`: the model version that wrote it, the
//! scenario, and optionally what the run showed when it was shared ([`RunRecord`]).

use serde::{Deserialize, Serialize};

use super::cbor::{PathFailure, Tracked};
use super::error::LinkError;
use super::prune::pruned_value;
use super::record::{RecordWire, RunRecord};
use super::shared::SharedLink;
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
        scenario: pruned_value(scenario),
        record: record.map(RecordWire::from),
    };
    let mut out = Vec::new();
    ciborium::into_writer(&env, &mut out).expect("writing to a Vec cannot fail");
    out
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

#[cfg(test)]
mod decode_failure_tests {
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

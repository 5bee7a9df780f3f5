//! Reading link format v1 (postcard, positional). This build no longer writes v1, but every
//! v1 link ever shared keeps opening: the payload is tried against each historical layout,
//! newest first, and the first that consumes every byte and validates is the scenario.

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::cbor;
use super::error::LinkError;
use super::v1_layouts::{ScenarioL0, ScenarioL1, ScenarioL2, ScenarioL3};
use crate::format::Scenario;
use crate::validate::validate;

/// Decodes a v1 payload into a current scenario.
pub(crate) fn scenario_from_bytes(bytes: &[u8]) -> Result<Scenario, LinkError> {
    // The newest layout's error is the one reported: it is what a corrupted recent link hit.
    let newest = try_layout::<ScenarioL3>(bytes);
    let err = match newest {
        Ok(s) => return Ok(s),
        Err(e) => e,
    };
    try_layout::<ScenarioL2>(bytes)
        .or_else(|_| try_layout::<ScenarioL1>(bytes))
        .or_else(|_| try_layout::<ScenarioL0>(bytes))
        .map_err(|_| err)
}

/// Why the bytes do not decode, in words about the link: postcard's own text ("Found an Option
/// discriminant that wasn't 0 or 1") names its wire format, which a reader cannot act on.
fn postcard_failure(e: &postcard::Error) -> String {
    match e {
        postcard::Error::DeserializeUnexpectedEnd => {
            "it ends in the middle of the scenario: part of the link is missing".into()
        }
        _ => "a value in it is not one a scenario can hold: the link was edited or damaged".into(),
    }
}

fn try_layout<L: DeserializeOwned + Serialize>(bytes: &[u8]) -> Result<Scenario, LinkError> {
    let (layout, rest): (L, &[u8]) = postcard::take_from_bytes(bytes)
        .map_err(|e| LinkError::BadScenario(postcard_failure(&e)))?;
    if !rest.is_empty() {
        return Err(LinkError::BadScenario(format!(
            "{} unexpected bytes after the scenario",
            rest.len()
        )));
    }
    // Through the self-describing form, so fields this layout lacks take today's defaults.
    let scenario = cbor::scenario_from_bytes(&cbor::scenario_value_bytes(&layout))
        .map_err(LinkError::BadScenario)?;
    // A payload of one layout can happen to parse as another; validation rejects most such
    // misreadings, so a layout only wins with a valid scenario.
    validate("link", &scenario).map_err(|e| LinkError::Invalid(e.to_string()))?;
    Ok(scenario)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undecodable_bytes_are_described_without_the_decoders_words() {
        // A one-letter name, an empty description, then 5 where `issue`'s Option tag (0 or 1)
        // belongs; and the same cut short.
        for (bytes, says) in [
            (&[1, b'a', 0, 5][..], "the link was edited or damaged"),
            (&[1, b'a', 0][..], "part of the link is missing"),
        ] {
            let text = scenario_from_bytes(bytes).unwrap_err().to_string();
            assert!(text.contains(says), "{text}");
            for word in ["discriminant", "Found", "Deserialize", "Hit the end"] {
                assert!(!text.contains(word), "{text}");
            }
        }
    }
}

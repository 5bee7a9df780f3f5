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

fn try_layout<L: DeserializeOwned + Serialize>(bytes: &[u8]) -> Result<Scenario, LinkError> {
    let (layout, rest): (L, &[u8]) =
        postcard::take_from_bytes(bytes).map_err(|e| LinkError::BadScenario(e.to_string()))?;
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

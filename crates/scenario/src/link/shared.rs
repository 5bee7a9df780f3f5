//! What a decoded link carries: the scenario, the model version that wrote it, and what its run
//! showed.

use super::record::RunRecord;
use crate::format::Scenario;

/// Everything a link carries.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedLink {
    /// The scenario.
    pub scenario: Scenario,
    /// The model version that wrote the link (`None` for v1 links, which did not record it).
    pub model_version: Option<u32>,
    /// What the run showed when the link was copied, for links that check themselves.
    pub record: Option<RunRecord>,
}

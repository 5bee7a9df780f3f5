//! The engine's answer to "where do these two runs first differ": the same lockstep search as
//! `faultline diff` (faultline_scenario::diff), run in the worker so the page stays live.

use faultline_scenario::{decode_link, first_difference};
use serde::{Deserialize, Serialize};

/// Where the runs of two links part, as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DifferenceView {
    /// Run A's link (the primary run).
    pub a: String,
    /// Run B's link (the compare twin).
    pub b: String,
    /// When the first differing event happens (µs); None when the runs never differ.
    pub at_us: Option<u64>,
    /// What differs, in the CLI's words.
    pub lines: Vec<String>,
}

/// Runs both links to their ends and reports the first difference (or why it could not).
pub fn answer(a: &str, b: &str) -> DifferenceView {
    let (at_us, lines) = match search(a, b) {
        Ok(Some(d)) => (Some(d.time().as_micros()), d.describe()),
        Ok(None) => (
            None,
            vec![
                "Same run: A and B have the same events, log lines and metrics to the end"
                    .to_string(),
            ],
        ),
        Err(e) => (None, vec![format!("The runs could not be compared: {e}")]),
    };
    DifferenceView {
        a: a.to_string(),
        b: b.to_string(),
        at_us,
        lines,
    }
}

fn search(a: &str, b: &str) -> Result<Option<faultline_scenario::FirstDifference>, String> {
    let sa = decode_link(a).map_err(|e| e.to_string())?;
    let sb = decode_link(b).map_err(|e| e.to_string())?;
    first_difference(&sa, &sb).map_err(|e| e.to_string())
}

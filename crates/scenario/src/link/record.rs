//! What a self-checking link remembers of the run it was shared from.

use faultline_sim::SimTime;
use serde::{Deserialize, Serialize};

use crate::expect::Verdict;

/// The run as it was when the link was copied: where the cursor stood, the trace hash there and
/// each expectation's verdict there. The model version travels beside it in the link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunRecord {
    /// The cursor (simulated time) the hash and verdicts belong to.
    pub cursor: SimTime,
    /// The trace hash at the cursor.
    pub trace_hash: u64,
    /// Each expectation's verdict at the cursor, in `expect` order.
    pub verdicts: Vec<Verdict>,
}

/// The record's wire form: verdicts as one letter each (`p` pass, `f` fail, `-` pending), so a
/// dozen expectations cost a dozen bytes.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecordWire {
    at: u64,
    hash: u64,
    verdicts: String,
}

impl From<&RunRecord> for RecordWire {
    fn from(r: &RunRecord) -> RecordWire {
        RecordWire {
            at: r.cursor.0,
            hash: r.trace_hash,
            verdicts: r.verdicts.iter().map(|v| verdict_letter(*v)).collect(),
        }
    }
}

impl RecordWire {
    pub(crate) fn into_record(self) -> Result<RunRecord, String> {
        let verdicts = self
            .verdicts
            .chars()
            .enumerate()
            .map(|(i, c)| {
                letter_verdict(c).ok_or_else(|| {
                    format!("record.verdicts[{i}] is `{c}`; allowed are p (pass), f (fail), - (pending)")
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(RunRecord {
            cursor: SimTime(self.at),
            trace_hash: self.hash,
            verdicts,
        })
    }
}

fn verdict_letter(v: Verdict) -> char {
    match v {
        Verdict::Pass => 'p',
        Verdict::Fail => 'f',
        Verdict::Pending => '-',
    }
}

fn letter_verdict(c: char) -> Option<Verdict> {
    match c {
        'p' => Some(Verdict::Pass),
        'f' => Some(Verdict::Fail),
        '-' => Some(Verdict::Pending),
        _ => None,
    }
}

//! Links that check themselves: record what a run showed at the cursor, and later replay the
//! link and say whether it reproduced. The CLI (`faultline verify`) and the page print the same
//! words, from [`Verification::headline`] and [`Verification::details`].

use faultline_sim::{format_hash, SimTime};

use crate::error::ScenarioError;
use crate::expect::Verdict;
use crate::format::Scenario;
use crate::link::{encode_shared, RunRecord, SharedLink};
use crate::model_version::MODEL_VERSION;
use crate::run::Run;

/// What the run shows now, at its current time, in the form a link records.
pub fn record_run(run: &Run) -> RunRecord {
    RunRecord {
        cursor: run.now(),
        trace_hash: run.trace_hash(),
        verdicts: run.evaluate().iter().map(|r| r.verdict).collect(),
    }
}

/// Runs `scenario` to `cursor` (capped at its end) and returns a link that records the run.
pub fn self_checking_link(scenario: &Scenario, cursor: SimTime) -> Result<String, ScenarioError> {
    let mut run = Run::new(scenario)?;
    run.run_until(cursor);
    Ok(encode_shared(scenario, Some(&record_run(&run))))
}

/// Why a link could not be verified.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The link carries no run record (a v1 link, or one copied without a run).
    #[error("this link records no run to compare with (it was not copied from a run); open it and copy the link again")]
    NoRecord,
    /// The record's cursor lies past the end of the run, where no run ever stood: the link
    /// was edited, or its scenario's duration was.
    #[error("this link records the run at {cursor}, past the end of its run at {end}; the link was edited, so it cannot be verified")]
    CursorOutsideRun {
        /// The recorded cursor.
        cursor: SimTime,
        /// The end of the scenario's run.
        end: SimTime,
    },
    /// The scenario does not build.
    #[error("{0}")]
    Scenario(#[from] ScenarioError),
}

/// One expectation whose verdict at the cursor is not the one the link recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerdictChange {
    /// Index in `expect`.
    pub index: usize,
    /// Its name or description.
    pub name: String,
    /// Recorded in the link (`None`: the link recorded fewer expectations).
    pub shared: Option<Verdict>,
    /// Now (`None`: the scenario has fewer expectations than the link recorded).
    pub now: Option<Verdict>,
}

/// The outcome of replaying a self-checking link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// The model version the link was shared with.
    pub shared_model: u32,
    /// Where the record was taken.
    pub cursor: SimTime,
    /// The recorded trace hash.
    pub shared_hash: u64,
    /// The trace hash of this build's replay at the cursor.
    pub this_hash: u64,
    /// Expectations whose verdicts differ.
    pub verdict_changes: Vec<VerdictChange>,
}

impl Verification {
    /// True when the hash and every verdict are equal. Equal hashes with different verdicts
    /// is a bug to report, never a pass.
    pub fn reproduced(&self) -> bool {
        self.shared_hash == self.this_hash && self.verdict_changes.is_empty()
    }

    /// The one line the page's banner and `faultline verify` lead with.
    pub fn headline(&self) -> String {
        if self.reproduced() {
            "Reproduced: the same run as when it was shared".to_string()
        } else {
            format!(
                "Different run: shared with model {}, this is model {MODEL_VERSION}",
                self.shared_model
            )
        }
    }

    /// What differs, one line each (empty when reproduced).
    pub fn details(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.shared_hash != self.this_hash {
            out.push(format!(
                "trace hash at {}: shared {}, now {}",
                self.cursor,
                format_hash(self.shared_hash),
                format_hash(self.this_hash)
            ));
        } else if !self.verdict_changes.is_empty() {
            out.push(
                "the trace hash is the same but verdicts differ: this is a Faultline bug, please \
                 report it"
                    .to_string(),
            );
        }
        let word = |v: Option<Verdict>| match v {
            Some(v) => verdict_word(v),
            None => "absent",
        };
        for c in &self.verdict_changes {
            out.push(format!(
                "expect[{}] {}: shared {}, now {}",
                c.index,
                c.name,
                word(c.shared),
                word(c.now)
            ));
        }
        out
    }
}

/// `pass`, `FAIL` or `pending`, as `faultline check` prints them.
pub fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Pass => "pass",
        Verdict::Fail => "FAIL",
        Verdict::Pending => "pending",
    }
}

/// Replays a self-checking link to its cursor and compares.
pub fn verify_shared(link: &SharedLink) -> Result<Verification, VerifyError> {
    let record = link.record.as_ref().ok_or(VerifyError::NoRecord)?;
    let mut run = Run::new(&link.scenario)?;
    // Replaying stops at the end, so a cursor past it would compare the end's hash with a
    // record no run could have made.
    if record.cursor > run.end() {
        return Err(VerifyError::CursorOutsideRun {
            cursor: record.cursor,
            end: run.end(),
        });
    }
    run.run_until(record.cursor);
    let names: Vec<String> = run.evaluate().into_iter().map(|r| r.name).collect();
    Ok(compare_records(
        link.model_version.unwrap_or(0),
        record,
        &record_run(&run),
        &names,
    ))
}

/// Compares what a link recorded with what this build shows at the same cursor (`names`: the
/// expectations' names, for the message). The page, which has the run at hand, calls this
/// directly.
pub fn compare_records(
    shared_model: u32,
    shared: &RunRecord,
    now: &RunRecord,
    names: &[String],
) -> Verification {
    let count = now.verdicts.len().max(shared.verdicts.len());
    let verdict_changes = (0..count)
        .filter_map(|i| {
            let was = shared.verdicts.get(i).copied();
            let current = now.verdicts.get(i).copied();
            (was != current).then(|| VerdictChange {
                index: i,
                name: names.get(i).cloned().unwrap_or_default(),
                shared: was,
                now: current,
            })
        })
        .collect();
    Verification {
        shared_model,
        cursor: shared.cursor,
        shared_hash: shared.trace_hash,
        this_hash: now.trace_hash,
        verdict_changes,
    }
}

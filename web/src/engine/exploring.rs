//! The Explore panel's jobs inside the engine: one explore and at most one shrink, run in
//! slices between playback slices, reported as an [`ExploreView`] in frames.

use faultline_scenario::{decode_link, encode_link};

use super::explore::{ExploreJob, ShrinkJob, ShrinkStatus};
use super::pacing::SLICE_MS;
use super::protocol::{ExploreCmd, ExploreProgress, ExploreView, FailureView, ShrinkView};

/// Failure rows sent to the Explore panel; the count stays exact.
pub const MAX_FAILURES: usize = 200;

/// The Explore panel's jobs (seeds run one at a time in slices, shrinks in small steps).
#[derive(Default)]
pub(crate) struct Exploring {
    pub(crate) explore: Option<ExploreJob>,
    /// Which failure (index into the explore failures) is being shrunk, and the shrink.
    shrink: Option<(usize, ShrinkJob)>,
    /// A problem with the inputs.
    error: Option<String>,
    /// Stopped by the user.
    stopped: bool,
    /// Changed since the last frame.
    pub(crate) dirty: bool,
}

impl Exploring {
    pub(crate) fn busy(&self) -> bool {
        !self.stopped
            && (self.explore.as_ref().is_some_and(|j| !j.finished())
                || self
                    .shrink
                    .as_ref()
                    .is_some_and(|(_, s)| s.status == ShrinkStatus::Running))
    }

    pub(crate) fn handle(&mut self, cmd: ExploreCmd) {
        self.dirty = true;
        match cmd {
            ExploreCmd::Start {
                link,
                faults,
                first_seed,
                seeds,
            } => {
                *self = Exploring {
                    dirty: true,
                    ..Exploring::default()
                };
                let job = decode_link(&link)
                    .map_err(|e| e.to_string())
                    .and_then(|base| ExploreJob::new(&base, &faults, first_seed, seeds));
                match job {
                    Ok(job) => self.explore = Some(job),
                    Err(e) => self.error = Some(e),
                }
            }
            ExploreCmd::Stop => self.stopped = true,
            ExploreCmd::Shrink(i) => {
                if let Some(f) = self.explore.as_ref().and_then(|j| j.failures.get(i)) {
                    self.shrink = Some((i, ShrinkJob::new(&f.scenario, &f.property)));
                    self.stopped = false;
                }
            }
        }
    }

    /// One slice of whichever job runs: a shrink step first (the user asked for it last),
    /// else explore for [`SLICE_MS`].
    pub(crate) fn slice(&mut self, clock: &dyn Fn() -> f64) {
        self.dirty = true;
        if let Some((_, s)) = self
            .shrink
            .as_mut()
            .filter(|(_, s)| s.status == ShrinkStatus::Running)
        {
            s.step();
        } else if let Some(j) = self.explore.as_mut() {
            crate::slicer::run_for(j, SLICE_MS, clock);
        }
    }

    pub(crate) fn view(&self) -> ExploreView {
        let job = self.explore.as_ref().map(|job| ExploreProgress {
            state: if job.finished() {
                "finished"
            } else if self.stopped {
                "stopped"
            } else {
                "running"
            }
            .to_string(),
            done: job.done(),
            total: job.total(),
            failing_seeds: job.failing_seeds,
            running: job.running(),
            notes: job.notes.clone(),
            failures: job
                .failures
                .iter()
                .take(MAX_FAILURES)
                .map(|f| FailureView {
                    seed: f.seed,
                    property: f.property.clone(),
                    message: f.message.clone(),
                    link: f.link.clone(),
                })
                .collect(),
            failure_count: job.failures.len(),
            shrink: self.shrink.as_ref().map(|(i, s)| {
                let (state, error) = match &s.status {
                    ShrinkStatus::Running => ("running", None),
                    ShrinkStatus::Done => ("done", None),
                    ShrinkStatus::Capped => ("capped", None),
                    ShrinkStatus::Failed(e) => ("failed", Some(e.clone())),
                };
                ShrinkView {
                    index: *i,
                    state: state.to_string(),
                    error,
                    runs: s.runs,
                    faults: (s.faults_before, s.current.faults.len()),
                    size: (
                        s.current.topology.stores,
                        s.current.topology.regions,
                        s.current.duration.0,
                    ),
                    link: encode_link(&s.current),
                }
            }),
        });
        ExploreView {
            error: self.error.clone(),
            job,
        }
    }
}

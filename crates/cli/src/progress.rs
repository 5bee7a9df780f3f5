//! Progress on stderr for the long commands (explore, shrink, long runs), drawn by indicatif
//! only when stderr is a terminal, so logs and pipes get a plain line now and then instead
//! ([`crate::plain_progress`]).
//!
//! Wall-clock time is used only for the rate and ETA shown here; it never reaches the
//! simulation.

use std::time::Duration;

use faultline_scenario::Run;
use faultline_sim::SimTime;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::plain_progress::{percent, PlainProgress};

/// A rate for people: runs per second when at least one run a second finishes, else seconds
/// (or minutes) per run, so a slow exploration never reads "0.0 runs/s".
pub fn rate_text(done: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if done == 0 {
        return "first run going".into();
    }
    let per_sec = done as f64 / secs.max(1e-6);
    let per_run = secs / done as f64;
    if per_sec >= 1.0 {
        format!("{per_sec:.1} runs/s")
    } else if per_run < 120.0 {
        format!("{per_run:.1} s/run")
    } else {
        format!("{:.1} min/run", per_run / 60.0)
    }
}

/// A bar over `total` steps on stderr; hidden when stderr is not a terminal.
pub fn bar(total: u64, template: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("#>."));
    }
    bar
}

/// Runs `run` to `until` in slices, moving a bar over simulated seconds on a terminal and
/// printing a plain line now and then without one (slicing does not change the run: events
/// are processed in the same order either way).
pub fn run_with_bar(run: &mut Run, until: SimTime) {
    let total_secs = until.0 / 1_000_000;
    let bar = bar(
        total_secs.max(1),
        "{bar:30} {pos}/{len} simulated s  {elapsed} elapsed, eta {eta}",
    );
    let plain = PlainProgress::new();
    let step = (until.0 / 100).max(1);
    let mut t = 0;
    while t < until.0 {
        t = (t + step).min(until.0);
        run.run_until(SimTime(t));
        bar.set_position(t / 1_000_000);
        plain.tick(|elapsed| simulated_line(SimTime(t), until, elapsed));
    }
    run.run_until(until);
    bar.finish_and_clear();
}

/// `run: simulated 01:30.000 of 04:00.000 (37%), 12 s elapsed`.
pub fn simulated_line(now: SimTime, until: SimTime, elapsed: Duration) -> String {
    format!(
        "run: simulated {now} of {until} ({}%), {:.0} s elapsed",
        percent(now.0, until.0),
        elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_rate_reads_as_time_per_run_never_zero() {
        assert_eq!(rate_text(10, Duration::from_secs(4)), "2.5 runs/s");
        assert_eq!(rate_text(3, Duration::from_secs(60)), "20.0 s/run");
        assert_eq!(rate_text(1, Duration::from_secs(600)), "10.0 min/run");
        assert_eq!(rate_text(0, Duration::from_secs(5)), "first run going");
        for (done, secs) in [(1, 1_000_000), (1, 31), (7, 100)] {
            let text = rate_text(done, Duration::from_secs(secs));
            assert!(!text.starts_with("0.0"), "{text}");
        }
    }
}

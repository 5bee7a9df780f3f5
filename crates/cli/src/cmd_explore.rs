//! `faultline explore`: many seeds with random fault schedules; prints every failure with its
//! seed, property and share link.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use faultline_explore::{explore, ExploreOptions, FaultBudget, Progress};

use crate::args::Args;
use crate::cmd_link::DEFAULT_BASE;
use crate::load::load;

const USAGE: &str = "usage: faultline explore SCENARIO [--seeds N] [--first-seed S] \
[--faults kill=2,partition,loss,pause,broker-down] [--jobs N] [--base URL] [--set key=value]...";

/// Runs the command; returns the exit code: 1 if any property failed on any seed.
pub fn main(raw: &[String]) -> Result<i32, String> {
    let a = Args::parse(
        raw,
        &["seeds", "first-seed", "faults", "jobs", "base", "set"],
        &[],
    )?;
    let [arg] = a.positional.as_slice() else {
        return Err(USAGE.into());
    };
    let opts = ExploreOptions {
        seeds: number(&a, "seeds")?.unwrap_or(1000),
        first_seed: number(&a, "first-seed")?.unwrap_or(0),
        jobs: match number(&a, "jobs")? {
            Some(0) => return Err("--jobs must be at least 1".into()),
            Some(n) => n as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        },
        budget: match a.get("faults") {
            Some(text) => FaultBudget::parse(text).map_err(|e| format!("--faults: {e}"))?,
            None => FaultBudget::default(),
        },
    };
    let base = load(arg, &a.all("set"))?;
    eprintln!(
        "exploring {arg}: seeds {}..{}, faults {}, {} jobs",
        opts.first_seed,
        opts.first_seed.saturating_add(opts.seeds),
        opts.budget,
        opts.jobs
    );
    let bar = Bar::new();
    let report = explore(&base, &opts, &|p| bar.update(p)).map_err(|e| e.to_string())?;
    bar.finish();
    for line in report.failure_lines(a.get("base").unwrap_or(DEFAULT_BASE)) {
        println!("{line}");
    }
    for line in report.summary_lines() {
        println!("{line}");
    }
    if let Some(f) = report.failures.first() {
        println!(
            "shrink a failure with: faultline shrink 'LINK' --property {}",
            f.findings[0].property
        );
    }
    Ok(if report.failures.is_empty() { 0 } else { 1 })
}

fn number(a: &Args, flag: &str) -> Result<Option<u64>, String> {
    a.get(flag)
        .map(|v| {
            v.parse::<u64>()
                .map_err(|_| format!("--{flag} {v}: not a whole number"))
        })
        .transpose()
}

/// Progress on stderr: redrawn in place on a terminal, a line per tenth otherwise (logs).
/// Wall-clock time is used only for the runs/s display; it never reaches the simulation.
struct Bar {
    start: Instant,
    tty: bool,
    state: Mutex<BarState>,
}

struct BarState {
    last_draw: Option<Instant>,
    last_tenth: u64,
    drew: bool,
}

impl Bar {
    fn new() -> Bar {
        Bar {
            start: Instant::now(),
            tty: std::io::stderr().is_terminal(),
            state: Mutex::new(BarState {
                last_draw: None,
                last_tenth: 0,
                drew: false,
            }),
        }
    }

    fn update(&self, p: Progress) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let rate = p.done as f64 / now.duration_since(self.start).as_secs_f64().max(1e-3);
        if self.tty {
            let due = st
                .last_draw
                .is_none_or(|t| now.duration_since(t) >= Duration::from_millis(100));
            if due || p.done == p.total {
                let filled = (p.done * 30 / p.total.max(1)) as usize;
                eprint!(
                    "\r[{}{}] {}/{}  {rate:.1} runs/s  {} failing ",
                    "#".repeat(filled),
                    ".".repeat(30 - filled),
                    p.done,
                    p.total,
                    p.failing
                );
                st.last_draw = Some(now);
                st.drew = true;
            }
        } else {
            let tenth = p.done * 10 / p.total.max(1);
            if tenth > st.last_tenth {
                st.last_tenth = tenth;
                eprintln!(
                    "{}/{} runs  {rate:.1} runs/s  {} failing",
                    p.done, p.total, p.failing
                );
            }
        }
    }

    fn finish(&self) {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.drew {
            eprintln!();
        }
    }
}

//! `faultline run --log LEVEL [--node NAME,...]`: which of the run's log lines to print.
//!
//! Without `--log`, `run` shows the first warnings only, a summary for a reader. A bug report or
//! an investigation needs every line of a few nodes around a moment, the way one greps a real
//! TiKV or TiCDC log, so `--log` prints every kept line at or above a level, optionally for some
//! nodes only. The kernel keeps the newest `faultline_sim::LOG_CAPACITY` lines; older ones are
//! counted, and the output says how many were dropped.

use clap::ValueEnum;
use faultline_sim::{Kernel, Level, LogEntry, Model, NodeId};

/// The lowest level `--log` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogLevel {
    /// Every line, routine ones too.
    Info,
    /// Warnings and errors.
    Warn,
    /// Errors only.
    Error,
}

impl LogLevel {
    fn level(self) -> Level {
        match self {
            LogLevel::Info => Level::Info,
            LogLevel::Warn => Level::Warn,
            LogLevel::Error => Level::Error,
        }
    }
}

/// Name used for lines the simulator itself logs (injected faults, heals).
pub const SIM_NODE: &str = "sim";

/// A level and, when nodes were named, the set of them (`None` in the set is the simulator).
pub struct LogFilter {
    level: Level,
    nodes: Option<Vec<Option<NodeId>>>,
}

impl LogFilter {
    /// Resolves `names` against the run's nodes; an unknown name is an error listing the known
    /// ones, so a typo never prints an empty log that looks like a quiet run.
    pub fn new<M: Model>(
        level: LogLevel,
        names: &[String],
        k: &Kernel<M>,
    ) -> Result<LogFilter, String> {
        if names.is_empty() {
            return Ok(LogFilter {
                level: level.level(),
                nodes: None,
            });
        }
        let mut nodes = Vec::with_capacity(names.len());
        for name in names {
            if name == SIM_NODE {
                nodes.push(None);
                continue;
            }
            let Some(id) = k.net.find(name) else {
                return Err(unknown_node(name, k));
            };
            nodes.push(Some(id));
        }
        Ok(LogFilter {
            level: level.level(),
            nodes: Some(nodes),
        })
    }

    /// Whether `e` is printed.
    pub fn keeps(&self, e: &LogEntry) -> bool {
        e.level >= self.level && self.nodes.as_ref().is_none_or(|n| n.contains(&e.node))
    }
}

fn unknown_node<M: Model>(name: &str, k: &Kernel<M>) -> String {
    let known: Vec<&str> = k
        .net
        .nodes()
        .iter()
        .map(|n| n.name.as_str())
        .chain(std::iter::once(SIM_NODE))
        .collect();
    format!(
        "--node {}: no such node in this scenario; nodes: {}",
        crate::out::escape_controls(name),
        known.join(", ")
    )
}

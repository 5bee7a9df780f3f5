//! Checks on a run: downstream consistency against upstream ground truth, and the metric
//! series.

pub mod consistency;
pub mod metrics;

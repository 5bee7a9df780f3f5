//! The series each chart shows: defined in the shared `faultline-charts` crate, so the CLI's
//! `faultline chart` and the page read the same metrics the same way.

pub use faultline_charts::chart_data::*;

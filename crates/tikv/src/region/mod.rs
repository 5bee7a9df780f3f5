//! Regions changing shape and membership: epochs, splits (by command and by size), merges,
//! learners and joint consensus, peer replacement, and which regions an observer should redraw.

pub mod learner;
pub(crate) mod merge;
pub mod region_changes;
pub(crate) mod replace_peer;
pub mod size_split;
pub mod split;
#[cfg(test)]
mod split_epoch_tests;
pub mod state;

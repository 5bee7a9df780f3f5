//! Plain data extracted from a run at the cursor, for the views. No Yew here, and no model
//! types: every struct is serde data so it can later cross a Web Worker boundary. Times are
//! simulated microseconds (`*_us`) or seconds (`*_secs`).
//!
//! Every function reads a `&Run` that the shell has moved to the cursor; none mutates it.

pub mod blame;
pub mod chart_data;
pub mod chart_order;
pub mod consistency;
pub mod expectations;
pub mod heatmap;
pub mod lanes;
pub mod log;
pub mod metrics_strip;
pub mod region_detail;
pub mod region_map;
pub mod small_multiples;
pub mod space_time;

pub use blame::{blame, BlameVm};
pub use chart_data::{available_charts, chart_data, ChartData, ChartKind, LabelledRun};
pub use consistency::{consistency, ConsistencyVm};
pub use expectations::{expectations, ExpectationsVm};
pub use heatmap::HeatmapVm;
pub use lanes::{changefeed_list, owner_lane, sink_lanes, table_lanes, ChangefeedListVm, LanesVm};
pub use log::{log_vm, messages_vm, LogFilter, LogVm, MessagesVm};
pub use metrics_strip::{metrics_strip, MetricsStripVm};
pub use region_detail::{region_detail, RegionDetailVm};
pub use region_map::{region_map, RegionMapVm};
pub use space_time::{space_time, SpaceTimeVm};

#[cfg(test)]
pub(crate) mod tests;

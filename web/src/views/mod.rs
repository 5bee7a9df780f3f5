//! The views: one Yew function component per file, fed by `view_model` data (see README.md in
//! this directory for props and feeding functions). Views never read model internals.

pub mod blame;
mod canvas;
pub mod changefeed_list;
pub mod chart;
pub mod consistency;
pub mod expectations;
pub mod fmt;
pub mod glossary;
pub mod heatmap;
pub mod log_panel;
pub mod metrics_strip;
pub mod region_detail;
pub mod region_map;
mod shown_width;
pub mod space_time;
pub mod state_lanes;

pub use blame::{WatermarkBlame, WatermarkBlameProps};
pub use changefeed_list::{ChangefeedList, ChangefeedListProps};
pub use chart::{Chart, ChartProps};
pub use consistency::{ConsistencyTable, ConsistencyTableProps};
pub use expectations::{ExpectationsPanel, ExpectationsPanelProps};
pub use heatmap::{Heatmap, HeatmapProps};
pub use log_panel::{LogPanel, LogPanelProps};
pub use metrics_strip::{MetricsStrip, MetricsStripProps};
pub use region_detail::{RegionDetailPanel, RegionDetailProps};
pub use region_map::{RegionMap, RegionMapProps};
pub use space_time::{SpaceTime, SpaceTimeProps};
pub use state_lanes::{StateLanes, StateLanesProps};

#[cfg(test)]
mod tests;

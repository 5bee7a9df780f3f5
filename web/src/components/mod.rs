//! The playground's components, one per file. Each takes the read-only state handle and an
//! `on_action` callback; none mutates state directly.

pub mod branches;
pub mod changefeed_editor;
pub mod compare;
pub mod controls;
pub mod explore_panel;
pub mod fault_palette;
pub mod fault_timeline;
pub mod field_problems;
pub mod gallery;
pub mod guide;
pub mod header;
pub mod help;
pub mod inspector;
pub mod link_check;
pub mod link_error;
pub mod node_menu;
pub mod run_status;
pub mod scrubber;
pub mod share;
pub mod topology;
pub mod topology_node;
pub mod view_bodies;
pub mod views_panel;

use yew::prelude::*;

use crate::playground::Action;
use crate::state::StateHandle;

/// Props shared by every playground component.
#[derive(Properties, PartialEq, Clone)]
pub struct PanelProps {
    /// The state (read it with `state.pg.borrow()`).
    pub state: StateHandle,
    /// Where actions go.
    pub on_action: Callback<Action>,
}

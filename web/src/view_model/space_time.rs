//! The space-time (Lamport) diagram: one lane per chosen node, an arrow per delivered message
//! between two of them, in a window of time around the cursor.

use serde::{Deserialize, Serialize};

use super::log::MessageRow;

/// Most lanes the diagram draws; more would not be readable.
pub const MAX_LANES: usize = 6;
/// Most arrows drawn; the ones nearest the cursor win.
pub const MAX_ARROWS: usize = 400;

/// One message between two lanes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrow {
    /// Sender lane.
    pub from_lane: usize,
    /// Receiver lane.
    pub to_lane: usize,
    /// Sent (µs).
    pub sent_us: u64,
    /// Delivered (µs).
    pub delivered_us: u64,
    /// What it was.
    pub label: String,
}

/// The diagram's data.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceTimeVm {
    /// Lane names, left to right.
    pub lanes: Vec<String>,
    /// Window start (µs).
    pub from_us: u64,
    /// Window end (µs).
    pub to_us: u64,
    /// The cursor (µs).
    pub cursor_us: u64,
    /// Messages with both ends on a lane and some part inside the window.
    pub arrows: Vec<Arrow>,
    /// Matching messages left out beyond `MAX_ARROWS`.
    pub omitted: usize,
}

/// Builds the diagram for `nodes` (the first `MAX_LANES`) over `cursor ± half_window`.
pub fn space_time(
    messages: &[MessageRow],
    nodes: &[String],
    cursor_us: u64,
    half_window_us: u64,
) -> SpaceTimeVm {
    let lanes: Vec<String> = nodes.iter().take(MAX_LANES).cloned().collect();
    let from_us = cursor_us.saturating_sub(half_window_us);
    let to_us = cursor_us.saturating_add(half_window_us);
    let lane = |n: &str| lanes.iter().position(|l| l == n);
    let mut arrows: Vec<Arrow> = messages
        .iter()
        .filter(|m| m.delivered_us >= from_us && m.sent_us <= to_us)
        .filter_map(|m| {
            Some(Arrow {
                from_lane: lane(&m.from)?,
                to_lane: lane(&m.to)?,
                sent_us: m.sent_us,
                delivered_us: m.delivered_us,
                label: m.label.clone(),
            })
        })
        .collect();
    let mut omitted = 0;
    if arrows.len() > MAX_ARROWS {
        omitted = arrows.len() - MAX_ARROWS;
        // Keep the arrows nearest the cursor, then restore time order.
        arrows.sort_by_key(|a| a.sent_us.abs_diff(cursor_us));
        arrows.truncate(MAX_ARROWS);
        arrows.sort_by_key(|a| (a.sent_us, a.delivered_us));
    }
    SpaceTimeVm {
        lanes,
        from_us,
        to_us,
        cursor_us,
        arrows,
        omitted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(sent: u64, delivered: u64, from: &str, to: &str) -> MessageRow {
        MessageRow {
            sent_us: sent,
            delivered_us: delivered,
            from: from.into(),
            to: to.into(),
            label: format!("{from}->{to}@{sent}"),
        }
    }

    #[test]
    fn only_chosen_lanes_inside_the_window() {
        let msgs = [
            m(100, 200, "a", "b"),
            m(150, 250, "a", "c"),
            m(5_000, 5_100, "b", "a"),
            m(900, 1_100, "b", "a"),
        ];
        let st = space_time(&msgs, &["a".into(), "b".into()], 1_000, 900);
        assert_eq!(st.lanes, ["a", "b"]);
        assert_eq!((st.from_us, st.to_us), (100, 1_900));
        let got: Vec<(usize, usize, u64)> = st
            .arrows
            .iter()
            .map(|a| (a.from_lane, a.to_lane, a.sent_us))
            .collect();
        assert_eq!(got, [(0, 1, 100), (1, 0, 900)]);
    }
}

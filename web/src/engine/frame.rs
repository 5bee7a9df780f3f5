//! The engine's report to the page: a [`Frame`] with the cursor, the nodes, the metrics strip
//! and expectations of both runs, and the open tab's data when it is due.

use std::rc::Rc;

use faultline_scenario::Run;

use super::pacing::VIEWS_MS;
use super::protocol::{Frame, NodeView, RunState, TwinFrame};
use super::Engine;
use crate::view_model as vm;

impl Engine {
    /// The frame for the current state (also clears the one-off notice and error). While
    /// busy, `now_ms` decides whether the open tab's data is due; None always sends it.
    pub fn frame(&mut self, now_ms: Option<f64>) -> Frame {
        let views_due = self.views_due(now_ms);
        let notice = self.notice.take();
        let error = self.error.take();
        let explore = std::mem::take(&mut self.exploring.dirty).then(|| self.exploring.view());
        let state = self.state();
        let Some(s) = self.session.as_ref() else {
            return Frame {
                ack: self.ack,
                notice,
                error,
                explore,
                ..Frame::default()
            };
        };
        let run = &s.run;
        let nodes = node_views(run);
        let twin = self.twin_frame();
        Frame {
            ack: self.ack,
            state,
            playing: self.playing,
            now_us: s.now().as_micros(),
            seek_target_us: self.seek_target.map(|t| t.as_micros()),
            seek_from_us: self.seek_target.and(self.seek_from).map(|t| t.as_micros()),
            end_us: s.end().as_micros(),
            trace_hash: run.trace_hash(),
            events: run.world.kernel.processed(),
            snapshots: s.snapshot_count(),
            nodes,
            notice,
            error,
            strip: Rc::new(vm::metrics_strip(run)),
            expectations: Rc::new(vm::expectations(run)),
            twin,
            explore,
            views: views_due.then(|| self.views()),
        }
    }

    /// Whether the open tab's data goes into this frame. While a seek replays, the views wait
    /// for it to land: the page shows its progress, and building the region map (256,000
    /// regions) would slow the replay down. While busy, they go at most every `VIEWS_MS`.
    fn views_due(&mut self, now_ms: Option<f64>) -> bool {
        let due = match (now_ms, self.last_views_ms) {
            (Some(_), _) if self.seek_target.is_some() => false,
            (Some(now), Some(last)) if self.busy() => now - last >= VIEWS_MS || now < last,
            _ => true,
        };
        if due {
            self.last_views_ms = now_ms.or(self.last_views_ms);
        }
        due
    }

    /// The compare twin's part of the frame: its cursor, hash, strip and expectations, and
    /// its region map when the Regions tab is open.
    fn twin_frame(&self) -> Option<TwinFrame> {
        self.twin.as_ref().map(|t| TwinFrame {
            toggle: t.toggle,
            now_us: t.session.now().as_micros(),
            trace_hash: t.session.run.trace_hash(),
            strip: Rc::new(vm::metrics_strip(&t.session.run)),
            expectations: Rc::new(vm::expectations(&t.session.run)),
            region_map: (self.views.tab == super::protocol::ViewTab::Regions)
                .then(|| Rc::new(vm::region_map(&t.session.run))),
        })
    }

    fn state(&self) -> RunState {
        let Some(s) = self.session.as_ref() else {
            return RunState::Loading;
        };
        let twin_done = self
            .twin
            .as_ref()
            .is_none_or(|t| t.session.now() >= s.now());
        if self.seek_target.is_some() {
            RunState::Seeking
        } else if s.finished() && twin_done {
            RunState::Finished
        } else if self.playing {
            RunState::Running
        } else {
            RunState::Paused
        }
    }
}

/// Every node's name, kind and state, and a TiKV store's current leader count. A running
/// store that is not serving says what PD thinks of it: `absent` (waits to join), `offline`
/// (being drained) or `tombstone` (removed).
fn node_views(run: &Run) -> Vec<NodeView> {
    let tikv = &run.world.model.tikv;
    let store_state = |node: usize| {
        let s = tikv
            .store_nodes()
            .iter()
            .position(|n| n.0 as usize == node)?;
        let st = tikv.store_state(s as u32)?;
        (st != faultline_tikv::StoreState::Up).then(|| st.name().to_lowercase())
    };
    run.world
        .kernel
        .net
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, n)| NodeView {
            name: n.name.clone(),
            kind: n.kind.clone(),
            state: match (n.state.name(), store_state(i)) {
                ("up", Some(pd_state)) => pd_state,
                (kernel_state, _) => kernel_state.to_string(),
            },
            leaders: (n.kind == "tikv")
                .then(|| {
                    run.world
                        .kernel
                        .metrics
                        .last(&format!("leaders.{}", n.name))
                })
                .flatten(),
        })
        .collect()
}

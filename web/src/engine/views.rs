//! The open tab's view models at the cursor, built from the run (and its compare twin) only
//! for the tab the page shows.

use std::rc::Rc;

use faultline_scenario::Run;

use super::protocol::{CdcViews, SessionViews, ViewData, ViewTab};
use super::Engine;
use crate::toggles::is_buggy;
use crate::view_model as vm;

impl Engine {
    /// The open tab's view models at the cursor.
    pub(super) fn views(&self) -> ViewData {
        let Some(s) = self.session.as_ref() else {
            return ViewData::None;
        };
        let run = &s.run;
        let cursor = Some(s.now());
        // Compare mode overlays the twin's series, labelled by the toggle's side.
        let label = |r: &Run| match &self.twin {
            Some(t) if is_buggy(&r.scenario, t.toggle) => "buggy",
            Some(_) => "fixed",
            None => "run",
        };
        let mut runs = vec![vm::LabelledRun {
            label: label(run),
            run,
        }];
        if let Some(t) = &self.twin {
            runs.push(vm::LabelledRun {
                label: label(&t.session.run),
                run: &t.session.run,
            });
        }
        let chart = |k| Rc::new(vm::chart_data(k, &runs, cursor));
        match self.views.tab {
            ViewTab::None => ViewData::None,
            ViewTab::Charts => {
                ViewData::Charts(vm::available_charts(run).into_iter().map(chart).collect())
            }
            ViewTab::Regions => ViewData::Regions {
                map: Rc::new(vm::region_map(run)),
                detail: self.views.region.and_then(|r| vm::region_detail(run, r)),
                heatmaps: std::iter::once(s)
                    .chain(self.twin.as_ref().map(|t| &t.session))
                    .map(|s| (label(&s.run).to_string(), Rc::new(s.heatmap())))
                    .collect(),
            },
            ViewTab::Log => ViewData::Log {
                log: Rc::new(vm::log_vm(run)),
                messages: Rc::new(vm::messages_vm(run, super::session::MESSAGE_LEAD_IN_US)),
            },
            ViewTab::SpaceTime => {
                let messages = vm::messages_vm(run, super::session::MESSAGE_LEAD_IN_US);
                let nodes = vm::log_vm(run).nodes;
                let data = vm::space_time(
                    &messages.rows,
                    &self.views.space_time_nodes,
                    s.now().as_micros(),
                    2_000_000,
                );
                ViewData::SpaceTime {
                    data: Rc::new(data),
                    nodes,
                    recording: messages.enabled,
                }
            }
            ViewTab::Blame => ViewData::Blame(Rc::new(vm::blame(run))),
            // The check replays the downstream tables: only while paused, not every frame.
            ViewTab::Consistency if self.playing => ViewData::Consistency(None),
            ViewTab::Consistency => ViewData::Consistency(Some(Rc::new(vm::consistency(run)))),
            ViewTab::Cdc => cdc_views(run, chart),
        }
    }
}

/// The TiCDC tab: the changefeed list, sink lanes and owner tick, plus the session lanes when
/// the run records captures' etcd sessions.
fn cdc_views(run: &Run, chart: impl Fn(vm::ChartKind) -> Rc<vm::ChartData>) -> ViewData {
    let sessions = run.world.kernel.metrics.index("owner_capture").is_some();
    ViewData::Cdc(CdcViews {
        list: Rc::new(vm::changefeed_list(run)),
        sink_lanes: Rc::new(vm::sink_lanes(run)),
        owner_tick: chart(vm::ChartKind::OwnerTick),
        sessions: sessions.then(|| SessionViews {
            owner: Rc::new(vm::owner_lane(run)),
            tables: Rc::new(vm::table_lanes(run)),
            writers: chart(vm::ChartKind::Writers),
            lease: chart(vm::ChartKind::Lease),
        }),
    })
}

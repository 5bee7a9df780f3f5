//! The data views (built by `crate::views`), wired to the time cursor: charts (overlaid in
//! compare mode), region map with detail, event/message log, space-time diagram, watermark
//! blame, consistency table, the TiCDC lifecycle (changefeed list, sink state lanes, owner
//! tick), and the live expectations with violations. Only the open tab's
//! data is computed, so playing stays cheap.

use std::rc::Rc;

use faultline_sim::SimTime;
use yew::prelude::*;

use super::PanelProps;
use crate::playground::toggles::is_buggy;
use crate::playground::Action;
use crate::view_model as vm;
use crate::views::*;

/// Tabs of the views panel.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Charts,
    Regions,
    Log,
    SpaceTime,
    Blame,
    Consistency,
    Cdc,
}

impl Tab {
    const ALL: [Tab; 7] = [
        Tab::Charts,
        Tab::Cdc,
        Tab::Regions,
        Tab::Log,
        Tab::SpaceTime,
        Tab::Blame,
        Tab::Consistency,
    ];

    fn label(self) -> &'static str {
        match self {
            Tab::Charts => "Charts",
            Tab::Regions => "Region map",
            Tab::Log => "Log",
            Tab::SpaceTime => "Space-time",
            Tab::Blame => "Watermark blame",
            Tab::Consistency => "Consistency",
            Tab::Cdc => "TiCDC",
        }
    }

    fn id(self) -> &'static str {
        match self {
            Tab::Charts => "charts",
            Tab::Regions => "regions",
            Tab::Log => "log",
            Tab::SpaceTime => "space-time",
            Tab::Blame => "blame",
            Tab::Consistency => "consistency",
            Tab::Cdc => "cdc",
        }
    }
}

/// The views panel.
#[function_component]
pub fn ViewsPanel(props: &PanelProps) -> Html {
    let tab = use_state(|| Tab::Charts);
    let region = use_state(|| None::<u32>);
    let chosen = use_state(|| {
        vec![
            "pd-1".to_string(),
            "tikv-1".to_string(),
            "tikv-2".to_string(),
        ]
    });
    let pg = props.state.pg.borrow();
    let run = &pg.session.run;
    let cursor = pg.now();
    let on_jump = {
        let cb = props.on_action.clone();
        Callback::from(move |t: SimTime| cb.emit(Action::Seek(t)))
    };
    let on_region = {
        let region = region.clone();
        Callback::from(move |r: u32| region.set(Some(r)))
    };
    // Compare mode overlays the twin's series, labelled by which side of the toggle it is.
    let label = |r: &faultline_scenario::Run| {
        pg.compare
            .as_ref()
            .map(|c| {
                if is_buggy(&r.scenario, c.toggle) {
                    "buggy"
                } else {
                    "fixed"
                }
            })
            .unwrap_or("run")
    };
    let mut runs = vec![vm::LabelledRun {
        label: label(run),
        run,
    }];
    if let Some(c) = &pg.compare {
        runs.push(vm::LabelledRun {
            label: label(&c.session.run),
            run: &c.session.run,
        });
    }
    let has_sessions = run.world.kernel.metrics.index("owner_capture").is_some();
    let body = match *tab {
        Tab::Charts => {
            html! {
                <div class="charts">
                    { for vm::available_charts(run).into_iter().map(|k| html! {
                        <Chart data={ Rc::new(vm::chart_data(k, &runs, Some(cursor))) } on_jump={ on_jump.clone() } />
                    }) }
                </div>
            }
        }
        Tab::Regions => html! {
            <div class="regions">
                <RegionMap map={ Rc::new(vm::region_map(run)) } selected={ *region } on_select_region={ on_region.clone() } />
                <RegionDetailPanel detail={ region.and_then(|r| vm::region_detail(run, r)) } />
            </div>
        },
        Tab::Log => html! {
            <LogPanel log={ Rc::new(vm::log_vm(run)) } messages={ Rc::new(vm::messages_vm(run)) } on_jump={ on_jump.clone() } />
        },
        Tab::SpaceTime => {
            let messages = vm::messages_vm(run);
            let nodes = vm::log_vm(run).nodes;
            let data = vm::space_time(&messages.rows, &chosen, cursor.as_micros(), 2_000_000);
            let on_select = {
                let chosen = chosen.clone();
                Callback::from(move |n: Vec<String>| chosen.set(n))
            };
            html! {
                <SpaceTime data={ Rc::new(data) } { nodes } on_select_nodes={ on_select }
                           on_jump={ on_jump.clone() } recording={ messages.enabled } />
            }
        }
        Tab::Blame => {
            html! { <WatermarkBlame data={ Rc::new(vm::blame(run)) } on_select_region={ on_region.clone() } /> }
        }
        // The check replays the downstream tables: only while paused, not every frame.
        Tab::Consistency if pg.playing => {
            html! { <p class="hint">{ "Pause to run the consistency check at the cursor." }</p> }
        }
        Tab::Consistency => html! {
            <ConsistencyTable data={ Rc::new(vm::consistency(run)) } on_jump={ on_jump.clone() } />
        },
        Tab::Cdc => html! {
            <div class="cdc-lifecycle">
                <ChangefeedList data={ Rc::new(vm::changefeed_list(run)) } />
                <StateLanes data={ Rc::new(vm::sink_lanes(run)) } on_jump={ on_jump.clone() } />
                <Chart data={ Rc::new(vm::chart_data(vm::ChartKind::OwnerTick, &runs, Some(cursor))) }
                       on_jump={ on_jump.clone() } />
                // Capture sessions and scheduling (tiflow#9344), when the run has them.
                if has_sessions {
                    <StateLanes data={ Rc::new(vm::owner_lane(run)) } on_jump={ on_jump.clone() } />
                    <StateLanes data={ Rc::new(vm::table_lanes(run)) } on_jump={ on_jump.clone() } />
                    <Chart data={ Rc::new(vm::chart_data(vm::ChartKind::Writers, &runs, Some(cursor))) }
                           on_jump={ on_jump.clone() } />
                    <Chart data={ Rc::new(vm::chart_data(vm::ChartKind::Lease, &runs, Some(cursor))) }
                           on_jump={ on_jump.clone() } />
                }
            </div>
        },
    };
    html! {
        <section class="panel views" id="views">
            <div class="tabs row" role="tablist">
                { for Tab::ALL.iter().map(|&t| {
                    let tab = tab.clone();
                    html! {
                        <button role="tab" data-view={ t.id() } class={ classes!((*tab == t).then_some("on")) }
                                onclick={ Callback::from(move |_: MouseEvent| tab.set(t)) }>{ t.label() }</button>
                    }
                }) }
            </div>
            { body }
        </section>
    }
}

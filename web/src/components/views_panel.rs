//! The data views (built by `crate::views`), wired to the time cursor: charts (one plot per
//! run in compare mode), region map with detail, event/message log, space-time diagram, watermark
//! blame, consistency table, the TiCDC lifecycle (changefeed list, sink state lanes, owner
//! tick), and the live expectations with violations. The engine computes only the open
//! tab's data (the panel tells it which tab and parameters), so playing stays cheap.

use faultline_scenario::GuideTab;
use yew::prelude::*;

use super::view_bodies::{tab_body, BodyContext};
use super::PanelProps;
use crate::engine::{ViewRequest, ViewTab};
use crate::playground::Action;

/// The panel's tabs, in display order: the engine's own tab names, so what is shown and what
/// is asked of the engine cannot drift apart.
const TABS: [ViewTab; 7] = [
    ViewTab::Charts,
    ViewTab::Cdc,
    ViewTab::Regions,
    ViewTab::Log,
    ViewTab::SpaceTime,
    ViewTab::Blame,
    ViewTab::Consistency,
];

/// A tab's button label.
fn label(tab: ViewTab) -> &'static str {
    match tab {
        ViewTab::None => "",
        ViewTab::Charts => "Charts",
        ViewTab::Regions => "Region map",
        ViewTab::Log => "Log",
        ViewTab::SpaceTime => "Space-time",
        ViewTab::Blame => "Watermark blame",
        ViewTab::Consistency => "Consistency",
        ViewTab::Cdc => "TiCDC",
    }
}

/// A tab's stable id (`data-view`, used by the browser tests).
fn id(tab: ViewTab) -> &'static str {
    match tab {
        ViewTab::None => "none",
        ViewTab::Charts => "charts",
        ViewTab::Regions => "regions",
        ViewTab::Log => "log",
        ViewTab::SpaceTime => "space-time",
        ViewTab::Blame => "blame",
        ViewTab::Consistency => "consistency",
        ViewTab::Cdc => "cdc",
    }
}

/// The engine's tab for the tab a guide step names.
fn guided_tab(t: GuideTab) -> ViewTab {
    match t {
        GuideTab::Charts => ViewTab::Charts,
        GuideTab::Cdc => ViewTab::Cdc,
        GuideTab::Regions => ViewTab::Regions,
        GuideTab::Log => ViewTab::Log,
        GuideTab::SpaceTime => ViewTab::SpaceTime,
        GuideTab::Blame => ViewTab::Blame,
        GuideTab::Consistency => ViewTab::Consistency,
    }
}

/// Scrolls the highlighted chart (or, without one, the views panel) into sight: the view the
/// guide step talks about.
fn bring_into_sight() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let target = doc
        .query_selector("#views .highlight")
        .ok()
        .flatten()
        .or_else(|| doc.get_element_by_id("views"));
    if let Some(el) = target {
        el.scroll_into_view_with_bool(true);
        clear_of_the_guide(&doc, &el);
    }
}

/// How much of a tall view (the whole views panel) must show below the caption for a phone to
/// scroll back to the caption; a chart must show whole.
const VIEW_IN_SIGHT_PX: f64 = 240.0;

/// On a wide screen the guide's caption stays at the top of the window (`position: sticky`,
/// web/style.css), so a view scrolled to the window's top would sit under it: scroll back by
/// the part it covers, leaving the caption and the view it talks about both in sight. On a
/// phone the caption scrolls with the page, just above the views (web/style.css), so the view
/// at the window's top has left the caption (and its Next button) above the window: scroll
/// back to the caption when it and a good part of the view fit on the screen together.
fn clear_of_the_guide(doc: &web_sys::Document, el: &web_sys::Element) {
    let (Some(window), Some(guide)) = (web_sys::window(), doc.get_element_by_id("guide")) else {
        return;
    };
    let (caption, view) = (
        guide.get_bounding_client_rect(),
        el.get_bounding_client_rect(),
    );
    let covered = caption.bottom() - view.top();
    if covered > 0.0 {
        window.scroll_by_with_x_and_y(0.0, -(covered + 8.0));
        return;
    }
    let screen = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let from_caption = view.top() - caption.top();
    let needed = view.height().min(VIEW_IN_SIGHT_PX);
    if caption.top() < 0.0 && from_caption + needed + 8.0 <= screen {
        window.scroll_by_with_x_and_y(0.0, caption.top() - 8.0);
    }
}

/// The guide step at the cursor and what it names.
struct Guided {
    step: Option<usize>,
    metric: Option<String>,
    key_metrics: Vec<String>,
}

/// Reads the guide step at the cursor and opens the tab it names when the step changes.
#[hook]
fn use_guided_tab(props: &PanelProps, tab: &UseStateHandle<ViewTab>) -> Guided {
    let (step, step_tab, guided) = {
        let pg = props.state.pg.borrow();
        let nav = pg.guide_nav();
        let step = nav.as_ref().and_then(|n| n.step);
        let view = nav.map(|n| n.view).unwrap_or_default();
        let guided = Guided {
            step,
            metric: view.metric.map(str::to_string),
            key_metrics: pg.scenario().view.key_metrics.clone(),
        };
        (step, view.tab, guided)
    };
    let tab = tab.clone();
    use_effect_with((step, step_tab), move |(_, t)| {
        if let Some(t) = t {
            tab.set(guided_tab(*t));
        }
    });
    guided
}

/// The views panel.
#[function_component]
pub fn ViewsPanel(props: &PanelProps) -> Html {
    // A reloaded tab reopens the view it showed (playground::saved_session).
    let saved = props.state.pg.borrow().views.tab;
    let tab = use_state(|| {
        Some(saved)
            .filter(|t| *t != ViewTab::None)
            .unwrap_or(ViewTab::Charts)
    });
    let guided = use_guided_tab(props, &tab);
    let region = use_state(|| None::<u32>);
    let chosen = use_state(|| {
        vec![
            "pd-1".to_string(),
            "tikv-1".to_string(),
            "tikv-2".to_string(),
        ]
    });
    // Tell the engine what to compute whenever the tab or its parameters change.
    {
        let cb = props.on_action.clone();
        let req = ViewRequest {
            tab: *tab,
            region: *region,
            space_time_nodes: (*chosen).clone(),
        };
        use_effect_with(req, move |req| cb.emit(Action::Views(req.clone())));
    }
    let pg = props.state.pg.borrow();
    let ctx = BodyContext {
        on_action: props.on_action.clone(),
        region,
        chosen,
        key_metrics: guided.key_metrics,
        metric: guided.metric,
        twin_map: pg
            .compare
            .and(pg.frame.twin.as_ref())
            .and_then(|t| t.region_map.clone()),
    };
    let body = pg
        .frame
        .views
        .as_ref()
        .and_then(|data| tab_body(*tab, data, &ctx));
    // Whether the open tab's own data is shown (not "Computing…"): only then is there a view
    // to bring into sight.
    let shown = body.is_some();
    // The step is known as soon as Next is pressed, but while its seek replays the run status
    // shows a progress bar above the views; scrolling then would leave the chart under the
    // caption once the bar goes. So wait until the cursor has landed.
    let landed = pg.seek_target().is_none();
    drop(pg);
    // Once the step's tab shows its data at the step's time, bring the view it names into
    // sight (once per step).
    let go = shown && landed && guided.step.is_some();
    use_effect_with((guided.step, go), |(_, go)| {
        if *go {
            bring_into_sight();
        }
    });
    html! {
        <section class="panel views" id="views">
            <div class="tabs row" role="tablist">
                { for TABS.iter().map(|&t| {
                    let tab = tab.clone();
                    html! {
                        <button role="tab" data-view={ id(t) } class={ classes!((*tab == t).then_some("on")) }
                                onclick={ Callback::from(move |_: MouseEvent| tab.set(t)) }>{ label(t) }</button>
                    }
                }) }
            </div>
            { body.unwrap_or_else(|| html! { <p class="hint">{ "Computing…" }</p> }) }
        </section>
    }
}

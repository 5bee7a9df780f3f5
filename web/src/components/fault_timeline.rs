//! Faults as markers (instant) or bars (with a duration) on a strip under the scrubber.
//! Click selects and opens its editor right under the strip; dragging a marker moves it in
//! time, by the distance dragged (`playground::timeline`): a click never moves a fault. Chips
//! that would overlap stack on lanes (`playground::fault_lanes`). Keyboard: Tab reaches each
//! chip; Enter or Space selects it, the arrows move it by a second, Delete removes it.

use faultline_scenario::{Dur, FaultSpec};
use web_sys::HtmlElement;
use yew::prelude::*;

use super::fault_palette::SelectedFault;
use super::PanelProps;
use crate::playground::fault_lanes::{chip_extent, lanes};
use crate::playground::timeline::dragged_start;
use crate::playground::Action;

/// Strip width assumed before the strip is laid out (the first render).
const STRIP_PX_BEFORE_LAYOUT: f64 = 900.0;

/// What a key does to the focused chip `i` (at `at_us`) on a run of `end_us`.
fn chip_key(key: &str, i: usize, f: &FaultSpec, end_us: u64) -> Option<Action> {
    let step = |delta: i64| {
        let mut moved = f.clone();
        moved.at = Dur((f.at.0 as i64 + delta).clamp(0, end_us as i64) as u64);
        (moved.at != f.at).then(|| Action::UpdateFault(i, moved))
    };
    match key {
        "Enter" | " " => Some(Action::SelectFault(Some(i))),
        "ArrowLeft" => step(-1_000_000),
        "ArrowRight" => step(1_000_000),
        "Delete" | "Backspace" => Some(Action::RemoveFault(i)),
        "Escape" => Some(Action::SelectFault(None)),
        _ => None,
    }
}

/// The fault strip.
#[function_component]
pub fn FaultTimeline(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let end = pg.end().as_micros().max(1) as f64;
    let strip = use_node_ref();
    // Index being dragged and where the press was (client x); the move is committed on
    // release (one rebuild, one undo step).
    let dragging = use_state(|| None::<(usize, f64)>);
    let pct = |us: u64| percent_of(us, end);
    let faults = pg.scenario().faults.clone();
    let px = Some(strip_width(&strip))
        .filter(|w| *w > 0.0)
        .unwrap_or(STRIP_PX_BEFORE_LAYOUT);
    let on_up = drag_release(&strip, &dragging, &faults, end as u64, &props.on_action);
    let cursor = pct(pg.now().as_micros());
    let lane = chip_lanes(&faults, end, px);
    let lane_count = lane.iter().max().map_or(1, |m| m + 1);
    let selected = pg
        .selection
        .fault
        .and_then(|i| faults.get(i).cloned().map(|f| (i, format!("{i}-{f:?}"), f)));
    html! {
        <>
        <div id="fault-timeline" class="fault-timeline" ref={ strip } onpointerup={ on_up }
             role="group" aria-label="fault timeline" style={ format!("height:{}rem", 0.4 + 1.4 * lane_count as f64) }>
            <div class="cursor-line" style={ format!("left:{cursor}%") } />
            { for faults.iter().enumerate().map(|(i, f)| {
                let chip = Chip {
                    index: i,
                    fault: f,
                    lane: lane[i],
                    selected: pg.selection.fault == Some(i),
                    end_us: end as u64,
                };
                fault_chip(&chip, &dragging, &props.on_action)
            }) }
        </div>
        if let Some((i, key, f)) = selected {
            // Beside the chip: right under the strip, starting at the chip's position.
            <div class="selected-fault-anchor" style={ format!("margin-left:min({}%, calc(100% - 34rem))", pct(f.at.0)) }>
                <SelectedFault { key } index={ i } fault={ f } on_action={ props.on_action.clone() } />
            </div>
        }
        </>
    }
}

/// Where `us` lies on a run of `end_us`, in percent of the strip (at most 100).
fn percent_of(us: u64, end_us: f64) -> f64 {
    (us as f64 / end_us * 100.0).min(100.0)
}

/// The strip's laid-out width in pixels (0 before layout).
fn strip_width(strip: &NodeRef) -> f64 {
    strip
        .cast::<HtmlElement>()
        .map_or(0.0, |el| el.get_bounding_client_rect().width())
}

/// Each fault's lane, so chips that would overlap on a strip `px` wide stack instead.
fn chip_lanes(faults: &[FaultSpec], end_us: f64, px: f64) -> Vec<usize> {
    let extents: Vec<_> = faults
        .iter()
        .map(|f| {
            let label = f.short_label().len();
            chip_extent(
                percent_of(f.at.0, end_us) / 100.0,
                f.duration.map_or(0.0, |d| percent_of(d.0, end_us) / 100.0),
                label,
                px,
            )
        })
        .collect();
    lanes(&extents)
}

/// Releasing the pointer ends a drag: the fault moves by the distance dragged, and not at all
/// when the pointer came up where it went down (a click).
fn drag_release(
    strip: &NodeRef,
    dragging: &UseStateHandle<Option<(usize, f64)>>,
    faults: &[FaultSpec],
    end_us: u64,
    cb: &Callback<Action>,
) -> Callback<PointerEvent> {
    let (strip, dragging, faults, cb) =
        (strip.clone(), dragging.clone(), faults.to_vec(), cb.clone());
    Callback::from(move |e: PointerEvent| {
        let Some((i, down_x)) = *dragging else {
            return;
        };
        dragging.set(None);
        let Some(f) = faults.get(i) else {
            return;
        };
        let (up_x, width) = (e.client_x() as f64, strip_width(&strip));
        if let Some(t) = dragged_start(f.at.0, down_x, up_x, width, end_us) {
            let mut moved = f.clone();
            moved.at = Dur(t);
            cb.emit(Action::UpdateFault(i, moved));
        }
    })
}

/// One chip on the strip.
struct Chip<'a> {
    index: usize,
    fault: &'a FaultSpec,
    lane: usize,
    selected: bool,
    end_us: u64,
}

/// A chip: a marker (instant fault) or a bar (with a duration) on its lane, which a click
/// selects, a press starts dragging, and keys edit (`chip_key`).
fn fault_chip(
    chip: &Chip<'_>,
    dragging: &UseStateHandle<Option<(usize, f64)>>,
    cb: &Callback<Action>,
) -> Html {
    let (i, f, selected) = (chip.index, chip.fault, chip.selected);
    let end = chip.end_us as f64;
    let left = percent_of(f.at.0, end);
    let width = f
        .duration
        .map(|d| percent_of(d.0, end).max(0.6))
        .unwrap_or(0.0);
    let select = {
        let cb = cb.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::SelectFault(Some(i))))
    };
    let down = {
        let dragging = dragging.clone();
        Callback::from(move |e: PointerEvent| {
            e.prevent_default();
            dragging.set(Some((i, e.client_x() as f64)));
        })
    };
    let keys = {
        let (cb, f, end_us) = (cb.clone(), f.clone(), chip.end_us);
        Callback::from(move |e: KeyboardEvent| {
            if let Some(a) = chip_key(&e.key(), i, &f, end_us) {
                e.prevent_default();
                e.stop_propagation();
                cb.emit(a);
            }
        })
    };
    let top = format!("top:{}rem", 0.2 + 1.4 * chip.lane as f64);
    let style = if width > 0.0 {
        format!("left:{left}%;width:{width}%;{top}")
    } else {
        format!("left:{left}%;{top}")
    };
    html! {
        <div class={ classes!("fault", f.action.name(), (width > 0.0).then_some("bar"), selected.then_some("selected")) }
             style={ style } data-fault={ i.to_string() }
             title={ format!("{} at {}", f.short_label(), f.at) }
             tabindex="0" role="button" aria-pressed={ selected.to_string() }
             aria-label={ format!("fault {}: {} at {}; Enter edits, arrows move it by a second, Delete removes it", i + 1, f.short_label(), f.at) }
             onclick={ select } onpointerdown={ down } onkeydown={ keys }>
            <span>{ f.short_label() }</span>
        </div>
    }
}

//! The region map: one pixel per region on a canvas, painted from the view model's colour
//! indices in one `ImageData` (no DOM node per region, so 256,000 regions stay cheap).

use std::rc::Rc;

use yew::prelude::*;

use super::canvas;
use crate::view_model::region_map::{
    css_colour, next_leaderless, rgba_bytes, RegionMapVm, LEADERLESS, LEADERLESS_HIBERNATED,
    MAX_COLOURED_STORES, STORE_BASE,
};

/// Props of [`RegionMap`].
#[derive(Properties, PartialEq)]
pub struct RegionMapProps {
    /// From `view_model::region_map(&run)`.
    pub map: Rc<RegionMapVm>,
    /// The selected region, outlined.
    #[prop_or_default]
    pub selected: Option<u32>,
    /// A region was clicked.
    pub on_select_region: Callback<u32>,
    /// The pointer moved over a region (or off the map).
    #[prop_or_default]
    pub on_hover_region: Callback<Option<u32>>,
    /// Small maps are scaled up to at least this many CSS pixels wide.
    #[prop_or(320)]
    pub min_css_px: u32,
}

/// CSS pixels per region: whole numbers keep pixels crisp.
fn scale(width: u32, min_css_px: u32) -> u32 {
    min_css_px.div_ceil(width.max(1)).clamp(1, 16)
}

/// The region map with its legend.
#[function_component]
pub fn RegionMap(props: &RegionMapProps) -> Html {
    let canvas_ref = use_node_ref();
    let hover = use_state(|| None::<u32>);
    use_map_painting(&canvas_ref, &props.map);
    let map = &props.map;
    let px = scale(map.width, props.min_css_px);
    let (onmousemove, onmouseleave, onclick) = pointer_handlers(&canvas_ref, &hover, props);
    let outline = selected_outline(map, props.selected, px);
    let size = format!("width:{}px;height:{}px", map.width * px, map.height * px);
    html! {
        <section class="view region-map" data-regions={ map.regions.to_string() }>
            <div class="region-map-canvas" style={ size.clone() }>
                <canvas ref={ canvas_ref } style={ size } width={ map.width.to_string() }
                        height={ map.height.to_string() } aria-label="region map"
                        {onmousemove} {onmouseleave} {onclick} />
                { for outline }
            </div>
            <p class="region-map-hover">
                { match *hover {
                    Some(r) => format!("region {r}: click for detail"),
                    None => format!("{} regions, one pixel each", map.regions),
                } }
            </p>
            { next_leaderless_control(map, props.selected, &props.on_select_region) }
            { legend(&map.stores, Some(map)) }
        </section>
    }
}

/// Paints `map` on the canvas after a render in which the map or the canvas element changed.
/// Keyed on the element too, not on the map alone: selecting the first region (the outline
/// appears) gives the component a new, blank `<canvas>`, and a heatmap click at the cursor's
/// own time selects a region without changing the map, which left the map blank.
#[hook]
fn use_map_painting(canvas_ref: &NodeRef, map: &Rc<RegionMapVm>) {
    let painted = use_mut_ref(|| None::<(web_sys::Node, Rc<RegionMapVm>)>);
    let (canvas_ref, map) = (canvas_ref.clone(), map.clone());
    use_effect(move || {
        let node = canvas_ref.get();
        let mut last = painted.borrow_mut();
        let stale = match (&*last, &node) {
            (Some((n, m)), Some(now)) => n != now || !Rc::ptr_eq(m, &map),
            _ => true,
        };
        if stale {
            canvas::put_rgba(&canvas_ref, map.width, map.height, &rgba_bytes(&map));
            *last = node.map(|n| (n, map.clone()));
        }
    });
}

/// Hovering reports the region under the pointer (once per change), leaving reports none,
/// and a click selects the region under it.
fn pointer_handlers(
    canvas_ref: &NodeRef,
    hover: &UseStateHandle<Option<u32>>,
    props: &RegionMapProps,
) -> (
    Callback<MouseEvent>,
    Callback<MouseEvent>,
    Callback<MouseEvent>,
) {
    let region_under = {
        let canvas_ref = canvas_ref.clone();
        let map = props.map.clone();
        move |e: &MouseEvent| {
            let (x, y) = canvas::canvas_xy(&canvas_ref, e)?;
            if x < 0.0 || y < 0.0 {
                return None;
            }
            map.region_at(x as u32, y as u32)
        }
    };
    let onmousemove = {
        let (hover, cb, under) = (
            hover.clone(),
            props.on_hover_region.clone(),
            region_under.clone(),
        );
        Callback::from(move |e: MouseEvent| {
            let r = under(&e);
            if *hover != r {
                hover.set(r);
                cb.emit(r);
            }
        })
    };
    let onmouseleave = {
        let (hover, cb) = (hover.clone(), props.on_hover_region.clone());
        Callback::from(move |_| {
            hover.set(None);
            cb.emit(None);
        })
    };
    let onclick = {
        let cb = props.on_select_region.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(r) = region_under(&e) {
                cb.emit(r);
            }
        })
    };
    (onmousemove, onmouseleave, onclick)
}

/// The outline over the selected region's pixel block (`px` CSS pixels a side), if it is on
/// the map.
fn selected_outline(map: &RegionMapVm, selected: Option<u32>, px: u32) -> Option<Html> {
    selected.filter(|r| *r < map.regions).map(|r| {
        let (x, y) = (r % map.width.max(1), r / map.width.max(1));
        let style = format!(
            "left:{}px;top:{}px;width:{px}px;height:{px}px",
            x * px,
            y * px
        );
        html! { <div class="region-map-selected" style={ style } /> }
    })
}

/// "Next leaderless region": selects the leaderless region after the selected one in key
/// order (wrapping round), or says there is none.
fn next_leaderless_control(
    map: &RegionMapVm,
    selected: Option<u32>,
    on_select: &Callback<u32>,
) -> Html {
    let Some(next) = next_leaderless(&map.leaderless, selected) else {
        return html! {
            <p class="region-map-next" data-next-leaderless="none">
                <button type="button" disabled=true>{ "Next leaderless region" }</button>
                { " no leaderless region" }
            </p>
        };
    };
    let onclick = {
        let cb = on_select.clone();
        Callback::from(move |_: MouseEvent| cb.emit(next))
    };
    html! {
        <p class="region-map-next" data-next-leaderless={ next.to_string() }>
            <button type="button" data-action="next-leaderless" {onclick}>{ "Next leaderless region" }</button>
            { format!(" {} leaderless", map.leaderless.len()) }
        </p>
    }
}

/// The colour legend shared with the heatmap: the two leaderless kinds, then each store's
/// awake and hibernated hue, with the region map's counts when given.
pub fn legend(stores: &[String], map: Option<&RegionMapVm>) -> Html {
    let item = |index: u8, label: String| {
        let count =
            map.map(|m| html! { <>{ " " }<span class="count">{ m.count(index) }</span></> });
        html! {
            <li data-colour={ index.to_string() }>
                <span class="swatch" style={ format!("background:{}", css_colour(index)) } />
                { label }{ for count }
            </li>
        }
    };
    let stores = stores.iter().take(MAX_COLOURED_STORES as usize).enumerate();
    html! {
        <ul class="legend">
            { item(LEADERLESS, "leaderless".into()) }
            { item(LEADERLESS_HIBERNATED, "leaderless, hibernated".into()) }
            { for stores.flat_map(|(s, name)| {
                let base = STORE_BASE + 2 * s as u8;
                [item(base, format!("led by {name}")), item(base + 1, format!("{name}, hibernated"))]
            }) }
        </ul>
    }
}

//! One node on the topology canvas: its box, name, leader count or kind, and state badge, and
//! the pointer and key handlers that select it, start a drag and open its menu.

use yew::prelude::*;

use crate::engine::protocol::NodeView;
use crate::playground::topology::TopoNode;
use crate::playground::Action;

/// What a node's glyph shows.
pub struct NodeGlyph<'a> {
    /// The node.
    pub node: &'a TopoNode,
    /// Its position on the canvas (SVG coordinates).
    pub at: (f64, f64),
    /// Its state in the engine's latest frame (none before the first frame: shown as up).
    pub live: Option<&'a NodeView>,
    /// Whether it is the selected node.
    pub selected: bool,
    /// Whether the guide's current step points at it.
    pub guided: bool,
}

/// The node's SVG group.
pub fn node_glyph(
    g: &NodeGlyph<'_>,
    dragging: &UseStateHandle<Option<String>>,
    cb: &Callback<Action>,
) -> Html {
    let n = g.node;
    let (x, y) = g.at;
    let state = g.live.map_or_else(|| "up".to_string(), |l| l.state.clone());
    let leaders = g.live.and_then(|l| l.leaders);
    let name = n.name.clone();
    // What the node shows under its name. Its accessible name is this text itself (no
    // aria-label that could drift from it); aria-haspopup says Enter opens a menu.
    let sub = match leaders {
        Some(l) => format!("{l:.0} leaders"),
        None => n.kind.label().to_string(),
    };
    let (down, keys, menu) = node_handlers(&name, dragging, cb);
    html! {
        <g class={ classes!("node", n.kind.label().to_lowercase(), state.clone(), g.selected.then_some("selected"), g.guided.then_some("guided")) }
           transform={ format!("translate({x:.0},{y:.0})") }
           data-node={ name.clone() } data-state={ state.clone() }
           tabindex="0" role="button" aria-haspopup="menu"
           onpointerdown={ down } oncontextmenu={ menu } onkeydown={ keys }>
            <rect x="-38" y="-20" width="76" height="40" rx="8" />
            <text class="name" y="-4">{ &n.name }</text>
            <text class="sub" y="12">{ sub.clone() }</text>
            if state != "up" {
                <text class="badge" y="32">{ state.clone() }</text>
            }
            if let Some(l) = leaders {
                <title>{ format!("{} · {} · {:.0} leaders", n.name, state, l) }</title>
            }
        </g>
    }
}

/// Pointer down (select and start a drag; a tap also opens the menu), keys (Enter, Space or
/// the menu key open the menu) and right click (the menu).
fn node_handlers(
    name: &str,
    dragging: &UseStateHandle<Option<String>>,
    cb: &Callback<Action>,
) -> (
    Callback<PointerEvent>,
    Callback<KeyboardEvent>,
    Callback<MouseEvent>,
) {
    let down = {
        let (dragging, cb, name) = (dragging.clone(), cb.clone(), name.to_string());
        Callback::from(move |e: PointerEvent| {
            if e.button() == 0 {
                dragging.set(Some(name.clone()));
                cb.emit(Action::SelectNode(Some(name.clone())));
                // A touch screen has no right click: a tap opens the node's menu.
                if e.pointer_type() == "touch" {
                    cb.emit(Action::ContextMenu(Some(name.clone())));
                }
            }
        })
    };
    let keys = {
        let (cb, name) = (cb.clone(), name.to_string());
        Callback::from(move |e: KeyboardEvent| {
            if matches!(e.key().as_str(), "Enter" | " " | "ContextMenu") {
                e.prevent_default();
                cb.emit(Action::SelectNode(Some(name.clone())));
                cb.emit(Action::ContextMenu(Some(name.clone())));
            }
        })
    };
    let menu = {
        let (cb, name) = (cb.clone(), name.to_string());
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            cb.emit(Action::ContextMenu(Some(name.clone())));
        })
    };
    (down, keys, menu)
}

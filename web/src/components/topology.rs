//! The topology editor: an SVG canvas of PD, TiKV stores, TiCDC captures and MySQL with the
//! changefeeds, showing each node's state at the cursor (up / crashed / paused, leaders per
//! store). Add from the palette, drag to place, right-click for faults, remove.

use web_sys::Element;
use yew::prelude::*;

use super::node_menu::NodeMenu;
use super::topology_node::{node_glyph, NodeGlyph};
use super::PanelProps;
use crate::playground::topology::{self, NodeKind, HEIGHT, WIDTH};
use crate::playground::Action;

/// The editor.
#[function_component]
pub fn Topology(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let svg = use_node_ref();
    let dragging = use_state(|| None::<String>);
    let s = pg.scenario();
    // Node states come from the engine's latest frame (none before the first one).
    let live = &pg.frame.nodes;
    let nodes = topology::nodes(live.iter().map(|n| (n.name.as_str(), n.kind.as_str())));
    let pos = |n: &topology::TopoNode| topology::position(&n.name, n.kind, &pg.selection.positions);
    let mysql = nodes.iter().find(|n| n.kind == NodeKind::Mysql).map(pos);
    let pd = nodes.first().map(pos).unwrap_or((0.0, 0.0));
    let (on_move, on_up) = drag_handlers(&svg, &dragging, &props.on_action);

    let ids: Vec<&str> = s.changefeeds.iter().map(|c| c.id.as_str()).collect();
    let changefeeds = ids.join(", ");
    let edges = nodes
        .iter()
        .filter(|n| n.kind != NodeKind::Pd)
        .map(|n| edges_of(n.kind, pos(n), pd, mysql, &changefeeds));
    let guided = pg.guide_nav().and_then(|g| g.view.node);
    let drawn = nodes.iter().map(|n| {
        let glyph = NodeGlyph {
            node: n,
            at: pos(n),
            live: live.iter().find(|l| l.name == n.name),
            selected: pg.selection.node.as_deref() == Some(n.name.as_str()),
            guided: guided == Some(n.name.as_str()),
        };
        node_glyph(&glyph, &dragging, &props.on_action)
    });

    html! {
        <section class="panel topology" id="topology">
            <h3>{ "Topology" }</h3>
            { palette(pg.selection.node.clone(), &props.on_action) }
            <div class="canvas-wrap">
                <svg ref={ svg } viewBox={ format!("0 0 {WIDTH} {HEIGHT}") } class="topo"
                     onpointermove={ on_move } onpointerup={ on_up.clone() } onpointerleave={ on_up }>
                    { for edges }
                    { for drawn }
                </svg>
                if let Some(name) = pg.selection.menu.clone() {
                    <NodeMenu state={ node_state(&pg.frame.nodes, &name) } name={ name } at={ pg.now().as_micros() } on_action={ props.on_action.clone() } />
                }
            </div>
            <p class="hint">{ "Drag to place (positions stay in this browser). Right-click a node for faults. Names are fixed by the model (tikv-1..N, cdc-1..N), so nodes cannot be renamed; only the last store or capture can be removed." }</p>
        </section>
    }
}

/// The canvas's pointer handlers: a move while a node is held moves it (in SVG coordinates,
/// kept inside the canvas); releasing or leaving the canvas lets go.
fn drag_handlers(
    svg: &NodeRef,
    dragging: &UseStateHandle<Option<String>>,
    cb: &Callback<Action>,
) -> (Callback<PointerEvent>, Callback<PointerEvent>) {
    let to_svg = {
        let svg = svg.clone();
        move |x: i32, y: i32| -> Option<(f64, f64)> {
            let r = svg.cast::<Element>()?.get_bounding_client_rect();
            let sx = (x as f64 - r.left()) / r.width().max(1.0) * WIDTH;
            let sy = (y as f64 - r.top()) / r.height().max(1.0) * HEIGHT;
            Some((sx.clamp(20.0, WIDTH - 20.0), sy.clamp(20.0, HEIGHT - 20.0)))
        }
    };
    let on_move = {
        let (dragging, cb) = (dragging.clone(), cb.clone());
        Callback::from(move |e: PointerEvent| {
            if let (Some(name), Some((x, y))) =
                ((*dragging).clone(), to_svg(e.client_x(), e.client_y()))
            {
                cb.emit(Action::MoveNode(name, x, y));
            }
        })
    };
    let on_up = {
        let dragging = dragging.clone();
        Callback::from(move |_: PointerEvent| dragging.set(None))
    };
    (on_move, on_up)
}

/// A node's edges: stores and captures to PD, and a capture to MySQL labelled with the
/// changefeeds it replicates.
fn edges_of(
    kind: NodeKind,
    (x, y): (f64, f64),
    pd: (f64, f64),
    mysql: Option<(f64, f64)>,
    changefeeds: &str,
) -> Html {
    let cf_edge = match (kind, mysql) {
        (NodeKind::Cdc, Some((mx, my))) => html! {
            <g class="edge changefeed">
                <line x1={ x.to_string() } y1={ y.to_string() } x2={ mx.to_string() } y2={ my.to_string() } />
                <text x={ ((x + mx) / 2.0).to_string() } y={ ((y + my) / 2.0 - 4.0).to_string() }>{ changefeeds.to_string() }</text>
            </g>
        },
        _ => html! {},
    };
    html! {
        <>
            if kind == NodeKind::Tikv || kind == NodeKind::Cdc {
                <line class="edge pd" x1={ pd.0.to_string() } y1={ pd.1.to_string() } x2={ x.to_string() } y2={ y.to_string() } />
            }
            { cf_edge }
        </>
    }
}

/// The toolbar that adds nodes, and removes the selected one.
fn palette(selected: Option<String>, cb: &Callback<Action>) -> Html {
    let send = |a: Action| {
        let cb = cb.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    html! {
        <div class="row palette" role="toolbar" aria-label="add nodes">
            <button id="add-tikv" onclick={ send(Action::AddNode(NodeKind::Tikv)) }>{ "+ TiKV store" }</button>
            <button id="add-cdc" onclick={ send(Action::AddNode(NodeKind::Cdc)) }>{ "+ TiCDC capture" }</button>
            <button id="add-changefeed" onclick={ send(Action::AddNode(NodeKind::Mysql)) }>{ "+ changefeed to MySQL" }</button>
            if let Some(sel) = selected {
                <button id="remove-node" class="danger" onclick={ send(Action::RemoveNode(sel.clone())) }>{ format!("Remove {sel}") }</button>
            }
        </div>
    }
}

/// `name`'s state at the cursor, as the frame has it (`up` if the frame does not list it yet).
fn node_state(nodes: &[crate::engine::protocol::NodeView], name: &str) -> AttrValue {
    let state = nodes
        .iter()
        .find(|n| n.name == name)
        .map(|n| n.state.clone());
    AttrValue::from(state.unwrap_or_else(|| "up".to_string()))
}

//! The topology editor: an SVG canvas of PD, TiKV stores, TiCDC captures and MySQL with the
//! changefeeds, showing each node's state at the cursor (up / crashed / paused, leaders per
//! store). Add from the palette, drag to place, right-click for faults, remove.

use faultline_scenario::FaultAction;
use web_sys::Element;
use yew::prelude::*;

use super::PanelProps;
use crate::playground::node_edit::{kind_of, menu_faults, removable};
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
    let pos = |n: &topology::TopoNode| topology::position(&n.name, n.kind, &pg.positions);
    let mysql = nodes.iter().find(|n| n.kind == NodeKind::Mysql).map(pos);
    let pd = nodes.first().map(pos).unwrap_or((0.0, 0.0));

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
        let (dragging, cb, to_svg) = (dragging.clone(), props.on_action.clone(), to_svg.clone());
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

    let edges = nodes.iter().filter(|n| n.kind != NodeKind::Pd).map(|n| {
        let (x, y) = pos(n);
        let cf_edge = match (n.kind, mysql) {
            (NodeKind::Cdc, Some((mx, my))) => {
                let ids: Vec<&str> = s.changefeeds.iter().map(|c| c.id.as_str()).collect();
                html! {
                    <g class="edge changefeed">
                        <line x1={ x.to_string() } y1={ y.to_string() } x2={ mx.to_string() } y2={ my.to_string() } />
                        <text x={ ((x + mx) / 2.0).to_string() } y={ ((y + my) / 2.0 - 4.0).to_string() }>{ ids.join(", ") }</text>
                    </g>
                }
            }
            _ => html! {},
        };
        html! {
            <>
                if n.kind == NodeKind::Tikv || n.kind == NodeKind::Cdc {
                    <line class="edge pd" x1={ pd.0.to_string() } y1={ pd.1.to_string() } x2={ x.to_string() } y2={ y.to_string() } />
                }
                { cf_edge }
            </>
        }
    });

    let drawn = nodes.iter().map(|n| {
        let (x, y) = pos(n);
        let info = live.iter().find(|l| l.name == n.name);
        let state = info.map_or_else(|| "up".to_string(), |l| l.state.clone());
        let leaders = info.and_then(|l| l.leaders);
        let selected = pg.selected_node.as_deref() == Some(n.name.as_str());
        let guided = pg.guide_nav().and_then(|g| g.view.node) == Some(n.name.as_str());
        let name = n.name.clone();
        // What the node shows under its name. Its accessible name is this text itself (no
        // aria-label that could drift from it); aria-haspopup says Enter opens a menu.
        let sub = match leaders {
            Some(l) => format!("{l:.0} leaders"),
            None => n.kind.label().to_string(),
        };
        let down = {
            let (dragging, cb, name) = (dragging.clone(), props.on_action.clone(), name.clone());
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
            let (cb, name) = (props.on_action.clone(), name.clone());
            Callback::from(move |e: KeyboardEvent| {
                if matches!(e.key().as_str(), "Enter" | " " | "ContextMenu") {
                    e.prevent_default();
                    cb.emit(Action::SelectNode(Some(name.clone())));
                    cb.emit(Action::ContextMenu(Some(name.clone())));
                }
            })
        };
        let menu = {
            let (cb, name) = (props.on_action.clone(), name.clone());
            Callback::from(move |e: MouseEvent| {
                e.prevent_default();
                cb.emit(Action::ContextMenu(Some(name.clone())));
            })
        };
        html! {
            <g class={ classes!("node", n.kind.label().to_lowercase(), state.clone(), selected.then_some("selected"), guided.then_some("guided")) }
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
    });

    let send = |a: Action| {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(a.clone()))
    };
    html! {
        <section class="panel topology" id="topology">
            <h3>{ "Topology" }</h3>
            <div class="row palette" role="toolbar" aria-label="add nodes">
                <button id="add-tikv" onclick={ send(Action::AddNode(NodeKind::Tikv)) }>{ "+ TiKV store" }</button>
                <button id="add-cdc" onclick={ send(Action::AddNode(NodeKind::Cdc)) }>{ "+ TiCDC capture" }</button>
                <button id="add-changefeed" onclick={ send(Action::AddNode(NodeKind::Mysql)) }>{ "+ changefeed to MySQL" }</button>
                if let Some(sel) = pg.selected_node.clone() {
                    <button id="remove-node" class="danger" onclick={ send(Action::RemoveNode(sel.clone())) }>{ format!("Remove {sel}") }</button>
                }
            </div>
            <div class="canvas-wrap">
                <svg ref={ svg } viewBox={ format!("0 0 {WIDTH} {HEIGHT}") } class="topo"
                     onpointermove={ on_move } onpointerup={ on_up.clone() } onpointerleave={ on_up }>
                    { for edges }
                    { for drawn }
                </svg>
                if let Some(name) = pg.menu_node.clone() {
                    <NodeMenu name={ name } at={ pg.now().as_micros() } on_action={ props.on_action.clone() } />
                }
            </div>
            <p class="hint">{ "Drag to place (positions stay in this browser). Right-click a node for faults. Names are fixed by the model (tikv-1..N, cdc-1..N), so nodes cannot be renamed; only the last store or capture can be removed." }</p>
        </section>
    }
}

/// Props of [`NodeMenu`].
#[derive(Properties, PartialEq, Clone)]
pub struct NodeMenuProps {
    /// The node.
    pub name: AttrValue,
    /// The cursor, in microseconds (faults apply here).
    pub at: u64,
    /// Where actions go.
    pub on_action: Callback<Action>,
}

/// A node's context menu: the faults that apply to it now, step to its next event, remove it
/// (`playground::node_edit` decides what applies).
#[function_component]
pub fn NodeMenu(props: &NodeMenuProps) -> Html {
    let item = |label: String, actions: Vec<Action>| {
        let cb = props.on_action.clone();
        // Close first: every action clears the notice, and an action's notice (why a node
        // cannot be removed) must stay.
        let onclick = Callback::from(move |_: MouseEvent| {
            cb.emit(Action::ContextMenu(None));
            for a in &actions {
                cb.emit(a.clone());
            }
        });
        html! { <li><button class="link" {onclick}>{ label }</button></li> }
    };
    let name = props.name.to_string();
    let kind = kind_of(&name);
    let fault = |a: FaultAction| faultline_scenario::FaultSpec {
        at: faultline_scenario::Dur(props.at),
        action: a,
        target: name.clone(),
        peers: None,
        one_way: false,
        loss_percent: (a == FaultAction::Loss).then_some(30),
        delay: (a == FaultAction::Delay).then_some(faultline_scenario::Dur::millis(200)),
        duration: None,
    };
    html! {
        <div class="node-menu" id="node-menu" role="menu">
            <strong>{ &name }</strong>
            <ul>
                { for menu_faults(kind).into_iter().map(|a| item(format!("{} now", a.name()), vec![Action::AddFault(fault(a))])) }
                { item("Step to its next event".into(), vec![Action::StepToNode(name.clone())]) }
                if removable(kind) {
                    { item("Remove".into(), vec![Action::RemoveNode(name.clone())]) }
                }
                { item("Close".into(), vec![]) }
            </ul>
        </div>
    }
}

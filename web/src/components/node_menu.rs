//! A topology node's context menu: the faults that apply to that node now, step to its next
//! event, remove it.

use faultline_scenario::FaultAction;
use yew::prelude::*;

use crate::playground::node_edit::{kind_of, menu_faults_now, removable};
use crate::playground::Action;

/// Props of [`NodeMenu`].
#[derive(Properties, PartialEq, Clone)]
pub struct NodeMenuProps {
    /// The node.
    pub name: AttrValue,
    /// Its state at the cursor (`up`, `crashed`, `paused`, ...): what "now" can do to it.
    pub state: AttrValue,
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
    let fault = |a: FaultAction| {
        faultline_scenario::FaultSpec::new(faultline_scenario::Dur(props.at), a, &name)
    };
    html! {
        <div class="node-menu" id="node-menu" role="menu">
            <strong>{ &name }</strong>
            <ul>
                { for menu_faults_now(kind, &props.state).into_iter().map(|a| item(format!("{} now", a.name()), vec![Action::AddFault(fault(a))])) }
                { item("Step to its next event".into(), vec![Action::StepToNode(name.clone())]) }
                if removable(kind) {
                    { item("Remove".into(), vec![Action::RemoveNode(name.clone())]) }
                }
                { item("Close".into(), vec![]) }
            </ul>
        </div>
    }
}

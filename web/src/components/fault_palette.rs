//! The fault palette: pick a fault and a target, apply it now (at the cursor) or schedule it
//! at a time; every field of a fault is here (peers, one way, loss percent, delay, duration),
//! shown for the verbs that take it. The selected fault's editor (opened beside its chip on
//! the timeline) has the same fields.

use faultline_scenario::{
    parse_duration_arg, ChangefeedSpec, FaultAction, FaultSpec, Targets, MAX_SPLIT_PARTS,
};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::PanelProps;
use crate::engine::protocol::NodeView;
use crate::playground::node_edit::{kind_of, menu_faults};
use crate::playground::Action;

fn select_value(e: &Event) -> Option<String> {
    e.target_dyn_into::<HtmlSelectElement>().map(|s| s.value())
}

fn input_value(e: &InputEvent) -> Option<String> {
    e.target_dyn_into::<HtmlInputElement>().map(|s| s.value())
}

/// A text field bound to a `UseStateHandle<String>`.
fn text_field(
    id: String,
    label: &'static str,
    value: &UseStateHandle<String>,
    hint: &'static str,
) -> Html {
    let v = value.clone();
    let on_input = Callback::from(move |e: InputEvent| {
        if let Some(s) = input_value(&e) {
            v.set(s);
        }
    });
    html! {
        <label>{ label }
            <input { id } type="text" size="7" placeholder={ hint } value={ (**value).clone() } oninput={ on_input } />
        </label>
    }
}

/// The fields of a fault besides its verb, target and time, as the user typed them.
#[derive(Clone, PartialEq)]
struct FaultFields {
    peers: UseStateHandle<String>,
    one_way: UseStateHandle<bool>,
    loss: UseStateHandle<String>,
    delay: UseStateHandle<String>,
    duration: UseStateHandle<String>,
    /// `transfer_leader`: the store whose leaders move.
    from: UseStateHandle<String>,
    /// `transfer_leader`: or the one region whose leader moves; `split`: the region to split.
    region: UseStateHandle<String>,
    /// `split`: how many regions it becomes.
    parts: UseStateHandle<String>,
    /// `split`: instead of a region, every region of this table (`t1`)...
    table: UseStateHandle<String>,
    /// ...or, with a table, the region holding this row, cut at its key.
    row: UseStateHandle<String>,
}

fn optional_dur(text: &str, field: &str) -> Result<Option<faultline_scenario::Dur>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    parse_duration_arg(text)
        .map(Some)
        .map_err(|e| format!("{field}: {e}"))
}

impl FaultFields {
    /// Writes the fields into `f` (for the verbs that take them), or says which is wrong.
    fn fill(&self, f: &mut FaultSpec) -> Result<(), String> {
        let link = f.action.verb().is_link_fault();
        let peers = self.peers.trim();
        f.peers = (link && !peers.is_empty()).then(|| peers.to_string());
        f.one_way = link && *self.one_way;
        f.loss_percent = None;
        if f.action == FaultAction::Loss {
            let text = self.loss.trim();
            match text.parse::<u32>() {
                Ok(p) if (1..=100).contains(&p) => f.loss_percent = Some(p),
                _ => {
                    return Err(format!(
                        "loss percent: `{text}` is not a whole number from 1 to 100"
                    ))
                }
            }
        }
        f.delay = None;
        if f.action == FaultAction::Delay {
            f.delay = optional_dur(&self.delay, "delay")?;
            if f.delay.is_none() {
                return Err("delay: give the added latency, e.g. 200ms".into());
            }
        }
        self.fill_transfer(f)?;
        // A verb no duration undoes has no "for" field: a value typed for another verb stays.
        f.duration = if f.action.undoable() {
            optional_dur(&self.duration, "duration")?
        } else {
            None
        };
        Ok(())
    }

    /// `transfer_leader`'s source: one region, or every leader of a store.
    fn fill_transfer(&self, f: &mut FaultSpec) -> Result<(), String> {
        f.from = None;
        f.region = None;
        f.parts = None;
        f.table = None;
        f.row = None;
        if f.action == FaultAction::Split {
            return self.fill_split(f);
        }
        if f.action == FaultAction::Merge {
            let region = self.region.trim();
            let r = region.parse::<u32>();
            f.region = Some(r.map_err(|_| {
                format!("merge: give the region that merges into its neighbour (e.g. 7), not `{region}`")
            })?);
            return Ok(());
        }
        if f.action != FaultAction::TransferLeader {
            return Ok(());
        }
        let (from, region) = (self.from.trim(), self.region.trim());
        match (from.is_empty(), region.is_empty()) {
            (true, true) => Err(
                "transfer leader: give the store whose leaders move (e.g. tikv-1) or one region"
                    .into(),
            ),
            (false, false) => Err("transfer leader: give a store or a region, not both".into()),
            (false, true) => {
                f.from = Some(from.to_string());
                Ok(())
            }
            (true, false) => match region.parse::<u32>() {
                Ok(r) => {
                    f.region = Some(r);
                    Ok(())
                }
                Err(_) => Err(format!(
                    "transfer leader: region `{region}` is not a region number"
                )),
            },
        }
    }

    /// `split`'s region or table (one of them), the table's row (optional) and parts (2 when
    /// empty).
    fn fill_split(&self, f: &mut FaultSpec) -> Result<(), String> {
        let (region, table, row) = (self.region.trim(), self.table.trim(), self.row.trim());
        match (region.is_empty(), table.is_empty()) {
            (false, false) => return Err("split: give a region or a table, not both".into()),
            (true, true) => return Err("split: give a region (e.g. 7) or a table (e.g. t1)".into()),
            (false, true) => {
                let r = region.parse::<u32>();
                f.region = Some(
                    r.map_err(|_| format!("split: region `{region}` is not a region number"))?,
                );
            }
            (true, false) => {
                f.table = Some(table.to_string());
                if f.split_table().is_none() {
                    return Err(format!(
                        "split: table `{table}` is not a table name like t1"
                    ));
                }
            }
        }
        if !row.is_empty() {
            let n = row.parse::<u32>();
            f.row = Some(n.map_err(|_| format!("split: row `{row}` is not a row number"))?);
        }
        let parts = self.parts.trim();
        if !parts.is_empty() {
            match parts.parse::<u32>() {
                Ok(n) if (2..=MAX_SPLIT_PARTS).contains(&n) => f.parts = Some(n),
                _ => {
                    return Err(format!(
                        "split: parts `{parts}` is not a number from 2 to {MAX_SPLIT_PARTS}"
                    ))
                }
            }
        }
        Ok(())
    }

    /// The inputs for `action`, ids prefixed by `prefix`.
    fn view(&self, prefix: &str, action: FaultAction) -> Html {
        let one_way = self.one_way.clone();
        let on_one_way = Callback::from(move |e: Event| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                one_way.set(i.checked());
            }
        });
        html! {
            <>
            if action.verb().is_link_fault() {
                { text_field(format!("{prefix}-peers"), "peers", &self.peers, "all others") }
                <label class="check">
                    <input id={ format!("{prefix}-one-way") } type="checkbox" checked={ *self.one_way } onchange={ on_one_way } />
                    { "one way (target to peers only)" }
                </label>
            }
            if action == FaultAction::Loss {
                { text_field(format!("{prefix}-loss"), "loss %", &self.loss, "1-100") }
            }
            if action == FaultAction::Delay {
                { text_field(format!("{prefix}-delay"), "delay", &self.delay, "e.g. 200ms") }
            }
            if action == FaultAction::TransferLeader {
                { text_field(format!("{prefix}-from"), "leaders of", &self.from, "e.g. tikv-1") }
                { text_field(format!("{prefix}-region"), "or region", &self.region, "e.g. 7") }
            }
            if action == FaultAction::Split {
                { text_field(format!("{prefix}-region"), "region", &self.region, "e.g. 7") }
                { text_field(format!("{prefix}-table"), "or table", &self.table, "e.g. t1") }
                { text_field(format!("{prefix}-row"), "at row", &self.row, "optional") }
                { text_field(format!("{prefix}-parts"), "into", &self.parts, "2") }
            }
            if action == FaultAction::Merge {
                { text_field(format!("{prefix}-region"), "region", &self.region, "e.g. 7") }
            }
            if action.undoable() {
                { text_field(format!("{prefix}-duration"), "for", &self.duration, "e.g. 30s") }
            }
            </>
        }
    }
}

/// The fields' state, starting from `f`'s values (loss and delay show a starting value, so
/// what will be applied is on screen).
#[hook]
fn use_fault_fields(f: Option<&FaultSpec>) -> FaultFields {
    let peers = f.and_then(|f| f.peers.clone()).unwrap_or_default();
    let one_way = f.is_some_and(|f| f.one_way);
    let loss = f.and_then(|f| f.loss_percent).unwrap_or(30).to_string();
    let delay = f
        .and_then(|f| f.delay)
        .map_or("200ms".to_string(), |d| d.to_string());
    let duration = f
        .and_then(|f| f.duration)
        .map(|d| d.to_string())
        .unwrap_or_default();
    let from = f.and_then(|f| f.from.clone()).unwrap_or_default();
    let region = f
        .and_then(|f| f.region)
        .map(|r| r.to_string())
        .unwrap_or_default();
    let parts = f
        .and_then(|f| f.parts)
        .map(|n| n.to_string())
        .unwrap_or_default();
    let table = f.and_then(|f| f.table.clone()).unwrap_or_default();
    let row = f
        .and_then(|f| f.row)
        .map(|n| n.to_string())
        .unwrap_or_default();
    FaultFields {
        from: use_state(move || from),
        region: use_state(move || region),
        parts: use_state(move || parts),
        table: use_state(move || table),
        row: use_state(move || row),
        peers: use_state(move || peers),
        one_way: use_state(move || one_way),
        loss: use_state(move || loss),
        delay: use_state(move || delay),
        duration: use_state(move || duration),
    }
}

/// The palette.
#[function_component]
pub fn FaultPalette(props: &PanelProps) -> Html {
    let pg = props.state.pg.borrow();
    let action = use_state(|| FaultAction::Kill);
    let target = use_state(|| "tikv-1".to_string());
    let at = use_state(String::new);
    let fields = use_fault_fields(None);
    let error = use_state(|| None::<String>);

    // Operator actions on a changefeed take its id; every other verb takes a node.
    let on_changefeed = action.verb().targets() == Targets::Changefeed;
    let names = target_names(&pg.scenario().changefeeds, &pg.frame.nodes, *action);
    let every_store = *target == "tikv-*" && !on_changefeed;
    if !names.contains(&*target) && !every_store {
        if let Some(first) = names.first() {
            target.set(first.clone());
        }
    }
    // Builds the fault from the fields; `now` overrides `at` with the cursor.
    let build = {
        let (action, target, at, fields) =
            (action.clone(), target.clone(), at.clone(), fields.clone());
        let base = pg.fault_now(*action, &target);
        move |now: bool| -> Result<FaultSpec, String> {
            let mut f = base.clone();
            f.action = *action;
            f.target = (*target).clone();
            if !now {
                f.at = parse_duration_arg(at.trim()).map_err(|e| format!("at: {e}"))?;
            }
            fields.fill(&mut f)?;
            Ok(f)
        }
    };
    let submit = |now: bool| {
        let cb = props.on_action.clone();
        let build = build.clone();
        let error = error.clone();
        Callback::from(move |_: MouseEvent| match build(now) {
            Ok(f) => {
                error.set(None);
                cb.emit(Action::AddFault(f));
            }
            Err(e) => error.set(Some(e)),
        })
    };
    html! {
        <section class="panel fault-palette" aria-label="fault palette">
            <h3>{ "Faults" }</h3>
            <div class="row">
                { verb_and_target(&action, &target, &names, on_changefeed, &fields.one_way) }
                { fields.view("fault", *action) }
                <button id="fault-apply-now" class="primary" onclick={ submit(true) }>{ "Apply now" }</button>
                { text_field("fault-at".into(), "at", &at, "e.g. 2m") }
                <button id="fault-schedule" onclick={ submit(false) }>{ "Schedule" }</button>
            </div>
            if let Some(e) = &*error {
                <p class="field-error" role="alert">{ e }</p>
            }
        </section>
    }
}

/// What a verb can target: the changefeeds' ids for an operator action on a changefeed; for
/// every other verb, the nodes of the engine's latest frame that the verb applies to.
fn target_names(
    changefeeds: &[ChangefeedSpec],
    nodes: &[NodeView],
    action: FaultAction,
) -> Vec<String> {
    if action.verb().targets() == Targets::Changefeed {
        changefeeds.iter().map(|c| c.id.clone()).collect()
    } else {
        // The nodes whose own menu offers this verb: captures for scale in and out, stores
        // for leader eviction, every node for process and network faults.
        nodes
            .iter()
            .filter(|n| menu_faults(kind_of(&n.name)).contains(&action))
            .map(|n| n.name.clone())
            .collect()
    }
}

/// The verb and target pickers; a node verb may also target every store at once.
fn verb_and_target(
    action: &UseStateHandle<FaultAction>,
    target: &UseStateHandle<String>,
    names: &[String],
    on_changefeed: bool,
    one_way: &UseStateHandle<bool>,
) -> Html {
    let on_action_pick = {
        let (action, one_way) = (action.clone(), one_way.clone());
        Callback::from(move |e: Event| {
            if let Some(a) =
                select_value(&e).and_then(|v| FaultAction::ALL.into_iter().find(|a| a.name() == v))
            {
                if a != *action {
                    // A new verb starts two-way: a box ticked for a one-way partition must
                    // not make the next loss or delay one-way unasked.
                    one_way.set(false);
                }
                action.set(a);
            }
        })
    };
    let on_target = {
        let target = target.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = select_value(&e) {
                target.set(v);
            }
        })
    };
    html! {
        <>
            <select id="fault-action" aria-label="fault" onchange={ on_action_pick }>
                { for FaultAction::ALL.iter().map(|a| html! {
                    <option value={ a.name() } selected={ *a == **action }>{ a.name() }</option>
                }) }
            </select>
            <select id="fault-target" aria-label="target" onchange={ on_target }>
                { for names.iter().map(|n| html! {
                    <option value={ n.clone() } selected={ *n == **target }>{ n }</option>
                }) }
                if !on_changefeed {
                    <option value="tikv-*" selected={ **target == "tikv-*" }>{ "tikv-* (every store)" }</option>
                }
            </select>
        </>
    }
}

/// Props of [`SelectedFault`].
#[derive(Properties, PartialEq, Clone)]
pub struct SelectedFaultProps {
    /// Index in the scenario's faults.
    pub index: usize,
    /// The fault.
    pub fault: FaultSpec,
    /// Where actions go.
    pub on_action: Callback<Action>,
}

/// Editor of the selected fault: every field but its verb and target; delete it.
#[function_component]
pub fn SelectedFault(props: &SelectedFaultProps) -> Html {
    let at = use_state(|| props.fault.at.to_string());
    let fields = use_fault_fields(Some(&props.fault));
    let error = use_state(|| None::<String>);
    let i = props.index;
    let save = {
        let (at, fields, error, cb, f) = (
            at.clone(),
            fields.clone(),
            error.clone(),
            props.on_action.clone(),
            props.fault.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let mut f = f.clone();
            let parsed = parse_duration_arg(at.trim())
                .map_err(|e| format!("at: {e}"))
                .and_then(|a| {
                    f.at = a;
                    fields.fill(&mut f)
                });
            match parsed {
                Ok(()) => cb.emit(Action::UpdateFault(i, f)),
                Err(e) => error.set(Some(e)),
            }
        })
    };
    let delete = {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::RemoveFault(i)))
    };
    let close = {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::SelectFault(None)))
    };
    html! {
        <div class="selected-fault row" id="selected-fault" role="group"
             aria-label={ format!("edit fault {}", i + 1) }>
            <strong>{ format!("#{} {} {}", i + 1, props.fault.action.name(), props.fault.target) }</strong>
            { text_field("selected-fault-at".into(), "at", &at, "") }
            { fields.view("selected-fault", props.fault.action) }
            <button id="selected-fault-save" onclick={ save }>{ "Save" }</button>
            <button id="selected-fault-delete" class="danger" onclick={ delete }>{ "Delete" }</button>
            <button onclick={ close }>{ "Close" }</button>
            if let Some(e) = &*error {
                <p class="field-error" role="alert">{ e }</p>
            }
        </div>
    }
}

//! Operator actions in the fault script (`pause_changefeed`, `resume_changefeed`,
//! `remove_capture`, `add_capture`): TiCDC model actions, scheduled as timers on `pd-1` (the
//! CLI talks to etcd inside PD), not kernel faults. `evict_leader`, `transfer_leader`,
//! `add_store` and `remove_store` are TiKV model actions, also timers on `pd-1` (pd-ctl adds
//! the scheduler or operator to PD itself; a joining store registers with PD).
//!
//! Simplifications: an action is lost if `pd-1` is down when it fires, or was killed since the
//! run started (timers armed by an earlier life of a node are dropped). A `remove_capture` at
//! `0s` means the capture starts outside the cluster (a node ready for a later scale-out).

use faultline_cdc::capture::session::{OperatorAction, SessionTimer};
use faultline_cdc::msg::CdcTimer;
use faultline_cdc::StackTimer;
use faultline_tikv::TikvAction;

use crate::dur::Dur;
use crate::format::{FaultAction, FaultSpec, Scenario};
use crate::nodes::{node_names, resolve};

/// Capture indices (0-based) a selector names (`cdc-2`, `cdc-2,cdc-3`, `cdc-*`).
pub fn capture_indices(selector: &str, s: &Scenario) -> Vec<u32> {
    node_indices(selector, s, "cdc-")
}

/// Store indices (0-based) a selector names (`tikv-1`, `tikv-*`).
pub fn store_indices(selector: &str, s: &Scenario) -> Vec<u32> {
    node_indices(selector, s, "tikv-")
}

/// 0-based indices of the nodes named `<prefix>N` that a selector names.
fn node_indices(selector: &str, s: &Scenario, prefix: &str) -> Vec<u32> {
    resolve(selector, &node_names(s))
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n.strip_prefix(prefix)?.parse::<u32>().ok())
        .filter(|i| *i >= 1)
        .map(|i| i - 1)
        .collect()
}

/// Captures that start outside the cluster: targets of `remove_capture` at `0s`.
pub fn initially_absent(s: &Scenario) -> Vec<u32> {
    s.faults
        .iter()
        .filter(|f| f.action == FaultAction::RemoveCapture && f.at == Dur(0))
        .flat_map(|f| capture_indices(&f.target, s))
        .collect()
}

/// The model actions one script step expands to, with their times (and the undo after
/// `duration`: resume, add back).
pub fn operator_actions(spec: &FaultSpec, s: &Scenario) -> Vec<(Dur, OperatorAction)> {
    let cf = s
        .changefeeds
        .iter()
        .position(|c| c.id == spec.target.trim())
        .map(|i| i as u16);
    let caps = capture_indices(&spec.target, s);
    let (now, undo): (Vec<OperatorAction>, Vec<OperatorAction>) = match spec.action {
        FaultAction::PauseChangefeed => (
            cf.map(OperatorAction::PauseChangefeed)
                .into_iter()
                .collect(),
            cf.map(OperatorAction::ResumeChangefeed)
                .into_iter()
                .collect(),
        ),
        FaultAction::ResumeChangefeed => (
            cf.map(OperatorAction::ResumeChangefeed)
                .into_iter()
                .collect(),
            vec![],
        ),
        FaultAction::RemoveCapture => (
            caps.iter()
                .map(|c| OperatorAction::RemoveCapture(*c))
                .collect(),
            caps.iter()
                .map(|c| OperatorAction::AddCapture(*c))
                .collect(),
        ),
        FaultAction::AddCapture => (
            caps.iter()
                .map(|c| OperatorAction::AddCapture(*c))
                .collect(),
            vec![],
        ),
        _ => (vec![], vec![]),
    };
    let mut out = Vec::new();
    // A remove at 0s is the initial membership, not an action.
    let initial = spec.action == FaultAction::RemoveCapture && spec.at == Dur(0);
    if !initial {
        out.extend(now.into_iter().map(|a| (spec.at, a)));
    }
    if let Some(d) = spec.duration {
        let at = Dur(spec.at.0.saturating_add(d.0));
        out.extend(undo.into_iter().map(|a| (at, a)));
    }
    out
}

/// The TiKV model actions one script step expands to: `evict_leader` adds PD's evict-leader
/// scheduler for each store, and removes it after `duration`; `transfer_leader` asks PD for
/// one region's transfer or a store-wide one.
pub fn tikv_actions(spec: &FaultSpec, s: &Scenario) -> Vec<(Dur, TikvAction)> {
    match spec.action {
        FaultAction::EvictLeader => evict_actions(spec, s),
        FaultAction::TransferLeader => transfer_actions(spec, s),
        FaultAction::AddStore => store_actions(spec, s, |store| TikvAction::AddStore { store }),
        FaultAction::RemoveStore => {
            store_actions(spec, s, |store| TikvAction::RemoveStore { store })
        }
        FaultAction::Split => match spec.region {
            Some(region) => {
                let parts = spec.split_parts();
                let split = TikvAction::Split {
                    region,
                    parts,
                    at: None,
                };
                vec![(spec.at, split)]
            }
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// A `split` named by table (or by a table's row), which PD resolves to regions when it
/// runs: the TiKV layer has no keys, so the stack carries it out
/// (`faultline_cdc::table_split`).
pub fn table_split(spec: &FaultSpec) -> Option<(Dur, faultline_cdc::table_split::TableSplit)> {
    if spec.action != FaultAction::Split || spec.region.is_some() {
        return None;
    }
    let split = faultline_cdc::table_split::TableSplit {
        table: spec.split_table()?,
        row: spec.row,
        parts: spec.split_parts(),
    };
    Some((spec.at, split))
}

/// `transfer_leader` to the target store (validation makes it exactly one, and gives exactly
/// one of `region` and `from`).
fn transfer_actions(spec: &FaultSpec, s: &Scenario) -> Vec<(Dur, TikvAction)> {
    let Some(&to_store) = store_indices(&spec.target, s).first() else {
        return Vec::new();
    };
    let action = match (spec.region, &spec.from) {
        (Some(region), _) => TikvAction::TransferLeader { region, to_store },
        (None, Some(from)) => match store_indices(from, s).first() {
            Some(&from_store) => TikvAction::TransferLeaders {
                from_store,
                to_store,
            },
            None => return Vec::new(),
        },
        (None, None) => return Vec::new(),
    };
    vec![(spec.at, action)]
}

/// One action per store the target names, at the step's time.
fn store_actions(
    spec: &FaultSpec,
    s: &Scenario,
    action: impl Fn(u32) -> TikvAction,
) -> Vec<(Dur, TikvAction)> {
    store_indices(&spec.target, s)
        .into_iter()
        .map(|store| (spec.at, action(store)))
        .collect()
}

fn evict_actions(spec: &FaultSpec, s: &Scenario) -> Vec<(Dur, TikvAction)> {
    let stores = store_indices(&spec.target, s);
    let mut out: Vec<(Dur, TikvAction)> = stores
        .iter()
        .map(|&store| (spec.at, TikvAction::EvictLeader { store }))
        .collect();
    if let Some(d) = spec.duration {
        let at = Dur(spec.at.0.saturating_add(d.0));
        out.extend(
            stores
                .iter()
                .map(|&store| (at, TikvAction::RemoveEvictLeader { store })),
        );
    }
    out
}

/// The timer payload of an action.
pub fn action_timer(a: OperatorAction) -> StackTimer {
    StackTimer::Cdc(CdcTimer::Session(SessionTimer::Action(a)))
}

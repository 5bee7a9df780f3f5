//! What a node's menu offers and what removing a node does. The model numbers its nodes
//! (`tikv-1..tikv-N`, `cdc-1..cdc-N`), so only the last of a kind can go without renaming the
//! others (and silently re-aiming every fault at them); anything else is refused with the
//! reason, never applied to a different node.

use faultline_scenario::{FaultAction, Scenario, Targets};

use super::topology::NodeKind;

/// The fault actions a node's menu offers: process and network faults for every node, the
/// capture operations for captures only, leader eviction and transfer and
/// scaling TiKV in and out for TiKV stores only, region splits and merges for PD only. Changefeed
/// pauses target a changefeed, not a node, so no node offers them.
pub fn menu_faults(kind: NodeKind) -> Vec<FaultAction> {
    FaultAction::ALL
        .into_iter()
        .filter(|a| match a.verb().targets() {
            Targets::Changefeed => false,
            Targets::Captures => kind == NodeKind::Cdc,
            Targets::Stores => kind == NodeKind::Tikv,
            // pd-ctl's split and merge go to PD.
            Targets::Pd => kind == NodeKind::Pd,
            Targets::AnyNode => true,
        })
        .collect()
}

/// What a node's menu offers "now", with the node in `state` at the cursor (`up`, `crashed`,
/// `paused`, or a store PD does not count: `absent`, `offline`, `tombstone`): the verbs of
/// [`menu_faults`], less the process verbs that do nothing there. Restart only a killed
/// process, resume only a paused one, kill a running or paused one, pause a running one.
pub fn menu_faults_now(kind: NodeKind, state: &str) -> Vec<FaultAction> {
    menu_faults(kind)
        .into_iter()
        .filter(|a| match a {
            FaultAction::Restart => state == "crashed",
            FaultAction::Resume => state == "paused",
            FaultAction::Kill => state == "up" || state == "paused",
            FaultAction::Pause => state == "up",
            _ => true,
        })
        .collect()
}

/// The kind of a node, from the name the model gives it (`tikv-3`, `cdc-1`, ...).
pub fn kind_of(name: &str) -> NodeKind {
    match name.split('-').next() {
        Some("pd") => NodeKind::Pd,
        Some("cdc") => NodeKind::Cdc,
        Some("mysql") => NodeKind::Mysql,
        Some("kafka") => NodeKind::Kafka,
        Some("client") => NodeKind::Client,
        _ => NodeKind::Tikv,
    }
}

/// True when the node's menu offers Remove (PD is always there; a broker goes with its
/// Kafka changefeeds).
pub fn removable(kind: NodeKind) -> bool {
    matches!(kind, NodeKind::Tikv | NodeKind::Cdc | NodeKind::Mysql)
}

/// The scenario without node `name`, or why it cannot be removed.
pub fn without_node(s: &Scenario, name: &str) -> Result<Scenario, String> {
    let mut next = s.clone();
    let aimed = s
        .faults
        .iter()
        .filter(|f| f.target.split(',').any(|t| t.trim() == name))
        .count();
    if aimed > 0 {
        let faults = if aimed == 1 { "1 fault" } else { "faults" };
        return Err(format!(
            "{name} is the target of {faults}: remove {} from the timeline first.",
            if aimed == 1 { "it" } else { "them" }
        ));
    }
    let waiting = |n: &str| n.parse::<u32>().is_ok_and(|i| i > s.topology.stores);
    if let Some(n) = name.strip_prefix("tikv-").filter(|n| waiting(n)) {
        // A store that waits to join (`add_store`) comes off the top of `max_stores`.
        last_of(n, s.topology.max_stores, "tikv", "store")?;
        next.topology.max_stores -= 1;
    } else if let Some(n) = name.strip_prefix("tikv-") {
        last_of(n, s.topology.stores, "tikv", "store")?;
        next.topology.stores -= 1;
        if next.topology.max_stores != 0 && s.topology.max_stores > s.topology.stores {
            return Err(format!(
                "{name} starts in the cluster and tikv-{}..tikv-{} wait to join: remove those first.",
                s.topology.stores + 1,
                s.topology.max_stores
            ));
        }
    } else if let Some(n) = name.strip_prefix("cdc-") {
        last_of(n, s.topology.captures, "cdc", "capture")?;
        next.topology.captures -= 1;
        if next.topology.captures == 0 {
            next.changefeeds.clear();
        }
    } else if name.starts_with("mysql-") {
        // The downstream exists because of the captures: removing it removes TiCDC.
        next.topology.captures = 0;
        next.changefeeds.clear();
    } else if name.starts_with("kafka-") {
        return Err(format!(
            "{name} is a Kafka broker: brokers come with Kafka changefeeds (topology.kafka_brokers in the inspector)."
        ));
    } else if name.starts_with("client-") {
        return Err(format!(
            "{name} is the workload's client: it comes with TiCDC (topology.captures)."
        ));
    } else {
        return Err(format!(
            "{name} cannot be removed: the model always has one PD."
        ));
    }
    Ok(next)
}

/// Checks that node number `n` of `count` is the last one.
fn last_of(n: &str, count: u32, prefix: &str, noun: &str) -> Result<(), String> {
    if n.parse::<u32>().ok() == Some(count) {
        return Ok(());
    }
    Err(format!(
        "Only the last {noun} ({prefix}-{count}) can be removed: the model numbers {noun}s \
         {prefix}-1..{prefix}-{count}, so removing {prefix}-{n} would rename the ones after it."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_scenario::gallery;

    fn basics() -> Scenario {
        gallery()
            .into_iter()
            .find(|e| e.file == "cdc-basic-replication.toml")
            .expect("shipped")
            .scenario
    }

    #[test]
    fn menus_offer_only_what_applies_to_the_node() {
        let tikv = menu_faults(NodeKind::Tikv);
        assert!(tikv.contains(&FaultAction::Kill) && tikv.contains(&FaultAction::Loss));
        assert!(!tikv.contains(&FaultAction::RemoveCapture));
        assert!(tikv.contains(&FaultAction::EvictLeader));
        assert!(tikv.contains(&FaultAction::TransferLeader));
        assert!(tikv.contains(&FaultAction::AddStore) && tikv.contains(&FaultAction::RemoveStore));
        assert!(!tikv.contains(&FaultAction::PauseChangefeed));
        let cdc = menu_faults(NodeKind::Cdc);
        assert!(
            cdc.contains(&FaultAction::RemoveCapture) && cdc.contains(&FaultAction::AddCapture)
        );
        assert!(!cdc.contains(&FaultAction::ResumeChangefeed));
        assert!(!cdc.contains(&FaultAction::EvictLeader));
        assert!(!cdc.contains(&FaultAction::TransferLeader));
        assert!(!cdc.contains(&FaultAction::AddStore));
        assert!(!removable(NodeKind::Pd) && !removable(NodeKind::Kafka));
        assert!(removable(NodeKind::Tikv) && removable(NodeKind::Cdc));
    }

    #[test]
    fn a_node_menu_offers_only_the_process_verbs_that_do_something_now() {
        let running = menu_faults_now(NodeKind::Tikv, "up");
        assert!(running.contains(&FaultAction::Kill) && running.contains(&FaultAction::Pause));
        assert!(
            !running.contains(&FaultAction::Restart) && !running.contains(&FaultAction::Resume)
        );
        let killed = menu_faults_now(NodeKind::Tikv, "crashed");
        assert!(killed.contains(&FaultAction::Restart));
        assert!(!killed.contains(&FaultAction::Kill) && !killed.contains(&FaultAction::Pause));
        let paused = menu_faults_now(NodeKind::Cdc, "paused");
        assert!(paused.contains(&FaultAction::Resume) && paused.contains(&FaultAction::Kill));
        assert!(!paused.contains(&FaultAction::Restart) && !paused.contains(&FaultAction::Pause));
        // Network faults apply whatever the process does.
        assert!(killed.contains(&FaultAction::Partition));
    }

    #[test]
    fn remove_takes_the_node_asked_for_or_says_why_not() {
        let mut s = basics();
        s.faults.clear();
        s.topology.stores = 4;
        let e = without_node(&s, "tikv-2").expect_err("not the last store");
        assert!(e.contains("tikv-4") && e.contains("tikv-2"), "{e}");
        assert_eq!(without_node(&s, "tikv-4").expect("last").topology.stores, 3);
        assert_eq!(
            without_node(&s, "cdc-2").expect("last").topology.captures,
            1
        );
        assert!(without_node(&s, "cdc-1").is_err());
        assert!(without_node(&s, "pd-1").expect_err("PD").contains("one PD"));
        assert!(without_node(&s, "kafka-1")
            .expect_err("broker")
            .contains("Kafka"));
        let gone = without_node(&s, "mysql-1").expect("TiCDC goes");
        assert_eq!((gone.topology.captures, gone.changefeeds.len()), (0, 0));
    }

    #[test]
    fn a_node_with_faults_aimed_at_it_is_kept() {
        let s = basics();
        let target = s.faults[0].target.clone();
        let e = without_node(&s, &target).expect_err("a fault targets it");
        assert!(e.contains("1 fault"), "{e}");
    }
}

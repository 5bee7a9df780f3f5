//! One-line explanations of the terms the views show, for hover titles: a reader who has
//! never seen raftstore's hibernate states or TiCDC's watermarks learns them in place.

/// The explanation of `term` (case-sensitive, as the views print it), or None.
pub fn explain(term: &str) -> Option<&'static str> {
    Some(match term {
        // raftstore's hibernate states (TiKV hibernate_state.rs / peer_fsm.rs; this model's
        // crates/tikv/src/store/hibernate.rs).
        "GroupState" => {
            "How awake a region's peer is (TiKV hibernate regions): Ordered, Chaos and PreChaos peers tick; Idle peers sleep and cost nothing."
        }
        "Ordered" => "A leader is replicating normally; the peer keeps ticking.",
        "Chaos" => {
            "Leadership may be lost (a vote or a stale check): the peer ticks so it can elect a leader."
        }
        "PreChaos" => {
            "One stale-state check away from Chaos: a sleeping peer that noticed silence waits one more check before campaigning, so a brief pause does not cause an election."
        }
        "Idle" => "Hibernated: the peer does not tick until a message wakes it.",
        "resolved ts" | "resolved lag" => {
            "Resolved ts: every change up to this timestamp has been seen, so TiCDC may emit it. Lag = how far it trails now; it stops when a region has no leader or a lock stays."
        }
        "checkpoint" | "checkpoint lag" => {
            "Checkpoint: everything up to this timestamp is written downstream. Lag = how far it trails now."
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_state_and_watermark_is_explained() {
        for term in [
            "GroupState",
            "Ordered",
            "Chaos",
            "PreChaos",
            "Idle",
            "resolved ts",
            "resolved lag",
            "checkpoint lag",
        ] {
            assert!(explain(term).is_some_and(|e| e.len() > 20), "{term}");
        }
        assert_eq!(explain("tikv-1"), None);
    }
}

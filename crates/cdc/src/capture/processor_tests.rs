//! The cached table frontiers: after every change of the KV client's regions, a refresh gives
//! what a full recomputation gives, for the tables the change touches and only those.

use super::*;
use crate::change::{RegionEvent, RegionEventKind};
use crate::config::KvClientEvict;

/// Two tables of 4 rows over 3 regions: keys 0..3 (t0) and 4..7 (t1); region 1 holds keys
/// 3..5, so it is shared by both tables.
fn keyspace() -> Keyspace {
    Keyspace::new(2, 4, 3)
}

/// A processor running both tables, every region tracked from ts 10 and served on store 0.
fn processor(ks: &Keyspace) -> (Processor, u64) {
    let mut p = Processor::new(KvClient::new(KvClientEvict::AfterJoin));
    let mut out = Vec::new();
    for t in 0..ks.tables {
        p.add_table(t, Ts(10));
    }
    for r in 0..ks.regions {
        p.kv.track(r, ks.span(r), Ts(10), &mut out);
        p.kv.request(r, Some(0), |_| true, &mut out);
    }
    let g = p.kv.streams()[&0].generation;
    (p, g)
}

/// Feeds one event of `region` (its request id is region + 1: requests are numbered in order).
fn feed(p: &mut Processor, g: u64, region: u32, kind: RegionEventKind) {
    let ev = RegionEvent {
        region,
        request: region as u64 + 1,
        kind,
    };
    p.kv.on_events(0, g, vec![ev], &mut Vec::new());
}

/// The refreshed frontier of every table equals the one computed from scratch, except that a
/// table its spans do not cover holds (never above the computed one).
fn assert_fresh(p: &mut Processor, ks: &Keyspace) {
    p.refresh_frontiers(ks);
    for t in 0..ks.tables {
        let (cached, fresh) = (p.frontier(ks, t), Frontier::of(&p.kv, ks, t));
        if fresh.covered {
            assert_eq!(cached, fresh, "table {t}");
        } else {
            assert!(
                cached.resolved <= fresh.resolved && !cached.ready,
                "table {t}"
            );
        }
        assert_eq!(p.table_resolved(ks, t), cached.resolved, "table {t}");
    }
}

#[test]
fn the_shared_region_moves_both_tables_and_an_own_region_one() {
    let ks = keyspace();
    assert_eq!(ks.table_regions(0), TableRegions::Range(0, 1));
    assert_eq!(ks.table_regions(1), TableRegions::Range(1, 2));
    let (mut p, g) = processor(&ks);
    assert_fresh(&mut p, &ks);
    assert!(!p.frontier(&ks, 0).ready, "nothing is initialized yet");
    for r in 0..3 {
        feed(&mut p, g, r, RegionEventKind::Initialized);
        feed(&mut p, g, r, RegionEventKind::Resolved(Ts(20)));
    }
    assert_fresh(&mut p, &ks);
    assert!(p.frontier(&ks, 0).ready && p.frontier(&ks, 1).ready);
    assert_eq!(p.frontier(&ks, 1).resolved, Ts(20));
    // Region 2 is t1's alone: t1 waits for region 1, t0 is untouched.
    feed(&mut p, g, 2, RegionEventKind::Resolved(Ts(40)));
    assert_fresh(&mut p, &ks);
    assert_eq!(
        (p.frontier(&ks, 0).resolved, p.frontier(&ks, 1).resolved),
        (Ts(20), Ts(20))
    );
    // Region 1 moves both.
    feed(&mut p, g, 1, RegionEventKind::Resolved(Ts(30)));
    feed(&mut p, g, 0, RegionEventKind::Resolved(Ts(35)));
    assert_fresh(&mut p, &ks);
    assert_eq!(
        (p.frontier(&ks, 0).resolved, p.frontier(&ks, 1).resolved),
        (Ts(30), Ts(30))
    );
}

#[test]
fn untracking_resetting_and_a_new_table_are_seen_at_the_next_refresh() {
    let ks = keyspace();
    let (mut p, g) = processor(&ks);
    for r in 0..3 {
        feed(&mut p, g, r, RegionEventKind::Initialized);
    }
    assert_fresh(&mut p, &ks);
    assert!(p.frontier(&ks, 1).ready);
    p.kv.untrack(2);
    assert_fresh(&mut p, &ks);
    assert!(
        !p.frontier(&ks, 1).ready,
        "a region of t1 is no longer tracked"
    );
    assert!(p.frontier(&ks, 0).ready);
    // A table that arrives without any region change still gets its frontier.
    p.tables.remove(&1);
    p.refresh_frontiers(&ks);
    p.add_table(1, Ts(10));
    assert_fresh(&mut p, &ks);
    p.kv.reset();
    assert_fresh(&mut p, &ks);
    assert_eq!(
        p.frontier(&ks, 0),
        Frontier {
            resolved: Ts::ZERO,
            ready: false,
            covered: false,
        }
    );
}

/// tiflow's span frontier: a region the client still holds under its old range (it merged
/// away and the client has not heard) holds the table, and so does a range nobody covers;
/// the table moves again only once a subscription covers the keys from where they were.
#[test]
fn a_stale_span_or_an_uncovered_range_holds_the_table() {
    let mut ks = keyspace();
    let (mut p, g) = processor(&ks);
    for r in 0..3 {
        feed(&mut p, g, r, RegionEventKind::Initialized);
        feed(&mut p, g, r, RegionEventKind::Resolved(Ts(20)));
    }
    // Region 1 (keys 3..6) merges into region 2 (6..8); the client still tracks both as they
    // were, and only region 2's old subscription goes on resolving.
    assert!(ks.merge(1, 2, 3));
    feed(&mut p, g, 2, RegionEventKind::Resolved(Ts(50)));
    feed(&mut p, g, 0, RegionEventKind::Resolved(Ts(50)));
    assert_fresh(&mut p, &ks);
    assert_eq!(ks.table_regions(1), TableRegions::List(vec![2]));
    assert_eq!(
        p.frontier(&ks, 1).resolved,
        Ts(20),
        "keys 4 and 5 were last resolved at 20, by the stale region 1"
    );
    // The client drops region 1: keys 3..6 are covered by nobody, so t1 stays at 20 and t0,
    // whose key 3 is uncovered too, does not take region 0's 50.
    p.kv.untrack(1);
    assert_fresh(&mut p, &ks);
    assert_eq!(
        (p.frontier(&ks, 0).resolved, p.frontier(&ks, 1).resolved),
        (Ts(20), Ts(20))
    );
    assert!(!p.frontier(&ks, 1).covered && !p.frontier(&ks, 1).ready);
    // Region 2 is subscribed again with its new range, from 20: covered, and it moves on.
    p.kv.track(2, ks.span(2), Ts(20), &mut Vec::new());
    assert_fresh(&mut p, &ks);
    assert!(p.frontier(&ks, 1).covered);
    assert_eq!(p.frontier(&ks, 1).resolved, Ts(20));
}

proptest::proptest! {
    /// Resolved ts moving region by region, several stores' worth between refreshes, ties
    /// included: a table whose minimum another region still holds keeps its cached frontier,
    /// and every refresh still gives what a full recomputation gives (it would not if a
    /// table kept its frontier after its last region at the minimum moved).
    #[test]
    fn frontiers_kept_while_another_region_holds_the_minimum_are_still_right(
        steps in proptest::collection::vec((0u32..9, 0u64..3, proptest::bool::ANY), 1..80),
    ) {
        // 3 tables of 8 rows over 9 regions: some regions share a table, none spans two.
        let ks = Keyspace::new(3, 8, 9);
        let (mut p, g) = processor(&ks);
        for r in 0..ks.regions {
            feed(&mut p, g, r, RegionEventKind::Initialized);
        }
        assert_fresh(&mut p, &ks);
        let mut ts = [10u64; 9];
        for (region, by, refresh) in steps {
            // A step of 0 repeats the region's ts, which the client ignores.
            ts[region as usize] += by;
            feed(&mut p, g, region, RegionEventKind::Resolved(Ts(ts[region as usize])));
            if refresh {
                assert_fresh(&mut p, &ks);
            }
        }
        assert_fresh(&mut p, &ks);
    }
}

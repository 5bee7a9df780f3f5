//! Message-level tests of the tiflow#9595 race.

use super::*;

/// Any span: these tests never split a region.
fn span() -> RegionSpan {
    RegionSpan {
        start: 0,
        end: 1,
        version: 1,
    }
}

fn ev(region: u32, request: u64, kind: RegionEventKind) -> RegionEvent {
    RegionEvent {
        region,
        request,
        kind,
    }
}

/// Region 1 is served by the worker; region 2 is pending on the same stream. Region 1 gets
/// NotLeader, so the worker empties and exits; then, before the receive loop stops, region 2's
/// first event arrives.
fn race(mode: KvClientEvict) -> KvClient {
    let mut c = KvClient::new(mode);
    let mut out = Vec::new();
    c.track(1, span(), Ts(100), &mut out);
    c.track(2, span(), Ts(100), &mut out);
    c.request(1, Some(0), |_| true, &mut out);
    c.request(2, Some(0), |_| true, &mut out);
    let g = c.streams()[&0].generation;
    c.on_events(0, g, vec![ev(1, 1, RegionEventKind::Initialized)], &mut out);
    assert_eq!(
        c.regions()[&1].owner,
        Owner::Worker {
            store: 0,
            request: 1
        }
    );
    out.clear();
    c.on_events(
        0,
        g,
        vec![ev(
            1,
            1,
            RegionEventKind::Error(RegionError::NotLeader { leader: Some(1) }),
        )],
        &mut out,
    );
    assert!(
        out.contains(&KvAction::WorkerExit {
            store: 0,
            stream: g
        }),
        "{out:?}"
    );
    c.on_worker_exit(0, g, &mut out);
    assert!(out.contains(&KvAction::RecvLoopExit {
        store: 0,
        stream: g
    }));
    // The receive loop is still running and takes region 2's first event.
    c.on_events(0, g, vec![ev(2, 2, RegionEventKind::Initialized)], &mut out);
    out.clear();
    c.on_recv_exit(0, g, &mut out);
    c
}

#[test]
fn buggy_eviction_orphans_the_racing_region() {
    let c = race(KvClientEvict::OnWorkerExit);
    assert_eq!(c.regions()[&2].owner, Owner::Lost);
    assert_eq!(c.orphaned(), 1);
    assert!(c.streams().is_empty());
}

#[test]
fn fixed_eviction_re_requests_the_racing_region() {
    let mut c = race(KvClientEvict::AfterJoin);
    assert_eq!(c.regions()[&2].owner, Owner::Retrying);
    assert_eq!(c.orphaned(), 0);
    let mut out = Vec::new();
    // The region cache still says store 0; the old stream is gone, so a new one opens.
    c.request(2, Some(1), |_| true, &mut out);
    assert!(
        matches!(
            out[0],
            KvAction::Register {
                store: 0,
                stream: 2,
                region: 2,
                request: 3,
                ..
            }
        ),
        "{out:?}"
    );
}

#[test]
fn region_cache_follows_not_leader_hints_and_forgets_unreachable_stores() {
    let mut c = KvClient::new(KvClientEvict::AfterJoin);
    let mut out = Vec::new();
    c.track(7, span(), Ts(1), &mut out);
    c.request(7, Some(0), |_| true, &mut out);
    let g = c.streams()[&0].generation;
    let err = RegionEventKind::Error(RegionError::NotLeader { leader: Some(2) });
    c.on_events(0, g, vec![ev(7, 1, err)], &mut out);
    out.clear();
    // PD still says 0, but the hint wins.
    c.request(7, Some(0), |_| true, &mut out);
    assert!(
        matches!(out[0], KvAction::Register { store: 2, .. }),
        "{out:?}"
    );
    // Store 2 dies: the stream breaks, the request fails to connect, and the cache entry is
    // dropped so the next attempt asks PD.
    let g2 = c.streams()[&2].generation;
    c.on_stream_broken(2, &mut out);
    c.on_worker_exit(2, g2, &mut out);
    c.on_recv_exit(2, g2, &mut out);
    out.clear();
    c.request(7, Some(1), |s| s != 2, &mut out);
    assert_eq!(
        out,
        [KvAction::Retry {
            region: 7,
            backoff: true
        }]
    );
    out.clear();
    c.request(7, Some(1), |s| s != 2, &mut out);
    assert!(
        matches!(out[0], KvAction::Register { store: 1, .. }),
        "{out:?}"
    );
}

#[test]
fn stream_failure_evicts_worker_and_pending_regions_in_both_modes() {
    for mode in [KvClientEvict::OnWorkerExit, KvClientEvict::AfterJoin] {
        let mut c = KvClient::new(mode);
        let mut out = Vec::new();
        c.track(1, span(), Ts(1), &mut out);
        c.track(2, span(), Ts(1), &mut out);
        c.request(1, Some(0), |_| true, &mut out);
        c.request(2, Some(0), |_| true, &mut out);
        let g = c.streams()[&0].generation;
        c.on_events(0, g, vec![ev(1, 1, RegionEventKind::Initialized)], &mut out);
        c.on_stream_broken(0, &mut out);
        c.on_worker_exit(0, g, &mut out);
        c.on_recv_exit(0, g, &mut out);
        for r in [1, 2] {
            assert_eq!(
                c.regions()[&r].owner,
                Owner::Retrying,
                "{mode:?} region {r}"
            );
        }
    }
}

#[test]
fn resolved_ts_applies_only_after_initialisation_and_never_goes_back() {
    let mut c = KvClient::new(KvClientEvict::AfterJoin);
    let mut out = Vec::new();
    c.track(1, span(), Ts(10), &mut out);
    c.request(1, Some(0), |_| true, &mut out);
    let g = c.streams()[&0].generation;
    c.on_events(
        0,
        g,
        vec![ev(1, 1, RegionEventKind::Resolved(Ts(50)))],
        &mut out,
    );
    assert_eq!(c.regions()[&1].resolved, Ts(10));
    c.on_events(
        0,
        g,
        vec![
            ev(1, 1, RegionEventKind::Initialized),
            ev(1, 1, RegionEventKind::Resolved(Ts(50))),
        ],
        &mut out,
    );
    assert_eq!(c.regions()[&1].resolved, Ts(50));
    c.on_events(
        0,
        g,
        vec![ev(1, 1, RegionEventKind::Resolved(Ts(40)))],
        &mut out,
    );
    assert_eq!(c.regions()[&1].resolved, Ts(50));
}

#[test]
fn a_split_region_is_released_and_its_span_divided_again_from_its_resolved_ts() {
    let mut c = KvClient::new(KvClientEvict::AfterJoin);
    let mut out = Vec::new();
    let old = RegionSpan {
        start: 10,
        end: 20,
        version: 1,
    };
    c.track(1, old, Ts(10), &mut out);
    c.track(2, span(), Ts(10), &mut out);
    c.request(1, Some(0), |_| true, &mut out);
    c.request(2, Some(0), |_| true, &mut out);
    let g = c.streams()[&0].generation;
    let events = vec![
        ev(1, 1, RegionEventKind::Initialized),
        ev(1, 1, RegionEventKind::Resolved(Ts(40))),
        ev(2, 2, RegionEventKind::Initialized),
    ];
    c.on_events(0, g, events, &mut out);
    out.clear();
    let split = ev(1, 1, RegionEventKind::Error(RegionError::EpochNotMatch));
    c.on_events(0, g, vec![split], &mut out);
    let want = KvAction::Redivide {
        span: old,
        from: Ts(40),
    };
    assert_eq!(out, vec![want], "no retry of the old region, no backoff");
    assert!(!c.regions().contains_key(&1), "its range lock is released");
    assert!(c.take_changed().contains(&1), "its tables see it go");
    assert_eq!(c.streams()[&0].worker.regions.len(), 1, "region 2 stays");
}

/// tiflow's `handleError`: RegionNotFound (PD moved the region's replica off the store asked)
/// re-requests at once, from PD's view, with no backoff; NotLeader with no leader named waits.
#[test]
fn region_not_found_asks_again_at_once_and_forgets_the_store() {
    let mut c = KvClient::new(KvClientEvict::AfterJoin);
    let mut out = Vec::new();
    c.track(7, span(), Ts(1), &mut out);
    c.track(8, span(), Ts(1), &mut out);
    c.request(7, Some(0), |_| true, &mut out);
    c.request(8, Some(0), |_| true, &mut out);
    let g = c.streams()[&0].generation;
    out.clear();
    let gone = RegionEventKind::Error(RegionError::RegionNotFound);
    let leaderless = RegionEventKind::Error(RegionError::NotLeader { leader: None });
    c.on_events(0, g, vec![ev(7, 1, gone), ev(8, 2, leaderless)], &mut out);
    let retries: Vec<&KvAction> = out
        .iter()
        .filter(|a| matches!(a, KvAction::Retry { .. }))
        .collect();
    assert_eq!(
        retries,
        [
            &KvAction::Retry {
                region: 7,
                backoff: false
            },
            &KvAction::Retry {
                region: 8,
                backoff: true
            }
        ]
    );
    out.clear();
    c.request(7, Some(1), |_| true, &mut out);
    assert!(
        matches!(out[0], KvAction::Register { store: 1, .. }),
        "the store that had no replica is not asked again: {out:?}"
    );
}

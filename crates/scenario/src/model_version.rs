//! The model version: one number that names the behaviour of the whole simulation.
//!
//! Two builds with the same `MODEL_VERSION` give the same run, bit for bit, for the same
//! scenario. Any change to what the model does (a new mechanism, a default, a timer, the order
//! of events) must bump it, in the same commit that changes the pinned trace hashes in
//! `tests/gallery_trace_pins.rs`. A share link records the version it was made with, so a
//! reader on a newer build is told when the run may differ.

/// The current model version. Bump it whenever any gallery trace hash changes.
///
/// - 2: etcd refuses to register a capture ID again once its keys were deleted; the capture
///   starts a new session instead (owner failover on a lossy network, issue 16 item 1). No
///   gallery hash changed, but runs with a lost `Joined` answer past a lease's TTL do.
/// - 3: prewrite and commit are Raft proposals committed by a quorum and applied in order; the
///   client retries with client-go's timeouts and backoffs; TiKV's CDC endpoint emits rows at
///   the leader's apply and publishes resolved ts only after CheckLeader (issue 13 items 1-2).
/// - 4: TiCDC toggles as upstream shipped them (issue 13 item 7). A processor without redo
///   writes no further than the changefeed's resolved ts the owner's heartbeat brought (5.x's
///   barrier); `"cdc.sink_close" = "async"` is tiflow#5186 as shipped (no Closing state; the
///   #4249 design is `"async_closing_state"`); the tiflow#9344 resign wait delays only the
///   owner's processor close. Every gallery run with a changefeed changed.
/// - 5: PD on the network (issue 13 item 3): the workload client is its own node `client-1`
///   and takes its timestamps and region-cache loads from `pd-1` by request and answer; each
///   store's resolved-ts advancer asks PD for its min ts over its link.
/// - 6: the TiKV 7.1 raft client, hibernate and PD details (issue 13 items 4-6, the `truth`
///   branch's versions 4 and 5 merged onto 5): `Unreachable` per queued message, reconnect
///   backoff and keepalive detection, a full queue that refuses messages (a follower's append
///   answer, sent by the store writer, is then lost with no report), `missing_ticks`, a leader
///   with a down replica stays awake, PD's 30 min `max-store-down-time` and operator limits; a
///   request on a follower wakes it and the TiKV-only write load tries a follower when the
///   leader's store is down. The tikv#14547 race now heals within seconds (docs/model.md).
///   Every gallery hash changed.
/// - 7: TiKV's CDC endpoint registers a region with a ReadIndex at the local peer (issue 13
///   item 4, TiKV 7.1 `PeerFsmDelegate::on_capture_change`): the incremental scan starts only
///   once a quorum answered the leader's heartbeats carrying the read; the read wakes a
///   hibernated region, a follower refuses it with NotLeader, and a leader that steps down
///   fails it. Registrations take a heartbeat round trip longer and the extra raft batches
///   draw from the stores' random streams, so every gallery run with a changefeed changed.
/// - 8: a capture's etcd session deadline follows the TTL PD reports with its `Joined` answer
///   (etcd's client, `lease.go` `recvKeepAlive`), not a full TTL from the answer's arrival: a
///   retried `Join` answered late gets the lease its first copy was granted, with less left.
///   No gallery hash changed; runs with lossy links to PD do (explore found two writers there
///   with every tiflow#9344 fix on).
/// - 9: TiCDC at full scale (issue 13). A capture answers a dispatch with that one table's
///   state (tiflow v3 `DispatchTableResponse`), not a report of every table, so the owner
///   hears the other tables at the next heartbeat; and a store runs four incremental scans at
///   once (TiKV's `cdc.incremental-scan-threads`), not one. Every gallery run with a
///   changefeed changed; at 256,000 regions the changefeed starts in about 33 s instead of
///   never within 3 minutes.
/// - 10: the changefeed checkpoint goes through etcd (issue 13): each owner tick ends with an
///   etcd txn writing the checkpoints, and the owner ticks again only once it commits (tiflow's
///   `EtcdWorker.Run`); a new owner starts from the checkpoint etcd holds, not from its
///   predecessor's memory. An owner cut from PD now stops the checkpoint and every sink until
///   another capture owns. Every gallery run with a changefeed changed.
/// - 11: each capture writes a MySQL changefeed through its own `worker-count` (16)
///   connections, as TiCDC's txn sink does, instead of one connection per changefeed shared by
///   every capture. The full-scale changefeed's checkpoint lag drops from about 11 s to that
///   of its resolved ts; the tiflow#9344 pair cuts cdc-2 at 59.3 s, inside a write burst (at
///   59 s its batches no longer queued behind the other captures', so none was in flight).
///   Every gallery run with a MySQL changefeed changed.
/// - 12: a killed TiKV store's host resets the workload client's connections to it (issue 13):
///   a prewrite or commit in flight at the kill fails after the RST's 1 ms hop, and a connect
///   while the store is dead is refused, each a send failure backing off `BoTiKVRPC` (client-go
///   `onSendFail`), where before each waited out `ReadTimeoutShort` (30 s). A paused or cut
///   store still sends no RST. The resend after a send failure on a store the client cannot
///   reach goes to a follower (client-go's replica selector), which answers NotLeader and
///   wakes, and the client skips that store for every region until it can be reached again
///   (client-go's store liveness). Gallery runs that kill a store under a workload changed.
///   A dead client's locks now stay until TiCDC's lock resolver (7.x `region_worker.go`
///   `resolveLock`: 20 s behind, ten standing resolved-ts events) asks the leader to resolve
///   them, instead of vanishing at the kill; the resolver's requests also show in the
///   large-transactions run, whose live locks it leaves alone.
/// - 13: gRPC keepalive on the Go clients' connections (issue 13): the workload client's
///   connection to a paused or cut-off store breaks 13 s after the store fell silent
///   (client-go `GrpcKeepAliveTime` 10 s + `GrpcKeepAliveTimeout` 3 s), failing the requests in
///   flight there, which before waited out `ReadTimeoutShort` (30 s); a send failure on a
///   paused store now marks it unreachable as one behind a cut link does. TiCDC's KV client
///   streams break after the same 13 s (tiflow `sharedconn`), not 10 s. Stores tick their
///   awake peers in peer-id order, which changes the order of raft messages within a tick
///   (and so the random draws) in every run, for 8% less time at full scale. A lock
///   resolution is a Raft write of the region's leader (TiKV's `ResolveLock` command), taking
///   effect when its entry applies instead of when the leader takes the request. 14 of the
///   19 pinned gallery runs changed (the others never have two awake peers of a store out of
///   order, nor a silent store under a workload, nor a lock to resolve).
/// - 14: TiKV keeps every committed version of a key above the GC safe point (TiCDC's service
///   safe point, its lowest changefeed checkpoint), and a CDC endpoint's incremental scan
///   returns each of them (`initializer.rs` `build_delta_scanner`) instead of only the latest:
///   a key written twice after a subscription's checkpoint used to reach the sink once, with
///   its older version lost. Gallery runs whose changefeeds rescan after a failure changed
///   (13 of them); splits (also in this version, with EpochNotMatch on both paths) changed
///   none of the pinned runs.
/// - 15: PD moves a replica through a learner, as its joint-consensus operators do: add a
///   learner, send it a snapshot (`topology.region_size_mib` at 100 MiB/s), promote it in place
///   of the old voter; PD pushes an unfinished operator's step again every 5 s (2 s for the
///   promotion). Regions grow with their writes and split by size (TiKV's split check); a
///   snapshot carries the region's current size. Runs with replica moves change (the
///   scale-out-in gallery scenario); at the default sizes no gallery region splits by size.
/// - 16: a table's puller frontier is read off the spans the KV client tracks, as tiflow's span
///   frontier is, not off the regions the table has now: a region still held under its old
///   range (merged or split away before the client heard, or a registration never answered)
///   holds the table, and a range no subscription covers holds it at its last value. Before,
///   a table's checkpoint could pass rows of a region the client no longer followed (explore,
///   the merge scenario's seed 45: 50 rows differed). Only the merge gallery run changed.
/// - 17: a TiCDC region request sent while the capture -> store link is cut waits in TCP's send
///   buffer and goes once the link heals (unless its stream broke meanwhile), where the kernel
///   dropped it and the region waited for an answer to the end of the run (explore, the merge
///   scenario's seed 45: a 125 ms cut). A subscription answered RegionNotFound (PD moved the
///   replica off that store) is asked again at once, as tiflow's `handleError` does, not after
///   the model's 500 ms backoff. No gallery hash changed; runs that cut a capture from a store
///   while it subscribes, or move a subscribed region's replica, do.
/// - 18: a leader's open hibernate poll asks every other peer each tick, those that already
///   voted too, as TiKV 7.1's `PeerFsmDelegate::all_agree_to_hibernate` loops over all the
///   region's peers; the model asked only the peers that had not voted, so the live follower
///   of a leader whose other replica is on a dead store got no request where TiKV sends one
///   every second (and answers it). No state changes with it, but the raft batches and their
///   random delays do: the three gallery runs with a dead store and such leaders changed
///   (tikv#14547 buggy and fixed, raft-quorum-lost-two-stores), their checks still pass.
/// - 19: the trace hash covers what a run shows, not only the events it processed: every log
///   line (node, level, message, fields) and every metrics sample is folded in too. No run
///   changed, but runs that differed only in a decision that sends nothing (the tikv#14547
///   fix's extra StoreUnreachable broadcasts: 3 against 6 in the gallery twins) no longer hash
///   alike, so `verify` cannot call such a run "Reproduced". Every gallery hash changed.
/// - 20: raftstore is a resource (store-pool-size pollers working FIFO, costs per message, tick,
///   broadcast mailbox and inline raft log write, the broadcast holding the router's lock), where
///   a received batch waited a random 1-80 ms and a broadcast took no time. A non-leader's answer
///   leaves after the log write when its ready had I/O. Stale append rejections are ignored
///   (raft-rs `maybe_decr_to`). The tikv#14547 toggle gains `every_failed_attempt`; the fix
///   rebroadcasts while nothing ever arrived from the store. Every run changed: messages are
///   handled within a millisecond or two, so transient client errors are rarer, and no message
///   of a killed store reaches a survivor after its broadcast (the tikv#14547 race needs one).
///   Also in 20: a lock is a key's: the ground truth keeps, per region and transaction, the keys
///   locked, and a split hands each locked key's lock to the region that holds the key now.
///   Before, a split locked every key of the transaction in the parent's range, those whose
///   commit had already applied too (in a region merged into the parent since), and that lock
///   was never released: the new region's resolved ts, and both changefeeds' checkpoints,
///   stopped for good (explore, the scale-out-in scenario's seed 39). A prewrite locks its
///   request's keys. No gallery run changed for it; runs that split a region holding such a
///   transaction's keys do. The owner now logs a changefeed's slowest tables once a minute
///   while its checkpoint is more than 30 s behind, as TiCDC 7.1's scheduler v3 does
///   ("schedulerv3: slow table"): the gallery runs whose checkpoint falls that far behind
///   have new log lines, so their hashes changed.
pub const MODEL_VERSION: u32 = 20;

/// The Faultline release (the workspace version).
pub const FAULTLINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit this build was made from (12 hex digits), or `unknown` outside a git checkout.
pub const FAULTLINE_COMMIT: &str = env!("FAULTLINE_COMMIT");

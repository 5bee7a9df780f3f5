//! The help overlay: keyboard shortcuts and what the model simplifies.

use yew::prelude::*;

/// Props of [`Help`].
#[derive(Properties, PartialEq, Clone)]
pub struct HelpProps {
    /// Close the overlay.
    pub on_close: Callback<()>,
}

const SHORTCUTS: [(&str, &str); 8] = [
    ("space", "play / pause"),
    ("→", "step one event"),
    ("shift + →", "forward 10 s"),
    ("←", "back 1 s (rewinds through snapshots)"),
    ("ctrl + z", "undo an edit"),
    ("ctrl + shift + z", "redo"),
    ("?", "this help"),
    ("esc", "close this help"),
];

const SIMPLIFICATIONS: [&str; 15] = [
    "Time is simulated and exact: every message has a one-way latency drawn from [delay_min, delay_max); the same link gives the same run, bit for bit.",
    "TiKV: one Raft group per region with raft-rs's election, pre-vote, check-quorum and leader lease; hibernate regions follow raftstore's GroupState (Ordered, Chaos, PreChaos, Idle) as in TiKV 7.1: a leader hibernates only when every peer votes, and asks all of them again every tick until they have, so a leader with a replica on a dead store stays awake, asking, until PD replaces it (TiKV 8.x lets peers down for max-peer-down-duration skip the vote). A killed store is noticed at once, a cut link or a stalled store only by gRPC keepalive (10 s + 3 s); messages queued for an unreachable store are dropped with an Unreachable report each, which wakes a follower whose leader is there, but a full queue (8,192 messages) refuses more, and a follower's append answer refused that way (sent by the store writer) is lost with no report. A request that reaches a follower wakes it, and a write whose leader's store is down tries a follower, so regions with traffic elect; idle ones wait for the stale-state check. Writes are single entries, not batches. A region splits when an operator asks (split a region, every region of a table, or a table's row region at the row's key: the leader proposes it through Raft, the new regions appear on the same stores when it applies, and the one on the old leader's store campaigns at once) or when writes grow it past its maximum size (see PD). A region merges into its neighbour when an operator asks (merge): PrepareMerge through the source's Raft log makes it refuse writes (ProposalInMergingMode, the client backs off), then CommitMerge through the target's gives the target the source's keys and destroys the source's peers; writes still routed to the source answer RegionNotFound and are regrouped, and TiCDC subscribes the merged region again. Simplified: PD refuses to merge regions whose replicas are on different stores (upstream it moves them first), and its automatic merge checker is not modelled. A split cuts the region's key range evenly and its locks go with their keys; a transaction request routed before it answers EpochNotMatch and the client regroups its keys and resends at once, and a TiCDC subscription of the split region ends with EpochNotMatch, after which the KV client subscribes the new regions from the old one's resolved ts. No disks.",
    "PD: TSO, store and region heartbeats, Down-store repair after max-store-down-time (30 min) under the store limit (15 new replicas per store per minute) and replica-schedule-limit (64 operators), leader balance with at most leader-schedule-limit (4) transfers in flight, the evict-leader scheduler (the evict_leader operator action, as a rolling restart uses it; it picks regions in key order, upstream at random), admin leader transfers (transfer_leader), and stores joining and leaving: add_store brings one of tikv-(stores+1)..tikv-max_stores in (those nodes exist from the start, Absent until then) and the balance-region scheduler fills it at the store limit; remove_store makes a store Offline, PD moves its leaders and replicas off and buries it as Tombstone. A replica moves as PD's joint-consensus operator moves it: the leader adds a learner on the new store and sends it a snapshot (topology.region_size_mib, 96 MiB by default, at 100 MiB/s), PD then has it promoted and the old replica removed; meanwhile the region has four members and the old replica still votes. Simplified: the learner's log between its snapshot and its promotion is not modelled (the new voter starts from the leader's committed log), entering and leaving the joint state and removing the old replica are one Raft entry, and replica counts stand for region sizes. Regions split when asked (split) and by size: each write adds workload.write_bytes to its region, and a region past 1.5 x topology.region_split_size_mib (96 MiB by default) splits at its leader's next 10 s split check, evenly (upstream at the size boundaries).",
    "Everything that reaches PD goes over the links to pd-1: the workload's client (client-1) and each store's resolved-ts advancer ask it for timestamps (3 s and 2 s timeouts), the client loads its region cache from it, heartbeats and TiCDC's etcd sessions travel to it; so a node cut from pd-1 gets no timestamp (the client commits nothing new), loads no region, looks Down to PD after the down time, or loses its etcd lease after 10 s. The TiCDC owner writes the changefeed checkpoint to etcd at the end of every tick and ticks again only once that txn commits, so an owner cut from pd-1 stops the checkpoint and, with no heartbeat, every sink until another capture owns; the new owner starts from the checkpoint etcd holds. Simplified: captures take no timestamps, and TiCDC's KV client reads PD's view of a leader directly.",
    "TiKV's CDC endpoint: a registration is a ReadIndex at the store's peer, as in TiKV 7.1: it wakes a hibernated leader, whose heartbeats carry the read and wake the followers, and the incremental scan starts once a quorum answered them; a follower refuses at once with NotLeader (upstream it forwards the read to the leader), and a leader that steps down fails its reads. A subscription becomes active when its incremental scan ends; scans on a store run four at a time (TiKV's incremental-scan-threads), each at a fixed cost plus a cost per row (the model's numbers).",
    "TiCDC: captures, owner, processors, KV client, puller and a MySQL sink; the workload is sysbench-like (update, write-only or insert) on a few tables, applied to MySQL in batches with a fixed latency, each capture through its own 16 connections (TiCDC's worker-count; cdc.mysql_worker_count). A table's resolved ts is the lowest over the ranges its KV client subscribed, as tiflow's span frontier is: a region still followed under the range it had before a split or merge, or a range nobody follows, holds the table where it was. The KV client's streams behave like TCP: a region request or an event batch sent into a cut waits for the heal (simplified: one already on the wire when the cut begins is lost, and a lost batch breaks the stream).",
    "The workload's client retries as client-go does: a request with no answer in 30 s (ReadTimeoutShort) backs off 100 ms doubling to 2 s and reloads the region from PD. A killed store's host resets the client's connections, so its requests fail at once and connects to it are refused while it is down; a paused store, or one behind a cut link, answers nothing, and its connection breaks when gRPC keepalive gives up, 13 s after the store fell silent (10 s to the ping, 3 s for its answer; simplified: counted from the fault, not from the last answer), which fails the requests in flight there. After such a failure the client sends that store's regions to a follower, which answers NotLeader (naming the new leader once there is one) and wakes, until the store can be reached again.",
    "A client killed mid-transaction leaves its locks, which hold the changefeed's checkpoint until TiCDC's lock resolver (7.x: a region 20 s behind whose resolved ts stood still for ten events, checked every 5 s) asks the leader to resolve them; their 3 s TTL has run out by then, so they are rolled back, or committed if the primary's commit was applied. Simplified: the first region is the primary, only a dead client's locks are resolved. The resolution is a Raft write of the leader's, as TiKV's ResolveLock command is: the locks go when it applies, and a leader deposed first resolves nothing.",
    "Large transactions (workload.large_txn_every, workload.large_txn_prewrite): every Nth transaction keeps its first keys locked while the rest of its prewrite goes on, so the regions it touched, and the changefeed's checkpoint, lag by about that long. Simplified: the model locks only the transaction's own few keys and waits out the rest; TiKV 8's pipelined DML is not modelled.",
    "TiCDC's tiflow#4241 toggle has three values. sync (the bug): the owner waits inside its tick while a failed Kafka changefeed's producer closes its clients, 10 s each with no broker, so every changefeed stalls. async (what tiflow#5186 shipped): the producer closes in the background and the sink counts as closed at once; there is no closing state, so a retry after the backoff may start a second producer while the first still closes (producers_closing). async_closing_state (tiflow#4249's design, never merged): also in the background, but the sink stays closing until done and the changefeed is not restarted meanwhile.",
    "A failed Kafka sink stops its changefeed and the owner restarts it after its backoff (10 s, doubling up to 10 min), as TiCDC 5.x did; TiCDC 7.x rebuilds the Kafka sink inside the processor every 5 to 30 s instead, so after a long broker outage it catches up sooner than the model.",
    "TiCDC barriers as in 5.x: a processor without redo writes no further than the changefeed's resolved ts, which only the owner advances (it arrives with the owner's heartbeat here), so a blocked owner stops downstream writes as well as the checkpoint. tiflow#9344: only the owner's exit path waits 5 s for its resign; a non-owner's processors close as soon as its run loop returns.",
    "MySQL sink: a batch is one transaction that commits only while its capture reaches MySQL (a cut connection delays its COMMIT, as TCP would); a capture whose session ended stops its pullers but keeps its sinks open until its processors close. A 100% network loss, as in tiflow#9344's report, is a partition. A stale write shows as a differing row only if nothing rewrote that row afterwards, which at the gallery's 1,000 rows happens only near the workload's end.",
    "Faults act on whole processes and directional links, as Chaos Mesh does: kill loses volatile state; pause holds messages and timers until resume.",
    "Node names are fixed by the model (pd-1, tikv-N, cdc-N, mysql-1, client-1), so nodes cannot be renamed; a node's Remove removes that node when the model can (the last store, capture or broker) and says why not otherwise.",
];

/// The overlay.
#[function_component]
pub fn Help(props: &HelpProps) -> Html {
    let close = {
        let cb = props.on_close.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let stop = Callback::from(|e: MouseEvent| e.stop_propagation());
    let on_key = {
        let cb = props.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.prevent_default();
                cb.emit(());
            }
        })
    };
    // Focus moves into the dialog when it opens, so Esc and Tab act on it first. Focusing
    // Close, the last element, scrolls a tall dialog to its end; it is put back at its top,
    // where the shortcuts are.
    let close_button = use_node_ref();
    let dialog = use_node_ref();
    {
        let (close_button, dialog) = (close_button.clone(), dialog.clone());
        use_effect_with((), move |_| {
            if let Some(b) = close_button.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
            if let Some(d) = dialog.cast::<web_sys::Element>() {
                d.set_scroll_top(0);
            }
        });
    }
    html! {
        <div class="overlay" onclick={ close.clone() } onkeydown={ on_key }>
            <div id="help" ref={ dialog } class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-title" onclick={ stop }>
                <h2 id="help-title">{ "Keyboard shortcuts" }</h2>
                <table>
                    { for SHORTCUTS.iter().map(|(k, what)| html! {
                        <tr><td><kbd>{ *k }</kbd></td><td>{ *what }</td></tr>
                    }) }
                </table>
                <h2>{ "What the model simplifies" }</h2>
                <ul>{ for SIMPLIFICATIONS.iter().map(|s| html! { <li>{ *s }</li> }) }</ul>
                <h2>{ "The URL" }</h2>
                <p>{ "The address always holds the scenario and the cursor: " }
                   <code>{ "#v2.<scenario>&t=<seconds>" }</code>
                   { ". Any moment is a link; without " }<code>{ "&t=" }</code>
                   { " the run opens paused at 0. Add " }<code>{ "?embed" }</code>
                   { " before the # for a read-only, autoplaying view." }</p>
                <button id="help-close" class="primary" ref={ close_button } onclick={ close }>{ "Close" }</button>
            </div>
        </div>
    }
}

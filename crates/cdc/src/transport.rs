//! The TiKV -> capture event stream as TCP carries it.
//!
//! The kernel drops a message whose link is cut when it arrives; a gRPC stream over TCP never
//! silently loses data in the middle. Two rules make the model's streams behave like TCP:
//! - while the store -> capture link is cut, the endpoint keeps the stream's batches (the
//!   socket buffer) and sends them, in order, when the link heals; the capture sees them late;
//! - every batch carries its position on the stream; a batch lost in flight at the instant of
//!   a cut leaves a gap, and the capture treats a gap as a broken connection (it evicts the
//!   stream's regions and re-requests them from their resolved ts), so no change is skipped.

use faultline_sim::{Kernel, Level, NodeState};

use crate::cdc::Cdc;
use crate::endpoint::Subscriber;
use crate::msg::{CdcMsg, CfIx, RegionEvent};
use crate::stack::Stack;

/// A batch waiting in the socket buffer: (stream position, events).
pub type HeldBatch = (u64, Vec<RegionEvent>);

/// Stream positions and held batches, per (store, subscriber stream).
#[derive(Clone, Debug, Default)]
pub struct Transport {
    /// Next position to send.
    next_send: std::collections::BTreeMap<(u32, Subscriber), u64>,
    /// Next position the capture expects; `u64::MAX` once the stream saw a gap.
    next_recv: std::collections::BTreeMap<(u32, Subscriber), u64>,
    /// Batches waiting for a cut link to heal.
    held: std::collections::BTreeMap<(u32, Subscriber), Vec<HeldBatch>>,
    /// MySQL transactions waiting for a cut connection to heal.
    pub parked: Vec<ParkedCommit>,
    /// Acknowledgements of committed MySQL transactions that the way back to the capture
    /// cannot carry yet (a one-way cut): TCP delivers them once it heals.
    pub parked_acks: Vec<ParkedCommit>,
    /// Per (capture, changefeed): batches numbered below this were written over a MySQL
    /// connection the capture has closed since (batch ids go on across a close).
    pub closed_below: std::collections::BTreeMap<(u32, CfIx), u64>,
}

impl Cdc {
    /// Sends (or holds) one batch of a store's events for a subscriber stream.
    pub(crate) fn send_events(
        &mut self,
        k: &mut Kernel<Stack>,
        store: u32,
        sub: Subscriber,
        events: Vec<RegionEvent>,
    ) {
        let key = (store, sub);
        let next = self.transport.next_send.entry(key).or_insert(0);
        let seq = *next;
        *next += 1;
        let from = self.stores[store as usize];
        let to = self.captures[sub.capture as usize];
        let held = self.transport.held.get(&key).is_some_and(|h| !h.is_empty());
        let link = k.net.link(from, to);
        if held || !link.up || link.loss_ppm > 0 {
            self.transport
                .held
                .entry(key)
                .or_default()
                .push((seq, events));
            return;
        }
        k.send_ordered(
            from,
            to,
            CdcMsg::Events {
                cf: sub.cf,
                stream: sub.stream,
                events,
                seq,
            },
        );
    }

    /// Sends the held batches of every stream whose link is up again.
    pub(crate) fn flush_held_events(&mut self, k: &mut Kernel<Stack>) {
        let keys: Vec<(u32, Subscriber)> = self.transport.held.keys().copied().collect();
        for key in keys {
            let (store, sub) = key;
            let from = self.stores[store as usize];
            let to = self.captures[sub.capture as usize];
            let link = k.net.link(from, to);
            if !link.up || link.loss_ppm > 0 {
                continue;
            }
            for (seq, events) in self.transport.held.remove(&key).unwrap_or_default() {
                k.send_ordered(
                    from,
                    to,
                    CdcMsg::Events {
                        cf: sub.cf,
                        stream: sub.stream,
                        events,
                        seq,
                    },
                );
            }
        }
    }

    /// A store restarted: its streams are new connections.
    pub(crate) fn transport_store_reset(&mut self, store: u32) {
        self.transport.next_send.retain(|(s, _), _| *s != store);
        self.transport.held.retain(|(s, _), _| *s != store);
    }

    /// Checks a batch's position at capture `c`; on a gap the stream is broken at once.
    pub(crate) fn stream_in_order(
        &mut self,
        k: &mut Kernel<Stack>,
        c: u32,
        cf: CfIx,
        store: u32,
        stream: u64,
        seq: u64,
    ) -> bool {
        let sub = Subscriber {
            capture: c,
            cf,
            stream,
        };
        let expected = self.transport.next_recv.entry((store, sub)).or_insert(0);
        // After its session ended, the capture's context is cancelled: its pullers stop, and
        // only what its sinks already hold can still be written.
        if self.sessions[c as usize].closing.is_some() {
            return false;
        }
        if *expected == seq {
            *expected += 1;
            return true;
        }
        if *expected == u64::MAX {
            return false;
        }
        let want = *expected;
        *expected = u64::MAX;
        let node = self.captures[c as usize];
        let detail = format!(
            "store={} changefeed={} expected={want} got={seq}",
            store + 1,
            self.cf_id(cf)
        );
        k.log(Some(node), Level::Warn, "stream to store closed", detail);
        let out = self.kv_input(c, cf, |kv, out| kv.on_stream_broken(store, out));
        self.apply_kv(k, c, cf, out);
        false
    }
}

/// A MySQL transaction waiting for its COMMIT: (capture, changefeed, table, batch).
pub type ParkedCommit = (u32, CfIx, u32, u64);

impl Cdc {
    /// True when capture `c` can reach MySQL now.
    pub(crate) fn mysql_reachable(&self, k: &Kernel<Stack>, c: u32) -> bool {
        match self.mysql {
            Some(m) => {
                // A dead MySQL refuses the connection: nothing is written until it is back.
                let link = k.net.link(self.captures[c as usize], m);
                link.up && link.loss_ppm == 0 && k.net.node(m).state != NodeState::Crashed
            }
            None => true,
        }
    }

    /// MySQL is about to commit a batch. A batch is one transaction written over several round
    /// trips; while the capture's connection is cut its COMMIT cannot arrive, so the
    /// transaction waits and commits when the link heals (TCP delivers the rest late). Returns
    /// true when the batch was parked.
    pub(crate) fn mysql_commit_parked(
        &mut self,
        k: &mut Kernel<Stack>,
        capture: u32,
        cf: CfIx,
        table: u32,
        batch: u64,
    ) -> bool {
        if self.mysql_reachable(k, capture) {
            return false;
        }
        if !self.transport.parked.contains(&(capture, cf, table, batch)) {
            self.transport.parked.push((capture, cf, table, batch));
            let detail = format!(
                "capture=cdc-{} changefeed={} table={table} batch={batch}",
                capture + 1,
                self.cf_id(cf)
            );
            k.log(
                self.mysql,
                Level::Warn,
                "MySQL transaction waits for its cut connection",
                detail,
            );
        }
        true
    }

    /// Links healed: parked transactions whose connection is back commit after the write
    /// latency.
    pub(crate) fn resume_parked_commits(&mut self, k: &mut Kernel<Stack>) {
        let Some(mysql) = self.mysql else { return };
        for p in std::mem::take(&mut self.transport.parked_acks) {
            let (capture, cf, table, batch) = p;
            let node = self.captures[capture as usize];
            if k.net.link(mysql, node).up {
                k.send_ordered(mysql, node, CdcMsg::MysqlAck { cf, table, batch });
            } else {
                self.transport.parked_acks.push(p);
            }
        }
        let parked = std::mem::take(&mut self.transport.parked);
        for p in parked {
            let (capture, cf, table, batch) = p;
            if !self.mysql_reachable(k, capture) {
                self.transport.parked.push(p);
                continue;
            }
            let detail = format!(
                "capture=cdc-{} changefeed={} table={table} batch={batch}",
                capture + 1,
                self.cf_id(cf)
            );
            k.log(
                Some(mysql),
                Level::Warn,
                "MySQL transaction resumes after the network healed",
                detail,
            );
            let latency = self.cfg.mysql_write_latency;
            k.set_timer(
                mysql,
                latency,
                crate::msg::CdcTimer::MysqlApplied {
                    capture,
                    cf,
                    table,
                    batch,
                },
            );
        }
    }

    /// Capture `c` is closing its processors (or died): every MySQL connection they wrote over
    /// ends, so a batch of theirs that MySQL has not committed yet (still in a paused MySQL's
    /// socket, say) is rolled back rather than applied over newer writes of the table's next
    /// primary.
    pub(crate) fn close_mysql_connections(&mut self, c: u32) {
        for (cf, p) in self.processors[c as usize].iter().enumerate() {
            self.transport
                .closed_below
                .insert((c, cf as CfIx), p.next_batch);
        }
    }

    /// True when `batch` of capture `c` came over a connection closed since.
    pub(crate) fn mysql_conn_closed(&self, c: u32, cf: CfIx, batch: u64) -> bool {
        self.transport
            .closed_below
            .get(&(c, cf))
            .is_some_and(|b| batch < *b)
    }

    /// Capture `c` closed its processors (or died): its connections close, and MySQL rolls
    /// back every transaction of it whose COMMIT never arrived.
    pub(crate) fn rollback_parked(&mut self, c: u32) {
        let dropped: Vec<ParkedCommit> = self
            .transport
            .parked
            .iter()
            .filter(|p| p.0 == c)
            .copied()
            .collect();
        self.transport.parked.retain(|p| p.0 != c);
        // The connection is gone: an ack still waiting for it would reach a new processor
        // whose batch ids start again.
        self.transport.parked_acks.retain(|p| p.0 != c);
        for (capture, cf, table, batch) in dropped {
            if let Some(d) = self.downstream.get_mut(cf as usize) {
                d.queued.remove(&(capture, table, batch));
            }
        }
    }
}

impl Cdc {
    /// Capture `c`'s processors were re-created: its streams are new connections.
    pub(crate) fn transport_capture_reset(&mut self, c: u32) {
        self.transport
            .next_send
            .retain(|(_, sub), _| sub.capture != c);
        self.transport
            .next_recv
            .retain(|(_, sub), _| sub.capture != c);
        self.transport.held.retain(|(_, sub), _| sub.capture != c);
    }
}

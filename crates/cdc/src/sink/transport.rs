//! The wiring of TCP under the model's connections (the state machine is
//! [`Transport`](crate::sink::tcp::Transport) in `tcp.rs`): the store -> capture event streams, and MySQL COMMITs and acks held by a cut.

use faultline_sim::Level;

use crate::cdc::Cdc;
use crate::endpoint::store_endpoint::Subscriber;
use crate::msg::{CdcMsg, CfIx, RegionEvent};
use crate::out::{Cx, Out, Reach};
use crate::sink::tcp::{Arrival, ParkedCommit, StreamKey};

impl Cdc {
    /// Sends (or holds) one batch of a store's events for a subscriber stream.
    pub(crate) fn send_events(
        &mut self,
        cx: &mut Cx,
        store: u32,
        sub: Subscriber,
        events: Vec<RegionEvent>,
    ) {
        let ends = (
            self.stores[store as usize],
            self.captures[sub.capture as usize],
        );
        self.transport
            .send_events(cx.reach, &mut cx.out, ends, (store, sub), events);
    }

    /// Sends the held batches of every stream whose link is up again.
    pub(crate) fn flush_held_events(&mut self, cx: &mut Cx) {
        let (stores, captures) = (&self.stores, &self.captures);
        let ends =
            |(store, sub): StreamKey| (stores[store as usize], captures[sub.capture as usize]);
        self.transport.flush_held(cx.reach, &mut cx.out, ends);
    }

    /// A store restarted: its streams are new connections.
    pub(crate) fn transport_store_reset(&mut self, store: u32) {
        self.transport.store_reset(store);
    }

    /// Checks a batch's position at capture `c`; on a gap the stream is broken at once.
    pub(crate) fn stream_in_order(
        &mut self,
        out: &mut Out,
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
        // After its session ended, the capture's context is cancelled: its pullers stop, and
        // only what its sinks already hold can still be written.
        let cancelled = self.sessions[c as usize].closing.is_some();
        let want = match self.transport.arrive((store, sub), seq, cancelled) {
            Arrival::InOrder => return true,
            Arrival::Refused => return false,
            Arrival::Gap { expected } => expected,
        };
        let node = self.captures[c as usize];
        let detail = format!(
            "store={} changefeed={} expected={want} got={seq}",
            store + 1,
            self.cf_id(cf)
        );
        out.log(Some(node), Level::Warn, "stream to store closed", detail);
        let actions = self.kv_input(c, cf, |kv, a| kv.on_stream_broken(store, a));
        self.apply_kv(out, c, cf, actions);
        false
    }
}

impl Cdc {
    /// True when capture `c` can reach MySQL now: a clean link (a lossy one stalls the TCP
    /// stream) to a MySQL that runs (a dead one refuses the connection).
    pub(crate) fn mysql_reachable(&self, reach: Reach, c: u32) -> bool {
        match self.mysql {
            Some(m) => reach.link_clean(self.captures[c as usize], m) && !reach.is_crashed(m),
            None => true,
        }
    }

    /// MySQL is about to commit a batch. A batch is one transaction written over several round
    /// trips; while the capture's connection is cut its COMMIT cannot arrive, so the
    /// transaction waits and commits when the link heals (TCP delivers the rest late). Returns
    /// true when the batch was parked.
    pub(crate) fn mysql_commit_parked(
        &mut self,
        cx: &mut Cx,
        capture: u32,
        cf: CfIx,
        table: u32,
        batch: u64,
    ) -> bool {
        if self.mysql_reachable(cx.reach, capture) {
            return false;
        }
        if !self.transport.parked.contains(&(capture, cf, table, batch)) {
            self.transport.parked.push((capture, cf, table, batch));
            let detail = format!(
                "capture=cdc-{} changefeed={} table={table} batch={batch}",
                capture + 1,
                self.cf_id(cf)
            );
            cx.out.log(
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
    pub(crate) fn resume_parked_commits(&mut self, cx: &mut Cx) {
        let (reach, out) = (cx.reach, &mut cx.out);
        let Some(mysql) = self.mysql else { return };
        for p in std::mem::take(&mut self.transport.parked_acks) {
            let (capture, cf, table, batch) = p;
            let node = self.captures[capture as usize];
            if reach.link_up(mysql, node) {
                out.send_ordered(mysql, node, CdcMsg::MysqlAck { cf, table, batch });
            } else {
                self.transport.parked_acks.push(p);
            }
        }
        let parked = std::mem::take(&mut self.transport.parked);
        for p in parked {
            let (capture, cf, table, batch) = p;
            if !self.mysql_reachable(reach, capture) {
                self.transport.parked.push(p);
                continue;
            }
            let detail = format!(
                "capture=cdc-{} changefeed={} table={table} batch={batch}",
                capture + 1,
                self.cf_id(cf)
            );
            out.log(
                Some(mysql),
                Level::Warn,
                "MySQL transaction resumes after the network healed",
                detail,
            );
            let latency = self.cfg.mysql_write_latency;
            out.set_timer(
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
        self.transport.capture_reset(c);
    }
}

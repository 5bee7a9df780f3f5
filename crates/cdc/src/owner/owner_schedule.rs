//! The owner side of scheduler v3: the captures it schedules onto (with the remove delay of
//! the tiflow#9344 fix), heartbeats, the replication sets rebuilt from reports, the plan of
//! adds, drains and balance moves, the dispatches, and the guard on advancing watermarks.
//!
//! A component with an outbox: it is given the time and writes its heartbeats, dispatches and
//! log lines to an [`Out`] (`cdc/scheduler/internal/v3/coordinator.go`, `poll`).

use std::collections::BTreeMap;

use faultline_sim::{Level, NodeId, SimTime};

use crate::capture::session::msg;
use crate::cdc::Cdc;
use crate::etcd::wire::SessionMsg;
use crate::etcd::CaptureId;
use crate::ids::CfIx;
use crate::out::{Cx, Out};
use crate::owner::scheduler::{ReplicationSet, RsState, TableReport, TableState};
use crate::ts::Ts;

impl Cdc {
    /// The scheduler part of an owner tick on capture node `node`. Returns true when this
    /// capture is the owner (the caller then runs the changefeed watermarks).
    pub(crate) fn owner_role_tick(&mut self, cx: &mut Cx, node: NodeId) -> bool {
        let (now, out) = (cx.now, &mut cx.out);
        let Some(c) = self.capture_index(node) else {
            return false;
        };
        if !self.is_owner(c) {
            return false;
        }
        let me = self.sessions[c as usize].id(c);
        if self.sched.owner != Some(me) {
            self.sched = crate::owner::scheduler::Scheduler {
                owner: Some(me),
                tables: vec![Default::default(); self.cfg.changefeeds.len()],
                last_balance: now,
                ..Default::default()
            };
            // Table watermarks are owner memory: the new owner hears them again, and starts
            // from the checkpoints etcd holds.
            for f in &mut self.watermarks {
                f.tables.clear();
            }
            self.status_txn_term_begins(c);
        }
        self.sched_sync_captures(out, now, c);
        self.sched.ticks += 1;
        let heartbeat = self.sched.ticks % self.cfg.session.heartbeat_ticks.max(1) as u64 == 1
            || self.cfg.session.heartbeat_ticks <= 1;
        if heartbeat {
            for (id, gone) in self.sched.captures.clone() {
                if gone.is_none() {
                    out.send_ordered(
                        node,
                        self.captures[id.0 as usize],
                        msg(SessionMsg::Heartbeat { to: id }),
                    );
                }
            }
        }
        if self.sched.initialized() {
            self.sched_plan(now, c);
            if heartbeat {
                self.sched_dispatch(out, node);
            }
        }
        true
    }

    /// True when the owner may advance `cf`'s watermarks: every table replicates and reported.
    pub(crate) fn owner_may_advance(&self, cf: usize) -> bool {
        let Some(sets) = self.sched.tables.get(cf) else {
            return false;
        };
        self.sched.initialized()
            && !self.paused.get(cf).copied().unwrap_or(false)
            && self.cf_tables(cf as CfIx).all(|t| {
                sets.get(&t).is_some_and(|rs| rs.primary.is_some())
                    && self.watermarks[cf].tables.contains_key(&t)
            })
    }

    /// Accepts a processor's table watermarks only from the table's primary.
    pub(crate) fn status_from_primary(
        &mut self,
        from: NodeId,
        cf: CfIx,
        table: u32,
        cp: crate::ts::Ts,
    ) -> bool {
        let Some(c) = self.capture_index(from) else {
            return false;
        };
        let id = self.sessions[c as usize].id(c);
        let ok = self.sessions[c as usize].alive() && self.sched.primary(cf, table) == Some(id);
        if ok {
            if let Some(rs) = self.sched.tables[cf as usize].get_mut(&table) {
                rs.checkpoint = rs.checkpoint.max(cp);
            }
        }
        ok
    }

    fn sched_sync_captures(&mut self, out: &mut Out, now: SimTime, c: u32) {
        let node = self.captures[c as usize];
        let view = self.sessions[c as usize].view.captures.clone();
        for id in &view {
            self.sched.captures.entry(*id).or_insert(None);
        }
        let delay = self.cfg.session.capture_remove_delay;
        let known: Vec<(CaptureId, Option<SimTime>)> =
            self.sched.captures.iter().map(|(a, b)| (*a, *b)).collect();
        for (id, gone) in known {
            if view.contains(&id) {
                continue;
            }
            let since = match gone {
                Some(t) => t,
                None => {
                    self.sched.captures.insert(id, Some(now));
                    now
                }
            };
            if now.since(since) >= delay {
                self.sched.captures.remove(&id);
                self.sched.answered.remove(&id);
                let mut moved = 0;
                for sets in &mut self.sched.tables {
                    for rs in sets.values_mut() {
                        if rs.primary == Some(id) || rs.secondary == Some(id) {
                            moved += 1;
                            rs.on_capture_removed(id);
                        }
                    }
                }
                let detail = format!(
                    "captureID=cdc-{}#{} tables={moved} delay={delay}",
                    id.0 + 1,
                    id.1
                );
                out.log(Some(node), Level::Warn, "remove capture", detail);
            }
        }
    }

    pub(crate) fn owner_on_report(
        &mut self,
        out: &mut Out,
        c: u32,
        from: CaptureId,
        tables: Vec<TableReport>,
    ) {
        if !self.is_owner(c) || self.sched.owner != Some(self.sessions[c as usize].id(c)) {
            return;
        }
        if self.sched.captures.get(&from) != Some(&None) {
            return; // unknown or vanished capture: its word no longer counts
        }
        let first = !self.sched.answered.get(&from).copied().unwrap_or(false);
        self.sched.answered.insert(from, true);
        let node = self.captures[c as usize];
        for cf in 0..self.sched.tables.len() {
            let mine: Vec<&TableReport> = tables.iter().filter(|t| t.cf as usize == cf).collect();
            if first {
                // A new owner rebuilds its sets from what the captures run.
                for t in &mine {
                    let rs = self.sched.tables[cf]
                        .entry(t.table)
                        .or_insert(ReplicationSet::absent(t.checkpoint));
                    match t.state {
                        TableState::Replicating if rs.primary.is_none() => {
                            rs.primary = Some(from);
                            rs.checkpoint = rs.checkpoint.max(t.checkpoint);
                            if rs.state == RsState::Absent {
                                rs.state = RsState::Replicating;
                            }
                        }
                        TableState::Preparing | TableState::Prepared if rs.secondary.is_none() => {
                            rs.secondary = Some(from);
                            if rs.state == RsState::Absent {
                                rs.state = RsState::Prepare;
                            }
                        }
                        _ => {}
                    }
                }
            }
            // By table: a capture reports every table it runs, so a linear search per set
            // cost tables x reports per heartbeat (500,000 comparisons at 1,000 tables).
            let mut by_table: BTreeMap<u32, &TableReport> = BTreeMap::new();
            for t in &mine {
                by_table.entry(t.table).or_insert(t); // the first, as a search would find
            }
            let sets: Vec<u32> = self.sched.tables[cf].keys().copied().collect();
            for table in sets {
                let report = by_table.get(&table);
                let status = (
                    report.map(|t| t.state),
                    report.map_or(Ts::ZERO, |t| t.checkpoint),
                );
                self.owner_apply_status(out, node, from, (cf as CfIx, table), status);
            }
        }
    }

    /// A capture answered a dispatch with that one table's state: only its set moves.
    pub(crate) fn owner_on_dispatch_response(
        &mut self,
        out: &mut Out,
        c: u32,
        from: CaptureId,
        table: (CfIx, u32),
        status: (Option<TableState>, Ts),
    ) {
        if !self.is_owner(c) || self.sched.owner != Some(self.sessions[c as usize].id(c)) {
            return;
        }
        if self.sched.captures.get(&from) != Some(&None) {
            return; // unknown or vanished capture: its word no longer counts
        }
        let node = self.captures[c as usize];
        self.owner_apply_status(out, node, from, table, status);
    }

    /// The owner heard `from`'s state and checkpoint of `table`: the table's replication set
    /// moves on if `from` is its primary or secondary (logged when it starts replicating).
    fn owner_apply_status(
        &mut self,
        out: &mut Out,
        node: NodeId,
        from: CaptureId,
        (cf, table): (CfIx, u32),
        (state, checkpoint): (Option<TableState>, Ts),
    ) {
        let Some(rs) = self
            .sched
            .tables
            .get_mut(cf as usize)
            .and_then(|sets| sets.get_mut(&table))
        else {
            return;
        };
        if rs.primary != Some(from) && rs.secondary != Some(from) {
            return;
        }
        let before = (rs.primary, rs.state);
        rs.on_report(from, state, checkpoint);
        let after = (rs.primary, rs.state);
        if before != after && after.1 == RsState::Replicating {
            let detail = format!(
                "changefeed={} table={table} capture=cdc-{}",
                self.cfg.changefeeds[cf as usize].id,
                after.0.map_or(0, |p| p.0 + 1)
            );
            out.log(Some(node), Level::Info, "table moved", detail);
        }
    }

    /// Decides adds, moves and removals (owner memory only; dispatches go out separately).
    fn sched_plan(&mut self, now: SimTime, c: u32) {
        let draining = self.sessions[c as usize].view.draining.clone();
        self.plan_adds(&draining);
        self.plan_moves(now, &draining);
    }

    /// Every table of every changefeed gets a replication set; an absent one is added on the
    /// least loaded capture, and a paused changefeed's tables are removed.
    fn plan_adds(&mut self, draining: &[u32]) {
        for cf in 0..self.cfg.changefeeds.len() {
            let paused = self.paused.get(cf).copied().unwrap_or(false);
            let from = self.watermarks[cf].checkpoint.max(self.start_ts);
            for table in self.cf_tables(cf as CfIx) {
                self.sched.tables[cf]
                    .entry(table)
                    .or_insert(ReplicationSet::absent(from));
            }
            let tables: Vec<u32> = self.sched.tables[cf].keys().copied().collect();
            for table in tables {
                // Only an absent table needs a target: picking one for every table on every
                // tick counted every capture's load each time (tables x tables per tick).
                let absent = self.sched.tables[cf][&table].state == RsState::Absent;
                let target = if absent && !paused {
                    self.sched.pick(draining)
                } else {
                    None
                };
                let rs = self.sched.tables[cf].get_mut(&table).expect("listed");
                if paused {
                    if rs.primary.is_some() && rs.state != RsState::Removing {
                        rs.state = RsState::Removing;
                        rs.secondary = None;
                    } else if rs.primary.is_none() {
                        *rs = ReplicationSet::absent(rs.checkpoint.max(from));
                    }
                    continue;
                }
                if rs.state == RsState::Absent {
                    if let Some(t) = target {
                        rs.secondary = Some(t);
                        rs.state = RsState::Prepare;
                    }
                }
            }
        }
    }

    /// Drain and balance: two-phase moves, at most `max_task_concurrency` at once.
    fn plan_moves(&mut self, now: SimTime, draining: &[u32]) {
        let limit = self.cfg.session.max_task_concurrency as usize;
        let balance_due = now.since(self.sched.last_balance) >= self.cfg.session.balance_interval;
        if balance_due {
            self.sched.last_balance = now;
        }
        loop {
            if self.sched.moves_in_flight() >= limit {
                break;
            }
            let Some(to) = self.sched.pick(draining) else {
                break;
            };
            let Some((cf, t)) = self.sched.next_move(draining, balance_due, to) else {
                break;
            };
            let rs = self.sched.tables[cf].get_mut(&t).expect("picked");
            if rs.primary == Some(to) {
                break;
            }
            rs.secondary = Some(to);
            rs.state = RsState::Prepare;
        }
    }

    fn sched_dispatch(&mut self, out: &mut Out, node: NodeId) {
        for (cf, table, to, op) in self.sched.dispatches() {
            let m = SessionMsg::Dispatch { to, cf, table, op };
            out.send_ordered(node, self.captures[to.0 as usize], msg(m));
        }
    }

    /// A processor's table watermarks reach the owner.
    pub(crate) fn owner_on_table_status(
        &mut self,
        from: NodeId,
        cf: CfIx,
        tables: Vec<(u32, crate::ts::Ts, crate::ts::Ts)>,
    ) {
        for (t, cp, rs) in tables {
            // Only the table's primary counts; watermarks never go back (scheduler v3
            // keeps a replication set's checkpoint monotonic).
            if self.status_from_primary(from, cf, t, cp) {
                let e = self.watermarks[cf as usize]
                    .tables
                    .entry(t)
                    .or_insert((cp, rs));
                *e = (e.0.max(cp), e.1.max(rs));
            }
        }
    }
}

#[cfg(test)]
#[path = "owner_schedule_tests.rs"]
mod tests;

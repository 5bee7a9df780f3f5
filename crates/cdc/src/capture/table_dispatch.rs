//! The processor side of scheduler v3: a capture adds, promotes and removes tables as the
//! owner dispatches them, tracks each table's state (Preparing, Prepared, Replicating,
//! Stopping) and reports them all in answer to every heartbeat or dispatch.

use faultline_sim::NodeId;

use crate::capture::session::msg;
use crate::cdc::Cdc;
use crate::etcd::wire::SessionMsg;
use crate::ids::CfIx;
use crate::out::Out;
use crate::owner::scheduler::{Dispatch, TableReport, TableState};

impl Cdc {
    /// True when capture `c` may write `table` downstream (it is the table's primary here).
    pub(crate) fn may_write(&self, c: u32, cf: CfIx, table: u32) -> bool {
        self.sessions[c as usize].tables.get(&(cf, table)) == Some(&TableState::Replicating)
    }

    pub(crate) fn on_dispatch(
        &mut self,
        out: &mut Out,
        c: u32,
        cf: CfIx,
        table: u32,
        op: Dispatch,
    ) {
        let state = self.sessions[c as usize].tables.get(&(cf, table)).copied();
        match (op, state) {
            (Dispatch::AddSecondary { checkpoint }, None) => {
                let mut actions = Vec::new();
                let p = &mut self.processors[c as usize][cf as usize];
                p.add_table(table, checkpoint);
                for region in self.ks.table_regions(table).to_vec() {
                    // A region shared with a table already here may be ahead of this table's
                    // checkpoint: subscribe again from the checkpoint so nothing is missed.
                    let ahead =
                        p.kv.regions()
                            .get(&region)
                            .is_none_or(|t| t.resolved > checkpoint);
                    if ahead {
                        p.kv.track(region, self.ks.span(region), checkpoint, &mut actions);
                    }
                }
                self.sessions[c as usize]
                    .tables
                    .insert((cf, table), TableState::Preparing);
                self.apply_kv(out, c, cf, actions);
            }
            (Dispatch::Promote, Some(TableState::Prepared | TableState::Preparing)) => {
                self.sessions[c as usize]
                    .tables
                    .insert((cf, table), TableState::Replicating);
            }
            (
                Dispatch::Remove,
                Some(TableState::Preparing | TableState::Prepared | TableState::Replicating),
            ) => {
                self.sessions[c as usize]
                    .tables
                    .insert((cf, table), TableState::Stopping);
                self.processor_table_progress(c);
            }
            _ => {}
        }
    }

    /// Per processor tick: secondaries whose puller caught up become `Prepared`; stopping
    /// tables whose last write was acknowledged go away.
    pub(crate) fn processor_table_progress(&mut self, c: u32) {
        for p in &mut self.processors[c as usize] {
            p.refresh_frontiers(&self.ks);
        }
        let entries: Vec<((CfIx, u32), TableState)> = self.sessions[c as usize]
            .tables
            .iter()
            .map(|(k, v)| (*k, *v))
            .collect();
        for ((cf, table), state) in entries {
            // Cached frontiers stay right through the loop: removing a table untracks only
            // regions no other table here covers.
            self.table_progress(c, (cf, table), state);
        }
    }

    /// One table's step of [`Cdc::processor_table_progress`]; its processor's frontiers must
    /// be fresh.
    fn table_progress(&mut self, c: u32, (cf, table): (CfIx, u32), state: TableState) {
        let p = &self.processors[c as usize][cf as usize];
        let Some(sink) = p.tables.get(&table) else {
            // The processor dropped it (changefeed stopped): forget the state too.
            self.sessions[c as usize].tables.remove(&(cf, table));
            return;
        };
        match state {
            TableState::Preparing if p.frontier(&self.ks, table).ready => {
                self.sessions[c as usize]
                    .tables
                    .insert((cf, table), TableState::Prepared);
            }
            TableState::Stopping if sink.in_flight.is_none() => {
                self.remove_table(c, cf, table);
            }
            _ => {}
        }
    }

    /// Answers a dispatch of `table` with that table's state after one step of progress
    /// (tiflow v3 `agent/table.go`: the table's poll after the task returns its
    /// `DispatchTableResponse`), not with every table: at 1,000 tables a full report per
    /// dispatch made the initial dispatch cost tables x tables on both sides.
    pub(crate) fn send_dispatch_response(
        &mut self,
        out: &mut Out,
        c: u32,
        owner: NodeId,
        cf: CfIx,
        table: u32,
    ) {
        self.processors[c as usize][cf as usize].refresh_frontiers(&self.ks);
        if let Some(state) = self.sessions[c as usize].tables.get(&(cf, table)).copied() {
            self.table_progress(c, (cf, table), state);
        }
        let state = self.sessions[c as usize].tables.get(&(cf, table)).copied();
        let checkpoint = self.table_checkpoint(c, cf, table);
        let from = self.sessions[c as usize].id(c);
        let answer = SessionMsg::DispatchResponse {
            from,
            cf,
            table,
            state,
            checkpoint,
        };
        out.send_ordered(self.captures[c as usize], owner, msg(answer));
    }

    /// The checkpoint capture `c` reports for `table` (zero when its processor has no sink).
    fn table_checkpoint(&self, c: u32, cf: CfIx, table: u32) -> crate::ts::Ts {
        self.processors[c as usize][cf as usize]
            .tables
            .get(&table)
            .map_or(crate::ts::Ts::ZERO, |t| t.checkpoint)
    }

    fn remove_table(&mut self, c: u32, cf: CfIx, table: u32) {
        self.sessions[c as usize].tables.remove(&(cf, table));
        let p = &mut self.processors[c as usize][cf as usize];
        p.tables.remove(&table);
        for region in self.ks.table_regions(table).to_vec() {
            let shared = (p.tables.keys()).any(|t| self.ks.table_regions(*t).contains(region));
            if !shared {
                p.kv.untrack(region);
            }
        }
    }

    /// Capture `c` answers its owner's heartbeat with every table it holds, each with its
    /// state and checkpoint (`cdc/scheduler/internal/v3/agent/agent.go`,
    /// `handleMessageHeartbeat`), written to `out`.
    pub(crate) fn send_report(&mut self, out: &mut Out, c: u32, owner: NodeId) {
        self.processor_table_progress(c);
        let s = &self.sessions[c as usize];
        let tables = s
            .tables
            .iter()
            .map(|((cf, table), state)| TableReport {
                cf: *cf,
                table: *table,
                state: *state,
                checkpoint: self.table_checkpoint(c, *cf, *table),
            })
            .collect();
        let from = s.id(c);
        out.send_ordered(
            self.captures[c as usize],
            owner,
            msg(SessionMsg::Report { from, tables }),
        );
    }

    /// Captures writing `table` downstream right now (2 = a double write).
    pub fn writers(&self, cf: CfIx, table: u32) -> usize {
        (0..self.captures.len())
            .filter(|c| {
                let s = &self.sessions[*c];
                match s.tables.get(&(cf, table)) {
                    Some(TableState::Replicating) => true,
                    Some(TableState::Stopping) => self.processors[*c][cf as usize]
                        .tables
                        .get(&table)
                        .is_some_and(|t| t.in_flight.is_some()),
                    _ => false,
                }
            })
            .count()
    }
}

#[cfg(test)]
#[path = "table_dispatch_tests.rs"]
mod tests;

//! Scheduler v3: the owner's replication sets and the processor's table states.
//!
//! Owner side, per changefeed and table, a [`ReplicationSet`]:
//! `Absent -> Prepare -> Commit -> Replicating`, and `Removing` for a paused changefeed.
//! A table moves in two phases: add it as *secondary* on the target (its puller starts from
//! the table checkpoint; it does not write), and once the secondary is `Prepared`, commit:
//! remove the old primary, then promote the secondary to primary.
//!
//! Processor side, per table, a [`TableState`]: `Preparing -> Prepared -> Replicating`,
//! `Stopping -> (gone)`.
//!
//! The owner is level-triggered: every heartbeat it re-sends what each transitional set still
//! needs, and every report carries the capture's whole table state, so a lost message only
//! delays a step. Simplifications: one table = one span; the owner's balance moves one table at
//! a time from the most to the least loaded capture; no per-table priorities.

use std::collections::BTreeMap;

use faultline_sim::{SimTime, TraceHasher};

use crate::etcd::CaptureId;
use crate::ids::CfIx;
use crate::ts::Ts;

/// A table's state on a processor (tablepb.TableState).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TableState {
    /// Secondary: the puller catches up from the checkpoint; nothing is written.
    Preparing,
    /// Secondary whose puller has caught up (every region initialised).
    Prepared,
    /// Primary: the sink writes downstream.
    Replicating,
    /// Asked to stop: no new writes; waits for the write in flight.
    Stopping,
    /// Stopped and gone (reported once so the owner can proceed).
    Stopped,
}

impl TableState {
    fn code(self) -> u64 {
        self as u64
    }
}

/// One table as a processor reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableReport {
    /// Changefeed.
    pub cf: CfIx,
    /// Table.
    pub table: u32,
    /// State.
    pub state: TableState,
    /// Table checkpoint (everything up to it is written downstream).
    pub checkpoint: Ts,
}

impl TableReport {
    /// Folds into a trace hash.
    pub fn encode(&self, h: &mut TraceHasher) {
        h.word(self.cf as u64);
        h.word(self.table as u64);
        h.word(self.state.code());
        h.word(self.checkpoint.0);
    }
}

/// What the owner asks a processor to do with a table (DispatchTableRequest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dispatch {
    /// Add as secondary from `checkpoint`.
    AddSecondary {
        /// Start the puller from here.
        checkpoint: Ts,
    },
    /// Promote to primary (the commit of a move or an add).
    Promote,
    /// Stop and remove.
    Remove,
}

impl Dispatch {
    /// Folds into a trace hash.
    pub fn encode(&self, h: &mut TraceHasher) {
        match self {
            Dispatch::AddSecondary { checkpoint } => {
                h.word(1);
                h.word(checkpoint.0)
            }
            Dispatch::Promote => h.word(2),
            Dispatch::Remove => h.word(3),
        }
    }
}

/// Owner-side state of one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RsState {
    /// On no capture.
    Absent,
    /// A secondary is preparing (a new table when there is no primary, else a move).
    Prepare,
    /// The secondary is prepared: the old primary is being removed, then it is promoted.
    Commit,
    /// One primary writes.
    Replicating,
    /// Being removed (paused changefeed).
    Removing,
}

/// The owner's record of one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplicationSet {
    /// State.
    pub state: RsState,
    /// Capture writing the table.
    pub primary: Option<CaptureId>,
    /// Capture preparing to take it over.
    pub secondary: Option<CaptureId>,
    /// Latest table checkpoint the owner knows: a re-add starts here.
    pub checkpoint: Ts,
}

impl ReplicationSet {
    /// An absent table starting at `checkpoint`.
    pub fn absent(checkpoint: Ts) -> Self {
        ReplicationSet {
            state: RsState::Absent,
            primary: None,
            secondary: None,
            checkpoint,
        }
    }

    /// The dispatch this set needs now, with its target, if any.
    pub fn pending_dispatch(&self) -> Option<(CaptureId, Dispatch)> {
        match (self.state, self.primary, self.secondary) {
            (RsState::Prepare, _, Some(s)) => Some((
                s,
                Dispatch::AddSecondary {
                    checkpoint: self.checkpoint,
                },
            )),
            (RsState::Commit, Some(p), Some(_)) => Some((p, Dispatch::Remove)),
            (RsState::Commit, None, Some(s)) => Some((s, Dispatch::Promote)),
            (RsState::Removing, Some(p), _) => Some((p, Dispatch::Remove)),
            _ => None,
        }
    }

    /// Applies one capture's report about this table; returns true if the set changed.
    pub fn on_report(&mut self, from: CaptureId, state: Option<TableState>, cp: Ts) -> bool {
        let before = *self;
        let live = matches!(
            state,
            Some(TableState::Preparing | TableState::Prepared | TableState::Replicating)
        );
        // A stopping primary may still have a write in flight: it is gone only once it
        // reports the table stopped or absent.
        let gone = matches!(state, None | Some(TableState::Stopped));
        if self.primary == Some(from) && live {
            self.checkpoint = self.checkpoint.max(cp);
        }
        match self.state {
            RsState::Prepare
                if self.secondary == Some(from) && state == Some(TableState::Prepared) =>
            {
                self.state = RsState::Commit;
            }
            // tiflow `cdc/scheduler/internal/v3/replication/replication_set.go`,
            // `pollOnCommit`.
            RsState::Commit => {
                if self.primary == Some(from) && gone {
                    // The old primary stopped: promote the secondary next, or with none left
                    // the table is absent and is added again.
                    self.primary = None;
                    if self.secondary.is_none() {
                        self.state = RsState::Absent;
                    }
                } else if self.secondary == Some(from) && gone {
                    // The secondary lost the table (its processor restarted): forget it; with
                    // no primary left the table is absent and is added again.
                    self.secondary = None;
                    if self.primary.is_none() {
                        self.state = RsState::Absent;
                    }
                } else if self.primary.is_none()
                    && self.secondary == Some(from)
                    && state == Some(TableState::Replicating)
                {
                    self.primary = self.secondary.take();
                    self.state = RsState::Replicating;
                } else if self.primary == Some(from)
                    && self.secondary.is_none()
                    && state == Some(TableState::Replicating)
                {
                    // The secondary went away and the primary kept replicating.
                    self.state = RsState::Replicating;
                }
            }
            // The primary lost the table (its processor stopped): re-add it elsewhere.
            RsState::Replicating if self.primary == Some(from) && gone => {
                self.primary = None;
                self.state = RsState::Absent;
            }
            RsState::Removing if self.primary == Some(from) && gone => {
                self.primary = None;
                self.state = RsState::Absent;
            }
            _ => {}
        }
        *self != before
    }

    /// `capture` is gone: forget it and fall back so the table is re-added elsewhere.
    pub fn on_capture_removed(&mut self, capture: CaptureId) {
        if self.secondary == Some(capture) {
            self.secondary = None;
            self.state = match (self.state, self.primary) {
                (RsState::Removing, _) => RsState::Removing,
                (_, Some(_)) => RsState::Replicating,
                (_, None) => RsState::Absent,
            };
        }
        if self.primary == Some(capture) {
            self.primary = None;
            self.state = match (self.state, self.secondary) {
                (RsState::Removing, _) => RsState::Absent,
                // A prepared secondary takes over at once.
                (RsState::Commit, Some(_)) => RsState::Commit,
                // A preparing secondary keeps preparing and becomes the only copy.
                (RsState::Prepare, Some(_)) => RsState::Prepare,
                _ => RsState::Absent,
            };
        }
    }
}

/// The owner's scheduler state for every changefeed. It lives in the owner's memory: a new
/// owner starts empty and rebuilds it from the captures' heartbeat responses.
#[derive(Clone, Debug, Default)]
pub struct Scheduler {
    /// The owner this state belongs to.
    pub owner: Option<CaptureId>,
    /// Captures the owner schedules onto, with the instant their key vanished if it did.
    pub captures: BTreeMap<CaptureId, Option<SimTime>>,
    /// Captures whose first heartbeat response arrived (the owner schedules only after every
    /// capture answered, as v3's capture manager does).
    pub answered: BTreeMap<CaptureId, bool>,
    /// Replication sets per changefeed.
    pub tables: Vec<BTreeMap<u32, ReplicationSet>>,
    /// Owner ticks since it took over (heartbeats go out every `heartbeat_ticks`).
    pub ticks: u64,
    /// Last balance check.
    pub last_balance: SimTime,
}

impl Scheduler {
    /// True once every known capture has answered a heartbeat.
    pub fn initialized(&self) -> bool {
        self.captures
            .keys()
            .all(|c| self.answered.get(c).copied().unwrap_or(false))
    }

    /// Captures that can take tables: alive (key present) and not draining.
    pub fn candidates(&self, draining: &[u32]) -> Vec<CaptureId> {
        self.captures
            .iter()
            .filter(|(c, gone)| gone.is_none() && !draining.contains(&c.0))
            .map(|(c, _)| *c)
            .collect()
    }

    /// Tables per capture once the moves in flight are done, for placement and balance.
    pub fn load(&self, c: CaptureId) -> usize {
        self.tables
            .iter()
            .flat_map(|t| t.values())
            .filter(|rs| {
                rs.secondary == Some(c) || (rs.primary == Some(c) && rs.secondary.is_none())
            })
            .count()
    }

    /// The least loaded candidate (lowest index on ties).
    pub fn pick(&self, draining: &[u32]) -> Option<CaptureId> {
        self.candidates(draining)
            .into_iter()
            .min_by_key(|c| (self.load(*c), *c))
    }

    /// The next table to move onto `to`, as (changefeed, table): a table on a draining capture
    /// first; else, when a balance check is due, one from the most loaded candidate if it holds
    /// at least two more tables than `to` (scheduler v3's drain-capture and balance schedulers).
    pub fn next_move(
        &self,
        draining: &[u32],
        balance_due: bool,
        to: CaptureId,
    ) -> Option<(usize, u32)> {
        let first_replicating_on = |on: &dyn Fn(CaptureId) -> bool| {
            self.tables.iter().enumerate().find_map(|(cf, sets)| {
                sets.iter()
                    .find(|(_, rs)| rs.state == RsState::Replicating && rs.primary.is_some_and(on))
                    .map(|(t, _)| (cf, *t))
            })
        };
        if let Some(pick) = first_replicating_on(&|p| draining.contains(&p.0)) {
            return Some(pick);
        }
        if !balance_due {
            return None;
        }
        let busiest = self
            .candidates(draining)
            .into_iter()
            .max_by_key(|c| (self.load(*c), std::cmp::Reverse(*c)))?;
        if self.load(busiest) < self.load(to) + 2 {
            return None;
        }
        first_replicating_on(&|p| p == busiest)
    }

    /// What the owner sends this heartbeat, by changefeed and table: every transitional set's
    /// next dispatch, with its target. Level-triggered: a lost dispatch is simply sent again.
    pub fn dispatches(&self) -> Vec<(CfIx, u32, CaptureId, Dispatch)> {
        let mut out = Vec::new();
        for (cf, sets) in self.tables.iter().enumerate() {
            for (table, rs) in sets {
                if let Some((to, op)) = rs.pending_dispatch() {
                    out.push((cf as CfIx, *table, to, op));
                }
            }
        }
        out
    }

    /// Moves in flight (sets in Prepare or Commit with a primary).
    pub fn moves_in_flight(&self) -> usize {
        self.tables
            .iter()
            .flat_map(|t| t.values())
            .filter(|rs| matches!(rs.state, RsState::Prepare | RsState::Commit))
            .count()
    }

    /// The primary of a table (for metrics and status routing).
    pub fn primary(&self, cf: CfIx, table: u32) -> Option<CaptureId> {
        self.tables
            .get(cf as usize)
            .and_then(|t| t.get(&table))
            .and_then(|rs| rs.primary)
    }
}

#[cfg(test)]
#[path = "scheduler_tests.rs"]
mod tests;

//! The owner loop and the processor manager's lifecycle handling (tiflow#4241).
//!
//! Every `owner_tick` (50 ms) the owner ticks the changefeeds one after another. A
//! changefeed's tick runs its feed state manager (errors, backoff, retry), initialises or
//! closes its sink, recomputes its watermarks and, for Kafka, writes the checkpoint to the
//! topic. Work inside a tick takes no simulated time, except a synchronous producer close
//! (`cdc.sink_close = "sync"`): then the owner is busy until the close finishes (timers), and
//! every later changefeed of the pass, and the next pass, wait; the MySQL changefeed's
//! checkpoint stops advancing meanwhile. The processor manager on each capture does the same
//! for processors: with a sync close it stops ticking every processor of that capture.

use faultline_sim::{Level, NodeId, SimDuration, SimTime};

use crate::cdc::Cdc;
use crate::msg::{CdcTimer, CfIx};
use crate::out::Cx;
use crate::owner::feed_state::Retry;
use crate::owner::lifecycle::{FeedStatus, Pass, ProcessorState, Refused, SinkState};
use crate::sink::kafka::{fmt_secs, CloseJob, NO_BROKERS, OWNER_SIDE};

/// One row of `cdc cli changefeed list`.
#[derive(Clone, Debug, PartialEq)]
pub struct ChangefeedRow {
    /// Id.
    pub id: String,
    /// `mysql` or `kafka`.
    pub sink_type: &'static str,
    /// Changefeed state.
    pub state: FeedStatus,
    /// Owner-side sink state.
    pub sink: SinkState,
    /// Checkpoint as simulated time, seconds.
    pub checkpoint_secs: f64,
    /// Checkpoint lag, seconds.
    pub checkpoint_lag_secs: f64,
    /// Last error.
    pub error: Option<String>,
}

impl Cdc {
    /// The changefeed list, like `cdc cli changefeed list`, for the UI: the checkpoint is the
    /// one etcd holds, as the CLI shows it.
    pub fn changefeed_list(&self, now: SimTime) -> Vec<ChangefeedRow> {
        self.cfg
            .changefeeds
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let l = &self.life.feeds[i];
                let checkpoint = self.persisted_checkpoint(i);
                ChangefeedRow {
                    id: c.id.clone(),
                    sink_type: if c.sink.is_kafka() { "kafka" } else { "mysql" },
                    state: l.status,
                    sink: l.sink,
                    checkpoint_secs: checkpoint.sim_time().as_secs_f64(),
                    checkpoint_lag_secs: checkpoint.lag_secs(now),
                    error: l.error.clone(),
                }
            })
            .collect()
    }

    /// Processor state of a changefeed on a capture.
    pub fn processor_state(&self, capture: u32, cf: CfIx) -> ProcessorState {
        self.life.managers[capture as usize].states[cf as usize]
    }

    /// The `OwnerTick` timer of capture node `node`: when it is the owner, the scheduler's
    /// part, then a pass over the changefeeds (which arms the next tick when it ends); a
    /// capture that is not the owner, or an owner whose status txn is unanswered
    /// (`status_txn.rs`), only arms the next.
    pub(crate) fn on_owner_tick(&mut self, cx: &mut Cx, node: NodeId) {
        let waits = self
            .capture_index(node)
            .is_some_and(|c| self.is_owner(c) && self.status_txn_waits(cx, c));
        if waits {
            cx.out
                .set_timer(node, self.cfg.owner_tick, CdcTimer::OwnerTick);
        } else if self.owner_role_tick(cx, node) {
            self.owner_tick(cx, node);
        } else {
            cx.out
                .set_timer(node, self.cfg.owner_tick, CdcTimer::OwnerTick);
        }
    }

    /// The owner's pass at `cx.now`: start a pass over the changefeeds.
    pub(crate) fn owner_tick(&mut self, cx: &mut Cx, node: NodeId) {
        if self.life.pass.is_some() {
            return; // a pass is still waiting for a close; it re-arms the tick when done
        }
        let now = cx.now;
        self.life.pass = Some(Pass {
            node,
            started: now,
            next_cf: 0,
            cf_started: now,
        });
        self.owner_continue(cx, node);
    }

    /// Ticks the pass's changefeeds from the next one on, until one blocks the owner or the
    /// pass is done (then the next owner tick is armed).
    fn owner_continue(&mut self, cx: &mut Cx, node: NodeId) {
        while let Some(pass) = self.life.pass.as_mut() {
            let cf = pass.next_cf;
            if cf >= self.cfg.changefeeds.len() {
                break;
            }
            pass.cf_started = cx.now;
            if self.tick_changefeed(cx, node, cf as CfIx) {
                self.life.blocked_on = Some(cf as CfIx);
                return;
            }
            if let Some(p) = self.life.pass.as_mut() {
                p.next_cf += 1;
            }
        }
        if let Some(pass) = self.life.pass.take() {
            let took = cx.now.since(pass.started);
            self.life.last_owner_tick = took;
            self.life.max_owner_tick = self.life.max_owner_tick.max(took);
        }
        if let Some(c) = self.capture_index(node).filter(|c| self.is_owner(*c)) {
            self.status_txn_commit(cx, c);
        }
        cx.out
            .set_timer(node, self.cfg.owner_tick, CdcTimer::OwnerTick);
    }

    /// The sync close the owner waited for is done: finish that changefeed's tick, go on.
    fn owner_resume(&mut self, cx: &mut Cx, node: NodeId) {
        let Some(cf) = self.life.blocked_on.take() else {
            return;
        };
        if let Some(started) = self.life.pass.as_ref().map(|p| p.cf_started) {
            let took = cx.now.since(started);
            if took > self.cfg.backoff.tick_warn {
                let detail = format!("changefeed={} duration={}", self.cf_id(cf), fmt_secs(took));
                cx.out.log(
                    Some(node),
                    Level::Warn,
                    "changefeed tick took too long",
                    detail,
                );
            }
        }
        if let Some(p) = self.life.pass.as_mut() {
            p.next_cf += 1;
        }
        self.owner_continue(cx, node);
    }

    /// One changefeed's tick; true when it blocks the owner (a sync close started).
    fn tick_changefeed(&mut self, cx: &mut Cx, node: NodeId, cf: CfIx) -> bool {
        match self.life.feeds[cf as usize].status {
            FeedStatus::Normal | FeedStatus::Warning => self.tick_running_changefeed(cx, node, cf),
            FeedStatus::Error => self.tick_failed_changefeed(cx, node, cf),
            FeedStatus::Failed | FeedStatus::Stopped | FeedStatus::Finished => false,
        }
    }

    /// A running changefeed's tick: a pending error, the sink's (re)initialisation, the
    /// watermarks, the way back from Warning, and the Kafka checkpoint broadcast.
    fn tick_running_changefeed(&mut self, cx: &mut Cx, node: NodeId, cf: CfIx) -> bool {
        let i = cf as usize;
        if let Some(err) = self.life.feeds[i].pending_error.take() {
            return self.handle_error(cx, node, cf, err);
        }
        if self.life.feeds[i].sink == SinkState::Closed {
            if let Err(err) = self.init_sink(cx, node, cf) {
                return self.handle_error(cx, node, cf, err);
            }
        }
        // Scheduler v3: the checkpoint cannot proceed until every table has a primary
        // that reported to this owner (`session.rs`).
        if self.owner_may_advance(i) {
            self.watermarks[i].recompute(self.start_ts);
            self.log_slow_tables(&mut cx.out, (cx.now, node), cf);
        }
        let cp = self.watermarks[i].checkpoint;
        if self.life.feeds[i].maybe_recover(cp) {
            let detail = format!("changefeed={}", self.cf_id(cf));
            cx.out.log(
                Some(node),
                Level::Info,
                "changefeed is recovered from warning state",
                detail,
            );
        }
        let l = &mut self.life.feeds[i];
        if self.cfg.changefeeds[i].sink.is_kafka()
            && l.sink == SinkState::Running
            && cp > l.emitted_checkpoint
        {
            l.emitted_checkpoint = cp;
            self.kafka_emit_checkpoint(&mut cx.out, node, cf, cp);
        }
        false
    }

    /// A failed changefeed's tick: once its old sink is closed and its backoff elapsed, it is
    /// restarted (Warning), or given up on (Failed) after failing for too long.
    fn tick_failed_changefeed(&mut self, cx: &mut Cx, node: NodeId, cf: CfIx) -> bool {
        let i = cf as usize;
        let checkpoint = self.watermarks[i].checkpoint;
        let l = &mut self.life.feeds[i];
        match l.retry(&self.cfg.backoff, cx.now, &mut self.life.rng, checkpoint) {
            Retry::Wait => {}
            Retry::GiveUp => {
                let detail = format!("changefeed={}", self.cf_id(cf));
                cx.out.log(Some(node), Level::Error, "The changefeed won't be restarted as it has been experiencing failures for an extended duration", detail);
            }
            Retry::Restart { next } => {
                let detail = format!(
                    "changefeed={} nextRetryInterval={}",
                    self.cf_id(cf),
                    fmt_secs(next)
                );
                cx.out.log(
                    Some(node),
                    Level::Info,
                    "changefeed retry backoff interval is elapsed, changefeed will be restarted",
                    detail,
                );
                if let Err(err) = self.init_sink(cx, node, cf) {
                    return self.handle_error(cx, node, cf, err);
                }
            }
        }
        false
    }

    /// Creates the owner-side sink. A Kafka producer needs a broker to fetch metadata from;
    /// with none reachable it fails at once (the brokers refuse connections).
    fn init_sink(&mut self, cx: &mut Cx, node: NodeId, cf: CfIx) -> Result<(), String> {
        if self.cfg.changefeeds[cf as usize].sink.is_kafka()
            && !self.kafka.any_broker_reachable(cx.reach, node)
        {
            return Err(NO_BROKERS.to_string());
        }
        match self.life.feeds[cf as usize].start_sink() {
            Ok(()) => {
                let detail = format!("changefeed={}", self.cf_id(cf));
                cx.out
                    .log(Some(node), Level::Info, "changefeed initialized", detail);
                Ok(())
            }
            // The guard of the seed PR: never run a second sink while the first is closing.
            Err(Refused::Closing) => Ok(()),
            Err(Refused::AlreadyThere) => Ok(()),
        }
    }

    /// `HandleError`: the changefeed goes to Error, its backoff starts on the first error,
    /// and its sink is released. True when the close blocks the owner. As shipped
    /// (tiflow#5186) the sink counts as closed as soon as its producer's close starts in the
    /// background (v5.4.1 `cdc/owner/changefeed.go` `releaseResources` then
    /// `cdc/sink/mq.go` `(*mqSink).Close`); the other two modes keep it `Closing` until done.
    fn handle_error(&mut self, cx: &mut Cx, node: NodeId, cf: CfIx, err: String) -> bool {
        let now = cx.now;
        let detail = format!("changefeed={} error={err}", self.cf_id(cf));
        cx.out
            .log(Some(node), Level::Warn, "changefeed meets an error", detail);
        let l = &mut self.life.feeds[cf as usize];
        if !l.on_error(err, &self.cfg.backoff, now, &mut self.life.rng) {
            return false; // closed already, or still closing: never close twice
        }
        if !self.cfg.changefeeds[cf as usize].sink.is_kafka() {
            self.life.feeds[cf as usize].finish_close();
            return false;
        }
        let blocks = self.kafka_start_close(cx, node, cf, OWNER_SIDE);
        if !self.cfg.sink_close.has_closing_state() {
            self.life.feeds[cf as usize].finish_close();
        }
        blocks
    }

    /// The processor manager's per-changefeed lifecycle step, at the start of a processor
    /// tick. True when a sync close now blocks this capture's processor manager.
    pub(crate) fn processor_lifecycle(&mut self, cx: &mut Cx, c: u32, cf: CfIx) -> bool {
        let node = self.captures[c as usize];
        let l = &self.life.feeds[cf as usize];
        let should_run = l.status.should_run() && l.sink == SinkState::Running;
        let kafka = self.cfg.changefeeds[cf as usize].sink.is_kafka();
        let state = &mut self.life.managers[c as usize].states[cf as usize];
        match *state {
            ProcessorState::Closed if should_run => {
                if kafka && !self.kafka.any_broker_reachable(cx.reach, node) {
                    let l = &mut self.life.feeds[cf as usize];
                    if l.pending_error.is_none() {
                        l.pending_error = Some(NO_BROKERS.to_string());
                    }
                } else {
                    *state = ProcessorState::Initializing;
                }
            }
            ProcessorState::Initializing if should_run => {
                *state = ProcessorState::Running;
            }
            ProcessorState::Initializing => *state = ProcessorState::Closed,
            ProcessorState::Running if !should_run => {
                let p = &mut self.processors[c as usize][cf as usize];
                p.tables.clear();
                p.kv.reset();
                if kafka {
                    // As shipped the sink manager is closed at once, its producer in the
                    // background (v5.4.1 `cdc/sink/manager.go` `(*Manager).Close`).
                    *state = if self.cfg.sink_close.has_closing_state() {
                        ProcessorState::Closing
                    } else {
                        ProcessorState::Closed
                    };
                    return self.kafka_start_close(cx, node, cf, c);
                }
                *state = ProcessorState::Closed;
            }
            _ => {}
        }
        false
    }

    /// A producer client's close finished (timer `KafkaClientClosed`).
    pub(crate) fn on_client_closed(
        &mut self,
        cx: &mut Cx,
        node: NodeId,
        cf: CfIx,
        side: u32,
        (job, client): (u64, u32),
    ) {
        let Some(CloseJob { blocking, .. }) =
            self.kafka_on_client_closed(cx, node, cf, side, (job, client))
        else {
            return;
        };
        if side == OWNER_SIDE {
            self.life.feeds[cf as usize].finish_close();
            if blocking {
                self.owner_resume(cx, node);
            }
        } else {
            // Only a processor waiting in Closing is done: as shipped it may already run a
            // new producer while this old one finished closing.
            let state = &mut self.life.managers[side as usize].states[cf as usize];
            if *state == ProcessorState::Closing {
                *state = ProcessorState::Closed;
            }
            if blocking && self.life.managers[side as usize].blocked {
                self.life.managers[side as usize].blocked = false;
                cx.out
                    .set_timer(node, SimDuration::ZERO, CdcTimer::ProcessorTick);
            }
        }
    }

    /// A capture process died: its processors, the close jobs it ran and, if it ran the owner
    /// loop, the owner loop are gone (a closing producer's clients die with the process).
    /// Whichever capture holds the owner role, not a fixed one.
    pub(crate) fn lifecycle_capture_lost(&mut self, c: u32) {
        let node = self.captures[c as usize];
        for s in &mut self.life.managers[c as usize].states {
            *s = ProcessorState::Closed;
        }
        self.life.managers[c as usize].blocked = false;
        let mut owner_side_closes = Vec::new();
        self.kafka.closing.retain(|(cf, side, _), job| {
            let dies = job.node == node;
            if dies && *side == OWNER_SIDE {
                owner_side_closes.push(*cf);
            }
            !dies
        });
        for cf in owner_side_closes {
            self.life.feeds[cf as usize].finish_close();
        }
        if self.life.pass.as_ref().is_some_and(|p| p.node == node) {
            self.life.pass = None;
            self.life.blocked_on = None;
        }
    }

    /// A capture (re)started with its tables: its processors run.
    pub(crate) fn lifecycle_capture_started(&mut self, c: u32) {
        for s in &mut self.life.managers[c as usize].states {
            *s = ProcessorState::Running;
        }
    }
}

impl Cdc {
    /// What the consistency check compares for a changefeed, and up to which ts: MySQL's
    /// rows up to the checkpoint, or a Kafka consumer's rows up to what both the changefeed
    /// checkpoint and the consumer's watermark cover.
    pub fn replica(&self, cf: CfIx) -> (&crate::sink::mysql::Downstream, crate::ts::Ts) {
        let checkpoint = self.watermarks[cf as usize].checkpoint;
        match self.kafka.topics.get(cf as usize).and_then(|t| t.as_ref()) {
            Some(t) => (&t.consumer.rows, checkpoint.min(t.consumer.watermark)),
            None => (&self.downstream[cf as usize], checkpoint),
        }
    }

    /// Series of the owner loop, lifecycles and Kafka (after the older series).
    pub(crate) fn lifecycle_metric_names(&self) -> Vec<String> {
        let mut names = vec!["owner_tick_secs".to_string()];
        if !self.kafka.brokers.is_empty() {
            names.push("kafka_brokers_up".to_string());
            names.push("kafka_offline_partitions".to_string());
        }
        for (cf, c) in self.cfg.changefeeds.iter().enumerate() {
            names.push(format!(
                "{}{}",
                crate::owner::lifecycle::CHANGEFEED_STATE_METRIC,
                c.id
            ));
            names.push(format!("sink_state.{}", c.id));
            for capture in 1..=self.captures.len() {
                names.push(format!("processor_state.{}.cdc-{capture}", c.id));
            }
            if self.kafka.topics.get(cf).is_some_and(|t| t.is_some()) {
                names.push(format!("kafka_consumer_lag.{}", c.id));
                names.push(format!("kafka_messages.{}", c.id));
                names.push(format!("producers_closing.{}", c.id));
            }
        }
        names
    }

    pub(crate) fn sample_lifecycle_metrics(&self, now: SimTime, out: &mut Vec<f64>) {
        out.push(self.life.owner_tick_duration(now).as_secs_f64());
        if !self.kafka.brokers.is_empty() {
            let up = self.kafka.alive.iter().filter(|a| **a).count();
            out.push(up as f64);
            out.push(self.kafka.offline_partitions() as f64);
        }
        for cf in 0..self.cfg.changefeeds.len() {
            let l = &self.life.feeds[cf];
            out.push(l.status.code() as f64);
            out.push(l.sink.code() as f64);
            for c in 0..self.captures.len() {
                out.push(self.life.managers[c].states[cf].code() as f64);
            }
            if let Some(t) = self.kafka.topics.get(cf).and_then(|t| t.as_ref()) {
                out.push(t.consumer.watermark.lag_secs(now));
                out.push(t.partitions.iter().map(|p| p.offset).sum::<u64>() as f64);
                out.push(self.kafka.closing_producers(cf as CfIx) as f64);
            }
        }
    }
}

#[cfg(test)]
#[path = "owner_loop_tests.rs"]
mod tests;

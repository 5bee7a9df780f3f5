//! A Kafka producer's close, as a component: its clients shut one after another (tiflow v6.0
//! `cdc/sink/producer/kafka/kafka.go`, `(*kafkaSaramaProducer).Close`), each in the close
//! latency while a broker answers and only after Sarama's timeout while none does. A sync
//! close blocks its caller (the owner or a processor manager) until the last client is done;
//! that is tiflow#4241.

use faultline_sim::{Level, NodeId, SimDuration};

use crate::config::KafkaConfig;
use crate::ids::CfIx;
use crate::msg::CdcTimer;
use crate::out::Cx;
use crate::sink::kafka::cluster::{CloseJob, KafkaCluster, CLIENTS, OWNER_SIDE};

/// Who closes a producer: the changefeed, and the owner ([`OWNER_SIDE`]) or a capture.
#[derive(Clone, Copy, Debug)]
pub struct Closer<'a> {
    /// The node running the close.
    pub node: NodeId,
    /// The changefeed.
    pub cf: CfIx,
    /// Its id, for the log.
    pub cf_id: &'a str,
    /// [`OWNER_SIDE`] or the capture's index.
    pub side: u32,
}

impl<'a> Closer<'a> {
    /// `side`'s close of changefeed `cf` (with its id) on `node`.
    pub fn new(node: NodeId, (cf, cf_id): (CfIx, &'a str), side: u32) -> Self {
        Closer {
            node,
            cf,
            cf_id,
            side,
        }
    }
}

impl KafkaCluster {
    /// Starts closing `who`'s producer at `now`: logs it and arms the first client's close.
    /// `blocking`: the caller waits for the whole close (a sync close). Returns the job's id;
    /// a close already running on the same side goes on beside it.
    pub fn start_close(
        &mut self,
        cfg: &KafkaConfig,
        cx: &mut Cx,
        who: Closer,
        blocking: bool,
    ) -> u64 {
        let job = CloseJob {
            node: who.node,
            started: cx.now,
            client: 0,
            client_started: cx.now,
            blocking,
        };
        let id = self.next_close_job;
        self.next_close_job += 1;
        self.closing.insert((who.cf, who.side, id), job);
        let mode = if blocking { "sync" } else { "async" };
        let detail = format!(
            "changefeed={} role={} mode={mode}",
            who.cf_id,
            role(who.side)
        );
        cx.out.log(
            Some(who.node),
            Level::Info,
            "stop the kafka producer",
            detail,
        );
        self.close_next_client(cfg, cx, who, id);
        id
    }

    /// Arms the close of job `id`'s current client.
    fn close_next_client(&mut self, cfg: &KafkaConfig, cx: &mut Cx, who: Closer, id: u64) {
        let after = if self.any_broker_reachable(cx.reach, who.node) {
            cfg.close_latency
        } else {
            // Sarama waits for its dial / read / write timeouts before giving up.
            cfg.timeout
        };
        let Some(job) = self.closing.get_mut(&(who.cf, who.side, id)) else {
            return;
        };
        job.client_started = cx.now;
        let (cf, side, client) = (who.cf, who.side, job.client);
        let timer = CdcTimer::KafkaClientClosed {
            cf,
            side,
            job: id,
            client,
        };
        cx.out.set_timer(who.node, after, timer);
    }

    /// Client `client` of `who`'s close job `id` finished closing at `now`: the next
    /// client's close is armed, or, after the last, the finished job is returned.
    pub fn on_client_closed(
        &mut self,
        cfg: &KafkaConfig,
        cx: &mut Cx,
        who: Closer,
        (id, client): (u64, u32),
    ) -> Option<CloseJob> {
        let job = self.closing.get_mut(&(who.cf, who.side, id))?;
        if job.client != client {
            return None;
        }
        let took = cx.now.since(job.client_started);
        let name = CLIENTS[client as usize % CLIENTS.len()];
        let detail = format!(
            "changefeed={} role={} client={name} duration={}",
            who.cf_id,
            role(who.side),
            fmt_secs(took)
        );
        if took >= cfg.timeout {
            let message = "close kafka client with error";
            cx.out.log(Some(who.node), Level::Error, message, detail);
        } else {
            cx.out
                .log(Some(who.node), Level::Info, "kafka client closed", detail);
        }
        job.client += 1;
        if job.client < cfg.clients {
            self.close_next_client(cfg, cx, who, id);
            return None;
        }
        let job = self.closing.remove(&(who.cf, who.side, id))?;
        let detail = format!(
            "changefeed={} role={} duration={}",
            who.cf_id,
            role(who.side),
            fmt_secs(cx.now.since(job.started))
        );
        cx.out
            .log(Some(who.node), Level::Info, "kafka producer closed", detail);
        Some(job)
    }
}

fn role(side: u32) -> &'static str {
    if side == OWNER_SIDE {
        "owner"
    } else {
        "processor"
    }
}

/// Seconds with millisecond precision, as TiCDC's zap durations print.
pub fn fmt_secs(d: SimDuration) -> String {
    format!("{:.3}s", d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use faultline_sim::{Network, SimTime};

    use super::*;
    use crate::config::{KafkaProtocol, SinkType};
    use crate::out::{Command, Out, Reach};

    /// A cluster of two brokers with one Kafka changefeed, and the owner's node.
    fn setup() -> (Network, KafkaCluster, KafkaConfig, NodeId) {
        let mut net = Network::new((SimDuration::from_micros(500), SimDuration::from_millis(2)));
        let owner = net.add_node("cdc-1", "cdc");
        let cfg = KafkaConfig {
            brokers: 2,
            ..KafkaConfig::default()
        };
        let sinks = [SinkType::Kafka(KafkaProtocol::OpenProtocol)];
        let kafka = KafkaCluster::new(&cfg, &sinks, 16, &mut net, &["cf".to_string()]);
        (net, kafka, cfg, owner)
    }

    fn owner(node: NodeId) -> Closer<'static> {
        Closer {
            node,
            cf: 0,
            cf_id: "cf",
            side: OWNER_SIDE,
        }
    }

    /// The delays of the `KafkaClientClosed` timers in `out`, with the client each is for.
    fn close_timers(out: &Out) -> Vec<(u32, SimDuration)> {
        out.commands()
            .iter()
            .filter_map(|c| match c {
                Command::SetTimer {
                    after,
                    timer: CdcTimer::KafkaClientClosed { client, .. },
                    ..
                } => Some((*client, *after)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn each_client_closes_in_turn_in_the_close_latency_while_a_broker_answers() {
        let (net, mut kafka, cfg, node) = setup();
        let reach = Reach::new(&net);
        let mut cx = Cx::new(SimTime(1_000_000), reach);
        let id = kafka.start_close(&cfg, &mut cx, owner(node), true);
        assert_eq!(cx.out.logged(), vec!["stop the kafka producer"]);
        assert_eq!(close_timers(&cx.out), vec![(0, cfg.close_latency)]);
        let mut now = cx.now;
        for client in 0..cfg.clients {
            now = now.plus(cfg.close_latency);
            let mut cx = Cx::new(now, reach);
            let done = kafka.on_client_closed(&cfg, &mut cx, owner(node), (id, client));
            let last = client + 1 == cfg.clients;
            assert_eq!(done.is_some(), last, "client {client}");
            if last {
                assert!(done.is_some_and(|job| job.blocking));
                assert_eq!(
                    cx.out.logged(),
                    vec!["kafka client closed", "kafka producer closed"]
                );
                assert!(kafka.closing.is_empty());
            } else {
                assert_eq!(cx.out.logged(), vec!["kafka client closed"]);
                assert_eq!(close_timers(&cx.out), vec![(client + 1, cfg.close_latency)]);
            }
        }
    }

    #[test]
    fn with_no_broker_reachable_every_client_waits_the_timeout_and_fails() {
        let (mut net, mut kafka, cfg, node) = setup();
        for b in kafka.brokers.clone() {
            net.update_link(node, b, |l| l.up = false);
        }
        let start = SimTime(1_000_000);
        let mut cx = Cx::new(start, Reach::new(&net));
        let id = kafka.start_close(&cfg, &mut cx, owner(node), false);
        assert_eq!(close_timers(&cx.out), vec![(0, cfg.timeout)]);
        let mut cx = Cx::new(start.plus(cfg.timeout), Reach::new(&net));
        let done = kafka.on_client_closed(&cfg, &mut cx, owner(node), (id, 0));
        assert!(done.is_none());
        assert_eq!(cx.out.logged(), vec!["close kafka client with error"]);
        assert_eq!(close_timers(&cx.out), vec![(1, cfg.timeout)]);
    }

    #[test]
    fn a_timer_of_another_client_changes_nothing() {
        let (net, mut kafka, cfg, node) = setup();
        let reach = Reach::new(&net);
        let id = kafka.start_close(&cfg, &mut Cx::new(SimTime(0), reach), owner(node), false);
        let mut cx = Cx::new(SimTime(5_000), reach);
        assert!(kafka
            .on_client_closed(&cfg, &mut cx, owner(node), (id, 2))
            .is_none());
        assert!(cx.out.commands().is_empty());
        assert_eq!(kafka.closing[&(0, OWNER_SIDE, id)].client, 0);
    }

    #[test]
    fn a_second_close_of_one_side_runs_beside_the_first_and_each_finishes_its_own_clients() {
        let (net, mut kafka, cfg, node) = setup();
        let mut cx = Cx::new(SimTime(0), Reach::new(&net));
        let first = kafka.start_close(&cfg, &mut cx, owner(node), false);
        cx.now = SimTime(1);
        let second = kafka.start_close(&cfg, &mut cx, owner(node), false);
        assert_ne!(first, second);
        assert_eq!(kafka.closing_producers(0), 2, "both producers still close");
        for client in 0..cfg.clients {
            cx.now = cx.now.plus(cfg.close_latency);
            let done = kafka.on_client_closed(&cfg, &mut cx, owner(node), (second, client));
            assert_eq!(done.is_some(), client + 1 == cfg.clients);
        }
        assert_eq!(kafka.closing_producers(0), 1, "the first is untouched");
        assert_eq!(kafka.closing[&(0, OWNER_SIDE, first)].client, 0);
    }
}

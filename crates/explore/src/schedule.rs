//! Random fault schedules: one per seed, drawn from the `explore` stream of that seed.
//!
//! Every fault heals on its own (it has a `duration`), and all of them heal well before the
//! end of the run, so liveness properties ("every region has a leader again within a bound")
//! can be judged on every run.

use faultline_scenario::limits::{MAX_DURATION_SECS, MAX_FAULTS};
use faultline_scenario::nodes::node_names;
use faultline_scenario::{Dur, FaultAction, FaultSpec, Scenario};
use faultline_sim::SimRng;

use crate::budget::{FaultBudget, FaultKind};
use crate::property::liveness::{last_heal, recovery_needed, LEADER_BOUND};

/// The RNG stream schedules are drawn from.
pub const STREAM: &str = "explore";

/// Name prefix of Kafka broker nodes, the targets of `broker-down`.
pub const BROKER_PREFIX: &str = "kafka-";

/// Name prefix of TiKV store nodes, the targets of `evict-leader` and `transfer-leader`.
const STORE_PREFIX: &str = "tikv-";

/// True if the scenario has Kafka brokers for `broker-down` to take down.
pub fn has_brokers(s: &Scenario) -> bool {
    node_names(s).iter().any(|n| n.starts_with(BROKER_PREFIX))
}

/// The base scenario with `seed` set and the random faults for that seed appended after its
/// own faults, run long enough after the last heal for every liveness property to be judged.
///
/// The faults are drawn in the same window whatever the properties need, so lengthening a run
/// only adds judged time after them; it never changes a schedule.
pub fn scenario_for_seed(base: &Scenario, budget: &FaultBudget, seed: u64) -> Scenario {
    let mut s = base.clone();
    s.seed = seed;
    let room = MAX_FAULTS.saturating_sub(s.faults.len());
    let mut extra = random_faults(base, budget, seed);
    extra.truncate(room);
    s.faults.extend(extra);
    if let Some(heal) = last_heal(&s) {
        let needed = heal.0.saturating_add(recovery_needed(&s).0);
        // Whole seconds keep the lengthened duration readable in the link.
        let needed = Dur(needed.div_ceil(Dur::secs(1).0) * Dur::secs(1).0);
        let longest = Dur::secs(MAX_DURATION_SECS);
        s.duration = s.duration.max(needed.min(longest));
    }
    s
}

/// The window faults are placed in, in microseconds: `[first, healed_by)`.
///
/// Faults start after a tenth of the run (the cluster has elected its first leaders) and are
/// all healed a recovery time before the end: a third of the run, and at least the liveness
/// bound plus a margin when the run is long enough for that.
pub fn fault_window(duration: Dur) -> (u64, u64) {
    let end = duration.0;
    let margin = LEADER_BOUND.0 + Dur::secs(10).0;
    let recovery = (end / 3).max(margin.min(end / 2));
    (end / 10, end - recovery)
}

/// The random faults for `seed` (sorted by time), without the base scenario's own.
pub fn random_faults(base: &Scenario, budget: &FaultBudget, seed: u64) -> Vec<FaultSpec> {
    let mut rng = SimRng::stream(seed, STREAM);
    let names = node_names(base);
    let (first, healed_by) = fault_window(base.duration);
    // Durations in whole seconds keep schedules readable; short runs need finer steps.
    let unit = if base.duration >= Dur::secs(60) {
        Dur::secs(1).0
    } else {
        Dur::millis(1).0
    };
    let draw = Draw {
        names: &names,
        stores: base.topology.stores,
        regions: base.topology.regions,
        first,
        healed_by,
        unit,
    };
    let mut counts: Vec<(FaultKind, u64)> = budget
        .kinds
        .iter()
        .map(|(k, n)| (*k, rng.below(*n as u64 + 1)))
        .collect();
    if counts.iter().all(|(_, c)| *c == 0) && !counts.is_empty() {
        let i = rng.below(counts.len() as u64) as usize;
        counts[i].1 = 1;
    }
    let mut faults = Vec::new();
    for (kind, count) in counts {
        for _ in 0..count {
            if let Some(f) = draw.fault(kind, &mut rng) {
                faults.push(f);
            }
        }
    }
    faults.sort_by_key(|f| f.at);
    faults
}

/// What one fault is drawn from.
///
/// Start times are drawn to the millisecond whatever the run's length. The model's periodic
/// work (ticks, resolved-ts rounds, sink flushes) is aligned to whole seconds, so faults
/// starting on whole seconds all hit the same phase of it and miss races that need a cut
/// while a batch is in flight (tiflow#9344). Shrinking rounds the times back when the failure
/// allows it.
struct Draw<'a> {
    names: &'a [String],
    /// The stores that run from the start (`topology.stores`); those above wait to join.
    stores: u32,
    /// The regions at the start (`topology.regions`): a split picks one of those, which
    /// exist whatever split before it.
    regions: u32,
    /// Earliest start, in microseconds.
    first: u64,
    /// Every fault is healed by then, in microseconds.
    healed_by: u64,
    /// Microseconds per step of a fault's duration.
    unit: u64,
}

/// Microseconds per step of a fault's start time.
const AT_STEP: u64 = 1_000;

impl Draw<'_> {
    fn fault(&self, kind: FaultKind, rng: &mut SimRng) -> Option<FaultSpec> {
        let action = match kind {
            FaultKind::Kill => FaultAction::Kill,
            FaultKind::Partition => FaultAction::Partition,
            FaultKind::Loss => FaultAction::Loss,
            FaultKind::Pause => FaultAction::Pause,
            // A broker going down is a broker process killed; explore notes when there are
            // no brokers and leaves the kind out.
            FaultKind::BrokerDown => FaultAction::Kill,
            FaultKind::EvictLeader => FaultAction::EvictLeader,
            FaultKind::TransferLeader => FaultAction::TransferLeader,
            FaultKind::AddStore => FaultAction::AddStore,
            FaultKind::RemoveStore => FaultAction::RemoveStore,
            FaultKind::Split => FaultAction::Split,
            FaultKind::Merge => FaultAction::Merge,
        };
        let target = match kind {
            FaultKind::BrokerDown => self.broker(rng)?,
            FaultKind::Split | FaultKind::Merge => self.named("pd-", rng)?,
            FaultKind::AddStore => self.joining_store(rng)?,
            FaultKind::EvictLeader | FaultKind::TransferLeader | FaultKind::RemoveStore => {
                self.store(rng)?
            }
            _ => self.node(rng),
        };
        // The latest start still leaves one duration step before `healed_by`.
        let first = self.first / AT_STEP;
        let last = self.healed_by.saturating_sub(self.unit) / AT_STEP;
        let at = rng.range(first, last.max(first + 1)) * AT_STEP;
        let longest = (self.healed_by.saturating_sub(at) / self.unit).max(1);
        let duration = rng.range(1, longest + 1);
        let mut f = FaultSpec::new(Dur(at), action, &target);
        f.loss_percent = None;
        f.delay = None;
        f.duration = Some(Dur(duration * self.unit));
        match kind {
            FaultKind::Partition => {
                f.peers = self.some_peers(&target, rng);
                f.one_way = rng.chance(1, 4);
            }
            FaultKind::Loss => f.loss_percent = Some(rng.range(10, 101) as u32),
            // A membership change has no undo: PD carries it out in the background.
            FaultKind::AddStore | FaultKind::RemoveStore => f.duration = None,
            FaultKind::Split => {
                f.duration = None;
                f.region = Some(rng.below(self.regions.max(1) as u64) as u32);
                f.parts = Some(rng.range(2, 5) as u32);
            }
            FaultKind::Merge => {
                f.duration = None;
                f.region = Some(rng.below(self.regions.max(1) as u64) as u32);
            }
            FaultKind::TransferLeader => {
                // Nothing to undo; the source is another store (none: no transfer).
                f.duration = None;
                let others: Vec<&String> = self
                    .names
                    .iter()
                    .filter(|n| n.starts_with(STORE_PREFIX) && **n != target)
                    .collect();
                if others.is_empty() {
                    return None;
                }
                f.from = Some(others[rng.below(others.len() as u64) as usize].clone());
            }
            _ => {}
        }
        Some(f)
    }

    fn node(&self, rng: &mut SimRng) -> String {
        self.names[rng.below(self.names.len() as u64) as usize].clone()
    }

    fn store(&self, rng: &mut SimRng) -> Option<String> {
        self.named(STORE_PREFIX, rng)
    }

    /// A store that waits to join (above `topology.stores`), if there is one.
    fn joining_store(&self, rng: &mut SimRng) -> Option<String> {
        self.pick_where(rng, |n| {
            n.strip_prefix(STORE_PREFIX)
                .and_then(|i| i.parse::<u32>().ok())
                .is_some_and(|i| i > self.stores)
        })
    }

    fn broker(&self, rng: &mut SimRng) -> Option<String> {
        self.named(BROKER_PREFIX, rng)
    }

    /// A random node whose name starts with `prefix`, if there is one.
    fn named(&self, prefix: &str, rng: &mut SimRng) -> Option<String> {
        self.pick_where(rng, |n| n.starts_with(prefix))
    }

    /// A random node whose name passes `keep`, if there is one.
    fn pick_where(&self, rng: &mut SimRng, keep: impl Fn(&str) -> bool) -> Option<String> {
        let picks: Vec<&String> = self.names.iter().filter(|n| keep(n)).collect();
        if picks.is_empty() {
            return None;
        }
        Some(picks[rng.below(picks.len() as u64) as usize].clone())
    }

    /// Half the time every other node (`None`), else a random non-empty subset of them.
    fn some_peers(&self, target: &str, rng: &mut SimRng) -> Option<String> {
        let others: Vec<&String> = self.names.iter().filter(|n| *n != target).collect();
        if others.len() < 2 || rng.chance(1, 2) {
            return None;
        }
        let mut picked: Vec<&str> = others
            .iter()
            .filter(|_| rng.chance(1, 2))
            .map(|n| n.as_str())
            .collect();
        if picked.is_empty() {
            picked.push(others[rng.below(others.len() as u64) as usize]);
        }
        Some(picked.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_scenario::validate::validate;

    fn base() -> Scenario {
        faultline_scenario::parse_scenario(
            "t",
            "name = \"t\"\nduration = \"4m\"\n[[faults]]\nat = \"10s\"\naction = \"kill\"\ntarget = \"tikv-2\"\nduration = \"5s\"\n",
        )
        .unwrap()
    }

    #[test]
    fn schedules_are_valid_heal_in_time_and_keep_base_faults() {
        let base = base();
        let budget = FaultBudget::parse("kill=3,partition=3,loss=2,pause=2").unwrap();
        let (first, healed_by) = fault_window(base.duration);
        for seed in 0..200 {
            let s = scenario_for_seed(&base, &budget, seed);
            assert_eq!(s.seed, seed);
            assert_eq!(s.faults[0], base.faults[0]);
            assert!(s.faults.len() >= 2, "at least one random fault");
            validate("t", &s).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            for f in &s.faults[1..] {
                let end = f.at.0 + f.duration.unwrap().0;
                assert!(f.at.0 >= first && end <= healed_by, "seed {seed}: {f:?}");
            }
        }
    }

    /// The faults drawn for seeds 0..100 of `base` under `budget` (the base's own left out),
    /// each scenario checked valid and judgeable by liveness.
    fn drawn_faults(base: &Scenario, budget: &FaultBudget) -> Vec<(u64, FaultSpec)> {
        let mut drawn = Vec::new();
        for seed in 0..100 {
            let s = scenario_for_seed(base, budget, seed);
            validate("t", &s).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(
                last_heal(&s).is_some(),
                "seed {seed}: liveness can be judged"
            );
            drawn.extend(s.faults[1..].iter().map(|f| (seed, f.clone())));
        }
        drawn
    }

    #[test]
    fn leader_kinds_target_stores_and_are_valid() {
        let budget = FaultBudget::parse("evict-leader=2,transfer-leader=2").unwrap();
        let mut seen = [0, 0];
        for (seed, f) in drawn_faults(&base(), &budget) {
            assert!(f.target.starts_with("tikv-"), "seed {seed}: {f:?}");
            match f.action {
                FaultAction::EvictLeader => {
                    seen[0] += 1;
                    assert!(f.duration.is_some(), "the scheduler is removed later");
                }
                FaultAction::TransferLeader => {
                    seen[1] += 1;
                    let from = f.from.as_deref().expect("a source store");
                    assert!(from.starts_with("tikv-") && from != f.target, "{f:?}");
                    assert_eq!(f.duration, None);
                }
                other => panic!("seed {seed}: {other:?} not in the budget"),
            }
        }
        assert!(seen[0] > 20 && seen[1] > 20, "{seen:?}");
    }

    #[test]
    fn membership_kinds_add_a_waiting_store_and_remove_a_store_and_are_valid() {
        let mut base = base();
        base.topology.max_stores = base.topology.stores + 2;
        let budget = FaultBudget::parse("add-store=2,remove-store=2").unwrap();
        let mut seen = [0, 0];
        for (seed, f) in drawn_faults(&base, &budget) {
            let i: u32 = f.target.strip_prefix("tikv-").unwrap().parse().unwrap();
            assert_eq!(f.duration, None, "seed {seed}: nothing to undo: {f:?}");
            match f.action {
                FaultAction::AddStore => {
                    seen[0] += 1;
                    assert!(i > base.topology.stores, "seed {seed}: {f:?} already runs");
                }
                FaultAction::RemoveStore => seen[1] += 1,
                other => panic!("seed {seed}: {other:?} not in the budget"),
            }
        }
        assert!(seen[0] > 20 && seen[1] > 20, "{seen:?}");
        // Without a store waiting to join, add-store draws nothing.
        let fixed = scenario_for_seed(&base_without_joiners(), &budget, 7);
        assert!(fixed
            .faults
            .iter()
            .all(|f| f.action != FaultAction::AddStore));
    }

    fn base_without_joiners() -> Scenario {
        let mut b = base();
        b.topology.max_stores = b.topology.stores;
        b
    }

    #[test]
    fn runs_are_lengthened_to_judge_the_checkpoint_but_schedules_stay() {
        let mut b = base();
        b.duration = Dur::secs(150);
        let budget = FaultBudget::parse("kill,partition").unwrap();
        let tikv_only = scenario_for_seed(&b, &budget, 5);
        let heal = last_heal(&tikv_only).unwrap();
        assert!(tikv_only.duration.0 >= heal.0 + LEADER_BOUND.0);
        b.changefeeds = vec![faultline_scenario::ChangefeedSpec::new("cf")];
        let with_cdc = scenario_for_seed(&b, &budget, 5);
        assert_eq!(with_cdc.faults, tikv_only.faults, "same schedule");
        let needed = last_heal(&with_cdc).unwrap().0 + recovery_needed(&with_cdc).0;
        assert!(
            with_cdc.duration.0 >= needed,
            "{} < {needed}",
            with_cdc.duration
        );
        assert!(
            with_cdc.duration > b.duration,
            "150 s is too short for the checkpoint bound"
        );
    }

    #[test]
    fn same_seed_same_schedule() {
        let budget = FaultBudget::default();
        let a = random_faults(&base(), &budget, 7);
        assert_eq!(a, random_faults(&base(), &budget, 7));
        assert_ne!(a, random_faults(&base(), &budget, 8));
    }

    #[test]
    fn broker_down_kills_a_broker_or_nothing() {
        let mut rng = SimRng::stream(1, STREAM);
        let with: Vec<String> = ["pd-1", "tikv-1", "kafka-1", "kafka-2"]
            .map(String::from)
            .into();
        let draw = |names: &[String], rng: &mut SimRng| {
            Draw {
                names,
                stores: 1,
                regions: 4,
                first: 10_000_000,
                healed_by: 100_000_000,
                unit: 1_000_000,
            }
            .fault(FaultKind::BrokerDown, rng)
        };
        for _ in 0..20 {
            let f = draw(&with, &mut rng).unwrap();
            assert_eq!(f.action, FaultAction::Kill);
            assert!(f.target.starts_with(BROKER_PREFIX), "{f:?}");
        }
        assert!(draw(&with[..2], &mut rng).is_none());
        assert!(!has_brokers(&base()));
    }

    #[test]
    fn short_runs_still_get_a_window() {
        let mut b = base();
        b.duration = Dur::secs(1);
        b.faults.clear();
        let s = scenario_for_seed(&b, &FaultBudget::parse("kill").unwrap(), 3);
        validate("t", &s).unwrap();
        assert_eq!(s.faults.len(), 1);
    }

    /// `split` draws a split of one of the first regions into 2-4, sent to PD, valid and with
    /// nothing to undo.
    #[test]
    fn split_draws_a_valid_split_of_a_starting_region() {
        let base = base();
        let budget = FaultBudget::parse("split=3").unwrap();
        let drawn = drawn_faults(&base, &budget);
        assert!(drawn.len() > 100, "{}", drawn.len());
        for (seed, f) in drawn {
            assert_eq!(f.action, FaultAction::Split, "seed {seed}");
            assert_eq!(
                (f.target.as_str(), f.duration),
                ("pd-1", None),
                "seed {seed}"
            );
            assert!(
                f.region.is_some_and(|r| r < base.topology.regions),
                "seed {seed}: {f:?}"
            );
            assert!(
                f.parts.is_some_and(|n| (2..=4).contains(&n)),
                "seed {seed}: {f:?}"
            );
        }
    }
}

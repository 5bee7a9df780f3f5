//! The report's cluster at full scale: 4 stores x 256,000 regions x 3 replicas.
//!
//! `cargo bench -p faultline-tikv` prints: build time, wall time to simulate 10 minutes with
//! tikv-1 killed at 1 minute (light write load, buggy broadcast mode, invariants checked),
//! peak memory (VmHWM), and raw Raft message throughput with hibernation off (every peer
//! ticks and heartbeats). Figures go to docs/bench.md.

use std::time::Instant;

use faultline_sim::{Fault, Network, SimDuration, SimTime, World};
use faultline_tikv::{Cluster, TikvConfig, UnreachableBroadcast, WriteLoad};

fn config(hibernate: bool) -> TikvConfig {
    let mut cfg = TikvConfig {
        stores: 4,
        regions: 256_000,
        replicas: 3,
        unreachable_broadcast: UnreachableBroadcast::OncePerDisconnect,
        load: WriteLoad {
            writes_per_sec: 1000,
            stop_at: None,
        },
        ..Default::default()
    };
    cfg.hibernate.enabled = hibernate;
    cfg
}

fn build(cfg: &TikvConfig, seed: u64) -> World<Cluster> {
    let mut net = Network::new((SimDuration::from_millis(1), SimDuration::from_millis(2)));
    let c = Cluster::new(cfg, &mut net);
    World::new(c, seed, net, SimDuration::from_secs(1))
}

fn vm_hwm_mb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

fn secs(s: u64) -> SimTime {
    SimTime(s * 1_000_000)
}

fn main() {
    // Ignore libtest-style flags cargo bench passes (e.g. --bench).
    let cfg = config(true);

    let t = Instant::now();
    let mut w = build(&cfg, 1);
    let build_wall = t.elapsed();
    println!("build 256k regions (768k peers): {build_wall:.2?}  (target <= 1 s)");

    let victim = w.model.store_nodes()[0];
    w.kernel.schedule_fault(secs(60), Fault::Crash(victim));
    let t = Instant::now();
    w.run_until(secs(600));
    let run_wall = t.elapsed();
    let m = |n: &str| w.kernel.metrics.last(n).unwrap_or(f64::NAN);
    println!("simulate 10 min, tikv-1 killed at 1 min: {run_wall:.2?}  (target <= 10 s)");
    println!(
        "  events {}  raft messages {}  ({:.2} M msgs/s wall)  elections {}  leaderless now {}  longest leaderless {} s",
        w.kernel.processed(),
        m("raft_messages"),
        m("raft_messages") / run_wall.as_secs_f64() / 1e6,
        m("elections_started"),
        m("leaderless_regions"),
        m("longest_leaderless_secs"),
    );
    assert!(
        w.violation.is_none(),
        "invariant violated: {:?}",
        w.violation
    );
    println!(
        "peak memory (VmHWM): {} MB  (target <= 600 MB)",
        vm_hwm_mb().unwrap_or(0)
    );
    drop(w);

    // Raw throughput: hibernation off, so all 768k peers tick and every leader heartbeats.
    let cfg = config(false);
    let mut w = build(&cfg, 2);
    w.run_until(secs(2));
    let before = w.model.raft_messages();
    let t = Instant::now();
    w.run_until(secs(22));
    let wall = t.elapsed();
    let n = w.model.raft_messages() - before;
    println!(
        "raw raft messages, hibernate off, 20 s simulated: {n} in {wall:.2?} = {:.2} M msgs/s  (target >= 1.5 M/s; includes ticking 768k peers)",
        n as f64 / wall.as_secs_f64() / 1e6
    );
    println!(
        "peak memory after both runs (VmHWM): {} MB",
        vm_hwm_mb().unwrap_or(0)
    );
}

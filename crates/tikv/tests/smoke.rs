mod common;
use common::*;
use faultline_sim::Fault;
use faultline_tikv::*;

#[test]
#[ignore]
fn explore() {
    let env = |n: &str, d: u64| std::env::var(n).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let fixed = env("FIXED", 0) == 1;
    let cfg = TikvConfig {
        stores: 4,
        regions: env("REGIONS", 256_000) as u32,
        load: WriteLoad { writes_per_sec: env("WPS", 1000) as u32 },
        unreachable_broadcast: if fixed { UnreachableBroadcast::RepeatIfNewMessages } else { UnreachableBroadcast::OncePerDisconnect },
        ..Default::default()
    };
    let seed = env("SEED", 1);
    let t0 = std::time::Instant::now();
    let mut w = world(&cfg, seed);
    println!("build {:?}", t0.elapsed());
    w.set_check_invariants(env("CHECK", 0) == 1);
    let kill = env("KILL", 60);
    let victim = w.model.store_nodes()[env("VICTIM", 0) as usize];
    w.kernel.schedule_fault(at(kill), Fault::Crash(victim));
    let end = env("END", 600);
    let mut t = 0;
    while t < end {
        t += 30;
        run_to(&mut w, t, seed);
        println!("t={t} wall={:?} leaderless={} max={} longest={} awake={} msgs={} elections={} hib={}", t0.elapsed(),
            last(&w, "leaderless_regions"), last(&w, "max_leaderless_secs"), last(&w, "longest_leaderless_secs"),
            last(&w, "awake_peers"), last(&w, "raft_messages"), last(&w, "elections_started"), last(&w, "hibernated_peers"));
    }
    println!("{:?}", w.kernel.log.counts());
    for e in w.kernel.log.entries().rev().take(6) { println!("{:?} {} {}", e.at, e.message, e.detail); }
    let v: Vec<_> = w.model.leaderless_regions().take(5).collect();
    for (r, since) in v { println!("region {r} since {since} {:?}", w.model.region_detail(r)); }
}

//! What snapshots cost at full scale and how fast a seek back lands, natively:
//! `seek-bench-native [minutes] [every_s]` plays the 256,000-region tikv#14547 scenario for
//! `minutes` simulated minutes, keeping a copy of the run every `every_s` simulated seconds (as
//! the playground's snapshots do), then seeks back to the worst-placed times (just before the
//! next snapshot) and replays from the nearest snapshot. Prints the figures; asserts nothing.

use std::time::Instant;

use faultline_scenario::Run;
use faultline_sim::SimTime;
use faultline_wasm_bench::args::number_arg_or_exit;

const USAGE: &str = "seek-bench-native [MINUTES] [EVERY_S]";

fn main() {
    let mut args = std::env::args().skip(1);
    let minutes = number_arg_or_exit(USAGE, "MINUTES", args.next(), 1..=16, 6);
    let every_s = number_arg_or_exit(USAGE, "EVERY_S", args.next(), 1..=600, 20);
    let mut run = faultline_wasm_bench::full_scale_run();
    let rss_start = rss_mb();
    let (mut snaps, mut clone_s, mut clone_max_s, mut model_s) = (Vec::new(), 0.0, 0.0f64, 0.0);
    for k in 0..=(minutes * 60 / every_s) {
        let t = Instant::now();
        run.run_until(SimTime(k * every_s * 1_000_000));
        model_s += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let k = run.world.kernel.clone();
        let kernel_ms = t.elapsed().as_secs_f64() * 1e3;
        drop(k);
        let t = Instant::now();
        let c = run.world.model.cdc.clone();
        let cdc_ms = t.elapsed().as_secs_f64() * 1e3;
        drop(c);
        let t = Instant::now();
        let c = run.world.model.tikv.clone();
        let tikv_ms = t.elapsed().as_secs_f64() * 1e3;
        drop(c);
        let t = Instant::now();
        snaps.push(run.clone());
        let c = t.elapsed().as_secs_f64();
        if std::env::var_os("SEEK_BENCH_DETAIL").is_some() {
            detail(&snaps, [kernel_ms, tikv_ms, cdc_ms], c);
        }
        clone_s += c;
        clone_max_s = clone_max_s.max(c);
    }
    println!(
        "native: {minutes} simulated min with a snapshot every {every_s} s: {} snapshots, \
         model {model_s:.2} s, copies {clone_s:.3} s in all (longest {:.1} ms), \
         memory {rss_start:.0} MB at 0 s -> {:.0} MB",
        snaps.len(),
        clone_max_s * 1e3,
        rss_mb()
    );
    seek_back(&snaps, every_s);
}

/// Per snapshot: its copy time, the kernel's share, and the peer and tail chunks it shares
/// with the previous snapshot.
fn detail(snaps: &[Run], [kernel_ms, tikv_ms, cdc_ms]: [f64; 3], clone_s: f64) {
    let last = &snaps[snaps.len() - 1];
    let tikv = &last.world.model.tikv;
    let before = snaps
        .len()
        .checked_sub(2)
        .map(|i| &snaps[i].world.model.tikv);
    let peers = before.map_or(0, |b| tikv.peers().shared_chunks(b.peers()));
    let tails = before.map_or(0, |b| tikv.tails().shared_chunks(b.tails()));
    println!(
        "  {:>6.1} s: copy {:.1} ms (kernel {kernel_ms:.1} ms, tikv {tikv_ms:.1} ms, cdc \
         {cdc_ms:.1} ms), chunks shared with the previous snapshot: peers {peers}, tails \
         {tails} of {}, memory {:.0} MB",
        last.now().as_micros() as f64 / 1e6,
        clone_s * 1e3,
        tikv.peers().chunk_count(),
        rss_mb()
    );
}

/// Seeks to one second before each snapshot (the longest replay) from the end.
fn seek_back(snaps: &[Run], every_s: u64) {
    let mut worst: f64 = 0.0;
    let mut total = 0.0;
    for base in snaps.iter().take(snaps.len() - 1) {
        let target = SimTime(base.now().0 + (every_s - 1) * 1_000_000);
        let t = Instant::now();
        let mut run = base.clone();
        run.run_until(target);
        let s = t.elapsed().as_secs_f64();
        worst = worst.max(s);
        total += s;
    }
    let n = (snaps.len() - 1).max(1);
    println!(
        "native: seek back to {every_s} s - 1 s after each of {n} snapshots: \
         mean {:.0} ms, worst {:.0} ms",
        total * 1e3 / n as f64,
        worst * 1e3
    );
}

/// Resident memory of this process (Linux), 0 elsewhere.
fn rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

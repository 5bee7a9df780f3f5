//! Times the shared benchmark natively: `faultline-wasm-bench-native [minutes]`. Prints the
//! events, the time, and the Raft work the run did per peer (ticks, messages, `Unreachable`
//! reports), with the time per item: the run's cost follows that work (docs/bench.md).

use std::time::Instant;

use faultline_wasm_bench::args::number_arg_or_exit;

const USAGE: &str = "wasm-bench-native [MINUTES]";

fn main() {
    let minutes = number_arg_or_exit(USAGE, "MINUTES", std::env::args().nth(1), 1..=60, 10) as u32;
    let start = Instant::now();
    let (events, work) = faultline_wasm_bench::run_full_scale_counted(minutes);
    let secs = start.elapsed().as_secs_f64();
    println!("native: {minutes} simulated min, {events} events, {secs:.2} s");
    println!(
        "raft work: {} peer ticks, {} messages, {} unreachable reports = {:.1} M items, \
         {:.0} ns each",
        work.peer_ticks,
        work.messages,
        work.unreachable_reports,
        work.total() as f64 / 1e6,
        secs * 1e9 / work.total().max(1) as f64
    );
}

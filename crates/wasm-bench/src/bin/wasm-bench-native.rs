//! Times the shared benchmark natively: `faultline-wasm-bench-native [minutes]`.

use std::time::Instant;

fn main() {
    let minutes: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let start = Instant::now();
    let events = faultline_wasm_bench::run_full_scale(minutes);
    let secs = start.elapsed().as_secs_f64();
    println!("native: {minutes} simulated min, {events} events, {secs:.2} s");
}

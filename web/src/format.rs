//! How the page writes times: `12.345 s`, to the millisecond, as the CLI does.

use faultline_sim::SimTime;

/// Simulated time as seconds with three decimals.
pub fn sim_time(t: SimTime) -> String {
    let us = t.as_micros();
    format!("{}.{:03} s", us / 1_000_000, (us % 1_000_000) / 1_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn millisecond_precision() {
        assert_eq!(sim_time(SimTime(0)), "0.000 s");
        assert_eq!(sim_time(SimTime(61_234_999)), "61.234 s");
    }
}

//! How the views write numbers and times.

use faultline_sim::SimTime;

/// A metric value: whole numbers without decimals, others with one.
pub fn value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// An optional value, `–` when absent.
pub fn opt_value(v: Option<f64>) -> String {
    v.map(value).unwrap_or_else(|| "–".to_string())
}

/// Simulated microseconds as `12.345 s`.
pub fn at(us: u64) -> String {
    crate::format::sim_time(SimTime(us))
}

/// Seconds as a `SimTime`, for jump callbacks.
pub fn secs_to_time(secs: f64) -> SimTime {
    SimTime((secs.max(0.0) * 1e6) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_naturally() {
        assert_eq!(value(3.0), "3");
        assert_eq!(value(2.26), "2.3");
        assert_eq!(opt_value(None), "–");
        assert_eq!(at(1_500_000), "1.500 s");
        assert_eq!(secs_to_time(1.5), SimTime(1_500_000));
        assert_eq!(secs_to_time(-1.0), SimTime(0));
    }
}

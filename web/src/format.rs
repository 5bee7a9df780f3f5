//! How the page writes times: `12.345 s`, to the millisecond, as the CLI does.

use faultline_sim::SimTime;

/// Simulated time as seconds with three decimals.
pub fn sim_time(t: SimTime) -> String {
    let us = t.as_micros();
    format!("{}.{:03} s", us / 1_000_000, (us % 1_000_000) / 1_000)
}

/// A count with its noun: `1 step`, `2 steps`, `0 steps`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn millisecond_precision() {
        assert_eq!(sim_time(SimTime(0)), "0.000 s");
        assert_eq!(sim_time(SimTime(61_234_999)), "61.234 s");
    }

    #[test]
    fn counts_read_as_words() {
        assert_eq!(plural(1, "step", "steps"), "1 step");
        assert_eq!(plural(0, "step", "steps"), "0 steps");
        assert_eq!(plural(6, "region", "regions"), "6 regions");
    }
}

/// Splits a scenario description into its one-line story (the first line, by the format's
/// convention) and the rest as flowing text: TOML descriptions are hard-wrapped at ~90
/// columns, which would look ragged in a wider or narrower page.
pub fn story(description: &str) -> (String, String) {
    let mut lines = description.trim().lines();
    let first = lines.next().unwrap_or("").trim().to_string();
    let rest = lines
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    (first, rest)
}

#[cfg(test)]
mod story_tests {
    use super::story;

    #[test]
    fn first_line_then_reflowed_rest() {
        let (s, rest) = story("One line.\nA long\nwrapped text.\n");
        assert_eq!(s, "One line.");
        assert_eq!(rest, "A long wrapped text.");
        assert_eq!(story(""), (String::new(), String::new()));
    }
}

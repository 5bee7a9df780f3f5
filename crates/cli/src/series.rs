//! Metric series sampled at a fixed step, for `faultline run --series`: a table any plotting
//! tool takes (CSV) or JSON.

use faultline_scenario::build::SAMPLE_EVERY;
use faultline_scenario::{parse_duration_arg, Run};
use faultline_sim::SimTime;

/// Most rows one `--series` prints: a long run at a tiny `--every` is refused, not printed.
pub const MAX_ROWS: u64 = 1_000_000;

/// Series sampled every `every` microseconds: row `k` is the value at `(k + 1) * every`.
#[derive(Debug, PartialEq)]
pub struct Sampled {
    /// The metrics, in the order asked for.
    pub names: Vec<String>,
    /// `(time, one value per name)`; `None` before a metric's first sample.
    pub rows: Vec<(SimTime, Vec<Option<f64>>)>,
}

/// Checks that `run` has every metric in `names`, before any time is spent running it.
pub fn check_names(run: &Run, names: &[String]) -> Result<(), String> {
    let metrics = &run.world.kernel.metrics;
    match names.iter().find(|n| metrics.index(n).is_none()) {
        Some(bad) => Err(format!(
            "--series: {}",
            faultline_scenario::unknown_metric(bad, metrics.names())
        )),
        None => Ok(()),
    }
}

/// `--every`'s step in microseconds: at least the model's sampling interval
/// ([`SAMPLE_EVERY`]), since rows closer together would repeat the last sample and read as
/// if the model had been sampled there.
pub fn parse_every(text: &str) -> Result<u64, String> {
    let every = parse_duration_arg(text).map_err(|e| format!("--every {text}: {e}"))?;
    if every.0 < SAMPLE_EVERY.0 {
        return Err(format!(
            "--every {text} is shorter than the model samples its metrics (every \
             {SAMPLE_EVERY}), so rows would repeat samples; the smallest --every is {SAMPLE_EVERY}"
        ));
    }
    Ok(every.0)
}

/// Runs `run` a row at a time and hands `emit` the CSV header, then each row as soon as its
/// time is reached, so a reader sees rows while a long run goes on (and a run cut short still
/// leaves the rows it made). Running in steps does not change the run.
pub fn stream_csv(
    run: &mut Run,
    names: &[String],
    every_us: u64,
    rows: u64,
    mut emit: impl FnMut(SimTime, &str),
) {
    emit(SimTime(0), &csv_header(names));
    for k in 1..=rows {
        let t = SimTime(k * every_us);
        run.run_until(t);
        let metrics = &run.world.kernel.metrics;
        let values: Vec<Option<f64>> = names.iter().map(|n| metrics.at(n, t)).collect();
        emit(t, &csv_row(t, &values));
    }
}

/// The number of rows sampling every `every_us` up to `until` gives, refused past [`MAX_ROWS`].
pub fn row_count(until: SimTime, every_us: u64) -> Result<u64, String> {
    if every_us == 0 {
        return Err("--every must be longer than zero".into());
    }
    let rows = until.0 / every_us;
    if rows > MAX_ROWS {
        return Err(format!(
            "--every gives {rows} rows over this run; at most {MAX_ROWS}: sample less often"
        ));
    }
    Ok(rows)
}

/// Samples `names` on a finished run: each row holds the latest sample at or before its time,
/// so a step finer than the model's own sampling repeats values rather than inventing them.
pub fn sample(run: &Run, names: &[String], every_us: u64, rows: u64) -> Sampled {
    let metrics = &run.world.kernel.metrics;
    let rows = (1..=rows)
        .map(|k| {
            let t = SimTime(k * every_us);
            (t, names.iter().map(|n| metrics.at(n, t)).collect())
        })
        .collect();
    Sampled {
        names: names.to_vec(),
        rows,
    }
}

/// One CSV field, quoted when it holds a comma, quote or newline (changefeed ids are free text).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// `time_s,NAME,...`, each name quoted as CSV needs.
fn csv_header(names: &[String]) -> String {
    let mut header = vec!["time_s".to_string()];
    header.extend(names.iter().map(|n| csv_field(n)));
    header.join(",")
}

/// One row: time in seconds, then each value, an empty cell before a first sample.
fn csv_row(t: SimTime, values: &[Option<f64>]) -> String {
    let mut cells = vec![format!("{}", t.as_secs_f64())];
    cells.extend(
        values
            .iter()
            .map(|v| v.map(|v| v.to_string()).unwrap_or_default()),
    );
    cells.join(",")
}

impl Sampled {
    /// `{"times_s": [...], "series": {"name": [...]}}`, `null` before a first sample.
    pub fn json(&self) -> serde_json::Value {
        let times: Vec<f64> = self.rows.iter().map(|(t, _)| t.as_secs_f64()).collect();
        let mut series = serde_json::Map::new();
        for (i, name) in self.names.iter().enumerate() {
            let values: Vec<Option<f64>> = self.rows.iter().map(|(_, v)| v[i]).collect();
            series.insert(name.clone(), serde_json::json!(values));
        }
        serde_json::json!({ "times_s": times, "series": series })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_names_that_would_break_columns() {
        let names = ["a".to_string(), "lag.x,y".into()];
        assert_eq!(csv_header(&names), "time_s,a,\"lag.x,y\"");
        assert_eq!(csv_row(SimTime(1_500_000), &[Some(2.0), None]), "1.5,2,");
    }

    #[test]
    fn refuses_a_step_that_prints_too_many_rows() {
        assert_eq!(row_count(SimTime(300_000_000), 1_000_000), Ok(300));
        assert!(row_count(SimTime(3_600_000_000), 1)
            .unwrap_err()
            .contains("at most"));
        assert!(row_count(SimTime(1), 0).is_err());
    }

    #[test]
    fn refuses_a_step_finer_than_the_models_sampling() {
        assert_eq!(parse_every("1s"), Ok(SAMPLE_EVERY.0));
        assert_eq!(parse_every("2500ms"), Ok(2_500_000));
        let err = parse_every("100ms").unwrap_err();
        assert!(err.starts_with("--every 100ms is shorter than"), "{err}");
        assert!(
            err.ends_with(&format!("the smallest --every is {SAMPLE_EVERY}")),
            "{err}"
        );
        assert!(parse_every("0s").is_err());
    }
}

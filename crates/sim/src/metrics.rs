//! Metrics sampled over simulated time, for charts and expectations.

use crate::time::SimTime;

/// Named series sampled at fixed simulated instants.
#[derive(Clone, Debug, Default)]
pub struct MetricStore {
    names: Vec<String>,
    times: Vec<SimTime>,
    /// `values[i]` is the sample at `times[i]`, one value per name.
    values: Vec<Vec<f64>>,
}

impl MetricStore {
    /// A store for these series.
    pub fn new(names: Vec<String>) -> Self {
        MetricStore {
            names,
            times: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Series names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Records one sample row.
    pub fn record(&mut self, at: SimTime, row: Vec<f64>) {
        debug_assert_eq!(row.len(), self.names.len());
        self.times.push(at);
        self.values.push(row);
    }

    /// Sample instants.
    pub fn times(&self) -> &[SimTime] {
        &self.times
    }

    /// Index of a series by name.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// `(time, value)` pairs of one series.
    pub fn series(&self, name: &str) -> Option<Vec<(SimTime, f64)>> {
        let i = self.index(name)?;
        Some(
            self.times
                .iter()
                .zip(&self.values)
                .map(|(t, row)| (*t, row[i]))
                .collect(),
        )
    }

    /// The last sample of a series.
    pub fn last(&self, name: &str) -> Option<f64> {
        let i = self.index(name)?;
        self.values.last().map(|row| row[i])
    }

    /// The latest sample at or before `at`.
    pub fn at(&self, name: &str, at: SimTime) -> Option<f64> {
        let i = self.index(name)?;
        let k = self.times.partition_point(|t| *t <= at);
        if k == 0 {
            return None;
        }
        Some(self.values[k - 1][i])
    }

    /// Samples of a series with `from <= t <= to`.
    pub fn window(&self, name: &str, from: SimTime, to: SimTime) -> Vec<f64> {
        let Some(i) = self.index(name) else {
            return Vec::new();
        };
        self.times
            .iter()
            .zip(&self.values)
            .filter(|(t, _)| **t >= from && **t <= to)
            .map(|(_, row)| row[i])
            .collect()
    }

    /// Drops samples after `at` (used when rewinding).
    pub fn truncate_after(&mut self, at: SimTime) {
        let k = self.times.partition_point(|t| *t <= at);
        self.times.truncate(k);
        self.values.truncate(k);
    }
}

//! How high a chart's axes reach. They scale to the data, but a brief spike does not decide
//! the scale: tikv#14547's kill leaves 250 regions leaderless for a few seconds and 5 for ten
//! minutes, and on a 0-250 axis those 5 are a line on the floor. The spike is drawn cut at
//! the top of the plot with its peak written there (`draw::draw_cut_peaks`).

use crate::chart_data::ChartData;

/// A spike is brief when at most this share of the samples (percent) lie above the level
/// the rest stay under (the kill's spike is 4% of tikv#14547's first 6 minutes)...
const SPIKE_SHARE_PERCENT: usize = 10;
/// ...and it reaches more than this many times that level.
const SPIKE_FACTOR: f64 = 8.0;
/// With fewer samples than this every sample counts (a short run has no "rest").
const MIN_SAMPLES: usize = 50;

/// The value an axis must reach to show `values`: their largest, unless that is a brief
/// spike above a non-zero level; then the level, so the rest of the data fills the plot.
pub fn extent(values: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.filter(|v| v.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    let Some(&max) = v.last() else {
        return 0.0;
    };
    if v.len() < MIN_SAMPLES {
        return max;
    }
    let level = v[(v.len() - 1) * (100 - SPIKE_SHARE_PERCENT) / 100];
    if level > 0.0 && max > level * SPIKE_FACTOR {
        level
    } else {
        max
    }
}

/// The extents (left, right axis) of a chart's own series.
pub fn data_extents(data: &ChartData) -> (f64, f64) {
    let of = |secondary: bool| {
        extent(
            data.series
                .iter()
                .filter(|s| s.secondary == secondary)
                .flat_map(|s| s.points.iter().map(|p| p.1)),
        )
    };
    (of(false), of(true))
}

/// The extents a chart is drawn with: the shared ones of compare mode's small multiples, else
/// its own.
pub fn extents(data: &ChartData) -> (f64, f64) {
    data.shared_max.unwrap_or_else(|| data_extents(data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brief_spike_does_not_set_the_scale() {
        // Ten samples of 250 among 900 of 5: the axis is for the 5s.
        let spike = (0..900).map(|_| 5.0).chain((0..10).map(|_| 250.0));
        assert_eq!(extent(spike), 5.0);
        // A long plateau is data, not a spike.
        let plateau = (0..800).map(|_| 5.0).chain((0..100).map(|_| 250.0));
        assert_eq!(extent(plateau), 250.0);
        // Nothing else to show (the level is 0): the spike keeps its scale.
        let lone = (0..900).map(|_| 0.0).chain((0..10).map(|_| 250.0));
        assert_eq!(extent(lone), 250.0);
        // Too few samples to tell.
        assert_eq!(extent([1.0, 1.0, 100.0].into_iter()), 100.0);
        assert_eq!(extent(std::iter::empty()), 0.0);
    }
}

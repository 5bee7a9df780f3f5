//! Stacking the fault timeline's chips: chips whose extents overlap (faults at the same time,
//! or a label that runs into the next chip) go on separate lanes, so none hides another.

/// Pixels a chip's label takes per character (11 px text), plus padding.
const PX_PER_CHAR: f64 = 6.6;
const LABEL_PADDING_PX: f64 = 10.0;

/// A chip's extent on the strip, in fractions of its width: from its start to the end of its
/// bar or of its label, whichever is later.
pub fn chip_extent(start: f64, bar: f64, label_chars: usize, strip_px: f64) -> (f64, f64) {
    let label = (label_chars as f64 * PX_PER_CHAR + LABEL_PADDING_PX) / strip_px.max(1.0);
    (start, start + bar.max(label))
}

/// The lane of each chip (0 = top), given extents in the faults' order: each chip, taken by
/// start time, goes on the first lane free at its start.
pub fn lanes(extents: &[(f64, f64)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..extents.len()).collect();
    order.sort_by(|&a, &b| extents[a].0.total_cmp(&extents[b].0).then(a.cmp(&b)));
    let mut lane_ends: Vec<f64> = Vec::new();
    let mut lane_of = vec![0; extents.len()];
    for i in order {
        let (start, end) = extents[i];
        let lane = match lane_ends.iter().position(|&e| e <= start) {
            Some(l) => l,
            None => {
                lane_ends.push(f64::NEG_INFINITY);
                lane_ends.len() - 1
            }
        };
        lane_ends[lane] = end;
        lane_of[i] = lane;
    }
    lane_of
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chips_at_the_same_time_stack_and_apart_share_the_top_lane() {
        let at_30s = chip_extent(0.125, 0.0, 11, 800.0);
        let at_2m = chip_extent(0.5, 0.0, 11, 800.0);
        assert_eq!(lanes(&[at_30s, at_30s, at_2m, at_30s]), vec![0, 1, 0, 2]);
    }

    #[test]
    fn a_label_running_into_the_next_chip_pushes_it_down() {
        // 100 px of label on an 800 px strip reach past a chip 5 % further on.
        let first = chip_extent(0.10, 0.0, 14, 800.0);
        let next = chip_extent(0.15, 0.0, 4, 800.0);
        assert_eq!(lanes(&[first, next]), vec![0, 1]);
        let far = chip_extent(0.40, 0.0, 4, 800.0);
        assert_eq!(lanes(&[first, far]), vec![0, 0]);
    }

    #[test]
    fn a_bar_occupies_its_whole_duration() {
        let partition = chip_extent(0.1, 0.5, 9, 800.0);
        let inside = chip_extent(0.4, 0.0, 4, 800.0);
        let after = chip_extent(0.65, 0.0, 4, 800.0);
        assert_eq!(lanes(&[partition, inside, after]), vec![0, 1, 0]);
    }
}

//! The fault timeline's drag rule: a press and release in place is a click (it selects the
//! fault and never moves it); only a pointer that travelled moves the fault, by the distance
//! it travelled, not to wherever the pointer happened to be over the chip's label.

/// Pixels a pointer may wander between press and release and still count as a click.
pub const CLICK_SLOP_PX: f64 = 4.0;

/// The fault's new start (µs, whole seconds) after a press at `down_x` and release at `up_x`
/// on a strip `strip_px` wide showing `0..end_us`; None for a click or a move to where it is.
pub fn dragged_start(
    at_us: u64,
    down_x: f64,
    up_x: f64,
    strip_px: f64,
    end_us: u64,
) -> Option<u64> {
    let dx = up_x - down_x;
    if dx.abs() <= CLICK_SLOP_PX || strip_px <= 0.0 {
        return None;
    }
    let shift_us = dx / strip_px * end_us as f64;
    let moved = (at_us as f64 + shift_us).clamp(0.0, end_us as f64) as u64;
    let whole_secs = (moved + 500_000) / 1_000_000 * 1_000_000;
    let whole_secs = whole_secs.min(end_us / 1_000_000 * 1_000_000);
    (whole_secs != at_us).then_some(whole_secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    const END: u64 = 240_000_000;

    #[test]
    fn a_click_anywhere_on_the_chip_never_moves_it() {
        for (down, up) in [(100.0, 100.0), (340.0, 343.0), (12.0, 9.0)] {
            assert_eq!(dragged_start(30_000_000, down, up, 800.0, END), None);
        }
    }

    #[test]
    fn a_drag_moves_by_the_distance_travelled_in_whole_seconds() {
        // 800 px show 240 s: 100 px is 30 s.
        assert_eq!(
            dragged_start(30_000_000, 500.0, 600.0, 800.0, END),
            Some(60_000_000)
        );
        assert_eq!(dragged_start(30_000_000, 500.0, 400.0, 800.0, END), Some(0));
        // Clamped to the run.
        assert_eq!(
            dragged_start(230_000_000, 0.0, 400.0, 800.0, END),
            Some(END)
        );
    }
}

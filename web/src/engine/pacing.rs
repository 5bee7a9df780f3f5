//! The engine's pace in wall-clock time: how long it simulates before yielding, and how often
//! it sends frames and refreshes the open tab's data.

/// Wall-clock milliseconds of simulation per slice. The worker yields to its message queue
/// between slices, so a command waits at most about this long.
pub const SLICE_MS: f64 = 12.0;

/// Least wall-clock milliseconds between two frames while running (about 30 per second:
/// the page repaints at 60 fps regardless, since it never waits for the simulation).
pub const FRAME_MS: f64 = 33.0;

/// Least wall-clock milliseconds between two frames while seeking: they only move the
/// progress bar.
pub const SEEK_FRAME_MS: f64 = 100.0;

/// Least wall-clock milliseconds between two refreshes of the open tab's data while running.
/// Charts and the region map redraw on the page's main thread; the status line and the
/// metrics strip still follow every frame.
pub const VIEWS_MS: f64 = 250.0;

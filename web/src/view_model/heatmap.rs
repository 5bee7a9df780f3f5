//! The region heatmap, like TiDB's Key Visualizer: time across (one column per
//! [`column_us`]), regions in key order down, bucketed so 256,000 regions fit in
//! [`MAX_BUCKETS`] rows. A cell is coloured by the worst state in its bucket (any leaderless
//! region makes the cell leaderless, so one stuck region is still a visible stripe), else by
//! the colour most of its regions share: the region map's colours, one hue per leader store.
//!
//! The engine records the cells incrementally while the run plays (`engine::heatmap`); this
//! module is the plain data the page draws and the arithmetic both sides share.

use faultline_sim::SimTime;
use serde::{Deserialize, Serialize};

use super::region_map::{
    rgba, LEADERLESS, LEADERLESS_HIBERNATED, MAX_COLOURED_STORES, PAD, STORE_BASE,
};

/// Most rows: more would be taller than a screen at one CSS pixel per row.
pub const MAX_BUCKETS: u32 = 256;
/// Most columns over a whole run.
pub const MAX_COLUMNS: u64 = 600;
/// Shortest column: finer than a second shows nothing a region map would not.
pub const MIN_COLUMN_US: u64 = 1_000_000;
/// Colour indices a region can have ([`super::region_map::colour_index`]'s range).
pub const COLOURS: usize = STORE_BASE as usize + 2 * MAX_COLOURED_STORES as usize;

/// Rows for a cluster of `regions` regions: one per region up to [`MAX_BUCKETS`].
pub fn bucket_count(regions: u32) -> u32 {
    regions.clamp(1, MAX_BUCKETS)
}

/// The row of `region`: buckets hold contiguous key ranges of (almost) equal size.
pub fn bucket_of(region: u32, regions: u32, buckets: u32) -> u32 {
    (region as u64 * buckets as u64 / regions.max(1) as u64) as u32
}

/// The first region of `bucket` (the inverse of [`bucket_of`]).
pub fn bucket_start(bucket: u32, regions: u32, buckets: u32) -> u32 {
    (bucket as u64 * regions as u64).div_ceil(buckets.max(1) as u64) as u32
}

/// Simulated time per column for a run of `duration_us`: at most [`MAX_COLUMNS`] columns,
/// none shorter than [`MIN_COLUMN_US`].
pub fn column_us(duration_us: u64) -> u64 {
    duration_us.div_ceil(MAX_COLUMNS).max(MIN_COLUMN_US)
}

/// The colour of a bucket from its regions per colour index (`counts[i]` regions drawn with
/// index `i`): leaderless first, then the most common colour (the lower index on a tie).
pub fn bucket_colour(counts: &[u32]) -> u8 {
    let at = |i: u8| counts.get(i as usize).copied().unwrap_or(0);
    if at(LEADERLESS) > 0 {
        return LEADERLESS;
    }
    if at(LEADERLESS_HIBERNATED) > 0 {
        return LEADERLESS_HIBERNATED;
    }
    let mut best = (0, PAD);
    for (i, &n) in counts.iter().enumerate().skip(STORE_BASE as usize) {
        if n > best.0 {
            best = (n, i as u8);
        }
    }
    best.1
}

/// The heatmap of one run up to its cursor.
// Eq lets `Rc<HeatmapVm>` props compare by pointer first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeatmapVm {
    /// Regions in the cluster when the run started: the rows.
    pub regions: u32,
    /// Regions at the cursor: more than `regions` once splits added some, each drawn in the
    /// row of the range it came from (rows are fixed when the run starts).
    pub regions_now: u32,
    /// Rows (buckets of regions in key order).
    pub buckets: u32,
    /// Simulated microseconds per column.
    pub column_us: u64,
    /// Columns over the whole run (the image width); columns after the cursor are blank.
    pub columns: u32,
    /// Columns recorded so far (at or before the cursor).
    pub recorded: u32,
    /// `recorded * buckets` colour indices, column after column, row 0 (the first key) first.
    pub cells: Vec<u8>,
    /// For each leaderless cell, its index in `cells` and the lowest leaderless region of its
    /// bucket at that time (what a click selects), ordered by index.
    pub leaderless: Vec<(u32, u32)>,
    /// Store names, `tikv-1` first: the legend.
    pub stores: Vec<String>,
}

impl HeatmapVm {
    /// The colour of the cell at `column` and row `bucket`; `PAD` if not recorded.
    pub fn cell(&self, column: u32, bucket: u32) -> u8 {
        if column >= self.recorded || bucket >= self.buckets {
            return PAD;
        }
        self.cells[(column * self.buckets + bucket) as usize]
    }

    /// The simulated time of a column.
    pub fn time_of(&self, column: u32) -> SimTime {
        SimTime(column as u64 * self.column_us)
    }

    /// The region a click on the cell selects: its bucket's lowest leaderless region if the
    /// cell is leaderless, else the bucket's first region. None off the recorded cells.
    pub fn region_at(&self, column: u32, bucket: u32) -> Option<u32> {
        if column >= self.recorded || bucket >= self.buckets {
            return None;
        }
        let index = column * self.buckets + bucket;
        match self.leaderless.binary_search_by_key(&index, |(i, _)| *i) {
            Ok(k) => Some(self.leaderless[k].1),
            Err(_) => Some(bucket_start(bucket, self.regions, self.buckets)),
        }
    }

    /// Cells drawn leaderless (either kind).
    pub fn leaderless_cells(&self) -> usize {
        self.leaderless.len()
    }

    /// The first leaderless cell in time order, as `(column, bucket)`.
    pub fn first_leaderless(&self) -> Option<(u32, u32)> {
        let (i, _) = self.leaderless.first()?;
        Some((i / self.buckets.max(1), i % self.buckets.max(1)))
    }

    /// A leaderless row of the last recorded column (the stripe at the cursor), if any.
    pub fn stripe_row_now(&self) -> Option<u32> {
        let last = self.recorded.checked_sub(1)?;
        (0..self.buckets)
            .find(|&b| matches!(self.cell(last, b), LEADERLESS | LEADERLESS_HIBERNATED))
    }

    /// The RGBA bytes of the image (`columns` wide, `buckets` high) for `ImageData`.
    pub fn rgba_bytes(&self) -> Vec<u8> {
        let lut: Vec<[u8; 4]> = (0..=255u8).map(rgba).collect();
        let (w, h) = (self.columns as usize, self.buckets as usize);
        let mut out = vec![0u8; w * h * 4];
        for (c, column) in self.cells.chunks(h.max(1)).enumerate().take(w) {
            for (b, &index) in column.iter().enumerate() {
                let at = (b * w + c) * 4;
                out[at..at + 4].copy_from_slice(&lut[index as usize]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_contiguous_key_ranges_of_equal_size() {
        assert_eq!(bucket_count(48), 48);
        assert_eq!(bucket_count(256_000), 256);
        assert_eq!(bucket_count(0), 1);
        let (n, b) = (256_000, 256);
        assert_eq!(bucket_of(0, n, b), 0);
        assert_eq!(bucket_of(999, n, b), 0);
        assert_eq!(bucket_of(1_000, n, b), 1);
        assert_eq!(bucket_of(n - 1, n, b), b - 1);
        // Uneven sizes: every bucket's start maps back to it, and the buckets tile the keys.
        let (n, b) = (1_000, 256);
        let mut sizes = vec![0u32; b as usize];
        for r in 0..n {
            sizes[bucket_of(r, n, b) as usize] += 1;
        }
        assert!(sizes.iter().all(|&s| s == 3 || s == 4), "{sizes:?}");
        for k in 0..b {
            assert_eq!(bucket_of(bucket_start(k, n, b), n, b), k);
        }
        // One region per row when there are few.
        assert!((0..48).all(|r| bucket_of(r, 48, 48) == r));
    }

    #[test]
    fn columns_cover_the_run_within_the_limit() {
        assert_eq!(column_us(60_000_000), MIN_COLUMN_US);
        let sixteen_minutes = 960_000_000;
        assert_eq!(column_us(sixteen_minutes), 1_600_000);
        assert!(sixteen_minutes / column_us(sixteen_minutes) <= MAX_COLUMNS);
    }

    #[test]
    fn one_leaderless_region_colours_its_whole_bucket() {
        let mut counts = vec![0u32; COLOURS];
        counts[STORE_BASE as usize + 1] = 900;
        counts[STORE_BASE as usize + 2] = 99;
        assert_eq!(
            bucket_colour(&counts),
            STORE_BASE + 1,
            "the most common colour"
        );
        counts[LEADERLESS_HIBERNATED as usize] = 1;
        assert_eq!(bucket_colour(&counts), LEADERLESS_HIBERNATED);
        counts[LEADERLESS as usize] = 1;
        assert_eq!(
            bucket_colour(&counts),
            LEADERLESS,
            "awake leaderless is the worse"
        );
        assert_eq!(bucket_colour(&[0; COLOURS]), PAD);
    }

    #[test]
    fn a_click_on_a_leaderless_cell_selects_its_leaderless_region() {
        let vm = HeatmapVm {
            regions: 10,
            regions_now: 10,
            buckets: 2,
            column_us: 1_000_000,
            columns: 5,
            recorded: 2,
            cells: vec![STORE_BASE, STORE_BASE, STORE_BASE, LEADERLESS],
            leaderless: vec![(3, 7)],
            stores: vec![],
        };
        assert_eq!(vm.region_at(1, 1), Some(7));
        assert_eq!(vm.region_at(1, 0), Some(0));
        assert_eq!(
            vm.region_at(0, 1),
            Some(5),
            "a led cell selects its bucket's first region"
        );
        assert_eq!(vm.region_at(2, 0), None, "not recorded yet");
        assert_eq!(vm.first_leaderless(), Some((1, 1)));
        assert_eq!(vm.stripe_row_now(), Some(1));
        assert_eq!(vm.time_of(1), SimTime(1_000_000));
        let px = vm.rgba_bytes();
        assert_eq!(px.len(), 5 * 2 * 4);
        // Row 1, column 1 is the leaderless cell; column 4 is blank (transparent).
        assert_eq!(&px[(5 + 1) * 4..(5 + 1) * 4 + 4], &rgba(LEADERLESS));
        assert_eq!(px[4 * 4 + 3], 0);
    }
}

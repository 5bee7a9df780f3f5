//! The region map: one colour index per region, laid out row by row in a square-ish image, so
//! the browser can paint 256,000 regions as one `ImageData` without a DOM node per region.

use faultline_scenario::Run;
use faultline_tikv::Cluster;
use serde::{Deserialize, Serialize};

/// Colour index of a pixel past the last region (the square's padding).
pub const PAD: u8 = 0;
/// A region with no leader on an Up store whose peers are awake (campaigning or stuck).
pub const LEADERLESS: u8 = 1;
/// A leaderless region whose live peers all hibernate: the tikv#14547 symptom, nobody will
/// campaign until the stale-state check wakes it.
pub const LEADERLESS_HIBERNATED: u8 = 2;
/// First per-store index: store `s` has `STORE_BASE + 2 s` (awake) and `+ 1` (hibernated).
pub const STORE_BASE: u8 = 3;
/// Stores that get a colour of their own; further stores share the last colour.
pub const MAX_COLOURED_STORES: u32 = 12;

/// The whole map at the cursor.
// Eq lets `Rc<RegionMapVm>` props compare by pointer first, not by 256,000 bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionMapVm {
    /// Image width in pixels (regions per row).
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Regions (the pixels after them are `PAD`).
    pub regions: u32,
    /// `width * height` colour indices, row-major; see [`colour_index`] and [`rgba`].
    pub pixels: Vec<u8>,
    /// Store names, `tikv-1` first: the legend.
    pub stores: Vec<String>,
    /// Regions per colour index (the legend's counts), `256` entries.
    pub counts: Vec<u32>,
    /// The leaderless regions (either kind), ascending: "next leaderless region".
    pub leaderless: Vec<u32>,
}

impl RegionMapVm {
    /// The region under pixel `(x, y)`, if any.
    pub fn region_at(&self, x: u32, y: u32) -> Option<u32> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let r = y * self.width + x;
        (r < self.regions).then_some(r)
    }

    /// Regions drawn with colour `index`.
    pub fn count(&self, index: u8) -> u32 {
        self.counts.get(index as usize).copied().unwrap_or(0)
    }
}

/// Colour index of one region from what the model says about it.
pub fn colour_index(leader_store: Option<u32>, hibernated: bool) -> u8 {
    match leader_store {
        None if hibernated => LEADERLESS_HIBERNATED,
        None => LEADERLESS,
        Some(s) => STORE_BASE + 2 * s.min(MAX_COLOURED_STORES - 1) as u8 + u8::from(hibernated),
    }
}

/// Colour index of `region` in `tikv` now. "Leaderless" follows the model's own definition
/// (no leader on an Up store), the same one the `leaderless_regions` metric counts.
pub fn region_colour(tikv: &Cluster, region: u32) -> u8 {
    // A merged-away region is gone: its id stays unused, drawn as the padding is.
    if tikv.region_merged_into(region).is_some() {
        return PAD;
    }
    let leader = if tikv.region_leaderless(region) {
        None
    } else {
        tikv.region_leader_store(region)
    };
    colour_index(leader, tikv.region_hibernated(region))
}

/// Width of a square-ish image holding `n` pixels.
fn side(n: u32) -> u32 {
    let mut w = (n as f64).sqrt().ceil() as u32;
    // Float rounding must not leave the square one pixel short.
    while w.saturating_mul(w) < n {
        w += 1;
    }
    w.max(1)
}

/// Builds the map in one pass over the regions (see [`region_colour`]).
pub fn region_map(run: &Run) -> RegionMapVm {
    let tikv = &run.world.model.tikv;
    let n = tikv.region_count();
    let width = side(n);
    let height = n.div_ceil(width).max(1);
    let mut pixels = vec![PAD; (width * height) as usize];
    let mut counts = vec![0u32; 256];
    let mut leaderless = Vec::new();
    for (r, px) in pixels.iter_mut().take(n as usize).enumerate() {
        let r = r as u32;
        let c = region_colour(tikv, r);
        if c == LEADERLESS || c == LEADERLESS_HIBERNATED {
            leaderless.push(r);
        }
        *px = c;
        counts[c as usize] += 1;
    }
    let nodes = run.world.kernel.net.nodes();
    let stores = tikv
        .store_nodes()
        .iter()
        .map(|id| {
            nodes
                .get(id.0 as usize)
                .map(|n| n.name.clone())
                .unwrap_or_default()
        })
        .collect();
    RegionMapVm {
        width,
        height,
        regions: n,
        pixels,
        stores,
        counts,
        leaderless,
    }
}

/// The leaderless region after `selected` in key order, wrapping round to the first; None
/// when no region is leaderless. `leaderless` is ascending.
pub fn next_leaderless(leaderless: &[u32], selected: Option<u32>) -> Option<u32> {
    let after = selected.map_or(0, |s| leaderless.partition_point(|&r| r <= s));
    leaderless.get(after).or(leaderless.first()).copied()
}

/// Store hues, chosen to stay distinguishable from the leaderless reds.
const STORE_RGB: [[u8; 3]; MAX_COLOURED_STORES as usize] = [
    [31, 119, 180],
    [44, 160, 44],
    [148, 103, 189],
    [255, 127, 14],
    [23, 190, 207],
    [188, 189, 34],
    [140, 86, 75],
    [227, 119, 194],
    [127, 127, 127],
    [57, 59, 121],
    [82, 84, 163],
    [99, 121, 57],
];

/// The RGBA colour of an index. Hibernated regions are the store's hue blended towards the
/// page background, so a hibernating cluster looks calm and awake regions stand out.
pub fn rgba(index: u8) -> [u8; 4] {
    match index {
        PAD => [0, 0, 0, 0],
        LEADERLESS => [230, 20, 20, 255],
        LEADERLESS_HIBERNATED => [150, 20, 40, 255],
        i => {
            let k = (i - STORE_BASE) as usize;
            let [r, g, b] = STORE_RGB[(k / 2).min(STORE_RGB.len() - 1)];
            if k % 2 == 1 {
                let dim = |c: u8| ((c as u16 + 3 * 235) / 4) as u8;
                [dim(r), dim(g), dim(b), 255]
            } else {
                [r, g, b, 255]
            }
        }
    }
}

/// CSS colour of an index, for legends.
pub fn css_colour(index: u8) -> String {
    let [r, g, b, _] = rgba(index);
    format!("rgb({r},{g},{b})")
}

/// The RGBA bytes of the whole map (what `ImageData` takes), through a 256-entry table so the
/// conversion is one lookup per pixel.
pub fn rgba_bytes(map: &RegionMapVm) -> Vec<u8> {
    let lut: Vec<[u8; 4]> = (0..=255u8).map(rgba).collect();
    let mut out = Vec::with_capacity(map.pixels.len() * 4);
    for &p in &map.pixels {
        out.extend_from_slice(&lut[p as usize]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_ish_and_addressable() {
        assert_eq!(side(256_000), 506);
        assert_eq!(side(1), 1);
        assert_eq!(side(0), 1);
        assert_eq!(side(48), 7);
        let map = RegionMapVm {
            width: 7,
            height: 7,
            regions: 48,
            ..Default::default()
        };
        assert_eq!(map.region_at(6, 6), None, "padding pixel");
        assert_eq!(map.region_at(5, 6), Some(47));
        assert_eq!(map.region_at(7, 0), None);
    }

    #[test]
    fn next_leaderless_cycles_in_key_order() {
        let ll = [4, 9, 17];
        assert_eq!(next_leaderless(&ll, None), Some(4));
        assert_eq!(next_leaderless(&ll, Some(4)), Some(9));
        assert_eq!(next_leaderless(&ll, Some(5)), Some(9), "from a led region");
        assert_eq!(next_leaderless(&ll, Some(17)), Some(4), "wraps round");
        assert_eq!(next_leaderless(&ll, Some(100)), Some(4));
        assert_eq!(next_leaderless(&[], Some(3)), None);
    }

    #[test]
    fn colours_distinguish_the_states() {
        assert_eq!(colour_index(None, false), LEADERLESS);
        assert_eq!(colour_index(None, true), LEADERLESS_HIBERNATED);
        assert_eq!(colour_index(Some(1), false), STORE_BASE + 2);
        assert_eq!(colour_index(Some(1), true), STORE_BASE + 3);
        assert_eq!(colour_index(Some(400), true), STORE_BASE + 23);
        let all: Vec<[u8; 4]> = (0..=STORE_BASE + 23).map(rgba).collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a, b, "colour {i} is not unique");
            }
        }
    }
}

//! Index newtypes. Peers, regions and stores live in `Vec`s indexed by these, so state is
//! compact and iteration order is fixed.

/// A region (one Raft group), `0..regions`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegionId(pub u32);

/// A peer: region `r`, replica slot `s` is `r * replicas + s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PeerId(pub u32);

/// A TiKV store, 0-based (`tikv-1` is store 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StoreIdx(pub u32);

/// "No peer" in a slot field (no leader known, no vote cast).
pub const NO_SLOT: u8 = u8::MAX;

impl PeerId {
    /// The peer of `region` in `slot`.
    pub fn of(region: RegionId, slot: u8, replicas: u32) -> PeerId {
        PeerId(region.0 * replicas + slot as u32)
    }
    /// Its region.
    pub fn region(self, replicas: u32) -> RegionId {
        RegionId(self.0 / replicas)
    }
    /// Its replica slot.
    pub fn slot(self, replicas: u32) -> u8 {
        (self.0 % replicas) as u8
    }
    /// As a `Vec` index.
    pub fn ix(self) -> usize {
        self.0 as usize
    }
}

//! A region's epoch (TiKV `metapb::RegionEpoch`): a leaf type, below the messages that carry
//! an epoch's version and the region state that bumps it (`crate::region`).

/// A region's epoch (`metapb.RegionEpoch`): `conf_ver` grows with each membership change,
/// `version` with each split. A request carrying an older epoch is stale (`EpochNotMatch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegionEpoch {
    /// Membership changes.
    pub conf_ver: u64,
    /// Splits and merges.
    pub version: u64,
}

impl RegionEpoch {
    /// A bootstrapped region's epoch (TiKV's `INIT_EPOCH_CONF_VER` and `INIT_EPOCH_VER`).
    pub const INIT: RegionEpoch = RegionEpoch {
        conf_ver: 1,
        version: 1,
    };
}

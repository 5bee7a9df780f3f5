//! Leaf identifiers shared by every part of the TiCDC model.

/// Index of a changefeed in the configuration.
pub type CfIx = u16;

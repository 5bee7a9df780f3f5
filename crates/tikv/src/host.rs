//! Running the TiKV model inside a larger model.
//!
//! Every handler is generic over the kernel's model type `H`, so the same code runs as the
//! `Cluster` model on its own and as the TiKV layer of the full stack (with TiCDC), as long as
//! `H`'s message and timer types can wrap TiKV's.

use faultline_sim::Model;

use crate::{Msg, Timer};

/// A model whose kernel can carry TiKV's messages and timers.
pub trait TikvHost: Model<Msg: From<Msg>, Timer: From<Timer>> {}

impl<H: Model<Msg: From<Msg>, Timer: From<Timer>>> TikvHost for H {}

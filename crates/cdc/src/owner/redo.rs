//! The owner's redo meta manager: flushes each redo changefeed's {CheckpointTs, ResolvedTs}
//! every `redo_flush_interval` and warns when they have not changed for a long time
//! (`cdc/redo/meta_manager.go`, `maybeFlushMeta`).
//!
//! A component with an outbox: [`flush_redo_meta`] reads and updates the owner's watermarks and
//! writes its warnings to an [`Out`]; it never sees the kernel.

use faultline_sim::{Level, NodeId, SimDuration, SimTime};

use crate::cdc::Cdc;
use crate::config::CdcConfig;
use crate::out::{Cx, Out};
use crate::owner::watermarks::FeedWatermarks;

/// The warning upstream logs when a redo meta has not changed for `FlushWarnDuration`.
pub const REDO_STUCK_WARNING: &str =
    "Redo meta has not changed for a long time, owner may be stuck";

/// One flush of the redo meta manager at `now` on the owner's `node`: for each redo changefeed,
/// the meta becomes (checkpoint, the highest resolved ts seen); if it did not change for
/// `cfg.redo_stuck_warning`, `out` gets upstream's "owner may be stuck" warning instead.
pub fn flush_redo_meta(
    watermarks: &mut [FeedWatermarks],
    cfg: &CdcConfig,
    node: NodeId,
    now: SimTime,
    out: &mut Out,
) {
    for (cf, f) in watermarks.iter_mut().enumerate() {
        if !cfg.changefeeds[cf].redo {
            continue;
        }
        let meta = (f.checkpoint, f.resolved.max(f.redo_meta.1));
        // Upstream warns when `time.Since(lastFlushTime) > FlushWarnDuration` (20 s). Flushes
        // here fall exactly on the 2 s grid, where a real ticker is always a little late, so
        // `>=` warns at the flush upstream's `>` would: the tenth unchanged one.
        if meta != f.redo_meta {
            f.redo_meta = meta;
            f.redo_changed_at = now;
        } else if now.since(f.redo_changed_at) >= cfg.redo_stuck_warning {
            let detail = format!(
                "changefeed={} lastFlushTime={} meta={{CheckpointTs:{},ResolvedTs:{}}}",
                cfg.changefeeds[cf].id,
                SimDuration(now.since(f.redo_changed_at).0),
                meta.0 .0,
                meta.1 .0
            );
            out.log(Some(node), Level::Warn, REDO_STUCK_WARNING, detail);
        }
    }
}

impl Cdc {
    /// The owner's redo flush timer fired on `node`.
    pub(crate) fn redo_flush(&mut self, cx: &mut Cx, node: NodeId) {
        flush_redo_meta(&mut self.watermarks, &self.cfg, node, cx.now, &mut cx.out);
    }
}

#[cfg(test)]
#[path = "redo_tests.rs"]
mod tests;

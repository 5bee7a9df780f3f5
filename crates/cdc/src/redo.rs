//! The owner's redo meta manager: flushes each redo changefeed's {CheckpointTs, ResolvedTs}
//! every `redo_flush_interval` and warns when they have not changed for a long time.

use faultline_sim::{Kernel, Level, NodeId};

use crate::cdc::Cdc;
use crate::stack::Stack;

impl Cdc {
    pub(crate) fn redo_flush(&mut self, k: &mut Kernel<Stack>, node: NodeId) {
        let now = k.now();
        for cf in 0..self.watermarks.len() {
            if !self.cfg.changefeeds[cf].redo {
                continue;
            }
            let f = &mut self.watermarks[cf];
            let meta = (f.checkpoint, f.resolved.max(f.redo_meta.1));
            if meta != f.redo_meta {
                f.redo_meta = meta;
                f.redo_changed_at = now;
            } else if now.since(f.redo_changed_at) >= self.cfg.redo_stuck_warning {
                let detail = format!(
                    "changefeed={} lastFlushTime={} meta={{CheckpointTs:{},ResolvedTs:{}}}",
                    self.cfg.changefeeds[cf].id,
                    faultline_sim::SimDuration(now.since(f.redo_changed_at).0),
                    meta.0 .0,
                    meta.1 .0
                );
                k.log(
                    Some(node),
                    Level::Warn,
                    "Redo meta has not changed for a long time, owner may be stuck",
                    detail,
                );
            }
        }
    }
}

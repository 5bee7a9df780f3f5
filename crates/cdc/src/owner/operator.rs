//! Operator actions (TiCDC's CLI and the cluster manager): pause and resume a changefeed,
//! drain a capture for a scale-in, add one for a scale-out. They run as PD timers and change
//! what etcd holds; the captures and the owner react to the watch.
//!
//! [`Cdc::apply_operator_action`] is the action itself, with an outbox: it changes etcd and the
//! session flags, logs to its context's outbox, and says which capture, if any, must now open a session;
//! [`Cdc::operator_action`] opens that session and notifies etcd's watchers.

use faultline_sim::Level;

use crate::cdc::Cdc;
use crate::etcd::wire::OperatorAction;
use crate::out::Cx;

impl Cdc {
    /// Runs operator action `a` (a PD timer), then notifies etcd's watchers.
    pub(crate) fn operator_action(&mut self, cx: &mut Cx, a: OperatorAction) {
        let begin = self.apply_operator_action(cx, a);
        if let Some(c) = begin {
            self.session_begin(&mut cx.out, c);
        }
        self.etcd_notify(&mut cx.out);
    }

    /// Applies `a` to etcd and the captures' session flags, logging what was done; returns the
    /// capture that must open a session now (a scaled-out capture whose process runs and that
    /// has no session yet). Every action bumps etcd's revision, so the watchers see it.
    pub(crate) fn apply_operator_action(&mut self, cx: &mut Cx, a: OperatorAction) -> Option<u32> {
        let (reach, out) = (cx.reach, &mut cx.out);
        let mut begin = None;
        match a {
            OperatorAction::PauseChangefeed(cf) | OperatorAction::ResumeChangefeed(cf) => {
                let pause = matches!(a, OperatorAction::PauseChangefeed(_));
                if let Some(p) = self.paused.get_mut(cf as usize) {
                    *p = pause;
                }
                let what = if pause {
                    "changefeed paused"
                } else {
                    "changefeed resumed"
                };
                let detail = format!("changefeed={}", self.cf_id(cf));
                out.log(Some(self.pd), Level::Info, what, detail);
            }
            OperatorAction::RemoveCapture(c) => {
                self.etcd.draining.insert(c);
                let detail = format!("capture=cdc-{}", c + 1);
                out.log(
                    Some(self.pd),
                    Level::Info,
                    "drain capture (scale-in)",
                    detail,
                );
            }
            OperatorAction::AddCapture(c) => {
                self.etcd.draining.remove(&c);
                let detail = format!("capture=cdc-{}", c + 1);
                out.log(
                    Some(self.pd),
                    Level::Info,
                    "add capture (scale-out)",
                    detail,
                );
                let s = &mut self.sessions[c as usize];
                if !s.joined {
                    s.joined = true;
                    let up = reach.is_up(self.captures[c as usize]);
                    if up && s.lease.is_none() && s.closing.is_none() {
                        begin = Some(c);
                    }
                }
            }
        }
        self.etcd.revision += 1;
        begin
    }
}

#[cfg(test)]
#[path = "operator_tests.rs"]
mod tests;

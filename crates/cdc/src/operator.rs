//! Operator actions (TiCDC's CLI and the cluster manager): pause and resume a changefeed,
//! drain a capture for a scale-in, add one for a scale-out. They run as PD timers and change
//! what etcd holds; the captures and the owner react to the watch.

use faultline_sim::{Kernel, Level, NodeState};

use crate::cdc::Cdc;
use crate::etcd::wire::OperatorAction;
use crate::stack::Stack;

impl Cdc {
    pub(crate) fn operator_action(&mut self, k: &mut Kernel<Stack>, a: OperatorAction) {
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
                k.log(Some(self.pd), Level::Info, what, detail);
                self.etcd.revision += 1;
                self.etcd_notify(k);
            }
            OperatorAction::RemoveCapture(c) => {
                self.etcd.draining.insert(c);
                self.etcd.revision += 1;
                let detail = format!("capture=cdc-{}", c + 1);
                k.log(
                    Some(self.pd),
                    Level::Info,
                    "drain capture (scale-in)",
                    detail,
                );
                self.etcd_notify(k);
            }
            OperatorAction::AddCapture(c) => {
                self.etcd.draining.remove(&c);
                let s = &mut self.sessions[c as usize];
                let detail = format!("capture=cdc-{}", c + 1);
                k.log(
                    Some(self.pd),
                    Level::Info,
                    "add capture (scale-out)",
                    detail,
                );
                if !s.joined {
                    s.joined = true;
                    let up = k.net.node(self.captures[c as usize]).state == NodeState::Up;
                    if up && s.lease.is_none() && s.closing.is_none() {
                        self.session_begin(k, c);
                    }
                }
                self.etcd.revision += 1;
                self.etcd_notify(k);
            }
        }
    }
}

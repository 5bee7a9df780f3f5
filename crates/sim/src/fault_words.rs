//! A fault in words, with node names: the log line an injected fault writes, and the label
//! `faultline diff` and the page give a fault event.

use crate::fault::{Fault, LinkChange};
use crate::network::{Network, NodeId};

/// A one-line description of a fault using node names.
pub fn describe_fault(net: &Network, fault: &Fault) -> String {
    let name = |n: &NodeId| net.node(*n).name.clone();
    let names = |v: &Vec<NodeId>| v.iter().map(name).collect::<Vec<_>>().join(",");
    match fault {
        Fault::Crash(n) | Fault::Restart(n) | Fault::Pause(n) | Fault::Resume(n) => {
            format!("{} {}", fault.verb(), name(n))
        }
        Fault::Links {
            from,
            to,
            both_ways,
            change,
        } => {
            let arrow = if *both_ways { "<->" } else { "->" };
            let what = match change {
                LinkChange::LossPpm(p) => format!(" {}%", *p as f64 / 10_000.0),
                LinkChange::Delay(d) => format!(" +{d}"),
                _ => String::new(),
            };
            format!(
                "{}{} [{}] {} [{}]",
                fault.verb(),
                what,
                names(from),
                arrow,
                names(to)
            )
        }
    }
}

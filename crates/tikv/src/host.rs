//! Running the TiKV model inside a larger model, and the one place where TiKV's outboxes meet
//! the kernel.
//!
//! Handlers know no kernel: they take a [`Cx`] (time, [`faultline_sim::Reach`], [`Out`]).
//! [`routed`] runs one with a fresh context and hands its commands to the kernel in the order
//! they were written, so the same code runs as the `Cluster` model on its own and as the TiKV
//! layer of the full stack (with TiCDC), as long as the host's message and timer types can wrap
//! TiKV's.

use faultline_sim::{Kernel, Model, Reach};

use crate::msg::{Msg, Timer};
use crate::out::{Command, Cx, Out};

/// A model whose kernel can carry TiKV's messages and timers.
pub trait TikvHost: Model<Msg: From<Msg>, Timer: From<Timer>> {}

impl<H: Model<Msg: From<Msg>, Timer: From<Timer>>> TikvHost for H {}

/// Runs `f` with a context at the kernel's time, then hands what it wrote to the kernel.
pub fn routed<H: TikvHost, R>(k: &mut Kernel<H>, f: impl FnOnce(&mut Cx) -> R) -> R {
    let (r, mut out) = {
        let mut cx = Cx::new(k.now(), Reach::new(&k.net));
        let r = f(&mut cx);
        (r, cx.out)
    };
    route(k, &mut out);
    r
}

/// Hands `out`'s commands to the kernel in the order they were written, leaving it empty.
pub fn route<H: TikvHost>(k: &mut Kernel<H>, out: &mut Out) {
    for command in out.take() {
        match command {
            Command::Send { from, to, msg } => k.send(from, to, msg),
            Command::SetTimer { node, after, timer } => k.set_timer(node, after, timer),
            Command::Log {
                node,
                level,
                message,
                detail,
            } => k.log(node, level, message, detail),
        }
    }
}

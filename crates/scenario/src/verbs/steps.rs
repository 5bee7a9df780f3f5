//! A step's effects on the timeline: what happens at `at`, and what undoes it after
//! `duration`; and the model timers PD-side actions travel in.

use faultline_cdc::capture::session::{OperatorAction, SessionTimer};
use faultline_cdc::msg::CdcTimer;
use faultline_cdc::StackTimer;
use faultline_tikv::{TikvAction, Timer};

use crate::dur::Dur;
use crate::fault_spec::FaultSpec;

/// `now` at the step's time, then `undo` after its `duration` (none without one).
pub fn at_and_undo<T>(f: &FaultSpec, now: Vec<T>, undo: Vec<T>) -> Vec<(Dur, T)> {
    let mut out: Vec<_> = now.into_iter().map(|a| (f.at, a)).collect();
    if let Some(d) = f.duration {
        let at = Dur(f.at.0.saturating_add(d.0));
        out.extend(undo.into_iter().map(|a| (at, a)));
    }
    out
}

/// The timer payload of a TiCDC operator action.
pub fn cdc_timer(a: OperatorAction) -> StackTimer {
    StackTimer::Cdc(CdcTimer::Session(SessionTimer::Action(a)))
}

/// The timer payload of a TiKV model action.
pub fn tikv_timer(a: TikvAction) -> StackTimer {
    StackTimer::Tikv(Timer::Action(a))
}

/// Each timed action as a timer.
pub fn timed<T>(actions: Vec<(Dur, T)>, timer: fn(T) -> StackTimer) -> Vec<(Dur, StackTimer)> {
    actions.into_iter().map(|(at, a)| (at, timer(a))).collect()
}

//! The page and the engine wired together in one thread, the way the worker glue wires them
//! in the browser: the playground's outbox goes to the engine, the engine's frames come back
//! as `Action::Frame`. Every message crosses bincode (gloo-worker's default codec), so a
//! type that stops round-tripping fails here and not only in the browser.

use super::{Action, Playground};
use crate::engine::{cross, Engine, FromEngine};

/// A playground and its engine.
pub struct Local {
    /// The page side.
    pub pg: Playground,
    /// The worker side.
    pub engine: Engine,
    /// Frames delivered so far.
    pub frames: usize,
}

fn clock() -> f64 {
    0.0
}

impl Local {
    /// Connects `pg` to a fresh engine and delivers its first commands.
    pub fn new(pg: Playground) -> Local {
        let mut l = Local {
            pg,
            engine: Engine::new(),
            frames: 0,
        };
        // The worker reports in as soon as the page's bridge connects.
        l.deliver(FromEngine::Ready);
        l.flush();
        l
    }

    /// Applies a page action and sends its commands.
    pub fn apply(&mut self, a: Action) {
        self.pg.apply(a);
        self.flush();
    }

    fn deliver(&mut self, out: FromEngine) {
        let out = cross(&out);
        self.frames += 1;
        match out {
            FromEngine::Frame(f) => {
                self.pg.apply(Action::Frame(f));
            }
            FromEngine::Toml(a) => {
                self.pg.apply(Action::Toml(a));
            }
            FromEngine::Ready => {
                self.pg.apply(Action::EngineReady);
            }
            FromEngine::FirstDifference(d) => {
                self.pg.apply(Action::FirstDifference(d));
            }
            FromEngine::Crashed { message, at_us } => {
                self.pg.apply(Action::EngineCrashed(message, at_us));
            }
        }
    }

    /// Sends the outbox (each command through the codec).
    pub fn flush(&mut self) {
        let out: Vec<_> = self.pg.engine.outbox.drain(..).collect();
        for m in out {
            if let Some(out) = self.engine.receive(cross(&m)) {
                self.deliver(out);
            }
        }
    }

    /// One turn of the worker loop, with a clock that stands still (every slice runs to the
    /// end of its work).
    pub fn pump(&mut self) {
        self.pump_with(&clock);
    }

    /// One turn of the worker loop reading wall time from `clock`: a clock that moves makes
    /// the engine stop slices on their budget, as a busy browser does.
    pub fn pump_with(&mut self, clock: &dyn Fn() -> f64) {
        self.flush();
        if let Some(f) = self.engine.pump(clock) {
            self.deliver(FromEngine::Frame(Box::new(f)));
        }
    }

    /// Runs until the engine is idle and the page has seen its last frame.
    pub fn settle(&mut self) {
        for _ in 0..100_000 {
            self.pump();
            if !self.engine.pending() && self.pg.engine.outbox.is_empty() {
                return;
            }
        }
        panic!("the engine did not settle");
    }
}

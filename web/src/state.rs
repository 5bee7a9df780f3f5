//! The playground as a Yew reducer. The state lives in one `RefCell` so an action mutates it
//! in place; `rev` tells Yew (through `use_reducer_eq`) whether anything changed. After each
//! action the playground's commands for the engine go to the worker through `send`.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::engine::ToEngine;
use crate::playground::{Action, Playground};

/// Where commands for the engine go: the worker bridge, once the page has spawned it (until
/// then they wait in the playground's outbox).
pub type Sender = Rc<RefCell<Option<Box<dyn Fn(ToEngine)>>>>;

/// What components read.
pub struct AppState {
    /// The playground.
    pub pg: Rc<RefCell<Playground>>,
    /// Bumped on every visible change.
    pub rev: u64,
    /// The engine's inbox.
    pub send: Sender,
}

impl AppState {
    /// Sends the playground's queued commands, if the worker is there.
    pub fn flush(&self) {
        let send = self.send.borrow();
        let Some(send) = send.as_ref() else { return };
        let Ok(mut pg) = self.pg.try_borrow_mut() else {
            return;
        };
        for m in pg.engine.outbox.drain(..) {
            send(m);
        }
    }
}

impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        self.rev == other.rev && Rc::ptr_eq(&self.pg, &other.pg)
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        // An action arriving while a component still borrows (cannot happen with Yew's
        // scheduler, but never panic on it) is dropped rather than crashing the page.
        let changed = match self.pg.try_borrow_mut() {
            Ok(mut pg) => pg.apply(action),
            Err(_) => false,
        };
        self.flush();
        if changed {
            Rc::new(AppState {
                pg: self.pg.clone(),
                rev: self.rev + 1,
                send: self.send.clone(),
            })
        } else {
            self
        }
    }
}

/// The handle components get: read with `state.pg.borrow()`.
pub type StateHandle = UseReducerHandle<AppState>;

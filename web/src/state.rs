//! The playground as a Yew reducer. The heavy state (runs, snapshots) lives in one
//! `RefCell` so an action mutates it in place instead of cloning worlds; `rev` tells Yew
//! (through `use_reducer_eq`) whether anything changed.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::dom;
use crate::playground::{Action, Playground};

/// What components read.
pub struct AppState {
    /// The playground.
    pub pg: Rc<RefCell<Playground>>,
    /// Bumped on every visible change.
    pub rev: u64,
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
            Ok(mut pg) => pg.apply(action, &dom::now_ms),
            Err(_) => false,
        };
        if changed {
            Rc::new(AppState {
                pg: self.pg.clone(),
                rev: self.rev + 1,
            })
        } else {
            self
        }
    }
}

/// The handle components get: read with `state.pg.borrow()`.
pub type StateHandle = UseReducerHandle<AppState>;

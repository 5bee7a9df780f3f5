//! Value errors inside a knob section, collected instead of stopping the parse, so a file with
//! several bad values (a duration without a unit, a negative count) reports every one of them
//! at once, beside the validation problems, as the format reference promises.
//!
//! The collector is a thread-local that only [`collecting`] switches on (the file parser).
//! Without it (share links, a plain `toml::from_str`) the first error stops deserialising as
//! serde normally does. This is loader code, not model code: nothing here affects a run.

use std::cell::RefCell;

use serde::de;

use crate::error::Problem;

thread_local! {
    static DEFERRED: RefCell<Option<Vec<Problem>>> = const { RefCell::new(None) };
}

/// Runs `f` with deferral on; returns its result and the problems deferred meanwhile.
pub(crate) fn collecting<T>(f: impl FnOnce() -> T) -> (T, Vec<Problem>) {
    /// Switches deferral off again even if `f` unwinds.
    struct Reset(Option<Vec<Problem>>);
    impl Drop for Reset {
        fn drop(&mut self) {
            DEFERRED.with(|d| *d.borrow_mut() = self.0.take());
        }
    }
    let outer = DEFERRED.with(|d| d.borrow_mut().replace(Vec::new()));
    let reset = Reset(outer);
    let out = f();
    let problems = DEFERRED.with(|d| d.borrow_mut().take()).unwrap_or_default();
    drop(reset);
    (out, problems)
}

/// Records `e` against `field` when collecting (the caller then keeps the default), or hands
/// it back, prefixed with the field, to stop the parse.
pub(crate) fn defer<E: de::Error>(field: &str, e: E) -> Result<(), E> {
    DEFERRED.with(|d| match d.borrow_mut().as_mut() {
        Some(list) => {
            list.push(Problem {
                field: field.to_string(),
                message: first_line(&e.to_string()),
            });
            Ok(())
        }
        None => Err(E::custom(format!(
            "`{field}`: {}",
            first_line(&e.to_string())
        ))),
    })
}

/// The message without the context lines a deserializer appends (toml adds "in `key`").
fn first_line(message: &str) -> String {
    message
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .to_string()
}

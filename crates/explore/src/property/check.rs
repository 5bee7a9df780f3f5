//! What checking one property gives: holds, fails with why, or cannot be judged on this run.

/// The result of checking one property: `None` = not applicable here, `Some(Err(why))` = fails.
pub type Check = Option<Result<(), String>>;

//! `faultline verify LINK`: replays a self-checking link and says whether it reproduced, in
//! the words the page's banner uses. Exit 0 reproduced, 1 a different run, 2 a bad link.

use clap::Args;
use faultline_scenario::{decode_shared, verify_shared};

use crate::out::say;

/// Replays a self-checking link (one copied from the app or made by `faultline link`) and says
/// whether this build reproduces the run it records: exit 0 reproduced, 1 different, 2 bad.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The share link, `http://...#v2....` or `v2....`.
    #[arg(value_name = "LINK")]
    link: String,
}

/// Verifies one link, printing the headline and what differs. `Err` (exit 2) for a link that
/// does not open or records no run.
pub fn run(a: VerifyArgs) -> Result<i32, String> {
    // Every link error names the link itself; a prefix would read "bad link: link: ...".
    let shared = decode_shared(&a.link).map_err(|e| e.to_string())?;
    let v = verify_shared(&shared).map_err(|e| e.to_string())?;
    say!("{}", v.headline());
    for line in v.details() {
        say!("  {line}");
    }
    Ok(if v.reproduced() { 0 } else { 1 })
}

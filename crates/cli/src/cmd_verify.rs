//! `faultline verify LINK`: replays a self-checking link and says whether it reproduced, in
//! the words the page's banner uses. Exit 0 reproduced, 1 a different run, 2 a bad link.

use faultline_scenario::{decode_shared, verify_shared};

use crate::args::Args;

/// Parses `faultline verify LINK` and runs it.
pub fn main(raw: &[String]) -> Result<i32, String> {
    let a = Args::parse(raw, &[], &[])?;
    let [link] = a.positional.as_slice() else {
        return Err("usage: faultline verify LINK".into());
    };
    run(link)
}

/// Verifies one link, printing the headline and what differs. `Err` (exit 2) for a link that
/// does not open or records no run.
pub fn run(link: &str) -> Result<i32, String> {
    let shared = decode_shared(link).map_err(|e| format!("bad link: {e}"))?;
    let v = verify_shared(&shared).map_err(|e| format!("bad link: {e}"))?;
    println!("{}", v.headline());
    for line in v.details() {
        println!("  {line}");
    }
    Ok(if v.reproduced() { 0 } else { 1 })
}

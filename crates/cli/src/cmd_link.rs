//! `faultline link` and `faultline trace-hash`.

use faultline_scenario::{share_url, Run};
use faultline_sim::format_hash;

use crate::args::Args;
use crate::load::load;

/// Default base URL: where `cargo xtask serve` serves the app.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

/// `faultline link SCENARIO [--base URL] [--set key=value]...`
pub fn link(raw: &[String]) -> Result<i32, String> {
    let a = Args::parse(raw, &["base", "set"], &[])?;
    let [arg] = a.positional.as_slice() else {
        return Err("usage: faultline link SCENARIO [--base URL]".into());
    };
    let scenario = load(arg, &a.all("set"))?;
    println!(
        "{}",
        share_url(a.get("base").unwrap_or(DEFAULT_BASE), &scenario)
    );
    Ok(0)
}

/// `faultline trace-hash SCENARIO [--set key=value]...`
pub fn trace_hash(raw: &[String]) -> Result<i32, String> {
    let a = Args::parse(raw, &["set"], &[])?;
    let [arg] = a.positional.as_slice() else {
        return Err("usage: faultline trace-hash SCENARIO".into());
    };
    let scenario = load(arg, &a.all("set"))?;
    let mut run = Run::new(&scenario).map_err(|e| e.to_string())?;
    run.run_to_end();
    println!("{}", format_hash(run.trace_hash()));
    Ok(0)
}

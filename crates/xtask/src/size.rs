//! The download-size report: what a visitor fetches (wasm + JS), gzip-compressed, as the
//! browser would receive it from a server that compresses. The page and the simulation
//! worker are separate downloads (the worker is fetched when the page spawns it), so each
//! bundle is reported with its own verdict, and the total too. The brotli figure beside each
//! is what `cargo xtask serve` sends to a browser that accepts `br` (all current ones do);
//! the budget stays in gzip, as issue 5 set it.

use crate::cmd::{err, Result};
use std::fs;
use std::path::Path;

/// The playground's budget for wasm + JS after gzip (issue 5).
const BUDGET_BYTES: u64 = 350 * 1024;
/// gzip = deflate stream + 10-byte header + 8-byte trailer.
const GZIP_FRAMING: u64 = 18;
/// File-name prefix of the worker bundle (trunk names worker output after the bin).
const WORKER_PREFIX: &str = "faultline-worker";

/// Prints each wasm and JS file in `dist` with raw and gzip sizes, and the total.
pub fn report(dist: &Path) -> Result {
    let mut files: Vec<(String, u64, u64, u64)> = Vec::new();
    let entries =
        fs::read_dir(dist).map_err(|e| crate::cmd::Error(format!("{}: {e}", dist.display())))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext != "wasm" && ext != "js" {
            continue;
        }
        let bytes =
            fs::read(&path).map_err(|e| crate::cmd::Error(format!("{}: {e}", path.display())))?;
        let gz = gzip_len(&bytes);
        let br = crate::encoding::brotli(&bytes).len() as u64;
        let name = entry.file_name().to_string_lossy().into_owned();
        files.push((name, bytes.len() as u64, gz, br));
    }
    if !files.iter().any(|f| f.0.ends_with(".wasm")) {
        return err(format!(
            "no .wasm file in {}; did the trunk build run?",
            dist.display()
        ));
    }
    files.sort();
    println!("download size (wasm + js, gzip; brotli as served):");
    let (mut total, mut total_br) = (0, 0);
    for (bundle, worker) in [("page (main thread)", false), ("simulation worker", true)] {
        let part: Vec<_> = files.iter().filter(|f| is_worker(&f.0) == worker).collect();
        if part.is_empty() {
            continue;
        }
        let sum: u64 = part.iter().map(|f| f.2).sum();
        let sum_br: u64 = part.iter().map(|f| f.3).sum();
        total += sum;
        total_br += sum_br;
        println!("  {bundle}:");
        for (name, raw, gz, br) in part {
            println!(
                "    {name:<48} {:>9} raw {:>9} gzip {:>9} brotli",
                kb(*raw),
                kb(*gz),
                kb(*br)
            );
        }
        println!(
            "    {bundle} total: {} ({} brotli); {}",
            kb(sum),
            kb(sum_br),
            verdict(sum, BUDGET_BYTES)
        );
    }
    println!(
        "  page + worker total: {} ({} brotli); {}",
        kb(total),
        kb(total_br),
        verdict(total, BUDGET_BYTES)
    );
    Ok(())
}

/// True for the worker bundle's files.
fn is_worker(file: &str) -> bool {
    file.starts_with(WORKER_PREFIX)
}

/// The target line: the budget and whether it is met, by how much. The build does not fail
/// on size: a regression shows here, and docs/bench.md records where the bytes go.
fn verdict(total: u64, budget: u64) -> String {
    if total <= budget {
        format!(
            "target <= {} gzip: met ({} to spare)",
            kb(budget),
            kb(budget - total)
        )
    } else {
        format!(
            "target <= {} gzip: NOT met ({} over; see docs/bench.md, Download size)",
            kb(budget),
            kb(total - budget)
        )
    }
}

/// Size of `bytes` gzip-compressed at the best level.
fn gzip_len(bytes: &[u8]) -> u64 {
    miniz_oxide::deflate::compress_to_vec(bytes, 10).len() as u64 + GZIP_FRAMING
}

fn kb(n: u64) -> String {
    format!("{:.1} KB", n as f64 / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::{gzip_len, is_worker, verdict};

    #[test]
    fn worker_files_are_told_from_the_page() {
        assert!(is_worker("faultline-worker_bg.wasm"));
        assert!(is_worker("faultline-worker.js"));
        assert!(!is_worker("faultline-web-1a2b3c_bg.wasm"));
    }

    #[test]
    fn the_target_line_says_whether_it_is_met() {
        assert_eq!(
            verdict(300 * 1024, 350 * 1024),
            "target <= 350.0 KB gzip: met (50.0 KB to spare)"
        );
        assert!(verdict(400 * 1024, 350 * 1024).contains("NOT met (50.0 KB over"));
    }

    #[test]
    fn repetitive_input_compresses() {
        let data = vec![b'a'; 100_000];
        assert!(gzip_len(&data) < 1_000);
    }
}

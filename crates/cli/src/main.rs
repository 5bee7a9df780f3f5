//! `faultline`: run, check, link and trace-hash Faultline scenarios from the command line.
//! SCENARIO is a scenario TOML file or a share link.

mod args;
mod cmd_check;
mod cmd_diff;
mod cmd_explore;
mod cmd_link;
mod cmd_run;
mod cmd_shrink;
mod cmd_verify;
mod load;

const HELP: &str = "\
faultline: deterministic simulation of TiKV, PD and TiCDC under failure

usage:
  faultline run SCENARIO [--for DURATION] [--seed N] [--set key=value]... [--json]
  faultline check SCENARIO...
  faultline link SCENARIO [--base URL]
  faultline trace-hash SCENARIO
  faultline explore SCENARIO [--seeds N] [--first-seed S] [--faults kill=2,partition,loss,pause]
                    [--jobs N]   random fault schedules per seed; prints failures with links
  faultline shrink SCENARIO|LINK --property NAME [--max-runs N]
                    the smallest scenario that still fails NAME (docs/properties.md)
  faultline verify LINK   replays a self-checking link: exit 0 reproduced, 1 different, 2 bad
  faultline diff A B      the first event where two runs (links or files) differ

SCENARIO is a scenario file (scenarios/*.toml) or a share link (http://...#v2.... or v2....).
";

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let Some((cmd, rest)) = raw.split_first() else {
        eprint!("{HELP}");
        std::process::exit(2);
    };
    let result = match cmd.as_str() {
        "run" => cmd_run::main(rest),
        "check" => cmd_check::main(rest),
        "link" => cmd_link::link(rest),
        "trace-hash" => cmd_link::trace_hash(rest),
        "explore" => cmd_explore::main(rest),
        "shrink" => cmd_shrink::main(rest),
        "verify" => cmd_verify::main(rest),
        "diff" => cmd_diff::main(rest),
        "help" | "--help" | "-h" => {
            print!("{HELP}");
            Ok(0)
        }
        other => Err(format!("unknown command `{other}`\n\n{HELP}")),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(msg) => {
            eprintln!("error: {msg}");
            std::process::exit(2);
        }
    }
}

//! The worker's TOML service: parsing an imported file into a link, printing a link as TOML
//! (Export TOML). Answered at once, outside the run's clock.

use faultline_scenario::{decode_link, encode_link, parse_scenario, to_toml, validate};

use super::protocol::{TomlAnswer, TomlCmd};

/// Parses an import or prints an export. An import's error reads exactly as the page showed
/// it when it parsed TOML itself: `Could not import <name>:` then the parser's message (file,
/// line and column), or the validation problem after a colon.
pub fn toml_answer(cmd: TomlCmd) -> TomlAnswer {
    match cmd {
        TomlCmd::Import { name, text } => {
            let result = match parse_scenario(&name, &text) {
                Ok(s) => match validate::validate("scenario", &s) {
                    Ok(()) => Ok(encode_link(&s)),
                    Err(e) => Err(format!("Could not import {name}: {e}")),
                },
                Err(e) => Err(format!("Could not import {name}:\n{e}")),
            };
            TomlAnswer::Imported { name, result }
        }
        TomlCmd::Export { link } => {
            let text = match decode_link(&link) {
                Ok(s) => to_toml(&s),
                Err(e) => format!("# could not write TOML: {e}\n"),
            };
            TomlAnswer::Exported { link, text }
        }
    }
}

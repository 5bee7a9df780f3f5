//! The shipped scenarios, as the page knows them: build.rs parses `scenarios/*.toml` at build
//! time and compiles them in as share links, which the page decodes with the link codec (it
//! needs it for the URL anyway). The page links no TOML code; the worker does TOML.

use faultline_scenario::{decode_link, Scenario};

pub use faultline_scenario::DEFAULT_SCENARIO_FILE;

include!(concat!(env!("OUT_DIR"), "/gallery_links.rs"));

/// A shipped scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// File name under `scenarios/`.
    pub file: &'static str,
    /// The scenario.
    pub scenario: Scenario,
}

/// The shipped scenarios, in gallery order.
pub fn gallery() -> Vec<Entry> {
    SHIPPED_LINKS
        .iter()
        .filter_map(|(file, link)| {
            decode_link(link)
                .ok()
                .map(|scenario| Entry { file, scenario })
        })
        .collect()
}

/// The scenario the app opens when the URL has none.
pub fn default_scenario() -> Scenario {
    SHIPPED_LINKS
        .iter()
        .find(|(f, _)| *f == DEFAULT_SCENARIO_FILE)
        .and_then(|(_, link)| decode_link(link).ok())
        .expect("the default scenario is shipped and decodes (tested)")
}

/// The smallest shipped scenario (three stores, a kill and a restart), which the engine and
/// playground tests drive.
#[cfg(test)]
pub(crate) fn small_scenario() -> faultline_scenario::Scenario {
    faultline_scenario::gallery()
        .into_iter()
        .find(|e| e.file.starts_with("raft-basics"))
        .expect("raft-basics is shipped")
        .scenario
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_gallery_is_the_parsed_scenarios_directory() {
        let parsed: Vec<Entry> = faultline_scenario::gallery()
            .into_iter()
            .map(|e| Entry {
                file: e.file,
                scenario: e.scenario,
            })
            .collect();
        assert_eq!(parsed.len(), faultline_scenario::SHIPPED.len());
        assert_eq!(gallery(), parsed);
        assert_eq!(default_scenario(), faultline_scenario::default_scenario());
    }
}

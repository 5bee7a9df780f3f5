//! The scenario encoding of v2 links (CBOR, every field tagged with its name), which the v1
//! layouts and the pruner decode through too, and where a failed decode was: the path of the
//! field it failed on and serde's message.

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use crate::format::Scenario;

/// Serialises any scenario-shaped value into the v2 scenario encoding (v1 layouts use it to
/// become a current [`Scenario`], taking defaults for the fields they lack).
pub(crate) fn scenario_value_bytes<T: Serialize>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::into_writer(value, &mut out).expect("writing to a Vec cannot fail");
    out
}

/// Decodes a scenario from [`scenario_value_bytes`].
pub(crate) fn scenario_from_bytes(bytes: &[u8]) -> Result<Scenario, String> {
    let mut reader = bytes;
    let Tracked(s) = ciborium::from_reader::<Tracked<Scenario>, _>(&mut reader)
        .map_err(|e| PathFailure::from_cbor(&e).to_string())?;
    Ok(s)
}

/// Where decoding failed (`scenario.faults[3].action`) and serde's message.
pub(crate) struct PathFailure {
    path: String,
    message: String,
}

/// Separates the path from the message inside the one string a CBOR error can carry.
const PATH_SEPARATOR: char = '\u{1f}';

impl PathFailure {
    pub(crate) fn from_cbor<E: std::fmt::Debug>(e: &ciborium::de::Error<E>) -> PathFailure {
        let text = match e {
            ciborium::de::Error::Semantic(_, msg) => msg.clone(),
            other => bare_message(&format!("{other:?}")),
        };
        match text.split_once(PATH_SEPARATOR) {
            Some((path, message)) => PathFailure {
                path: path.strip_prefix("scenario.").unwrap_or(path).to_string(),
                message: message.to_string(),
            },
            None => PathFailure {
                path: String::new(),
                message: text,
            },
        }
    }

    /// `faults[3].action = split` for an unknown value, `cdc.new_knob` for an unknown field
    /// (the path already ends in the field's name).
    pub(crate) fn what(&self) -> String {
        let quoted = self.message.split('`').nth(1);
        match quoted {
            Some(v) if self.message.starts_with("unknown variant") => {
                format!("{} = {v}", self.path)
            }
            _ if self.message.starts_with("unknown field") => self.path.clone(),
            _ => format!("{} ({})", self.path, self.message),
        }
    }
}

/// ciborium's errors display as their `Debug` form, even inside the path tracking: keeps the
/// `msg` of `Semantic(None, "msg")`, and says what the others mean for the link instead of
/// naming the decoder's enum (`Io(Error { kind: UnexpectedEof, .. })`, `Syntax(12)`).
fn bare_message(text: &str) -> String {
    if text.starts_with("Io(") {
        return "it ends in the middle of the scenario: part of the link is missing".into();
    }
    if let Some(at) = text
        .strip_prefix("Syntax(")
        .and_then(|t| t.strip_suffix(')'))
    {
        return format!("its data is damaged at byte {at}: the link was edited");
    }
    if text.starts_with("RecursionLimitExceeded") {
        return "it nests values deeper than any scenario: the link was edited".into();
    }
    match (text.find('"'), text.rfind('"')) {
        (Some(a), Some(b)) if text.starts_with("Semantic(") && b > a => {
            text[a + 1..b].replace("\\\"", "\"").replace("\\\\", "\\")
        }
        _ => text.to_string(),
    }
}

impl std::fmt::Display for PathFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.path.as_str() {
            "" | "." => write!(f, "{}", self.message),
            p => write!(f, "at `{p}`: {}", self.message),
        }
    }
}

/// Deserialises `T` recording the path of a failure (ciborium's deserializer is private, so the
/// tracking wraps the target type and carries the path inside the error message).
pub(crate) struct Tracked<T>(pub(crate) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Tracked<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_path_to_error::deserialize(d)
            .map(Tracked)
            .map_err(|e| {
                let message = bare_message(&e.inner().to_string());
                de::Error::custom(format!("{}{PATH_SEPARATOR}{message}", e.path()))
            })
    }
}

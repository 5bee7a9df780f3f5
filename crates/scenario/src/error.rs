//! Errors a user can act on: each names the source (file or link), the field and what is
//! allowed.

use std::fmt;

/// One problem in a scenario, at a field path such as `faults[2].target`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Dotted path of the field (`topology.stores`, `faults[2].target`).
    pub field: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

/// Why a scenario could not be loaded or run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// The text is not valid TOML or does not match the format.
    #[error("{source_name}:{line}:{column}: {message}")]
    Syntax {
        /// File name or `link`.
        source_name: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// The scenario parses but breaks rules or limits.
    #[error("{}", format_problems(source_name, problems))]
    Invalid {
        /// File name or `link`.
        source_name: String,
        /// Every problem found.
        problems: Vec<Problem>,
    },
    /// The file is larger than allowed.
    #[error("{source_name}: the file is {size} bytes; the limit is {limit} bytes")]
    TooLarge {
        /// File name.
        source_name: String,
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// A `--set key=value` override is malformed.
    #[error("--set {text}: {message}")]
    BadOverride {
        /// The override as given.
        text: String,
        /// What is wrong.
        message: String,
    },
}

fn format_problems(source_name: &str, problems: &[Problem]) -> String {
    let mut out = String::new();
    for (i, p) in problems.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("{source_name}: `{}`: {}", p.field, p.message));
    }
    out
}

impl ScenarioError {
    /// The same error, told about `name` (a file name, `link`) instead of the source it was
    /// made with: [`crate::Run::new`] checks metric names without knowing where the scenario
    /// came from, and labels its problems `scenario`.
    pub fn from_source(self, name: &str) -> ScenarioError {
        let source_name = name.to_string();
        match self {
            ScenarioError::Syntax {
                line,
                column,
                message,
                ..
            } => ScenarioError::Syntax {
                source_name,
                line,
                column,
                message,
            },
            ScenarioError::Invalid { problems, .. } => ScenarioError::Invalid {
                source_name,
                problems,
            },
            ScenarioError::TooLarge { size, limit, .. } => ScenarioError::TooLarge {
                source_name,
                size,
                limit,
            },
            other @ ScenarioError::BadOverride { .. } => other,
        }
    }

    /// The problems, if this is a validation error.
    pub fn problems(&self) -> &[Problem] {
        match self {
            ScenarioError::Invalid { problems, .. } => problems,
            _ => &[],
        }
    }
}

/// Collects problems during validation.
#[derive(Default)]
pub(crate) struct Problems(pub Vec<Problem>);

impl Problems {
    pub fn add(&mut self, field: impl Into<String>, message: impl fmt::Display) {
        self.0.push(Problem {
            field: field.into(),
            message: message.to_string(),
        });
    }

    pub fn into_result(self, source_name: &str) -> Result<(), ScenarioError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(ScenarioError::Invalid {
                source_name: source_name.to_string(),
                problems: self.0,
            })
        }
    }
}

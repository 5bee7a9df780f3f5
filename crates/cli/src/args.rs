//! A small argument parser: positional arguments plus `--flag value` options, with errors
//! that say which flag was wrong.

/// Parsed command-line arguments of one subcommand.
#[derive(Debug, Default)]
pub struct Args {
    /// Positional arguments in order.
    pub positional: Vec<String>,
    /// `--name value` pairs, in order (repeatable flags appear several times).
    pub options: Vec<(String, String)>,
    /// Bare `--name` switches.
    pub switches: Vec<String>,
}

impl Args {
    /// Parses `raw`; `valued` lists flags that take a value, `bare` flags that do not.
    pub fn parse(raw: &[String], valued: &[&str], bare: &[&str]) -> Result<Args, String> {
        let mut a = Args::default();
        let mut it = raw.iter();
        while let Some(arg) = it.next() {
            if let Some(name) = arg.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (name, None),
                };
                if valued.contains(&name) {
                    let v = match inline {
                        Some(v) => v,
                        None => it
                            .next()
                            .cloned()
                            .ok_or(format!("--{name} needs a value"))?,
                    };
                    a.options.push((name.to_string(), v));
                } else if bare.contains(&name) {
                    a.switches.push(name.to_string());
                } else {
                    let mut known: Vec<String> = valued
                        .iter()
                        .chain(bare)
                        .map(|f| format!("--{f}"))
                        .collect();
                    known.sort();
                    return Err(format!(
                        "unknown option --{name}; this command takes {}",
                        if known.is_empty() {
                            "no options".into()
                        } else {
                            known.join(", ")
                        }
                    ));
                }
            } else {
                a.positional.push(arg.clone());
            }
        }
        Ok(a)
    }

    /// The last value of a flag.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of a repeatable flag.
    pub fn all(&self, name: &str) -> Vec<String> {
        self.options
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .collect()
    }

    /// True if a switch was given.
    pub fn has(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }
}

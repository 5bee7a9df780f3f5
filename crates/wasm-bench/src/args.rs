//! The benchmark binaries' positional arguments: a number in a range, or the default when left
//! out. Anything else stops the binary with a message naming the argument and what it takes,
//! rather than quietly running the default.

use std::ops::RangeInclusive;

/// The argument `value` for `name`: `default` when absent, else a whole number in `range`.
pub fn number_arg(
    name: &str,
    value: Option<String>,
    range: RangeInclusive<u64>,
    default: u64,
) -> Result<u64, String> {
    let Some(text) = value else {
        return Ok(default);
    };
    match text.parse::<u64>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "{name} must be a whole number from {} to {}, not {text:?}",
            range.start(),
            range.end()
        )),
    }
}

/// [`number_arg`], or the message and `usage` on standard error and exit status 2.
pub fn number_arg_or_exit(
    usage: &str,
    name: &str,
    value: Option<String>,
    range: RangeInclusive<u64>,
    default: u64,
) -> u64 {
    number_arg(name, value, range, default).unwrap_or_else(|message| {
        eprintln!("{message}\nusage: {usage}");
        std::process::exit(2)
    })
}

#[cfg(test)]
mod tests {
    use super::number_arg;

    #[test]
    fn absent_takes_the_default_and_bad_input_names_the_argument() {
        assert_eq!(number_arg("SECONDS", None, 2..=3600, 40), Ok(40));
        assert_eq!(
            number_arg("SECONDS", Some("90".into()), 2..=3600, 40),
            Ok(90)
        );
        let err = number_arg("SECONDS", Some("9\u{1b}[31m".into()), 2..=3600, 40).unwrap_err();
        assert!(
            err.starts_with("SECONDS must be a whole number from 2 to 3600"),
            "{err}"
        );
        assert!(
            !err.contains('\u{1b}'),
            "control characters are escaped: {err}"
        );
        assert!(number_arg("SECONDS", Some("1".into()), 2..=3600, 40).is_err());
    }
}

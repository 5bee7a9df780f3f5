//! Suggestions for a mistyped name: the known names nearest to it, so a message can say what
//! was probably meant rather than leave the reader to search a list of fifty.

/// How alike two names must be (1.0 equal) for one to be suggested for the other: about half
/// the characters right, so `leaderles_regions` finds `leaderless_regions` and `lag` finds
/// nothing among unrelated names.
const MIN_SIMILARITY: f64 = 0.5;

/// Up to `count` of `known` nearest to `name`, nearest first (ties in `known`'s order); none
/// when nothing is near. Nearness is the edit distance relative to length (Damerau-Levenshtein,
/// so a swapped pair of letters is one edit), so a typo in a long name still ranks first.
pub fn nearest<'a>(name: &str, known: &'a [String], count: usize) -> Vec<&'a str> {
    let mut scored: Vec<(f64, &str)> = known
        .iter()
        .map(|k| (strsim::normalized_damerau_levenshtein(name, k), k.as_str()))
        .filter(|(score, _)| *score >= MIN_SIMILARITY)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(count).map(|(_, k)| k).collect()
}

/// `did you mean `a`?` or `did you mean `a`, `b` or `c`?`; `None` for no suggestion.
pub fn did_you_mean(suggestions: &[&str]) -> Option<String> {
    let quoted: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
    match quoted.split_last()? {
        (last, []) => Some(format!("did you mean {last}?")),
        (last, rest) => Some(format!("did you mean {} or {last}?", rest.join(", "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_nearest_names_come_first_and_unrelated_ones_not_at_all() {
        let known = names(&["leaders.tikv-1", "leaderless_regions", "hibernated_peers"]);
        assert_eq!(
            nearest("leaderles_regions", &known, 3),
            ["leaderless_regions"]
        );
        assert_eq!(nearest("leaders.tikv-9", &known, 3)[0], "leaders.tikv-1");
        assert!(nearest("zzz", &known, 3).is_empty());
    }

    #[test]
    fn suggestions_read_as_a_question() {
        assert_eq!(did_you_mean(&[]), None);
        assert_eq!(did_you_mean(&["a"]).unwrap(), "did you mean `a`?");
        assert_eq!(
            did_you_mean(&["a", "b", "c"]).unwrap(),
            "did you mean `a`, `b` or `c`?"
        );
    }
}

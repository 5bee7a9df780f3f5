//! Zeller's delta debugging (ddmin): the smallest subsequence that still fails.

/// A 1-minimal subsequence of `items` for which `fails` holds, assuming it holds for `items`.
/// Tries the empty list first: a property may fail with no faults at all.
pub fn ddmin<T: Clone>(items: &[T], fails: &mut dyn FnMut(&[T]) -> bool) -> Vec<T> {
    if items.is_empty() || fails(&[]) {
        return Vec::new();
    }
    let mut current = items.to_vec();
    let mut n = 2;
    while current.len() >= 2 {
        let chunks = split(&current, n);
        if let Some(c) = chunks.iter().find(|c| fails(c)) {
            current = c.clone();
            n = 2;
            continue;
        }
        // With two chunks each complement is the other chunk, already tried.
        let complement = (n > 2)
            .then(|| {
                (0..chunks.len())
                    .map(|i| complement_of(&chunks, i))
                    .find(|c| fails(c))
            })
            .flatten();
        if let Some(c) = complement {
            current = c;
            n = (n - 1).max(2);
            continue;
        }
        if n >= current.len() {
            break;
        }
        n = (2 * n).min(current.len());
    }
    current
}

fn split<T: Clone>(items: &[T], n: usize) -> Vec<Vec<T>> {
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    for i in 0..n {
        let end = start + (items.len() - start) / (n - i);
        out.push(items[start..end].to_vec());
        start = end;
    }
    out
}

fn complement_of<T: Clone>(chunks: &[Vec<T>], skip: usize) -> Vec<T> {
    chunks
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != skip)
        .flat_map(|(_, c)| c.iter().cloned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_pair_that_fails() {
        let items: Vec<u32> = (0..20).collect();
        let mut tests = 0;
        let got = ddmin(&items, &mut |s: &[u32]| {
            tests += 1;
            s.contains(&3) && s.contains(&17)
        });
        assert_eq!(got, [3, 17]);
        assert!(tests < 60, "{tests} tests");
    }

    #[test]
    fn empty_when_nothing_is_needed() {
        assert!(ddmin(&[1, 2, 3], &mut |_: &[i32]| true).is_empty());
    }

    #[test]
    fn single_item() {
        assert_eq!(
            ddmin(&[1, 2, 3, 4, 5], &mut |s: &[i32]| s.contains(&4)),
            [4]
        );
    }
}

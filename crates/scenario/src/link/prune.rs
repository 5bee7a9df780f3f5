//! Leaving out what the reader would fill in anyway: a v2 link omits every field whose absence
//! decodes to the same scenario (its default), which keeps gallery links under 2,000
//! characters. Decided by trial against the decoder itself, so it cannot drift from the
//! defaults in `format.rs`.

use ciborium::Value;

use super::cbor;
use crate::format::Scenario;

/// The scenario as a CBOR value with every removable field removed.
pub(crate) fn pruned_value(scenario: &Scenario) -> Value {
    let mut root = Value::serialized(scenario).expect("scenario types always serialise");
    prune_under(&mut root, &mut Vec::new(), scenario);
    root
}

/// Tries removing each map entry under `path` (children first, last entry first so earlier
/// indices stay put), keeping each removal that still decodes to `original`.
fn prune_under(root: &mut Value, path: &mut Vec<usize>, original: &Scenario) {
    let len = match node(root, path) {
        Value::Map(m) => m.len(),
        Value::Array(a) => a.len(),
        _ => return,
    };
    for i in (0..len).rev() {
        path.push(i);
        prune_under(root, path, original);
        path.pop();
        let Value::Map(entries) = node(root, path) else {
            continue;
        };
        let removed = entries.remove(i);
        if !decodes_to(root, original) {
            let Value::Map(entries) = node(root, path) else {
                unreachable!("the node was a map a moment ago");
            };
            entries.insert(i, removed);
        }
    }
}

/// The value at `path`: map entries by index (their value), array elements by index.
fn node<'a>(root: &'a mut Value, path: &[usize]) -> &'a mut Value {
    path.iter().fold(root, |v, &i| match v {
        Value::Map(m) => &mut m[i].1,
        Value::Array(a) => &mut a[i],
        _ => unreachable!("paths only lead through maps and arrays"),
    })
}

fn decodes_to(root: &Value, original: &Scenario) -> bool {
    cbor::scenario_from_bytes(&cbor::scenario_value_bytes(root)).as_ref() == Ok(original)
}

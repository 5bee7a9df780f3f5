//! The files of `crates/cdc/src` import each other one way: types and components at the
//! bottom, the state (`cdc.rs`) above them, the routing and handlers on top, and no file
//! names one that names it back.
//!
//! Every path a file writes (`use` lines and paths in code alike) that starts with `crate`,
//! `super`, `self` or one of the file's child modules is resolved to the file of the longest
//! module prefix it names. A path through a re-export (`crate::Ts` from lib.rs, an item that
//! `kafka/mod.rs` re-exports from a child) resolves to the re-exporting file, so a file must
//! name the file that defines what it uses. Test-only modules (`#[cfg(test)]`) are left out:
//! tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use syn::visit::Visit;

/// A module path inside the crate: `["kafka", "codec"]`; the crate root is empty.
type ModPath = Vec<String>;

/// Edges from each module to the modules it names, with one example path per edge.
type Graph = BTreeMap<ModPath, BTreeMap<ModPath, String>>;

#[test]
fn no_file_of_the_cdc_crate_imports_one_that_imports_it_back() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect_files(&src, &src, &mut files);
    let graph = import_graph(&files);
    assert!(
        graph.len() > 20,
        "read {} modules from {}",
        graph.len(),
        src.display()
    );
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "import cycle among crates/cdc/src files:\n{}",
            describe(&graph, &cycle)
        );
    }
}

#[test]
fn the_checker_finds_a_cycle_through_a_child_module_and_its_parent() {
    let files = vec![
        (
            vec![],
            "pub mod a; pub mod b; #[cfg(test)] mod t;".to_string(),
        ),
        (m(&["a"]), "pub mod child; use child::X;".to_string()),
        (m(&["a", "child"]), "pub struct X(crate::b::Y);".to_string()),
        (
            m(&["b"]),
            "pub struct Y; fn f() { super::a::go(); }".to_string(),
        ),
        (m(&["t"]), "use crate::a::child::X;".to_string()),
    ];
    let graph = import_graph(&files);
    let cycle = find_cycle(&graph).expect("a -> a::child -> b -> a");
    assert_eq!(cycle.len(), 3, "{}", describe(&graph, &cycle));
    assert!(
        !graph.contains_key(&m(&["t"])),
        "test-only modules are left out"
    );

    let acyclic = vec![
        (vec![], "pub mod a; pub mod b;".to_string()),
        (m(&["a"]), "use crate::b::Y;".to_string()),
        // Only a doc comment names `a`: not an import.
        (
            m(&["b"]),
            "/// See [`crate::a`].\npub struct Y;".to_string(),
        ),
    ];
    assert_eq!(find_cycle(&import_graph(&acyclic)), None);
}

fn m(parts: &[&str]) -> ModPath {
    parts.iter().map(|p| p.to_string()).collect()
}

/// Every `.rs` file under `dir` with its module path.
fn collect_files(root: &Path, dir: &Path, out: &mut Vec<(ModPath, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under the root");
            let mut module: ModPath = rel
                .with_extension("")
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|l| l == "mod" || l == "lib") {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).expect("a readable source file");
            out.push((module, text));
        }
    }
}

/// The import graph of the non-test modules (the crate root only declares modules and
/// re-exports, so it is not a node).
fn import_graph(files: &[(ModPath, String)]) -> Graph {
    let parsed: Vec<(ModPath, syn::File)> = files
        .iter()
        .map(|(module, text)| {
            let file = syn::parse_file(text)
                .unwrap_or_else(|e| panic!("cannot parse module {module:?}: {e}"));
            (module.clone(), file)
        })
        .collect();
    let mut children: BTreeMap<ModPath, BTreeSet<String>> = BTreeMap::new();
    let mut test_only = BTreeSet::new();
    for (module, file) in &parsed {
        for item in &file.items {
            if let syn::Item::Mod(md) = item {
                let mut child = module.clone();
                child.push(md.ident.to_string());
                if is_cfg_test(&md.attrs) {
                    test_only.insert(child);
                } else {
                    children
                        .entry(module.clone())
                        .or_default()
                        .insert(md.ident.to_string());
                }
            }
        }
    }
    let known: BTreeSet<ModPath> = parsed.iter().map(|(p, _)| p.clone()).collect();
    let mut graph = Graph::new();
    for (module, file) in &parsed {
        if module.is_empty() || test_only.iter().any(|t| module.starts_with(t)) {
            continue;
        }
        let mut paths = PathCollector::default();
        paths.visit_file(file);
        let edges = graph.entry(module.clone()).or_default();
        let local = children.get(module).cloned().unwrap_or_default();
        for path in paths.found {
            let Some(target) = resolve(module, &local, &path, &known) else {
                continue;
            };
            if &target != module && !target.is_empty() {
                edges.entry(target).or_insert_with(|| path.join("::"));
            }
        }
    }
    graph
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// Every path written in a file, outside `#[cfg(test)]` items.
#[derive(Default)]
struct PathCollector {
    found: Vec<Vec<String>>,
}

impl<'ast> Visit<'ast> for PathCollector {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_cfg_test(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        use_tree_paths(&u.tree, &mut Vec::new(), &mut self.found);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.found
            .push(p.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, p);
    }
}

/// The paths of one `use` tree: `a::{b, c::d}` gives `a::b` and `a::c::d`.
fn use_tree_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_tree_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => out.push(with(prefix, &n.ident)),
        syn::UseTree::Rename(r) => out.push(with(prefix, &r.ident)),
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_tree_paths(t, prefix, out);
            }
        }
    }
}

fn with(prefix: &[String], last: &syn::Ident) -> Vec<String> {
    let mut p = prefix.to_vec();
    p.push(last.to_string());
    p
}

/// The module a path names, if it is a path into this crate.
fn resolve(
    module: &ModPath,
    children: &BTreeSet<String>,
    path: &[String],
    known: &BTreeSet<ModPath>,
) -> Option<ModPath> {
    let first = path.first()?;
    let (mut base, rest) = match first.as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (module.clone(), &path[1..]),
        "super" => {
            let mut base = module.clone();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            (base, rest)
        }
        // A child module named in code (`codec::encode_row`); a lone name is a variable.
        name if children.contains(name) && path.len() > 1 => (module.clone(), path),
        _ => return None,
    };
    let mut target = base.clone();
    for segment in rest {
        base.push(segment.clone());
        if known.contains(&base) {
            target = base.clone();
        } else {
            break;
        }
    }
    Some(target)
}

/// One cycle of the graph, if it has any, as the modules along it.
fn find_cycle(graph: &Graph) -> Option<Vec<ModPath>> {
    // 0 = unvisited, 1 = on the current path, 2 = done.
    let mut state: BTreeMap<&ModPath, u8> = BTreeMap::new();
    let mut stack: Vec<&ModPath> = Vec::new();
    for start in graph.keys() {
        if let Some(cycle) = visit(graph, start, &mut state, &mut stack) {
            return Some(cycle);
        }
    }
    None
}

fn visit<'g>(
    graph: &'g Graph,
    node: &'g ModPath,
    state: &mut BTreeMap<&'g ModPath, u8>,
    stack: &mut Vec<&'g ModPath>,
) -> Option<Vec<ModPath>> {
    match state.get(node) {
        Some(2) => return None,
        Some(1) => {
            let at = stack.iter().position(|n| *n == node).expect("on the path");
            return Some(stack[at..].iter().map(|n| (*n).clone()).collect());
        }
        _ => {}
    }
    state.insert(node, 1);
    stack.push(node);
    for next in graph.get(node).into_iter().flat_map(|e| e.keys()) {
        if let Some(cycle) = visit(graph, next, state, stack) {
            return Some(cycle);
        }
    }
    stack.pop();
    state.insert(node, 2);
    None
}

/// `a.rs -> b.rs (via crate::b::X)`, one line per edge of the cycle.
fn describe(graph: &Graph, cycle: &[ModPath]) -> String {
    let name = |p: &ModPath| format!("{}.rs", p.join("/"));
    (0..cycle.len())
        .map(|i| {
            let (from, to) = (&cycle[i], &cycle[(i + 1) % cycle.len()]);
            let via = graph.get(from).and_then(|e| e.get(to)).map_or("?", |s| s);
            format!("  {} -> {} (via {via})", name(from), name(to))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

//! Only the wiring of each model crate touches the simulation kernel. Every other file writes
//! to an outbox (`Out`) and asks the network through `Reach`, so each of its handlers can be
//! tested by calling it and reading its outbox:
//! - crates/cdc: `model.rs` (the entry points and `route`) and `stack.rs` (the full stack as one
//!   `Model`);
//! - crates/tikv: `host.rs` (`routed` and `route`), `entry.rs` (the layer's entry points) and
//!   `cluster.rs` (its `Model` impl).
//!
//! A file "touches the kernel" when its non-test code names `Kernel` (a `use`, a type, a
//! path). Test-only code may build a world and route by hand: files declared `#[cfg(test)]`
//! (every `*_tests.rs`, `tests.rs` and `test_world.rs`) and `#[cfg(test)]` items are left out.

use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// Each model crate and the files of it allowed to name the kernel.
const WIRING: [(&str, &[&str]); 2] = [
    ("crates/cdc", &["model.rs", "stack.rs"]),
    ("crates/tikv", &["cluster.rs", "entry.rs", "host.rs"]),
];

#[test]
fn only_the_wiring_files_name_the_kernel() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for (krate, wiring) in WIRING {
        let src = root.join(krate).join("src");
        let mut files = Vec::new();
        collect(&src, &mut files);
        assert!(
            files.len() > 20,
            "read {} files from {}",
            files.len(),
            src.display()
        );
        let mut offenders = Vec::new();
        let mut wiring_seen = 0;
        for path in &files {
            let name = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .to_string();
            let text = std::fs::read_to_string(path).unwrap();
            let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut finder = KernelNames::default();
            finder.visit_file(&file);
            if wiring.contains(&name.as_str()) {
                wiring_seen += usize::from(finder.found > 0);
            } else if finder.found > 0 {
                offenders.push(name);
            }
        }
        assert_eq!(
            wiring_seen,
            wiring.len(),
            "the check finds the kernel where {krate} uses it"
        );
        assert!(
            offenders.is_empty(),
            "these files of {krate} name the kernel; give their handlers an outbox and a \
             `Reach` and route them in {wiring:?}: {offenders:?}"
        );
    }
}

/// Every `.rs` file under `dir` that is not test-only by its name.
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let test_only =
            name.ends_with("_tests.rs") || name == "tests.rs" || name == "test_world.rs";
        if name.ends_with(".rs") && !test_only {
            files.push(path);
        }
    }
}

/// Counts the identifiers `Kernel` outside `#[cfg(test)]` items.
#[derive(Default)]
struct KernelNames {
    found: usize,
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

impl<'ast> Visit<'ast> for KernelNames {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(u) => &u.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_cfg_test(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_ident(&mut self, ident: &'ast syn::Ident) {
        if ident == "Kernel" {
            self.found += 1;
        }
    }
}

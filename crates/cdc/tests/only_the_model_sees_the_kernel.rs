//! Only the top of the TiCDC model touches the simulation kernel: `model.rs` (the entry points
//! and `route`) and `stack.rs` (the full stack as one `Model`). Every other file of
//! `crates/cdc/src` writes to an `Out` and asks the network through `Reach`, so each of its
//! handlers can be tested by calling it and reading its outbox.
//!
//! A file "touches the kernel" when its non-test code names `Kernel` (a `use`, a type, a
//! path). Test-only code may build a world and route by hand: files declared `#[cfg(test)]`
//! (every `*_tests.rs`, `tests.rs` and `test_world.rs`) and `#[cfg(test)]` items are left out.

use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// The files allowed to name the kernel.
const TOP: [&str; 2] = ["model.rs", "stack.rs"];

#[test]
fn only_model_rs_and_stack_rs_name_the_kernel() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&src, &mut files);
    assert!(
        files.len() > 30,
        "read {} files from {}",
        files.len(),
        src.display()
    );
    let mut offenders = Vec::new();
    let mut top_seen = 0;
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
        if TOP.contains(&name.as_str()) {
            top_seen += usize::from(finder.found > 0);
        } else if finder.found > 0 {
            offenders.push(name);
        }
    }
    assert_eq!(
        top_seen,
        TOP.len(),
        "the check finds the kernel where it is used"
    );
    assert!(
        offenders.is_empty(),
        "these files name the kernel; give their handlers an `Out` and a `Reach` and route \
         them in model.rs: {offenders:?}"
    );
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

//! The house rule "functions of 70 lines or fewer" for Yew components and hooks.
//!
//! The gate's clippy enforces the rule with `clippy::too_many_lines`, but clippy skips code
//! that a proc macro expanded, and `#[function_component]` and `#[hook]` re-emit the body
//! inside a generated function: a 150-line component passes clippy silently. This test parses
//! the crate's sources with syn and measures those bodies the way clippy measures every other
//! function (lines between the braces that hold code, not blank lines or comments), against
//! the same limit in the root clippy.toml.

use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// Attribute macros that hide a function's body from clippy.
const HIDING_MACROS: [&str; 2] = ["function_component", "hook"];

/// One component or hook over the limit.
#[derive(Debug, PartialEq)]
struct Offender {
    name: String,
    line: usize,
    code_lines: usize,
}

#[test]
fn every_component_and_hook_fits_the_function_length_limit() {
    let limit = threshold_from_clippy_toml();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut report = Vec::new();
    let mut measured = 0;
    for file in rust_files(&src) {
        let text = std::fs::read_to_string(&file).expect("read a source file");
        let lengths = hidden_function_lengths(&text);
        measured += lengths.len();
        for found in lengths.into_iter().filter(|f| f.code_lines > limit) {
            report.push(format!(
                "{}:{}: `{}` has {} lines of code (limit {limit}); split it into smaller \
                 components, or say why it reads better whole and allow clippy::too_many_lines",
                file.display(),
                found.line,
                found.name,
                found.code_lines
            ));
        }
    }
    // The walk found the app's components at all (a wrong path would pass vacuously).
    assert!(
        measured > 20,
        "only {measured} components and hooks found under {src:?}"
    );
    assert!(report.is_empty(), "\n{}", report.join("\n"));
}

#[test]
fn a_component_over_the_limit_is_measured_like_clippy_measures_a_function() {
    let body: String = (0..71).map(|i| format!("    let _v{i} = {i};\n")).collect();
    let source = format!(
        "#[function_component]\nfn Long() -> Html {{\n    // a comment is not code\n\n    \
         /* nor is\n       a block comment */\n{body}    html! {{}}\n}}\n"
    );
    let found = hidden_function_lengths(&source);
    assert_eq!(
        found,
        vec![Offender {
            name: "Long".into(),
            line: 2,
            code_lines: 72
        }]
    );
}

#[test]
fn plain_functions_are_left_to_clippy() {
    let source =
        "fn plain() {\n    let _a = 1;\n}\n#[hook]\nfn use_thing() {\n    let _b = 2;\n}\n";
    let names: Vec<_> = hidden_function_lengths(source)
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(names, ["use_thing"]);
}

#[test]
fn an_allowed_component_is_not_measured() {
    let source = "#[allow(clippy::too_many_lines)]\n#[function_component]\nfn Whole() -> Html {\n    html! {}\n}\n";
    assert!(hidden_function_lengths(source).is_empty());
}

/// The `too-many-lines-threshold` of the root clippy.toml, so the two checks cannot drift.
fn threshold_from_clippy_toml() -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../clippy.toml");
    let text = std::fs::read_to_string(&path).expect("read the root clippy.toml");
    text.lines()
        .filter_map(|line| line.split_once('='))
        .find(|(key, _)| key.trim() == "too-many-lines-threshold")
        .and_then(|(_, value)| value.trim().parse().ok())
        .expect("clippy.toml sets too-many-lines-threshold to a number")
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read a source directory")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Every function in `source` that carries a hiding macro and no allow, with its length.
fn hidden_function_lengths(source: &str) -> Vec<Offender> {
    let file = syn::parse_file(source).expect("the crate's sources parse");
    let mut finder = HiddenFunctions {
        source,
        found: Vec::new(),
    };
    finder.visit_file(&file);
    finder.found
}

struct HiddenFunctions<'a> {
    source: &'a str,
    found: Vec<Offender>,
}

impl<'ast> Visit<'ast> for HiddenFunctions<'_> {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if has_hiding_macro(&item.attrs) && !allows_too_many_lines(&item.attrs) {
            let open = item.block.brace_token.span.open().end();
            let close = item.block.brace_token.span.close().start();
            let inside = text_between(self.source, open, close);
            self.found.push(Offender {
                name: item.sig.ident.to_string(),
                line: item.sig.ident.span().start().line,
                code_lines: code_lines(inside),
            });
        }
        syn::visit::visit_item_fn(self, item);
    }
}

fn has_hiding_macro(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        let last = attr.path().segments.last();
        last.is_some_and(|segment| HIDING_MACROS.iter().any(|m| segment.ident == m))
    })
}

fn allows_too_many_lines(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("allow")
            && matches!(&attr.meta, syn::Meta::List(list)
                if list.tokens.to_string().contains("too_many_lines"))
    })
}

/// The text from one line/column position to another (columns count characters).
fn text_between(source: &str, from: proc_macro2::LineColumn, to: proc_macro2::LineColumn) -> &str {
    let offset = |at: proc_macro2::LineColumn| {
        let line_start: usize = source
            .split_inclusive('\n')
            .take(at.line - 1)
            .map(str::len)
            .sum();
        let rest = &source[line_start..];
        line_start
            + rest
                .char_indices()
                .nth(at.column)
                .map_or(rest.len(), |(i, _)| i)
    };
    &source[offset(from)..offset(to)]
}

/// Lines holding code, as clippy's `too_many_lines` counts them: a line counts when some of it
/// lies outside `//` and `/* */` comments.
fn code_lines(text: &str) -> usize {
    let mut in_block_comment = false;
    let mut count = 0;
    for raw in text.lines() {
        let mut line = raw;
        let mut has_code = false;
        loop {
            line = line.trim_start();
            if line.is_empty() {
                break;
            }
            if in_block_comment {
                match line.find("*/") {
                    Some(end) => {
                        line = &line[end + 2..];
                        in_block_comment = false;
                        continue;
                    }
                    None => break,
                }
            }
            let block = line.find("/*").unwrap_or(line.len());
            let single = line.find("//").unwrap_or(line.len());
            has_code |= block > 0 && single > 0;
            if block < single {
                line = &line[block + 2..];
                in_block_comment = true;
                continue;
            }
            break;
        }
        count += usize::from(has_code);
    }
    count
}

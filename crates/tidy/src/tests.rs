//! Small crates written to a temp folder, checked against small tables.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a failed unwrap is a failed test

use std::path::{Path, PathBuf};

use super::{check, check_with_methods, edges};

/// Writes `files` (path, text) under a fresh folder named after the test.
fn fixture(test: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stud-tidy-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    dir
}

/// The errors of a check that must fail.
fn errors(dir: &Path, table: &[(&str, u32)]) -> Vec<String> {
    check(dir, table).expect_err("the check should fail")
}

/// (from, to) of every edge.
fn pairs(dir: &Path) -> Vec<(String, String)> {
    let mut pairs: Vec<_> = edges(dir).unwrap().into_iter().map(|e| (e.from, e.to)).collect();
    pairs.sort();
    pairs.dedup();
    pairs
}

#[test]
fn downward_edges_pass_and_an_upward_one_fails_with_its_line() {
    let dir = fixture(
        "updown",
        &[
            ("lib.rs", "mod a;\nmod b;\npub use a::Foo;\n"),
            ("a.rs", "pub struct Foo;\n"),
            ("b.rs", "use crate::a::Foo;\npub fn f() -> Foo { Foo }\n"),
        ],
    );
    assert_eq!(check(&dir, &[("crate", 2), ("b", 1), ("a", 0)]), Ok(()));
    let errs = errors(&dir, &[("crate", 2), ("b", 0), ("a", 1)]);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("b.rs:1: `b` (layer 0) uses `a` (layer 1) through `crate::a::Foo`"), "{errs:?}");
    // The same layer is not lower either.
    let errs = errors(&dir, &[("crate", 2), ("b", 1), ("a", 1)]);
    assert!(errs[0].contains("`b` (layer 1) uses `a` (layer 1)"), "{errs:?}");
}

#[test]
fn a_re_export_resolves_to_the_module_that_defines_the_item() {
    let dir = fixture(
        "reexport",
        &[
            ("lib.rs", "mod app;\nmod util;\npub use crate::app::Foo;\n"),
            ("app.rs", "pub struct Foo;\n"),
            ("util.rs", "use crate::Foo;\npub fn f(_: &Foo) {}\n"),
        ],
    );
    let found = pairs(&dir);
    assert!(found.contains(&("util".into(), "app".into())), "{found:?}");
    assert!(!found.contains(&("util".into(), "crate".into())), "{found:?}");
    let errs = errors(&dir, &[("crate", 2), ("app", 1), ("util", 0)]);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("util.rs:1: `util` (layer 0) uses `app` (layer 1) through `crate::Foo`"), "{errs:?}");
}

#[test]
fn a_glob_re_export_is_followed() {
    let dir = fixture(
        "glob",
        &[
            ("lib.rs", "mod a;\nmod b;\npub use a::*;\n"),
            ("a.rs", "pub struct Foo;\n"),
            ("b.rs", "pub fn f() { let _ = crate::Foo; }\n"),
        ],
    );
    assert_eq!(pairs(&dir), vec![("b".to_owned(), "a".to_owned()), ("crate".to_owned(), "a".to_owned())]);
}

#[test]
fn super_and_a_child_module_by_its_bare_name_are_edges() {
    let dir = fixture(
        "super",
        &[
            ("lib.rs", "mod m;\n"),
            ("m/mod.rs", "mod inner;\npub struct S;\npub fn g() { inner::h() }\n"),
            ("m/inner.rs", "use super::S;\npub fn h() { let _ = S; }\n"),
        ],
    );
    let found = pairs(&dir);
    assert_eq!(found, vec![("m".to_owned(), "m::inner".to_owned()), ("m::inner".to_owned(), "m".to_owned())]);
    let errs = errors(&dir, &[("crate", 9), ("m", 1), ("m::inner", 0)]);
    assert!(errs.iter().any(|e| e.contains("inner.rs:1: `m::inner` (layer 0) uses `m` (layer 1) through `super::S`")));
    assert!(errs.iter().any(|e| e.contains("import circle")), "{errs:?}");
}

#[test]
fn a_circle_is_reported_even_inside_one_row() {
    let dir = fixture(
        "circle",
        &[
            ("lib.rs", "mod m;\n"),
            ("m/mod.rs", "mod a;\nmod b;\n"),
            ("m/a.rs", "use super::b::B;\npub struct A(pub Option<Box<B>>);\n"),
            ("m/b.rs", "pub struct B;\npub fn f() -> Option<super::a::A> { None }\n"),
        ],
    );
    let errs = errors(&dir, &[("crate", 3), ("m", 2), ("m::*", 1)]);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].starts_with("import circle: `m::a` -> `m::b` -> `m::a`"), "{errs:?}");
    assert!(errs[0].contains("a.rs:1 uses `m::b`") && errs[0].contains("b.rs:2 uses `m::a`"), "{errs:?}");
}

#[test]
fn an_unplaced_file_an_undeclared_file_and_a_row_for_nothing_fail() {
    let dir = fixture(
        "unplaced",
        &[("lib.rs", "mod a;\nmod b;\n"), ("a.rs", ""), ("b.rs", ""), ("stray.rs", "pub fn lost() {}\n")],
    );
    let errs = errors(&dir, &[("crate", 1), ("a", 0), ("gone", 0)]);
    assert_eq!(errs.len(), 3, "{errs:?}");
    assert!(errs.iter().any(|e| e.contains("b.rs: module `b` is not in the layer table")), "{errs:?}");
    assert!(errs.iter().any(|e| e.contains("stray.rs: no `mod` declares this file")), "{errs:?}");
    assert!(errs.iter().any(|e| e.contains("the layer table names `gone`")), "{errs:?}");
}

#[test]
fn test_code_is_ignored() {
    let dir = fixture(
        "tests",
        &[
            ("lib.rs", "mod a;\nmod b;\n#[cfg(test)]\nmod tests;\n"),
            (
                "a.rs",
                "pub struct A;\n#[cfg(test)]\nmod t { use crate::b::B; }\n\
                 #[cfg(all(test, unix))]\nfn helper() { let _ = crate::b::B; }\n\
                 impl A {\n    #[cfg(test)]\n    fn probe() -> crate::b::B { crate::b::B }\n}\n",
            ),
            ("b.rs", "pub struct B;\n"),
            ("tests.rs", "use crate::b::B;\nmod more;\n"),
            ("tests/more.rs", "use crate::a::A;\n"),
        ],
    );
    assert_eq!(check(&dir, &[("crate", 2), ("a", 0), ("b", 1)]), Ok(()));
    // Not test code: the same use is an edge.
    let dir = fixture(
        "not-tests",
        &[("lib.rs", "mod a;\nmod b;\n"), ("a.rs", "use crate::b::B;\n"), ("b.rs", "pub struct B;\n")],
    );
    assert_eq!(pairs(&dir), vec![("a".to_owned(), "b".to_owned())]);
}

#[test]
fn paths_in_macro_calls_count() {
    let dir = fixture(
        "macro",
        &[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "pub fn f(x: u8) -> bool {\n    matches!(x, crate::b::ONE)\n}\n"),
            ("b.rs", "pub const ONE: u8 = 1;\n"),
        ],
    );
    let e = edges(&dir).unwrap();
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!((e[0].from.as_str(), e[0].to.as_str(), e[0].line), ("a", "b", 2));
}

#[test]
fn a_path_attribute_an_inline_module_and_wildcard_rows() {
    let dir = fixture(
        "path-attr",
        &[
            ("lib.rs", "#[path = \"impls/x_impl.rs\"]\nmod x;\nmod y { pub use crate::x::X; }\npub use y::X;\n"),
            ("impls/x_impl.rs", "pub struct X;\n"),
        ],
    );
    // The inline `y` belongs to lib.rs: the root uses `x`.
    assert_eq!(pairs(&dir), vec![("crate".to_owned(), "x".to_owned())]);
    assert_eq!(check(&dir, &[("crate", 1), ("*", 0)]), Ok(()));
    let errs = errors(&dir, &[("crate", 0), ("crate::*", 1)]);
    assert!(errs[0].contains("`crate` (layer 0) uses `x` (layer 1)"), "{errs:?}");
}

#[test]
fn other_crates_and_locals_are_no_edges() {
    let dir = fixture(
        "external",
        &[
            ("lib.rs", "mod a;\nuse std::fmt;\nuse serde::Serialize;\npub fn f() -> fmt::Result { Ok(()) }\n"),
            (
                "a.rs",
                "pub struct A;\nimpl A {\n    pub fn new() -> Self { Self::make() }\n    fn make() -> Self { A }\n}\n",
            ),
        ],
    );
    assert_eq!(pairs(&dir), Vec::<(String, String)>::new());
}

#[test]
fn a_missing_module_file_and_a_parse_error_are_reported() {
    let dir = fixture("broken", &[("lib.rs", "mod a;\nmod gone;\n"), ("a.rs", "pub fn (\n")]);
    let errs = errors(&dir, &[("crate", 1), ("a", 0)]);
    assert!(errs.iter().any(|e| e.contains("lib.rs:2: `mod gone;` has no file")), "{errs:?}");
    assert!(errs.iter().any(|e| e.contains("a.rs:1: does not parse")), "{errs:?}");
}

#[test]
fn one_message_per_pair_of_modules_at_its_first_use() {
    let dir = fixture(
        "grouped",
        &[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "pub fn f() {\n    crate::b::g();\n    crate::b::g();\n    crate::b::g();\n}\n"),
            ("b.rs", "pub fn g() {}\n"),
        ],
    );
    let errs = errors(&dir, &[("crate", 2), ("a", 0), ("b", 1)]);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].contains("a.rs:2: `a` (layer 0) uses `b` (layer 1) through `crate::b::g` (and 2 more uses)"),
        "{errs:?}"
    );
}

#[test]
fn calls_of_a_types_own_methods_are_edges_when_asked_for() {
    let dir = fixture(
        "methods",
        &[
            ("lib.rs", "mod a;\nmod low;\nmod high;\npub struct Core;\n"),
            ("a.rs", "pub struct Other;\nimpl Other {\n    pub fn helper(&self) {}\n}\n"),
            ("low.rs", "impl crate::Core {\n    pub(crate) fn base(&self) {}\n    pub(crate) fn helper(&self) {}\n}\n"),
            (
                "high.rs",
                "impl crate::Core {\n    pub fn top(&self) {\n        self.base();\n    }\n    \
                 fn other(o: &crate::a::Other) {\n        o.helper();\n    }\n}\n",
            ),
        ],
    );
    let table = [("crate", 0), ("a", 1), ("low", 1), ("high", 2)];
    // Imports alone: both impls only name the root.
    assert_eq!(check(&dir, &table), Ok(()));
    assert_eq!(check_with_methods(&dir, &table, "Core"), Ok(()));
    // Upside down: `high` (now lower) calls `low`'s method. `o.helper()` is not `self`'s: no edge.
    let table = [("crate", 0), ("a", 0), ("low", 2), ("high", 1)];
    assert_eq!(check(&dir, &table), Ok(()));
    let errs = check_with_methods(&dir, &table, "Core").expect_err("an upward call");
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("high.rs:3: `high` (layer 1) uses `low` (layer 2) through `self.base()`"), "{errs:?}");
}

//! The engine's layer table (STYLE.md, "Layers inside a crate"): every source file sits on a
//! numbered layer and may name only modules on lower layers, so no two modules import each
//! other. A new file fails this test until it is placed in the table on purpose.
//!
//! Read from the source: every `crate::module` path (in `use` lines, `pub use` re-exports and
//! inline paths) outside test code and doc comments, and every `super::` path. Test modules
//! (`tests.rs` and the files under a `tests/` folder, and a file's `#[cfg(test)] mod tests`) are left out: a test may drive its
//! module with helpers from above it (bots, `sim`).

use std::path::Path;

/// (file under `src/`, its layer, the module name other files use for it)
const LAYERS: &[(&str, u8, &str)] = &[
    ("card.rs", 0, "card"),
    ("config.rs", 0, "config"),
    ("action.rs", 1, "action"),
    ("deck.rs", 1, "deck"),
    ("eval/mod.rs", 1, "eval"),
    ("eval/tables.rs", 0, "eval::tables"),
    ("list.rs", 1, "list"),
    ("error.rs", 2, "error"),
    ("event.rs", 2, "event"),
    ("record.rs", 3, "record"),
    ("hand/legal.rs", 3, "hand::legal"),
    ("hand/pots.rs", 3, "hand::pots"),
    ("hand/mod.rs", 4, "hand"),
    ("hand/replay.rs", 5, "hand::replay"),
    ("bot.rs", 5, "bot"),
    ("view.rs", 5, "view"),
    ("phh.rs", 6, "phh"),
    ("sim.rs", 6, "sim"),
    ("text.rs", 7, "text"),
];

/// The code of a file without its doc comments, comments and inline test module.
fn code_of(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => &text[..i],
        None => text,
    };
    body.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The modules a path names: `crate::hand::{Hand, Legal}` names `hand`; a group
/// `crate::{a, b}` names both.
fn named_modules(code: &str, own: &str) -> Vec<String> {
    let modules: Vec<&str> = LAYERS.iter().map(|l| l.2).collect();
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
        // The longest module in the table this path starts with (`hand::legal` before `hand`).
        let hit = modules.iter().filter(|m| name == **m || name.starts_with(&format!("{m}::"))).max_by_key(|m| m.len());
        match hit {
            Some(m) => out.push((*m).to_owned()),
            // A name at the crate root (`crate::Hand`) goes through lib.rs's re-exports, which
            // sit above everything: refuse it so the real module is named.
            None => out.push(format!("<crate root: {name}>")),
        }
    }
    for _ in code.matches("super::") {
        // `super::` from a child module names its parent.
        match own.rsplit_once("::") {
            Some((parent, _)) => out.push(parent.to_owned()),
            None => out.push("<super of a top-level module>".to_owned()),
        }
    }
    out
}

#[test]
fn every_import_points_to_a_lower_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut seen = Vec::new();
    let mut errors = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
            if rel == "lib.rs" || rel.ends_with("tests.rs") || rel.contains("tests/") || !rel.ends_with(".rs") {
                continue;
            }
            seen.push(rel.clone());
            let Some(&(_, layer, own)) = LAYERS.iter().find(|l| l.0 == rel) else {
                errors.push(format!("src/{rel}: not in the layer table of tests/layers.rs"));
                continue;
            };
            let code = code_of(&std::fs::read_to_string(&path).unwrap());
            for m in named_modules(&code, own) {
                match LAYERS.iter().find(|l| l.2 == m) {
                    Some(&(_, other, _)) if other < layer => {}
                    Some(&(file, other, _)) => errors.push(format!(
                        "src/{rel} (layer {layer}) names {m} (src/{file}, layer {other}): not a lower layer"
                    )),
                    None => errors.push(format!("src/{rel} names {m}")),
                }
            }
        }
    }
    for (file, _, _) in LAYERS {
        if !seen.iter().any(|s| s == file) {
            errors.push(format!("src/{file} is in the layer table but does not exist"));
        }
    }
    assert!(errors.is_empty(), "layer violations:\n{}", errors.join("\n"));
}

#[test]
fn the_checker_reads_paths() {
    let hand = named_modules("use crate::record::HandRecord;", "hand");
    let record = named_modules("use crate::hand::{Hand, SetupError};", "record");
    assert_eq!(hand, ["record"]);
    assert_eq!(record, ["hand"]);
    assert_eq!(named_modules("crate::Rank::Two", "deck"), ["<crate root: Rank::Two>"]);
    assert_eq!(named_modules("use super::Hand;", "hand::replay"), ["hand"]);
    assert_eq!(named_modules("use crate::hand::legal::Legal;", "bot"), ["hand::legal"]);
}

//! Structure checks for a crate's source, run as plain `#[test]`s (rust-analyzer's
//! `xtask/src/tidy.rs` is the model): a layer table for the crate's modules.
//!
//! Owns reading a crate's `src/` folder the way rustc finds its modules, resolving every
//! `crate::`/`super::`/`self::` path (and every path that starts with a name a module defines
//! or imports) to the module that *defines* the item, and checking the edges against a table.
//! It must not build, run or change the code it reads; it is a dev-dependency only.
//!
//! Key decision: purely syntactic. Names are resolved through `use` items and `pub use`
//! re-exports (globs too, best effort), never through types, so method calls are not edges:
//! `self.foo()` is invisible, `crate::a::foo()` and `use crate::a::Foo` are not. For one type
//! whose methods are split over modules by job, [`check_with_methods`] also counts
//! `self.foo()` and `Self::foo()` inside its `impl` blocks.
//!
//! # The layer table
//!
//! A slice of `(module, layer)` rows. A module is named by its path without `crate::`
//! (`"core::view"`); the crate root (`lib.rs` or `main.rs`) is `"crate"`. A row
//! `"core::*"` covers every module inside `core` (not `core` itself) as one group. A module
//! matched by several rows belongs to the most specific (an exact name, else the longest
//! `::*` prefix).
//!
//! A module is a *file*: an inline `mod x { .. }` belongs to the file it is written in.
//! [`check`] fails, each error with a file and a line where there is one, when
//! - a module uses a module of another row on the same or a higher layer (every edge points
//!   to a strictly lower layer; edges inside one row are free),
//! - modules form an import circle (within one row too),
//! - a source file under `src_dir` is in no row (a new file is placed on purpose), or is
//!   declared by no `mod` at all,
//! - a row names a module that does not exist,
//! - a file does not parse or a `mod x;` has no file.
//!
//! Test code is ignored, so tests may import from anywhere: items under `#[cfg(test)]`
//! (or `#[cfg(all(test, ..))]`), the files such a `mod` declares and everything in their
//! folders.
//!
//! ```no_run
//! // crates/foo/tests/layers.rs
//! #[test]
//! fn layers() {
//!     let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
//!     let table = [
//!         ("crate", 4),   // lib.rs: re-exports only
//!         ("app", 3),     // may use everything below
//!         ("store", 2),
//!         ("util", 1),    // src/util/mod.rs: may use its children
//!         ("util::*", 0), // every file under src/util/, one group (free to use each other)
//!     ];
//!     if let Err(errors) = stud_tidy::check(&src, &table) {
//!         panic!("layering:\n{}", errors.join("\n"));
//!     }
//! }
//! ```
//!
//! Not handled: `#[path]` inside inline modules is taken relative to the file's folder;
//! `src/bin/` and other crate roots in the folder are reported as undeclared files; names
//! made by macros are unknown (paths written inside a macro call's tokens are read).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::visit::{self, Visit};

#[cfg(test)]
mod tests;

/// One use of another module: `from` names something `to` defines.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    /// the module that uses (`"crate"`, `"core::view"`)
    pub from: String,
    /// the module that defines what is used
    pub to: String,
    /// the file the use is written in
    pub file: PathBuf,
    /// 1-based line of the use
    pub line: usize,
    /// the path as written (`crate::core::view::frame`)
    pub path: String,
}

/// Checks the crate whose source folder is `src_dir` (holding `lib.rs` or `main.rs`)
/// against `layers`, rows of `(module, layer)` as the crate docs describe.
///
/// # Errors
/// Every problem found, one line each, sorted: layering violations, circles, unplaced or
/// undeclared files, rows naming no module, files that do not parse.
pub fn check(src_dir: &Path, layers: &[(&str, u32)]) -> Result<(), Vec<String>> {
    let krate = Crate::load(src_dir);
    let edges = krate.edges();
    judge(&krate, &edges, src_dir, layers)
}

/// [`check`], counting method calls too for one type whose methods are split over modules
/// (one `impl Ty` block per job): inside `impl Ty` blocks, `self.m(..)` and `Self::m(..)` are
/// edges from the calling module to the module whose `impl Ty` block defines `m`. `ty` is the
/// type's name as written after `impl` (`"TableCore"`); trait methods are not followed.
///
/// # Errors
/// As [`check`], method calls included.
pub fn check_with_methods(src_dir: &Path, layers: &[(&str, u32)], ty: &str) -> Result<(), Vec<String>> {
    let krate = Crate::load(src_dir);
    let mut edges = krate.edges();
    edges.extend(krate.method_edges(ty));
    judge(&krate, &edges, src_dir, layers)
}

/// The rules of [`check`] over `edges`.
fn judge(krate: &Crate, edges: &[Edge], src_dir: &Path, layers: &[(&str, u32)]) -> Result<(), Vec<String>> {
    let mut errors = krate.errors.clone();

    // Rows: each one once.
    let mut rows: BTreeMap<&str, u32> = BTreeMap::new();
    for (name, layer) in layers {
        let name = name.strip_prefix("crate::").unwrap_or(name);
        if rows.insert(name, *layer).is_some() {
            errors.push(format!("the layer table has `{name}` twice"));
        }
    }

    // Every file module in exactly one row; every row matching a module.
    let mut used_rows = BTreeSet::new();
    let mut row_of: BTreeMap<&str, &str> = BTreeMap::new();
    for unit in &krate.units {
        match row_for(&rows, &unit.name) {
            Some(row) => {
                used_rows.insert(row);
                row_of.insert(unit.name.as_str(), row);
            }
            None => errors.push(format!(
                "{}: module `{}` is not in the layer table (place a new file on purpose)",
                unit.file.display(),
                unit.name
            )),
        }
    }
    for row in rows.keys() {
        if !used_rows.contains(row) {
            errors.push(format!("the layer table names `{row}`, which is no module of {}", src_dir.display()));
        }
    }

    // Every edge to a strictly lower layer, or inside its row: one message per pair of
    // modules, at its first use.
    let mut bad: BTreeMap<(&str, &str), (&Edge, usize)> = BTreeMap::new();
    for e in edges {
        let (Some(from), Some(to)) = (row_of.get(e.from.as_str()), row_of.get(e.to.as_str())) else { continue };
        let (Some(lf), Some(lt)) = (rows.get(from), rows.get(to)) else { continue };
        if from != to && lf <= lt {
            bad.entry((e.from.as_str(), e.to.as_str())).or_insert((e, 0)).1 += 1;
        }
    }
    for (e, count) in bad.into_values() {
        let (lf, lt) = (layer_of(&rows, &row_of, &e.from), layer_of(&rows, &row_of, &e.to));
        let more = if count > 1 { format!(" (and {} more uses)", count - 1) } else { String::new() };
        errors.push(format!(
            "{}:{}: `{}` (layer {lf}) uses `{}` (layer {lt}) through `{}`{more}: a module uses only lower layers",
            e.file.display(),
            e.line,
            e.from,
            e.to,
            e.path
        ));
    }

    errors.extend(circles(edges));
    errors.sort();
    errors.dedup();
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// Every edge between two different file modules of the crate in `src_dir` (test code
/// skipped), in file and line order: what [`check`] judges, for a test that wants its own
/// rule.
///
/// # Errors
/// The crate could not be read completely (a file that does not parse, a `mod` with no file,
/// a file no `mod` declares); the edges of what could be read are lost with it.
pub fn edges(src_dir: &Path) -> Result<Vec<Edge>, Vec<String>> {
    let krate = Crate::load(src_dir);
    if krate.errors.is_empty() { Ok(krate.edges()) } else { Err(krate.errors) }
}

fn layer_of(rows: &BTreeMap<&str, u32>, row_of: &BTreeMap<&str, &str>, module: &str) -> u32 {
    row_of.get(module).and_then(|row| rows.get(row)).copied().unwrap_or_default()
}

/// The row a module belongs to: its exact name, else the longest `prefix::*` above it.
fn row_for<'r>(rows: &BTreeMap<&'r str, u32>, module: &str) -> Option<&'r str> {
    if let Some((row, _)) = rows.get_key_value(module) {
        return Some(row);
    }
    rows.keys()
        .filter(|row| match row.strip_suffix("::*") {
            Some(prefix) => module.strip_prefix(prefix).is_some_and(|rest| rest.starts_with("::")),
            // `*` (or `crate::*`): every module but the root
            None => **row == "*" && module != "crate",
        })
        .max_by_key(|row| row.len())
        .copied()
}

/// Import circles between file modules: one message per strongly connected group, naming a
/// cycle through it and where each step is written.
fn circles(edges: &[Edge]) -> Vec<String> {
    let mut graph: BTreeMap<&str, BTreeMap<&str, &Edge>> = BTreeMap::new();
    for e in edges {
        graph.entry(e.from.as_str()).or_default().entry(e.to.as_str()).or_insert(e);
        graph.entry(e.to.as_str()).or_default();
    }
    let mut messages = Vec::new();
    for group in strongly_connected(&graph) {
        if group.len() < 2 {
            continue;
        }
        let Some(start) = group.iter().next().copied() else { continue };
        let Some(cycle) = shortest_cycle(&graph, &group, start) else { continue };
        let names: Vec<String> = cycle.iter().map(|e| format!("`{}`", e.from)).collect();
        let steps: Vec<String> =
            cycle.iter().map(|e| format!("{}:{} uses `{}`", e.file.display(), e.line, e.to)).collect();
        messages.push(format!("import circle: {} -> `{start}` ({})", names.join(" -> "), steps.join("; ")));
    }
    messages
}

/// Tarjan's algorithm, iteratively: the strongly connected groups of `graph`.
fn strongly_connected<'g>(graph: &BTreeMap<&'g str, BTreeMap<&'g str, &Edge>>) -> Vec<BTreeSet<&'g str>> {
    struct Node {
        index: usize,
        low: usize,
        on_stack: bool,
    }
    let mut nodes: BTreeMap<&str, Node> = BTreeMap::new();
    let mut stack: Vec<&str> = Vec::new();
    let mut groups = Vec::new();
    let mut next = 0;
    for &root in graph.keys() {
        if nodes.contains_key(root) {
            continue;
        }
        // (node, its successors not yet looked at)
        let mut work: Vec<(&str, Vec<&str>)> = Vec::new();
        let mut enter = |v: &'g str, nodes: &mut BTreeMap<&'g str, Node>, stack: &mut Vec<&'g str>| {
            nodes.insert(v, Node { index: next, low: next, on_stack: true });
            next += 1;
            stack.push(v);
            let succ: Vec<&str> = graph.get(v).map(|m| m.keys().rev().copied().collect()).unwrap_or_default();
            (v, succ)
        };
        work.push(enter(root, &mut nodes, &mut stack));
        while let Some((v, succ)) = work.last_mut() {
            let v = *v;
            if let Some(w) = succ.pop() {
                match nodes.get(w) {
                    None => work.push(enter(w, &mut nodes, &mut stack)),
                    Some(n) if n.on_stack => {
                        let wi = n.index;
                        if let Some(nv) = nodes.get_mut(v) {
                            nv.low = nv.low.min(wi);
                        }
                    }
                    Some(_) => {}
                }
                continue;
            }
            work.pop();
            let (low, index) = nodes.get(v).map_or((0, 0), |n| (n.low, n.index));
            if let Some((parent, _)) = work.last()
                && let Some(np) = nodes.get_mut(parent)
            {
                np.low = np.low.min(low);
            }
            if low == index {
                let mut group = BTreeSet::new();
                while let Some(w) = stack.pop() {
                    if let Some(n) = nodes.get_mut(w) {
                        n.on_stack = false;
                    }
                    group.insert(w);
                    if w == v {
                        break;
                    }
                }
                groups.push(group);
            }
        }
    }
    groups
}

/// A shortest cycle from `start` back to it inside `group` (breadth first), as its edges.
fn shortest_cycle<'e>(
    graph: &BTreeMap<&str, BTreeMap<&str, &'e Edge>>,
    group: &BTreeSet<&str>,
    start: &str,
) -> Option<Vec<&'e Edge>> {
    let mut came_from: BTreeMap<&str, &Edge> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for (&w, &e) in graph.get(v)? {
            if !group.contains(w) {
                continue;
            }
            if w == start {
                let mut cycle = vec![e];
                let mut at = v;
                while at != start {
                    let step = came_from.get(at)?;
                    cycle.push(step);
                    at = step.from.as_str();
                }
                cycle.reverse();
                return Some(cycle);
            }
            if !came_from.contains_key(w) {
                came_from.insert(w, e);
                queue.push_back(w);
            }
        }
    }
    None
}

// ---- reading a crate ----------------------------------------------------------------------

/// A file module.
struct Unit {
    /// `"crate"`, `"core::view"`
    name: String,
    file: PathBuf,
}

/// A module, a file's or an inline one: its names, for resolving paths.
struct Module {
    /// `"crate"`, `"core::view"`, `"core::view::inline"`
    path: String,
    unit: usize,
    parent: Option<usize>,
    children: BTreeMap<String, usize>,
    /// items defined here (structs, functions, ..): not modules
    items: BTreeSet<String>,
    /// `use` leaves: (the name it brings in, the path)
    imports: Vec<(String, Vec<String>)>,
    /// `use path::*`
    globs: Vec<Vec<String>>,
}

/// A path written in a module, to resolve once every module is read.
struct Reference {
    module: usize,
    path: Vec<String>,
    line: usize,
}

#[derive(Clone, Copy)]
enum Target {
    Module(usize),
    /// an item defined in this module
    Item(usize),
    /// another crate's (or the prelude's)
    External,
}

struct Crate {
    units: Vec<Unit>,
    modules: Vec<Module>,
    references: Vec<Reference>,
    /// (type, method) -> the module whose inherent `impl` defines it
    methods: BTreeMap<(String, String), usize>,
    /// calls of a type's own methods inside its `impl` blocks
    calls: Vec<MethodCall>,
    errors: Vec<String>,
}

impl Crate {
    fn load(src_dir: &Path) -> Crate {
        let mut krate = Crate {
            units: Vec::new(),
            modules: Vec::new(),
            references: Vec::new(),
            methods: BTreeMap::new(),
            calls: Vec::new(),
            errors: Vec::new(),
        };
        let root = ["lib.rs", "main.rs"].iter().map(|f| src_dir.join(f)).find(|f| f.is_file());
        let Some(root) = root else {
            krate.errors.push(format!("{}: no lib.rs or main.rs", src_dir.display()));
            return krate;
        };
        let mut test_paths = Vec::new();
        krate.load_file(&root, "crate".to_owned(), None, src_dir.to_path_buf(), &mut test_paths);

        // Every file on disk is a module we read, or test code.
        let read: BTreeSet<&Path> = krate.units.iter().map(|u| u.file.as_path()).collect();
        let mut undeclared = Vec::new();
        for file in rust_files(src_dir) {
            let test = test_paths.iter().any(|t| file.starts_with(t));
            if !test && !read.contains(file.as_path()) {
                undeclared.push(format!("{}: no `mod` declares this file", file.display()));
            }
        }
        krate.errors.extend(undeclared);
        krate
    }

    /// Reads one file as the module `name` (child of `parent`); `dir` is where its `mod x;`
    /// files are.
    fn load_file(
        &mut self,
        file: &Path,
        name: String,
        parent: Option<usize>,
        dir: PathBuf,
        test_paths: &mut Vec<PathBuf>,
    ) -> Option<usize> {
        let text = match fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                self.errors.push(format!("{}: {e}", file.display()));
                return None;
            }
        };
        let ast = match syn::parse_file(&text) {
            Ok(ast) => ast,
            Err(e) => {
                let at = e.span().start();
                self.errors.push(format!("{}:{}: does not parse: {e}", file.display(), at.line));
                return None;
            }
        };
        let unit = self.units.len();
        self.units.push(Unit { name, file: file.to_path_buf() });
        let path = self.units[unit].name.clone();
        let module = self.new_module(path, unit, parent);
        self.load_items(module, &ast.items, file, &dir, test_paths);
        Some(module)
    }

    fn new_module(&mut self, path: String, unit: usize, parent: Option<usize>) -> usize {
        self.modules.push(Module {
            path,
            unit,
            parent,
            children: BTreeMap::new(),
            items: BTreeSet::new(),
            imports: Vec::new(),
            globs: Vec::new(),
        });
        self.modules.len() - 1
    }

    fn load_items(&mut self, module: usize, items: &[syn::Item], file: &Path, dir: &Path, tests: &mut Vec<PathBuf>) {
        for item in items {
            let test = test_only(item_attrs(item));
            match item {
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    match &m.content {
                        Some(_) if test => {}
                        Some((_, inner)) => {
                            let unit = self.modules[module].unit;
                            let path = self.child_path(module, &name);
                            let child = self.new_module(path, unit, Some(module));
                            self.modules[module].children.insert(name.clone(), child);
                            self.load_items(child, inner, file, &dir.join(&name), tests);
                        }
                        None => {
                            let Some((child_file, child_dir)) = self.mod_file(m, file, dir) else { continue };
                            if test {
                                tests.push(child_file);
                                tests.push(child_dir);
                                continue;
                            }
                            let path = self.child_path(module, &name);
                            if let Some(child) = self.load_file(&child_file, path, Some(module), child_dir, tests) {
                                self.modules[module].children.insert(name, child);
                            }
                        }
                    }
                }
                _ if test => {}
                syn::Item::Use(u) => {
                    if u.leading_colon.is_some() {
                        continue;
                    }
                    let mut leaves = Vec::new();
                    use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
                    for leaf in leaves {
                        match leaf.name {
                            Some(name) if name != "_" => {
                                self.modules[module].imports.push((name, leaf.path.clone()));
                            }
                            Some(_) => {}
                            None => self.modules[module].globs.push(leaf.path.clone()),
                        }
                        self.references.push(Reference { module, path: leaf.path, line: leaf.line });
                    }
                }
                syn::Item::Impl(imp) => {
                    self.load_impl(module, imp);
                    let mut refs = Refs { module, out: &mut self.references };
                    refs.visit_item_impl(imp);
                }
                other => {
                    if let Some(name) = item_name(other) {
                        self.modules[module].items.insert(name);
                    }
                    let mut refs = Refs { module, out: &mut self.references };
                    refs.visit_item(other);
                }
            }
        }
    }

    /// An inherent `impl Ty` block: the methods it defines and the calls of `Ty`'s own methods
    /// in them.
    fn load_impl(&mut self, module: usize, imp: &syn::ItemImpl) {
        let syn::Type::Path(ty) = &*imp.self_ty else { return };
        let Some(ty) = ty.path.segments.last().map(|s| s.ident.to_string()) else { return };
        if imp.trait_.is_some() {
            return;
        }
        for item in &imp.items {
            let syn::ImplItem::Fn(f) = item else { continue };
            if test_only(&f.attrs) {
                continue;
            }
            self.methods.insert((ty.clone(), f.sig.ident.to_string()), module);
            let mut calls = Calls { ty: &ty, module, out: &mut self.calls };
            calls.visit_block(&f.block);
        }
    }

    /// Calls of `ty`'s methods from a module other than the one defining them.
    fn method_edges(&self, ty: &str) -> Vec<Edge> {
        let mut edges = Vec::new();
        for call in self.calls.iter().filter(|c| c.ty == ty) {
            let Some(&target) = self.methods.get(&(call.ty.clone(), call.method.clone())) else { continue };
            let (from, to) = (self.modules[call.module].unit, self.modules[target].unit);
            if from != to {
                edges.push(Edge {
                    from: self.units[from].name.clone(),
                    to: self.units[to].name.clone(),
                    file: self.units[from].file.clone(),
                    line: call.line,
                    path: call.written.clone(),
                });
            }
        }
        edges
    }

    /// The module path of `name` declared in `module` (`core::view`).
    fn child_path(&self, module: usize, name: &str) -> String {
        match self.modules[module].path.as_str() {
            "crate" => name.to_owned(),
            parent => format!("{parent}::{name}"),
        }
    }

    /// The file of `mod x;` and the folder of its own `mod`s; an error if there is none.
    fn mod_file(&mut self, m: &syn::ItemMod, file: &Path, dir: &Path) -> Option<(PathBuf, PathBuf)> {
        let name = m.ident.to_string();
        let here = file.parent().unwrap_or(dir);
        if let Some(p) = path_attr(&m.attrs) {
            let target = here.join(p);
            let child_dir = match target.file_name().and_then(|f| f.to_str()) {
                Some("mod.rs") => target.parent().unwrap_or(here).to_path_buf(),
                _ => target.with_extension(""),
            };
            if target.is_file() {
                return Some((target, child_dir));
            }
        } else {
            let flat = dir.join(format!("{name}.rs"));
            if flat.is_file() {
                return Some((flat, dir.join(&name)));
            }
            let nested = dir.join(&name).join("mod.rs");
            if nested.is_file() {
                return Some((nested, dir.join(&name)));
            }
        }
        let line = m.ident.span().start().line;
        self.errors.push(format!("{}:{line}: `mod {name};` has no file", file.display()));
        None
    }

    /// Resolves every reference; keeps those that reach another file module.
    fn edges(&self) -> Vec<Edge> {
        let mut edges = BTreeSet::new();
        for r in &self.references {
            let target = match self.resolve(r.module, &r.path, &mut BTreeSet::new()) {
                Some(Target::Module(m) | Target::Item(m)) => m,
                Some(Target::External) | None => continue,
            };
            let (from, to) = (self.modules[r.module].unit, self.modules[target].unit);
            if from == to {
                continue;
            }
            edges.insert(Edge {
                from: self.units[from].name.clone(),
                to: self.units[to].name.clone(),
                file: self.units[from].file.clone(),
                line: r.line,
                path: r.path.join("::"),
            });
        }
        let mut edges: Vec<Edge> = edges.into_iter().collect();
        edges.sort_by(|a, b| (&a.file, a.line, &a.path, &a.to).cmp(&(&b.file, b.line, &b.path, &b.to)));
        edges
    }

    /// Where `path`, written in `module`, leads; `None` for a name nothing here defines.
    fn resolve(&self, module: usize, path: &[String], busy: &mut BTreeSet<(usize, String)>) -> Option<Target> {
        let (first, rest) = path.split_first()?;
        let mut at = match first.as_str() {
            "crate" | "$crate" => Target::Module(0),
            "self" => Target::Module(module),
            "super" => Target::Module(self.modules[module].parent?),
            name => self.lookup(module, name, busy)?,
        };
        for segment in rest {
            let Target::Module(m) = at else { break };
            at = match segment.as_str() {
                "self" => Target::Module(m),
                "super" => Target::Module(self.modules[m].parent?),
                name => self.lookup(m, name, busy)?,
            };
        }
        Some(at)
    }

    /// What `name` means inside `module`: a child module, an item, an import (followed), or
    /// something a glob import brings.
    fn lookup(&self, module: usize, name: &str, busy: &mut BTreeSet<(usize, String)>) -> Option<Target> {
        let m = &self.modules[module];
        if let Some(&child) = m.children.get(name) {
            return Some(Target::Module(child));
        }
        if m.items.contains(name) {
            return Some(Target::Item(module));
        }
        let key = (module, name.to_owned());
        if !busy.insert(key.clone()) {
            return None; // an import circle among names: nothing more to find
        }
        let mut found = None;
        if let Some((_, path)) = m.imports.iter().find(|(n, _)| n == name) {
            // A path whose first name nothing here defines is another crate's.
            found = Some(self.resolve(module, path, busy).unwrap_or(Target::External));
        } else {
            for glob in &m.globs {
                if let Some(Target::Module(g)) = self.resolve(module, glob, busy)
                    && let Some(t) = self.lookup(g, name, busy)
                {
                    found = Some(t);
                    break;
                }
            }
        }
        busy.remove(&key);
        found
    }
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// One leaf of a `use` tree.
struct Leaf {
    /// the name it brings in (`None` for a glob)
    name: Option<String>,
    path: Vec<String>,
    line: usize,
}

fn use_leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Leaf>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let line = line_of(n.ident.span());
            if n.ident == "self" {
                let name = prefix.last().cloned();
                out.push(Leaf { name, path: prefix.clone(), line });
            } else {
                let mut path = prefix.clone();
                path.push(n.ident.to_string());
                out.push(Leaf { name: Some(n.ident.to_string()), path, line });
            }
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push(Leaf { name: Some(r.rename.to_string()), path, line: line_of(r.ident.span()) });
        }
        syn::UseTree::Glob(g) => out.push(Leaf { name: None, path: prefix.clone(), line: line_of(g.star_token.span) }),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix, out);
            }
        }
    }
}

fn line_of(span: Span) -> usize {
    span.start().line
}

/// Collects the paths in an item's code that may name this crate's modules.
struct Refs<'a> {
    module: usize,
    out: &'a mut Vec<Reference>,
}

impl Refs<'_> {
    fn push(&mut self, path: Vec<String>, line: usize) {
        // One bare name is local (or came in by a `use`, which is its own reference).
        let worth = path.len() > 1 || path.first().is_some_and(|s| s == "crate" || s == "super");
        if worth {
            self.out.push(Reference { module: self.module, path, line });
        }
    }

    /// Paths inside a macro call's tokens: `a::b::c` runs of identifiers (`$crate::x` too).
    fn scan(&mut self, tokens: TokenStream) {
        let mut run: Vec<String> = Vec::new();
        let mut line = 0;
        let mut colons = 0;
        for tt in tokens {
            match tt {
                TokenTree::Ident(i) => {
                    if run.is_empty() || colons != 2 {
                        let done = std::mem::take(&mut run);
                        self.push(done, line);
                        line = line_of(i.span());
                    }
                    run.push(i.to_string());
                    colons = 0;
                }
                TokenTree::Punct(p) if p.as_char() == ':' && !run.is_empty() => colons += 1,
                TokenTree::Group(g) => {
                    let done = std::mem::take(&mut run);
                    self.push(done, line);
                    colons = 0;
                    self.scan(g.stream());
                }
                _ => {
                    let done = std::mem::take(&mut run);
                    self.push(done, line);
                    colons = 0;
                }
            }
        }
        self.push(run, line);
    }
}

impl<'ast> Visit<'ast> for Refs<'_> {
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    // `pub(super)` and `pub(in crate::x)` say who may look, not what is used.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !test_only(item_attrs(item)) {
            visit::visit_item(self, item);
        }
    }

    // Inline modules in function bodies are rare; their paths would resolve in the wrong
    // scope, so they are skipped.
    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {}

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if u.leading_colon.is_some() {
            return;
        }
        let mut leaves = Vec::new();
        use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
        for leaf in leaves {
            self.out.push(Reference { module: self.module, path: leaf.path, line: leaf.line });
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs = match item {
            syn::ImplItem::Const(i) => &i.attrs,
            syn::ImplItem::Fn(i) => &i.attrs,
            syn::ImplItem::Type(i) => &i.attrs,
            syn::ImplItem::Macro(i) => &i.attrs,
            _ => return visit::visit_impl_item(self, item),
        };
        if !test_only(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_trait_item(&mut self, item: &'ast syn::TraitItem) {
        let attrs = match item {
            syn::TraitItem::Const(i) => &i.attrs,
            syn::TraitItem::Fn(i) => &i.attrs,
            syn::TraitItem::Type(i) => &i.attrs,
            syn::TraitItem::Macro(i) => &i.attrs,
            _ => return visit::visit_trait_item(self, item),
        };
        if !test_only(attrs) {
            visit::visit_trait_item(self, item);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none()
            && let Some(first) = path.segments.first()
        {
            let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
            self.push(segments, line_of(first.ident.span()));
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.scan(mac.tokens.clone());
        visit::visit_macro(self, mac);
    }
}

/// A call of a type's own method inside one of its `impl` blocks.
struct MethodCall {
    ty: String,
    method: String,
    module: usize,
    line: usize,
    /// `self.m()` or `Self::m`
    written: String,
}

/// Collects `self.m(..)` and `Self::m(..)` in a method body (test-only items skipped).
struct Calls<'a> {
    ty: &'a str,
    module: usize,
    out: &'a mut Vec<MethodCall>,
}

impl Calls<'_> {
    fn push(&mut self, method: &syn::Ident, written: String) {
        let line = line_of(method.span());
        self.out.push(MethodCall {
            ty: self.ty.to_owned(),
            method: method.to_string(),
            module: self.module,
            line,
            written,
        });
    }
}

impl<'ast> Visit<'ast> for Calls<'_> {
    fn visit_item(&mut self, _: &'ast syn::Item) {}

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        if let syn::Expr::Path(p) = &*call.receiver
            && p.path.is_ident("self")
        {
            self.push(&call.method, format!("self.{}()", call.method));
        }
        visit::visit_expr_method_call(self, call);
    }

    fn visit_expr_path(&mut self, path: &'ast syn::ExprPath) {
        let segments: Vec<&syn::Ident> = path.path.segments.iter().map(|s| &s.ident).collect();
        if let [first, method] = segments[..]
            && (first == "Self" || first == self.ty)
        {
            self.push(method, format!("{first}::{method}"));
        }
        visit::visit_expr_path(self, path);
    }
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The name an item defines in its module (not modules: those are children).
fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::TraitAlias(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// `#[cfg(test)]` or `#[cfg(all(test, ..))]`: code that only tests build.
fn test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("cfg") && a.parse_args::<syn::Meta>().is_ok_and(|m| test_meta(&m)))
}

fn test_meta(meta: &syn::Meta) -> bool {
    match meta {
        syn::Meta::Path(p) => p.is_ident("test"),
        syn::Meta::List(l) if l.path.is_ident("all") => l
            .parse_args_with(syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
            .is_ok_and(|list| list.iter().any(test_meta)),
        _ => false,
    }
}

/// `#[path = "x.rs"]`
fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

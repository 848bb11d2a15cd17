//! The layers, checked from the source and the manifests: the domain crate
//! depends on nothing of gRPC, async or HTTP, even through its
//! dependencies, and no file of either crate imports a file that imports
//! it, directly or through others.
//!
//! The import graph is one of files, as the layering rule has it: a
//! directory's `mod.rs` (and a crate's `lib.rs`) is its files' parent, not
//! one of them. Its children may use what it defines, and it may use them
//! (a module's shared types, and its entry point, live there), so it is no
//! node of the graph; an import of an item it only re-exports is followed
//! (through its `use` declarations) to the file that defines the item. A
//! circle through a parent's own items is not caught. Test modules, and
//! items under `#[cfg(test)]`, may import anything and are left out.
//! Paths are read from `use` declarations, and from paths written in code
//! that start with `crate::`, `super::`, `self::` or a module bound by
//! `use`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The crates of the workspace, by their directory under the root.
const CRATES: [&str; 2] = [".", "crates/sudoku-core"];

/// Crates the domain must not depend on, directly or through others.
const NOT_IN_THE_DOMAIN: [&str; 9] = [
    "tonic", "prost", "tokio", "hyper", "tower", "h2", "http", "axum", "mio",
];

/// A module's path from its crate's root (`["service", "state"]`).
type Module = Vec<String>;

/// One source file: its code outside tests, and whether it is a facade.
struct File {
    code: String,
    facade: bool,
    test: bool,
}

/// Every file of one crate's `src/` (binaries apart: each is a crate).
fn files_of(crate_dir: &Path) -> BTreeMap<Module, File> {
    let src = crate_dir.join("src");
    let mut files = BTreeMap::new();
    let mut tests = BTreeSet::new();
    let mut todo = vec![src.clone()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path != src.join("bin") {
                    todo.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|extension| extension != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&src).unwrap().with_extension("");
            let mut module: Module = relative
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            let facade = matches!(module.last().map(String::as_str), Some("mod" | "lib"));
            if facade {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            // A file's own module is its children's parent if it is a
            // facade, else they sit in a directory named after it.
            let parent = match facade {
                true => module.clone(),
                false => module[..module.len() - 1].to_vec(),
            };
            for name in test_children(&text) {
                tests.insert([parent.clone(), vec![name]].concat());
            }
            files.insert(
                module,
                File {
                    code: without_tests(&text),
                    facade,
                    test: false,
                },
            );
        }
    }
    for (module, file) in files.iter_mut() {
        file.test = tests.iter().any(|test| module.starts_with(test));
    }
    files
}

/// `text` without comment lines and without the items under
/// `#[cfg(test)]` (each to the line where its braces close).
fn without_tests(text: &str) -> String {
    let mut code = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed != "#[cfg(test)]" {
            code.push_str(line);
            code.push('\n');
            continue;
        }
        let mut depth = 0i64;
        for item in lines.by_ref() {
            depth += item.matches('{').count() as i64 - item.matches('}').count() as i64;
            let ends = item.trim_end().ends_with(';') || item.trim_end().ends_with('}');
            if depth <= 0 && ends {
                break;
            }
        }
    }
    code
}

/// The child modules `text` declares under `#[cfg(test)]`.
fn test_children(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|pair| pair[0] == "#[cfg(test)]")
        .filter_map(|pair| {
            pair[1]
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub ")
                .strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect()
}

/// Every path a `use` declaration of `code` names, expanded (`a::{b, c::d}`
/// is `a::b` and `a::c::d`), with the name it is known by.
fn use_paths(code: &str) -> Vec<(Vec<String>, String)> {
    let mut paths = Vec::new();
    for statement in code.split(';') {
        let starts_a_use = |&(at, _): &(usize, &str)| {
            let before = statement[..at].trim();
            before.is_empty()
                || before.ends_with(['{', '}', ']', ')'])
                || before.split_whitespace().last() == Some("pub")
        };
        if let Some((at, _)) = statement.match_indices("use ").find(starts_a_use) {
            expand(&statement[at + 4..], &[], &mut paths);
        }
    }
    paths
}

/// Expands one use tree under `prefix` into `paths`.
fn expand(tree: &str, prefix: &[String], paths: &mut Vec<(Vec<String>, String)>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = split_path(&tree[..open]);
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let prefix = [prefix, &head].concat();
        for part in split_top_level(inner) {
            expand(part, &prefix, paths);
        }
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((path, alias)) => (path, Some(alias.trim().to_string())),
        None => (tree, None),
    };
    let mut path = [prefix.to_vec(), split_path(path)].concat();
    if path.last().is_some_and(|last| last == "self") {
        path.pop();
    }
    if let Some(last) = path.last().cloned() {
        paths.push((path, alias.unwrap_or(last)));
    }
}

/// `a::b::c` as its segments (a trailing `::` or `*` dropped).
fn split_path(text: &str) -> Vec<String> {
    text.split("::")
        .map(str::trim)
        .filter(|segment| !segment.is_empty() && *segment != "*")
        .map(str::to_string)
        .collect()
}

/// `text` split at the commas outside braces.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .collect()
}

/// The paths written in `code` that start with one of `roots` (`crate`,
/// `super`, `self`, and the modules bound by `use`).
fn code_paths(code: &str, roots: &[&str]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    for root in roots {
        for (at, _) in code.match_indices(&format!("{root}::")) {
            if code[..at].ends_with(|c: char| is_ident(c) || c == ':') {
                continue;
            }
            let rest = &code[at..];
            let end = rest
                .find(|c: char| !is_ident(c) && c != ':')
                .unwrap_or(rest.len());
            paths.push(split_path(&rest[..end]));
        }
    }
    paths
}

/// One crate's files and what they import.
struct Graph {
    files: BTreeMap<Module, File>,
}

impl Graph {
    /// The file `path`, written in `from`, leads to: the one defining what
    /// it names, followed through facades' imports; `None` outside the crate.
    fn resolve(&self, from: &Module, path: &[String], depth: usize) -> Option<Module> {
        let (mut module, rest) = match path.first().map(String::as_str) {
            Some("crate") => (Vec::new(), &path[1..]),
            Some("super" | "self") => (from.clone(), path),
            // `use child::Item` in a facade names its own child.
            Some(name)
                if self
                    .files
                    .contains_key(&[from.clone(), vec![name.into()]].concat()) =>
            {
                (from.clone(), path)
            }
            _ => return None,
        };
        let mut rest = rest.iter().peekable();
        while let Some(segment) = rest.peek() {
            match segment.as_str() {
                "super" => drop(module.pop()),
                "self" => {}
                _ => break,
            }
            rest.next();
        }
        for segment in rest {
            let child = [module.clone(), vec![segment.clone()]].concat();
            if self.files.contains_key(&child) {
                module = child;
                continue;
            }
            let facade = self.files.get(&module).is_some_and(|file| file.facade);
            if facade && depth < 8 {
                let imported = use_paths(&self.files[&module].code)
                    .into_iter()
                    .find(|(_, name)| name == segment);
                if let Some((target, _)) = imported {
                    return self.resolve(&module, &target, depth + 1);
                }
            }
            break;
        }
        Some(module)
    }

    /// Each file outside tests and facades, with the files it imports.
    fn imports(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut imports = BTreeMap::new();
        for (module, file) in &self.files {
            if file.facade || file.test {
                continue;
            }
            let uses = use_paths(&file.code);
            // A module bound by `use` (`use super::forcing;`) roots paths in
            // code (`forcing::explain`) as its path does.
            let aliases: Vec<(String, Vec<String>)> = uses
                .iter()
                .filter(|(path, _)| {
                    let target = self.resolve(module, path, 0);
                    target.is_some_and(|target| target.last() == path.last())
                })
                .map(|(path, name)| (name.clone(), path.clone()))
                .collect();
            let roots: Vec<&str> = ["crate", "super", "self"]
                .into_iter()
                .chain(aliases.iter().map(|(name, _)| name.as_str()))
                .collect();
            let in_code = code_paths(&file.code, &roots).into_iter().map(|path| {
                match aliases.iter().find(|(name, _)| *name == path[0]) {
                    Some((_, full)) => [full.clone(), path[1..].to_vec()].concat(),
                    None => path,
                }
            });
            let paths = uses.into_iter().map(|(path, _)| path).chain(in_code);
            let used: BTreeSet<Module> = paths
                .filter_map(|path| self.resolve(module, &path, 0))
                .filter(|target| target != module)
                .filter(|target| {
                    self.files
                        .get(target)
                        .is_some_and(|file| !file.facade && !file.test)
                })
                .collect();
            imports.insert(module.clone(), used);
        }
        imports
    }
}

/// The files of `imports` that reach themselves, each with the files of
/// its circle.
fn circles(imports: &BTreeMap<Module, BTreeSet<Module>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut circles = BTreeMap::new();
    for start in imports.keys() {
        let reached = reachable(imports, start);
        if !reached.contains(start) {
            continue;
        }
        let circle = reached
            .iter()
            .filter(|other| reachable(imports, other).contains(start))
            .map(|module| module.join("/"))
            .collect();
        circles.insert(start.join("/"), circle);
    }
    circles
}

/// The files `start` imports, directly or through others.
fn reachable(imports: &BTreeMap<Module, BTreeSet<Module>>, start: &Module) -> BTreeSet<Module> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<&Module> = imports[start].iter().collect();
    while let Some(next) = todo.pop() {
        if seen.insert(next.clone()) {
            todo.extend(imports.get(next).into_iter().flatten());
        }
    }
    seen
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn module(path: &str) -> Module {
    path.split('/').map(str::to_string).collect()
}

#[test]
fn no_file_imports_one_that_imports_it() {
    let mut found = BTreeMap::new();
    for crate_dir in CRATES {
        let graph = Graph {
            files: files_of(&root().join(crate_dir)),
        };
        let imports = graph.imports();
        let edges: usize = imports.values().map(BTreeSet::len).sum();
        assert!(edges > 100, "{crate_dir}: only {edges} imports read");
        for (file, circle) in circles(&imports) {
            found.insert(format!("{crate_dir}: {file}"), circle);
        }
    }
    assert!(
        found.is_empty(),
        "files that import themselves through others, each with its circle: {found:#?}"
    );
}

/// The reading of imports, on files whose imports are known: through a
/// facade's re-export, through `super::super`, and from a path in code.
#[test]
fn the_import_graph_reads_what_the_files_import() {
    let core = Graph {
        files: files_of(&root().join("crates/sudoku-core")),
    };
    let imports = core.imports();
    let of = |file: &str| &imports[&module(file)];
    assert!(of("logic/forcing/search").contains(&module("logic/forcing/propagation")));
    assert!(of("logic/forcing/search").contains(&module("logic/grid")));
    assert!(!imports.contains_key(&module("logic/forcing/tests")));
    let service = Graph {
        files: files_of(root()),
    };
    let imports = service.imports();
    // `crate::service::{CallSlot, ...}`: re-exported by service/mod.rs.
    assert!(imports[&module("server/calls")].contains(&module("service/extensions")));
    assert!(imports[&module("server/calls")].contains(&module("server/connections")));
}

/// `roots` and every package they depend on in `Cargo.lock`, directly or
/// through others.
fn locked_closure(lock: &str, roots: &[String]) -> BTreeSet<String> {
    let mut dependencies: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for block in lock.split("[[package]]").skip(1) {
        let name = block
            .lines()
            .find_map(|line| line.strip_prefix("name = "))
            .unwrap()
            .trim_matches('"')
            .to_string();
        let listed = block
            .split("dependencies = [")
            .nth(1)
            .map(|list| list.split(']').next().unwrap())
            .unwrap_or("");
        let names = listed
            .lines()
            .map(|line| line.trim().trim_end_matches(',').trim_matches('"'))
            .filter_map(|entry| entry.split(' ').next())
            .filter(|name| !name.is_empty())
            .map(str::to_string);
        dependencies.entry(name).or_default().extend(names);
    }
    let mut seen = BTreeSet::new();
    let mut todo = roots.to_vec();
    while let Some(next) = todo.pop() {
        if seen.insert(next.clone()) {
            todo.extend(dependencies.get(&next).into_iter().flatten().cloned());
        }
    }
    seen
}

#[test]
fn the_domain_crate_depends_on_no_grpc_async_or_http_crate() {
    let manifest = std::fs::read_to_string(root().join("crates/sudoku-core/Cargo.toml")).unwrap();
    let section = manifest
        .split("\n[dependencies]\n")
        .nth(1)
        .expect("a [dependencies] section")
        .split("\n[")
        .next()
        .unwrap();
    let direct: Vec<String> = section
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .filter_map(|line| line.split('=').next())
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .collect();
    assert!(direct.contains(&"thiserror".to_string()), "{direct:?}");
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).unwrap();
    let closure = locked_closure(&lock, &direct);
    assert!(closure.contains("rand_core"), "{closure:?}");
    let service = locked_closure(&lock, &["sudoku-grpc".to_string()]);
    for name in NOT_IN_THE_DOMAIN {
        assert!(
            !closure.contains(name),
            "the domain depends on {name}: {closure:?}"
        );
        // A name the service does depend on: the check is not vacuous.
        assert!(
            service.contains(name),
            "the service does not depend on {name}"
        );
    }
}

/// The reading and the circle check on a made-up crate whose one circle
/// runs through a module bound by `use` and a re-export of its parent.
#[test]
fn a_circle_through_a_bound_module_and_a_re_export_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("src/lib.rs", "pub mod shapes;\n");
    write(
        "src/shapes/mod.rs",
        "mod circle;\nmod square;\npub use square::Square;\n",
    );
    write(
        "src/shapes/circle.rs",
        "use super::super::shapes;\n\npub fn area() -> f64 {\n    shapes::Square::side()\n}\n",
    );
    write(
        "src/shapes/square.rs",
        "use super::circle::area;\n\npub struct Square;\n\n#[cfg(test)]\nmod tests {\n    use crate::shapes::circle;\n}\n",
    );
    let graph = Graph {
        files: files_of(dir.path()),
    };
    let imports = graph.imports();
    assert!(imports[&module("shapes/circle")].contains(&module("shapes/square")));
    assert!(imports[&module("shapes/square")].contains(&module("shapes/circle")));
    let found = circles(&imports);
    assert_eq!(found.len(), 2, "{found:?}");
    // Without the use of the bound module, no circle.
    write(
        "src/shapes/circle.rs",
        "pub fn area() -> f64 {\n    1.0\n}\n",
    );
    let graph = Graph {
        files: files_of(dir.path()),
    };
    assert!(circles(&graph.imports()).is_empty());
}

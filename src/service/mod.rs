//! The gRPC service `sudoku.v1.SudokuService`.
//!
//! A thin adapter between protobuf and the domain: handlers ([`handlers`])
//! check a request against the caps ([`admission`], [`limits`]), hand the
//! puzzle to the worker pool (the domain parses and solves there, within
//! the per-puzzle time budget), or a stream to the stream core
//! ([`crate::streaming`], through [`protocol`]), and build the response.
//! Errors are [`ServiceError`]s, turned into gRPC statuses in one place
//! ([`error`]).
//!
//! The files form layers, each importing only those below it, none of its
//! own importers: `limits` and `deadline`; `error`, `call_log`,
//! `logic_messages`; `convert`; `jobs`, `admission`, `metrics`, `local`;
//! `stream`; `protocol`; `state`; `batch`, `grading`, `generate`,
//! `extensions`; `handlers` and `transport`.

mod admission;
mod batch;
mod call_log;
mod convert;
pub mod deadline;
mod error;
mod extensions;
mod generate;
mod grading;
mod handlers;
mod jobs;
pub mod limits;
mod local;
pub(crate) mod logic_messages;
mod metrics;
mod protocol;
mod state;
mod stream;
mod transport;

pub use error::{
    ERROR_DOMAIN, GAVE_UP_REASON, GENERATE_GAVE_UP_REASON, ServiceError, is_client_reset,
    rpc_status,
};
pub use extensions::{CallSlot, RequestArrived};
pub use generate::{GenerateStream, parse_request as parse_generate_request};
pub use limits::Limits;
pub use local::{answer_request, answer_stream_request};
pub use logic_messages::pb_outcome;
pub use metrics::{ConnectionGauge, Metrics, Rpc};
pub use state::SudokuService;
pub use transport::{MAX_EXPLAIN_RESPONSE_BYTES, SudokuServer};

pub use crate::streaming::ByteBudget;

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    /// The service's files and the files of it each one imports
    /// (`super::NAME` outside comments and test modules).
    fn imports() -> BTreeMap<String, BTreeSet<String>> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/service");
        let mut imports = BTreeMap::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap();
            let used = code
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .flat_map(|line| line.split("super::").skip(1))
                .filter_map(|rest| {
                    rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                        .next()
                })
                .map(str::to_string)
                .collect();
            imports.insert(name, used);
        }
        imports
    }

    /// The files form layers: none imports a file that imports it,
    /// directly or through others, and none imports `mod.rs`.
    #[test]
    fn no_file_of_the_service_imports_one_that_imports_it() {
        let imports = imports();
        assert!(imports.len() > 10, "{imports:?}");
        for (file, used) in &imports {
            let mut seen = BTreeSet::new();
            let mut todo: Vec<&String> = used.iter().collect();
            while let Some(next) = todo.pop() {
                assert_ne!(next, file, "{file}.rs imports itself through {used:?}");
                if seen.insert(next.clone()) {
                    todo.extend(imports.get(next).into_iter().flatten());
                }
            }
        }
        let children: BTreeSet<_> = imports.keys().filter(|name| *name != "mod").collect();
        for (file, used) in &imports {
            for name in used {
                assert!(
                    children.contains(name) || file == "mod",
                    "{file}.rs imports `super::{name}`, which is not a file of the service"
                );
            }
        }
    }
}

//! The integration tests: one module per behaviour, all in one test
//! binary, so that the dependencies' generic code (tonic, hyper, prost) is
//! compiled once rather than once per file. Each module says what it
//! checks; `common` holds the helpers: servers in this process on
//! 127.0.0.1 port 0, the binaries as child processes, the hostile flood and
//! test certificates.
//!
//! Run one behaviour with `cargo test --test suite stream::`.

mod common;

mod batch_cli;
mod batch_remote;
mod batch_rpc;
mod binaries;
mod compression;
mod connections;
mod differential;
mod flood;
mod fuzz_regressions;
mod generate_cli;
mod generate_rpc;
mod grading;
mod grading_cli;
mod health_reflection;
mod hostile;
mod layers;
mod limits;
mod loadgen;
mod metrics;
mod overload;
mod shutdown;
mod small_frames;
mod solve;
mod stream;
mod tls;
mod untrusted_server;
mod variant_cli;
mod variant_rpc;
mod web;

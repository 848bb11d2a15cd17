//! Generates the Rust code for `proto/sudoku.proto` and writes its encoded
//! descriptor set for server reflection.
//!
//! protox parses the protos in pure Rust, so building needs no system `protoc`.
//! `google.rpc.Status` maps to tonic-types' generated type, so the error
//! details helpers of tonic-types work on our messages directly. The two
//! batch messages are written by hand in `src/pb/batch.rs`.

use std::{env, fs, path::PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");

    let mut compiler = protox::Compiler::new(["proto"])?;
    compiler
        .include_imports(true)
        .include_source_info(true)
        .open_file("sudoku.proto")?;

    // `compile_fds` does not write `file_descriptor_set_path`, so the
    // descriptor set that reflection serves is written here.
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    fs::write(
        out_dir.join("sudoku_descriptor.bin"),
        compiler.encode_file_descriptor_set(),
    )?;

    tonic_prost_build::configure()
        .extern_path(".google.rpc", "::tonic_types::pb")
        // Written by hand, with decoders that bound their repeated fields
        // and share their text (see src/pb/batch.rs).
        .extern_path(
            ".sudoku.v1.SolveBatchRequest",
            "crate::pb::SolveBatchRequest",
        )
        .extern_path(
            ".sudoku.v1.SolveBatchResponse",
            "crate::pb::SolveBatchResponse",
        )
        .extern_path(".sudoku.v1.SolveResult", "crate::pb::SolveResult")
        .compile_fds(compiler.file_descriptor_set())?;
    Ok(())
}

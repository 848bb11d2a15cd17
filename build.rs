//! Generates the Rust code for `proto/sudoku.proto` and writes its encoded
//! descriptor set for server reflection.
//!
//! protox parses the protos in pure Rust, so building needs no system `protoc`.
//! The web page's built files in `web/dist/` are listed for `include_bytes!`,
//! so the binary serves them with nothing to deploy beside it.
//! `google.rpc.Status` maps to tonic-types' generated type, so the error
//! details helpers of tonic-types work on our messages directly. The three
//! batch messages (SolveBatchRequest, SolveBatchResponse, SolveResult) are
//! written by hand in `src/pb/batch.rs`.
//!
//! It also generates prost's own code for those three into `OUT_DIR/twin/`:
//! their twins, which only the tests include (`src/pb/twin.rs`), to hold
//! the hand codec's bytes and values against. A build script cannot tell a
//! test build from another, so it is generated every time; it costs a
//! second pass over the same descriptors, and no compiling outside tests.

use std::{env, fs, path::PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    println!("cargo:rerun-if-changed=web/dist");
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    write_web_assets(&out_dir)?;

    let mut compiler = protox::Compiler::new(["proto"])?;
    compiler
        .include_imports(true)
        .include_source_info(true)
        .open_file("sudoku.proto")?;
    let descriptors = compiler.file_descriptor_set();

    // `compile_fds` does not write `file_descriptor_set_path`, so the
    // descriptor set that reflection serves is written here.
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
        .compile_fds(descriptors.clone())?;

    // The twins: the package again, without services and with the three
    // messages generated rather than mapped to the crate's. Their Grade
    // and SolveStats are the crate's own (prost's code on both sides), so
    // that a twin and a hand-coded message hold values of the same types
    // and compare field by field.
    let twin_dir = out_dir.join("twin");
    fs::create_dir_all(&twin_dir)?;
    tonic_prost_build::configure()
        .build_client(false)
        .build_server(false)
        .out_dir(&twin_dir)
        .extern_path(".google.rpc", "::tonic_types::pb")
        .extern_path(".sudoku.v1.Grade", "crate::pb::Grade")
        .extern_path(".sudoku.v1.SolveStats", "crate::pb::SolveStats")
        .compile_fds(descriptors)?;
    Ok(())
}

/// Writes `web_assets.rs`: a slice of `(file name, contents)` for every
/// file in `web/dist/`, sorted by name (empty when there is none).
fn write_web_assets(out_dir: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    let dist = PathBuf::from(env::var("CARGO_MANIFEST_DIR")?).join("web/dist");
    let mut files = Vec::new();
    if dist.is_dir() {
        for entry in fs::read_dir(&dist)? {
            let entry = entry?;
            if entry.file_type()?.is_file() {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    let mut code = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .ok_or("a non-UTF-8 file name in web/dist")?;
        code.push_str(&format!(
            "    ({name:?}, include_bytes!({:?}).as_slice()),\n",
            path.display().to_string()
        ));
    }
    code.push_str("]\n");
    fs::write(out_dir.join("web_assets.rs"), code)?;
    Ok(())
}

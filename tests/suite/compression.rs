//! gzip and zstd: the server takes compressed requests and compresses its
//! answers for clients that accept them; the command line's `--compress`
//! gives the same answers as plain calls.

use crate::common::process::{ServerProcess, run_sudoku, temp_file, text};
use crate::common::{CLASSIC, CLASSIC_SOLUTION, TestServer, read_puzzles};
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::pb::{Outcome, SolveRequest, SolveStreamRequest};
use sudoku_grpc::server::Settings;
use tonic::Code;
use tonic::codec::CompressionEncoding;

/// The `grpc-encoding` a response was sent with, if any.
fn encoding_of(metadata: &tonic::metadata::MetadataMap) -> Option<String> {
    let value = metadata.get("grpc-encoding")?;
    Some(value.to_str().unwrap().to_string())
}

#[tokio::test]
async fn compressed_unary_and_stream_calls_are_answered_compressed() {
    let server = TestServer::default().await;
    for (encoding, name) in [
        (CompressionEncoding::Gzip, "gzip"),
        (CompressionEncoding::Zstd, "zstd"),
    ] {
        let mut client = SudokuServiceClient::new(server.channel().await)
            .send_compressed(encoding)
            .accept_compressed(encoding);

        let response = client
            .solve(SolveRequest {
                puzzle: CLASSIC.to_string(),
                grade: false,
            })
            .await
            .unwrap();
        assert_eq!(encoding_of(response.metadata()).as_deref(), Some(name));
        assert_eq!(response.into_inner().solution, CLASSIC_SOLUTION);

        let requests: Vec<SolveStreamRequest> = (0..50)
            .map(|i| SolveStreamRequest {
                id: i.to_string(),
                puzzle: CLASSIC.to_string(),
                grade: false,
            })
            .collect();
        let response = client
            .solve_stream(tokio_stream::iter(requests))
            .await
            .unwrap();
        assert_eq!(encoding_of(response.metadata()).as_deref(), Some(name));
        let mut answers = response.into_inner();
        let mut count = 0;
        while let Some(answer) = answers.message().await.unwrap() {
            assert_eq!(answer.id, count.to_string());
            assert_eq!(answer.outcome(), Outcome::Solved);
            count += 1;
        }
        assert_eq!(count, 50);
    }
}

/// A small compressed message that inflates past the message limit is
/// refused with the limit's name, in a unary call as in a stream.
#[tokio::test]
async fn a_request_that_inflates_past_the_limit_is_refused_naming_the_limit() {
    let server = TestServer::default().await;
    let mut client =
        SudokuServiceClient::new(server.channel().await).send_compressed(CompressionEncoding::Gzip);
    let inflating = " ".repeat(1 << 20);
    let limit = Settings::default().limits.max_message_bytes;
    let expected = format!(
        "request message too large: over {limit} bytes once decompressed (--max-message-bytes)"
    );
    let refused = client
        .solve(SolveRequest {
            puzzle: inflating.clone(),
            grade: false,
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(refused.message(), expected);
    let requests = [CLASSIC, &inflating].map(|puzzle| SolveStreamRequest {
        id: String::new(),
        puzzle: puzzle.to_string(),
        grade: false,
    });
    let mut answers = client
        .solve_stream(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner();
    let first = answers
        .message()
        .await
        .unwrap()
        .expect("the first is answered");
    assert_eq!(first.outcome(), Outcome::Solved);
    let ended = answers.message().await.unwrap_err();
    assert_eq!(ended.code(), Code::ResourceExhausted, "{ended:?}");
    assert_eq!(ended.message(), expected);
}

#[tokio::test]
async fn an_uncompressed_client_gets_uncompressed_answers() {
    let server = TestServer::default().await;
    let response = server
        .client()
        .await
        .solve(SolveRequest {
            puzzle: CLASSIC.to_string(),
            grade: false,
        })
        .await
        .unwrap();
    assert_eq!(encoding_of(response.metadata()), None);
}

#[test]
fn the_command_line_compresses_on_request_with_the_same_answers() {
    let server = ServerProcess::start(&["--workers", "2"]);
    let puzzles = read_puzzles("unique.txt").join("\n") + "\n";
    let path = temp_file("compressed.txt", &puzzles.repeat(3));
    let path = path.to_str().unwrap();
    let expected = text(&run_sudoku(&["solve", "--local", "-q", path], "").stdout);
    // Batches compress as whole messages of hundreds of puzzles, single
    // puzzles one message each.
    for rpc in ["batch", "stream"] {
        for encoding in ["gzip", "zstd"] {
            let output = run_sudoku(
                &[
                    "solve",
                    "-q",
                    "--server",
                    &server.address,
                    "--rpc",
                    rpc,
                    "--compress",
                    encoding,
                    path,
                ],
                "",
            );
            assert_eq!(
                output.status.code(),
                Some(0),
                "--rpc {rpc} --compress {encoding}: {}",
                text(&output.stderr)
            );
            assert_eq!(
                text(&output.stdout),
                expected,
                "--rpc {rpc} --compress {encoding}"
            );
        }
    }
}

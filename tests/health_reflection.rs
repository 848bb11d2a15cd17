//! The standard health service, server reflection (v1 and v1alpha), and
//! graceful shutdown.

mod common;

use std::time::Duration;

use common::{CLASSIC, TestServer};
use prost::Message;
use prost_types::FileDescriptorProto;
use sudoku_grpc::pb::{Outcome, SolveStreamRequest};
use sudoku_grpc::server::Settings;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_reflection::pb::{v1, v1alpha};

async fn health_of(server: &TestServer, service: &str) -> Result<ServingStatus, tonic::Status> {
    let request = HealthCheckRequest {
        service: service.to_string(),
    };
    let response = HealthClient::new(server.channel().await)
        .check(request)
        .await?;
    Ok(response.into_inner().status())
}

#[tokio::test]
async fn health_reports_serving_for_the_server_and_the_service() {
    let server = TestServer::default().await;
    assert_eq!(
        health_of(&server, "").await.unwrap(),
        ServingStatus::Serving
    );
    assert_eq!(
        health_of(&server, "sudoku.v1.SudokuService").await.unwrap(),
        ServingStatus::Serving
    );
    assert_eq!(
        health_of(&server, "no.such.Service")
            .await
            .unwrap_err()
            .code(),
        Code::NotFound
    );
}

/// Sends one v1 reflection request and returns the response.
async fn reflect_v1(
    server: &TestServer,
    request: v1::server_reflection_request::MessageRequest,
) -> v1::server_reflection_response::MessageResponse {
    let mut client =
        v1::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let request = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(request),
    };
    let mut responses = client
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .unwrap()
        .into_inner();
    responses
        .message()
        .await
        .unwrap()
        .unwrap()
        .message_response
        .unwrap()
}

/// The names of the files a v1 reflection lookup returned.
async fn files_for(
    server: &TestServer,
    request: v1::server_reflection_request::MessageRequest,
) -> Vec<FileDescriptorProto> {
    match reflect_v1(server, request).await {
        v1::server_reflection_response::MessageResponse::FileDescriptorResponse(files) => files
            .file_descriptor_proto
            .iter()
            .map(|bytes| FileDescriptorProto::decode(bytes.as_slice()).unwrap())
            .collect(),
        other => panic!("expected file descriptors, got {other:?}"),
    }
}

#[tokio::test]
async fn reflection_v1_lists_and_describes_the_services() {
    use v1::server_reflection_request::MessageRequest;
    let server = TestServer::default().await;
    let v1::server_reflection_response::MessageResponse::ListServicesResponse(list) =
        reflect_v1(&server, MessageRequest::ListServices(String::new())).await
    else {
        panic!("expected a service list");
    };
    let names: Vec<&str> = list.service.iter().map(|s| s.name.as_str()).collect();
    for expected in ["sudoku.v1.SudokuService", "grpc.health.v1.Health"] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }

    let files = files_for(
        &server,
        MessageRequest::FileContainingSymbol("sudoku.v1.SudokuService".into()),
    )
    .await;
    let sudoku = files
        .iter()
        .find(|f| f.package() == "sudoku.v1")
        .expect("sudoku.v1 descriptor");
    assert_eq!(sudoku.service[0].name(), "SudokuService");
    let methods: Vec<&str> = sudoku.service[0].method.iter().map(|m| m.name()).collect();
    assert_eq!(methods, ["Solve", "SolveStream"]);
    assert!(
        sudoku
            .dependency
            .contains(&"google/rpc/status.proto".to_string())
    );
}

#[tokio::test]
async fn reflection_resolves_error_detail_types() {
    use v1::server_reflection_request::MessageRequest;
    let server = TestServer::default().await;
    let files = files_for(
        &server,
        MessageRequest::FileContainingSymbol("google.rpc.BadRequest".into()),
    )
    .await;
    assert!(
        files
            .iter()
            .any(|f| f.message_type.iter().any(|m| m.name() == "BadRequest"))
    );
    let files = files_for(
        &server,
        MessageRequest::FileByFilename("google/rpc/status.proto".into()),
    )
    .await;
    assert_eq!(files[0].package(), "google.rpc");
}

#[tokio::test]
async fn reflection_v1alpha_answers_for_older_clients() {
    use v1alpha::server_reflection_request::MessageRequest;
    let server = TestServer::default().await;
    let mut client =
        v1alpha::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let request = v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut responses = client
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .unwrap()
        .into_inner();
    let response = responses
        .message()
        .await
        .unwrap()
        .unwrap()
        .message_response
        .unwrap();
    let v1alpha::server_reflection_response::MessageResponse::ListServicesResponse(list) = response
    else {
        panic!("expected a service list, got {response:?}");
    };
    assert!(
        list.service
            .iter()
            .any(|s| s.name == "sudoku.v1.SudokuService")
    );
}

#[tokio::test]
async fn shutdown_turns_health_not_serving_and_finishes_work_in_flight() {
    let settings = Settings {
        drain_timeout: Duration::from_secs(10),
        ..Settings::default()
    };
    let server = TestServer::start(settings, 2, 64).await;
    let mut watch = HealthClient::new(server.channel().await)
        .watch(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        watch.message().await.unwrap().unwrap().status(),
        ServingStatus::Serving
    );

    // A stream is in flight when the signal comes.
    let (requests, mut answers) = server.open_stream().await;
    let item = |i: usize| SolveStreamRequest {
        id: i.to_string(),
        puzzle: CLASSIC.to_string(),
    };
    requests.send(item(0)).await.unwrap();
    assert_eq!(answers.message().await.unwrap().unwrap().id, "0");

    let stopped = tokio::spawn(server.shut_down());
    assert_eq!(
        watch.message().await.unwrap().unwrap().status(),
        ServingStatus::NotServing
    );

    // The stream already open is still served to its end.
    for i in 1..=20 {
        requests.send(item(i)).await.unwrap();
    }
    drop(requests);
    drop(watch);
    for i in 1..=20 {
        let answer = answers.message().await.unwrap().unwrap();
        assert_eq!(
            (answer.outcome(), answer.id),
            (Outcome::Solved, i.to_string())
        );
    }
    assert!(answers.message().await.unwrap().is_none());
    tokio::time::timeout(Duration::from_secs(5), stopped)
        .await
        .expect("the server stops once its calls are done")
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn a_call_still_open_at_the_drain_timeout_is_closed() {
    let settings = Settings {
        drain_timeout: Duration::from_millis(200),
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 4).await;
    // A stream whose client never finishes sending.
    let (_requests, outgoing) = mpsc::channel::<SolveStreamRequest>(1);
    let _answers = server
        .client()
        .await
        .solve_stream(ReceiverStream::new(outgoing))
        .await
        .unwrap();
    let started = std::time::Instant::now();
    server.shut_down().await.unwrap();
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(200),
        "stopped after {waited:?}, before the drain timeout"
    );
}

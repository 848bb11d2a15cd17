//! The standard health service and server reflection (v1 and v1alpha).
//! Graceful shutdown is in `shutdown.rs`.

use std::time::Duration;

use crate::common::TestServer;
use prost::Message;
use prost_types::FileDescriptorProto;
use sudoku_grpc::server::{HEALTH_CHECK_CALLS, OTHER_CALLS, Settings};
use sudoku_grpc::service::Limits;
use tonic::Code;
use tonic::transport::Channel;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};
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

#[tokio::test]
async fn health_watches_cannot_take_the_slots_of_health_checks() {
    let server = TestServer::default().await;
    let mut client = HealthClient::new(server.channel().await);
    let watch = || HealthCheckRequest {
        service: String::new(),
    };
    let mut watches = Vec::new();
    for _ in 0..OTHER_CALLS {
        watches.push(client.watch(watch()).await.unwrap().into_inner());
    }
    let refused = client.watch(watch()).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(
        refused.message(),
        "server overloaded: 48 health watches and reflection calls are in flight; \
         retry with backoff"
    );
    assert_eq!(
        health_of(&server, "").await.unwrap(),
        ServingStatus::Serving,
        "checks have slots of their own"
    );
    let first = watches[0].message().await.unwrap().unwrap();
    assert_eq!(first.status(), ServingStatus::Serving);
}

/// A health call to `path` that sends its headers and never its message;
/// how the server ends it.
async fn health_call_without_message(channel: Channel, path: &'static str) -> tonic::Status {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.unwrap();
    let never = tonic::Request::new(tokio_stream::pending::<HealthCheckRequest>());
    let codec = tonic_prost::ProstCodec::<HealthCheckRequest, HealthCheckResponse>::default();
    let path = http::uri::PathAndQuery::from_static(path);
    grpc.client_streaming(never, path, codec)
        .await
        .expect_err("the server cannot answer without the message")
}

#[tokio::test]
async fn health_calls_whose_message_never_comes_give_back_their_slots_at_the_first_call_timeout() {
    let settings = Settings {
        limits: Limits {
            first_call_timeout: Duration::from_secs(2),
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 4).await;
    let channel = server.channel().await;
    let mut held: Vec<_> = (0..HEALTH_CHECK_CALLS)
        .map(|_| {
            let call = health_call_without_message(channel.clone(), "/grpc.health.v1.Health/Check");
            tokio::spawn(call)
        })
        .collect();
    held.push(tokio::spawn(health_call_without_message(
        channel.clone(),
        "/grpc.health.v1.Health/Watch",
    )));
    // Headers alone take every health check slot for a while (the probes
    // begin once the calls have surely reached the server, so that none of
    // the calls finds a probe in its slot)...
    tokio::time::sleep(Duration::from_millis(300)).await;
    let refused = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match health_of(&server, "").await {
                Err(status) if status.code() == Code::ResourceExhausted => break status,
                _ => tokio::time::sleep(Duration::from_millis(5)).await,
            }
        }
    })
    .await
    .expect("the calls without a message hold the slots until their timeout");
    assert!(
        refused.message().contains("health checks are in flight"),
        "{refused:?}"
    );
    // ...and no longer than the first-call timeout.
    for call in held {
        let status = tokio::time::timeout(Duration::from_secs(10), call)
            .await
            .expect("the server ends the call")
            .unwrap();
        assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
        assert!(
            status.message().contains("(--first-call-timeout)"),
            "{status:?}"
        );
    }
    assert_eq!(
        health_of(&server, "").await.unwrap(),
        ServingStatus::Serving
    );
}

/// A v1 reflection call that sends its headers and never a request; how
/// the server ends it. `opened` counts it once its headers are answered.
async fn reflection_without_request(
    channel: Channel,
    opened: std::sync::Arc<std::sync::atomic::AtomicUsize>,
) -> tonic::Status {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.unwrap();
    let never = tonic::Request::new(tokio_stream::pending::<v1::ServerReflectionRequest>());
    let codec =
        tonic_prost::ProstCodec::<v1::ServerReflectionRequest, v1::ServerReflectionResponse>::default();
    let path = http::uri::PathAndQuery::from_static(
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
    );
    let mut responses = grpc
        .streaming(never, path, codec)
        .await
        .expect("reflection answers with headers at once")
        .into_inner();
    opened.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    responses
        .message()
        .await
        .expect_err("no request, so no response")
}

#[tokio::test]
async fn reflection_calls_whose_request_never_comes_give_back_their_slots_at_the_first_call_timeout()
 {
    let settings = Settings {
        limits: Limits {
            first_call_timeout: Duration::from_secs(2),
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 4).await;
    let channel = server.channel().await;
    let opened = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let held: Vec<_> = (0..OTHER_CALLS)
        .map(|_| tokio::spawn(reflection_without_request(channel.clone(), opened.clone())))
        .collect();
    // Headers alone take every slot reflection shares with health
    // watches (the probe comes once every call has its headers answered,
    // well within the 2 s they may wait)...
    crate::common::eventually("every reflection call has its headers answered", || {
        opened.load(std::sync::atomic::Ordering::SeqCst) == OTHER_CALLS
    })
    .await;
    let watch = HealthCheckRequest {
        service: String::new(),
    };
    let refused = HealthClient::new(channel.clone())
        .watch(watch)
        .await
        .expect_err("the calls without a request hold every slot");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert!(
        refused
            .message()
            .contains("health watches and reflection calls are in flight"),
        "{refused:?}"
    );
    // ...and no longer than the first-call timeout.
    for call in held {
        let status = tokio::time::timeout(Duration::from_secs(10), call)
            .await
            .expect("the server ends the call")
            .unwrap();
        assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
        assert_eq!(
            status.message(),
            "no reflection request arrived within 2s of the call's headers \
             (--first-call-timeout)"
        );
    }
    let listed = reflect_v1(
        &server,
        v1::server_reflection_request::MessageRequest::ListServices(String::new()),
    )
    .await;
    assert!(
        matches!(
            listed,
            v1::server_reflection_response::MessageResponse::ListServicesResponse(_)
        ),
        "{listed:?}"
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
    assert_eq!(
        methods,
        [
            "Solve",
            "SolveStream",
            "SolveBatch",
            "SolveBatchStream",
            "Hint",
            "Explain",
            "Generate",
            "SolveVariant",
            "SolveVariantStream",
            "VariantCandidates"
        ]
    );
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

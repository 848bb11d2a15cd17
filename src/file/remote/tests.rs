//! Runs through servers in this process whose name a scripted lookup
//! resolves: a server added behind the name mid-run gets work without any
//! call failing, and a name with no address gives up after the retries.

use std::io::Cursor;
use std::net::SocketAddr;

use tokio::net::TcpListener;
use tokio::sync::Notify;

use super::*;
use crate::client::resolve::LookupFuture;
use crate::pool::WorkerPool;
use crate::server::{self, Settings};

const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// A lookup that answers every name with the addresses the test has set.
#[derive(Default)]
struct Settable {
    addresses: std::sync::Mutex<Vec<SocketAddr>>,
}

impl Lookup for Settable {
    fn lookup(&self, _host: &str, _port: u16) -> LookupFuture {
        let found: std::io::Result<Vec<SocketAddr>> = Ok(self.addresses.lock().unwrap().clone());
        Box::pin(std::future::ready(found))
    }
}

/// A server with one solver thread on 127.0.0.1, port 0, on this runtime:
/// its address, and its pool (whose counts show the work it did).
async fn start_server() -> (SocketAddr, WorkerPool) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let pool = WorkerPool::new(1, 64);
    let serving = pool.clone();
    tokio::spawn(async move {
        let settings = Settings::default();
        server::serve(listener, &settings, serving, std::future::pending::<()>()).await
    });
    (address, pool)
}

/// Options for a run through `servers` with `streams` streams and no
/// retries: any failed call ends the run.
fn options(servers: &[&str], streams: Option<usize>) -> RemoteOptions {
    RemoteOptions {
        servers: servers.iter().map(|server| server.to_string()).collect(),
        rpc: RemoteRpc::Batch(DEFAULT_BATCH),
        streams,
        retries: 0,
        connect: ConnectOptions::default(),
        grade: false,
    }
}

/// `count` copies of the classic puzzle, one per line.
fn classics(count: usize) -> Cursor<Vec<u8>> {
    Cursor::new(format!("{CLASSIC}\n").repeat(count).into_bytes())
}

#[test]
fn an_empty_list_of_servers_is_refused() {
    let refused = server_pool(&options(&[], None), Arc::new(SystemLookup));
    assert!(matches!(refused, Err(ClientError::NoServers)));
}

#[tokio::test]
async fn a_server_added_behind_the_name_mid_run_gets_work_and_nothing_is_lost() {
    // About 45 chunks of input: when the first is written, at most a dozen
    // have been read (the queues are bounded), so most are still to come.
    const PUZZLES: usize = 36_000;
    let (first, _) = start_server().await;
    let (added, added_pool) = start_server().await;
    let lookup = Arc::new(Settable::default());
    lookup.addresses.lock().unwrap().push(first);
    let options = options(&["dns:///pods:50051"], Some(2));
    let servers = server_pool(&options, lookup.clone()).unwrap();

    // Once the first chunk is written, the name resolves to both servers.
    let first_chunk = Arc::new(Notify::new());
    let grow = tokio::spawn({
        let servers = servers.clone();
        let first_chunk = first_chunk.clone();
        let lookup = lookup.clone();
        async move {
            first_chunk.notified().await;
            lookup.addresses.lock().unwrap().push(added);
            servers.refresh().await;
        }
    });
    let mut progress = |_: Progress<'_>| first_chunk.notify_one();
    let mut output = Vec::new();
    let input = classics(PUZZLES);
    let format = Arc::new(crate::file::PlainFormat);
    let run = solve_through(servers, input, &mut output, format, options, &mut progress).await;
    grow.await.unwrap();

    // Retries are off: the stream that moved did so without a failed call.
    let run = run.unwrap();
    assert_eq!(run.tally.total(), PUZZLES as u64);
    let expected: String = (1..=PUZZLES)
        .map(|line| format!("{line} Solved {SOLUTION}\n"))
        .collect();
    assert!(
        String::from_utf8(output).unwrap() == expected,
        "every answer, once, in input order"
    );
    assert!(
        added_pool.stats().completed > 0,
        "the server added behind the name got work"
    );
}

#[tokio::test]
async fn a_name_with_no_address_gives_up_after_the_retries() {
    let lookup = Arc::new(Settable::default());
    let mut options = options(&["dns:///pods:50051"], None);
    options.retries = 1;
    let servers = server_pool(&options, lookup).unwrap();
    let mut progress = |_: Progress<'_>| {};
    let mut output = Vec::new();
    let format = Arc::new(crate::file::PlainFormat);
    let run = solve_through(
        servers,
        classics(3),
        &mut output,
        format,
        options,
        &mut progress,
    );
    match run.await {
        Err(RemoteError::GaveUp {
            attempts,
            last,
            answered,
        }) => {
            assert_eq!((attempts, answered), (2, 0));
            assert_eq!(
                last,
                "cannot resolve dns:///pods:50051: the name has no addresses"
            );
        }
        other => panic!("expected to give up, got {other:?}"),
    }
    assert!(output.is_empty());
}

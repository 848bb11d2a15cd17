//! Runs through servers in this process whose name a scripted lookup
//! resolves: a server added behind the name mid-run gets work without any
//! call failing, streams that failed over to one server spread again when
//! the list changes, and a name with no address gives up after the retries.

use std::io::Cursor;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

use super::*;
use crate::client::resolve::LookupFuture;
use crate::pool::WorkerPool;
use crate::server::{self, Settings};

const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// A lookup that answers every name with the addresses the test has set,
/// and counts the lookups.
#[derive(Default)]
struct Settable {
    addresses: std::sync::Mutex<Vec<SocketAddr>>,
    lookups: AtomicUsize,
}

impl Settable {
    fn set(&self, addresses: &[SocketAddr]) {
        *self.addresses.lock().unwrap() = addresses.to_vec();
    }
}

impl Lookup for Settable {
    fn lookup(&self, _host: &str, _port: u16) -> LookupFuture {
        self.lookups.fetch_add(1, Ordering::SeqCst);
        let found: std::io::Result<Vec<SocketAddr>> = Ok(self.addresses.lock().unwrap().clone());
        Box::pin(std::future::ready(found))
    }
}

/// A server with one solver thread on 127.0.0.1, port 0, on this runtime:
/// its address, and its pool (whose counts show the work it did).
async fn start_server() -> (SocketAddr, WorkerPool) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    (address, serve_on(listener))
}

/// Serves on `listener` with one solver thread, on this runtime; the
/// server's pool.
fn serve_on(listener: TcpListener) -> WorkerPool {
    let pool = WorkerPool::new(1, 64);
    let serving = pool.clone();
    tokio::spawn(async move {
        let settings = Settings::default();
        server::serve(listener, &settings, serving, std::future::pending::<()>()).await
    });
    pool
}

/// Forwards each connection made to `listener` to `backend`, until the
/// handle is aborted: then every connection drops at once and the address
/// refuses new ones, as when a server crashes.
fn forward(listener: TcpListener, backend: SocketAddr) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        // Dropped with the task, which aborts every connection's copy.
        let mut connections = tokio::task::JoinSet::new();
        while let Ok((mut inbound, _)) = listener.accept().await {
            connections.spawn(async move {
                if let Ok(mut outbound) = TcpStream::connect(backend).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    })
}

/// Asserts that a run of `count` classics answered each once, in order.
fn assert_every_classic_answered(run: Run, output: Vec<u8>, count: usize) {
    assert_eq!(run.tally.total(), count as u64);
    let expected: String = (1..=count)
        .map(|line| format!("{line} Solved {SOLUTION}\n"))
        .collect();
    assert!(
        String::from_utf8(output).unwrap() == expected,
        "every answer, once, in input order"
    );
}

/// Waits, polling, until `done` holds; panics after ten seconds.
async fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "waited too long for {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
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
    assert_every_classic_answered(run.unwrap(), output, PUZZLES);
    assert!(
        added_pool.stats().completed > 0,
        "the server added behind the name got work"
    );
}

#[tokio::test]
async fn streams_that_failed_over_to_one_server_spread_again_when_the_list_changes() {
    const PUZZLES: usize = 40_000;
    // Three addresses in the order the name lists them: a server that stays
    // up, a proxy to a server that will seem to crash, and a replacement.
    let mut listeners = Vec::new();
    for _ in 0..3 {
        listeners.push(TcpListener::bind("127.0.0.1:0").await.unwrap());
    }
    listeners.sort_by_key(|listener| listener.local_addr().unwrap());
    let addresses: Vec<SocketAddr> = listeners.iter().map(|l| l.local_addr().unwrap()).collect();
    let [survivor, crashing, replacement] = addresses[..] else {
        unreachable!("three listeners")
    };
    let mut listeners = listeners.into_iter();
    serve_on(listeners.next().unwrap());
    let (backend, backend_pool) = start_server().await;
    let proxy = forward(listeners.next().unwrap(), backend);
    let replacement_pool = serve_on(listeners.next().unwrap());
    // The backend's one solver is kept busy, so that the puzzles stream 1
    // sends it are still unanswered when its connection drops.
    let (release, held) = std::sync::mpsc::channel::<()>();
    let _busy = backend_pool
        .try_submit(move |_| {
            let _ = held.recv();
        })
        .unwrap();

    // Two streams: stream 0's own turn is the survivor, stream 1's the
    // crashing server, and after the change, the replacement.
    let lookup = Arc::new(Settable::default());
    lookup.set(&[survivor, crashing]);
    let mut options = options(&["dns:///pods:50051"], Some(2));
    options.retries = 2;
    let servers = server_pool(&options, lookup.clone()).unwrap();
    let script = tokio::spawn({
        let servers = servers.clone();
        async move {
            wait_until("stream 1 to have puzzles waiting on the backend", || {
                backend_pool.stats().in_flight > 1
            })
            .await;
            // The crash: every connection through the proxy drops, and
            // its address refuses new ones. Stream 1 fails over to the
            // survivor; then the name lists the replacement instead.
            proxy.abort();
            lookup.set(&[survivor, replacement]);
            servers.refresh().await;
            release.send(()).unwrap();
        }
    });
    let mut progress = |_: Progress<'_>| {};
    let mut output = Vec::new();
    let format = Arc::new(crate::file::PlainFormat);
    let input = classics(PUZZLES);
    let run = solve_through(servers, input, &mut output, format, options, &mut progress);
    let run = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the run ends");
    script.await.unwrap();

    assert_every_classic_answered(run.unwrap(), output, PUZZLES);
    assert!(
        replacement_pool.stats().completed > 0,
        "the stream that failed over went back to its own turn, the replacement"
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

#[test]
fn a_run_that_stops_short_counts_in_words_that_agree() {
    let gave_up = |attempts, answered| {
        RemoteError::GaveUp {
            attempts,
            last: "x".to_string(),
            answered,
        }
        .to_string()
    };
    assert_eq!(
        gave_up(1, 1),
        "gave up after 1 failed attempt in a row (last: x); 1 puzzle was answered, in input order"
    );
    assert_eq!(
        gave_up(6, 0),
        "gave up after 6 failed attempts in a row (last: x); 0 puzzles were answered, in input order"
    );
    let protocol = RemoteError::Protocol {
        what: "y".to_string(),
        answered: 1,
    };
    assert_eq!(
        protocol.to_string(),
        "protocol error: y; 1 puzzle was answered, in input order, before it"
    );
}

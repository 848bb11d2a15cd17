//! The pool against scripted lookups, without DNS: which server each turn
//! gets as a name resolves to more, fewer or other addresses, and when a
//! call is told to move.

use std::collections::VecDeque;
use std::io;
use std::sync::atomic::AtomicUsize;

use tokio::sync::Notify;

use super::*;
use crate::client::resolve::LookupFuture;

/// A server's client in these tests: its endpoint's URI, and the serial
/// number of its making (so a kept client can be told from a new one).
type Made = (String, usize);

/// Answers each lookup with the next answer of a script, repeating the last
/// one; counts the lookups.
struct Script {
    answers: Mutex<VecDeque<Result<Vec<SocketAddr>, String>>>,
    lookups: AtomicUsize,
}

/// A scripted answer: these addresses.
fn found(addresses: &[&str]) -> Result<Vec<SocketAddr>, String> {
    Ok(addresses.iter().map(|text| text.parse().unwrap()).collect())
}

/// A scripted answer: the lookup fails.
fn failed(reason: &str) -> Result<Vec<SocketAddr>, String> {
    Err(reason.to_string())
}

impl Script {
    fn new(answers: Vec<Result<Vec<SocketAddr>, String>>) -> Arc<Script> {
        Arc::new(Script {
            answers: Mutex::new(answers.into()),
            lookups: AtomicUsize::new(0),
        })
    }

    fn lookups(&self) -> usize {
        self.lookups.load(Ordering::Relaxed)
    }
}

impl Lookup for Script {
    fn lookup(&self, _host: &str, _port: u16) -> LookupFuture {
        self.lookups.fetch_add(1, Ordering::Relaxed);
        let mut answers = self.answers.lock().unwrap();
        let answer = if answers.len() > 1 {
            answers.pop_front()
        } else {
            answers.front().cloned()
        };
        let answer = answer.expect("a scripted answer");
        Box::pin(std::future::ready(answer.map_err(io::Error::other)))
    }
}

/// A pool of `targets` whose names `lookup` resolves.
fn pool(targets: &[&str], lookup: Arc<dyn Lookup>) -> ServerPool<Made> {
    let targets: Vec<String> = targets.iter().map(|target| target.to_string()).collect();
    let made = AtomicUsize::new(0);
    let make = move |endpoint: Endpoint| {
        let serial = made.fetch_add(1, Ordering::Relaxed);
        (endpoint.uri().to_string(), serial)
    };
    ServerPool::new(&targets, ConnectOptions::default(), lookup, make).unwrap()
}

/// The URIs of the servers of turns `0..turns`.
async fn uris(pool: &ServerPool<Made>, turns: usize) -> Vec<String> {
    let mut uris = Vec::with_capacity(turns);
    for turn in 0..turns {
        uris.push(pool.server(turn).await.unwrap().client.0);
    }
    uris
}

#[tokio::test]
async fn a_list_of_addresses_is_used_round_robin_as_always_and_never_looked_up() {
    let script = Script::new(vec![failed("no lookups expected")]);
    let pool = pool(&["a:1", "http://b:2"], script.clone());
    let expected = ["http://a:1/", "http://b:2/", "http://a:1/", "http://b:2/"];
    assert_eq!(uris(&pool, 4).await, expected);
    let mut first = pool.server(0).await.unwrap();
    pool.refresh().await;
    pool.refresh_after_failure().await;
    assert_eq!(script.lookups(), 0);
    assert!(!pool.moved(1, &mut first));
    assert_eq!(pool.server_count(), 2);
}

#[tokio::test]
async fn re_resolving_adds_and_drops_addresses_and_keeps_the_clients_of_those_that_stay() {
    let script = Script::new(vec![
        found(&["10.0.0.1:5", "10.0.0.2:5"]),
        found(&["10.0.0.3:5", "10.0.0.2:5"]),
    ]);
    let pool = pool(&["dns:///pods:5"], script.clone());
    assert_eq!(
        uris(&pool, 2).await,
        ["http://10.0.0.1:5/", "http://10.0.0.2:5/"]
    );
    assert_eq!(script.lookups(), 1, "resolved when first needed, once");
    let staying = pool.server(1).await.unwrap().client;

    pool.refresh().await;
    assert_eq!(script.lookups(), 2);
    assert_eq!(
        uris(&pool, 2).await,
        ["http://10.0.0.2:5/", "http://10.0.0.3:5/"]
    );
    assert_eq!(
        pool.server(0).await.unwrap().client,
        staying,
        "the address that stayed kept its client"
    );
    assert_eq!(pool.server(1).await.unwrap().client.1, 2, "a new client");
}

#[tokio::test]
async fn a_call_moves_when_its_turn_points_at_another_server_and_only_then() {
    let script = Script::new(vec![
        found(&["10.0.0.1:5", "10.0.0.2:5"]),
        found(&["10.0.0.1:5", "10.0.0.2:5", "10.0.0.3:5"]),
    ]);
    let pool = pool(&["dns:///pods:5"], script.clone());
    let mut picked = Vec::new();
    for turn in 0..3 {
        picked.push(pool.server(turn).await.unwrap());
    }
    assert!(!pool.moved(2, &mut picked[2]), "nothing changed yet");

    pool.refresh().await;
    assert!(!pool.moved(0, &mut picked[0]), "turn 0 is still 10.0.0.1");
    assert!(!pool.moved(1, &mut picked[1]), "turn 1 is still 10.0.0.2");
    assert!(pool.moved(2, &mut picked[2]), "turn 2 is now 10.0.0.3");

    // The same addresses again: no change, so no call moves.
    let generation = pool.server(0).await.unwrap().generation;
    pool.refresh().await;
    assert_eq!(script.lookups(), 3);
    assert_eq!(pool.server(0).await.unwrap().generation, generation);
}

#[tokio::test]
async fn a_failed_resolution_keeps_the_addresses_the_name_had() {
    let script = Script::new(vec![found(&["10.0.0.1:5"]), failed("temporary failure")]);
    let pool = pool(&["dns:///pods:5"], script.clone());
    assert_eq!(uris(&pool, 1).await, ["http://10.0.0.1:5/"]);
    pool.refresh().await;
    assert_eq!(script.lookups(), 2);
    assert_eq!(
        uris(&pool, 2).await,
        ["http://10.0.0.1:5/", "http://10.0.0.1:5/"]
    );
}

#[tokio::test]
async fn with_no_address_at_all_a_turn_fails_saying_which_name_and_why() {
    let script = Script::new(vec![failed("no such host")]);
    let names_only = pool(&["dns:///pods:5"], script.clone());
    let error = names_only.server(0).await.err().expect("no server");
    assert_eq!(
        error.to_string(),
        "cannot resolve dns:///pods:5: no such host"
    );

    // Beside a fixed address, the name that does not resolve is no server.
    let mixed = pool(&["a:1", "dns:///pods:5"], script);
    assert_eq!(uris(&mixed, 2).await, ["http://a:1/", "http://a:1/"]);
}

#[tokio::test]
async fn a_refused_target_or_an_empty_list_is_an_error_at_once() {
    let script: Arc<dyn Lookup> = Script::new(vec![failed("unused")]);
    let targets = ["dns://pods:5".to_string()];
    let made = |endpoint: Endpoint| endpoint.uri().to_string();
    let refused = ServerPool::new(&targets, ConnectOptions::default(), script.clone(), made);
    assert!(
        matches!(refused, Err(ClientError::InvalidAddress { .. })),
        "a dns:// target with two slashes"
    );
    let empty = ServerPool::new(&[], ConnectOptions::default(), script, made);
    assert!(matches!(empty, Err(ClientError::NoServers)));
}

/// A lookup that answers only once its gate is opened.
struct Gated {
    gate: Arc<Notify>,
    lookups: AtomicUsize,
}

impl Lookup for Gated {
    fn lookup(&self, _host: &str, port: u16) -> LookupFuture {
        self.lookups.fetch_add(1, Ordering::Relaxed);
        let gate = self.gate.clone();
        Box::pin(async move {
            gate.notified().await;
            Ok::<_, io::Error>(vec![SocketAddr::from(([10, 0, 0, 1], port))])
        })
    }
}

#[tokio::test]
async fn turns_waiting_for_the_first_resolution_share_it() {
    let lookup = Arc::new(Gated {
        gate: Arc::new(Notify::new()),
        lookups: AtomicUsize::new(0),
    });
    let pool = pool(&["dns:///pods:5"], lookup.clone());
    let open = async { lookup.gate.notify_one() };
    let (first, second, third, ()) =
        tokio::join!(pool.server(0), pool.server(1), pool.server(2), open);
    for server in [first, second, third] {
        assert_eq!(server.unwrap().client.0, "http://10.0.0.1:5/");
    }
    assert_eq!(lookup.lookups.load(Ordering::Relaxed), 1);
}

#[test]
fn resolving_after_failures_waits_for_the_gap() {
    let at = Instant::now();
    assert!(resolution_due(None, at, MIN_RESOLVE_GAP), "never resolved");
    let soon = at + Duration::from_millis(999);
    assert!(!resolution_due(Some(at), soon, MIN_RESOLVE_GAP));
    assert!(resolution_due(
        Some(at),
        at + MIN_RESOLVE_GAP,
        MIN_RESOLVE_GAP
    ));
    assert!(
        !resolution_due(Some(soon), at, MIN_RESOLVE_GAP),
        "a clock read before the resolution is not after the gap"
    );
}

#[tokio::test]
async fn after_a_failure_a_pool_never_resolved_resolves() {
    let script = Script::new(vec![found(&["10.0.0.1:5"])]);
    let pool = pool(&["dns:///pods:5"], script.clone());
    pool.refresh_after_failure().await;
    assert_eq!(script.lookups(), 1);
    assert_eq!(pool.server_count(), 1);
}

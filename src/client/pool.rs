//! The servers a run spreads its calls over: the fixed addresses it was
//! given, and the current addresses of its `dns:` names.
//!
//! A caller asks for the server of a *turn* ([`ServerPool::server`]):
//! stream `n` of a file run has turn `n` as its own, moves on one turn
//! after each failed call, and goes back to its own turn whenever the list
//! changes; a turn picks from the current list round-robin.
//! A list of fixed addresses never changes, so it is used exactly as a
//! list of servers always was.
//!
//! A name is resolved when first needed, again after a failed call (at most
//! once per [`MIN_RESOLVE_GAP`], however many calls fail at once) and, with
//! [`ServerPool::refresh_periodically`], every [`RESOLVE_INTERVAL`], so that
//! servers added behind the name (pods an autoscaler started) are found. A
//! resolution that fails keeps the addresses the name had, as gRPC's own
//! resolver does; calls to servers that are gone fail and move on. An
//! address keeps its client, and so its connection, for as long as the
//! name resolves to it.
//!
//! Every change of the list bumps a generation: that is how a long-lived
//! call learns that its turn now points at another server
//! ([`ServerPool::moved`]), so that a new server gets work without waiting
//! for a call to fail.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tonic::transport::Endpoint;

use super::resolve::{Lookup, resolve};
use super::target::{DnsName, Target};
use super::{ClientError, ConnectOptions, endpoint};

/// How often [`ServerPool::refresh_periodically`] resolves the names again.
pub const RESOLVE_INTERVAL: Duration = Duration::from_secs(30);

/// The least time between two resolutions after failed calls.
pub const MIN_RESOLVE_GAP: Duration = Duration::from_secs(1);

/// A server picked from the pool.
#[derive(Clone)]
pub struct Server<T> {
    /// The address as given, or `IP:PORT` for an address of a name.
    pub label: Arc<str>,
    /// The client the pool made for it.
    pub client: T,
    /// The pool's generation when it was picked.
    generation: u64,
}

/// Fixed servers and the addresses of names, each with a client made once
/// (see the module documentation). Clones share the same servers.
pub struct ServerPool<T> {
    inner: Arc<Inner<T>>,
}

impl<T> Clone for ServerPool<T> {
    fn clone(&self) -> Self {
        ServerPool {
            inner: self.inner.clone(),
        }
    }
}

/// Makes the client of one server from its endpoint.
type MakeClient<T> = Box<dyn Fn(Endpoint) -> T + Send + Sync>;

/// One target's part of a resolution: `None` for a fixed address, else
/// the name's addresses or why there are none.
type Resolution = Option<Result<Vec<SocketAddr>, ClientError>>;

struct Inner<T> {
    targets: Vec<Target>,
    options: ConnectOptions,
    lookup: Arc<dyn Lookup>,
    make: MakeClient<T>,
    state: Mutex<State<T>>,
    /// A copy of `State::generation`, read without the lock.
    generation: AtomicU64,
    /// Held while the names are being resolved: one resolution at a time.
    resolving: tokio::sync::Mutex<()>,
    /// The periodic resolution, stopped with the pool.
    refresher: Mutex<Option<tokio::task::AbortHandle>>,
}

#[derive(Clone)]
struct Entry<T> {
    label: Arc<str>,
    client: T,
}

struct State<T> {
    /// Per target, in order: a fixed address's one entry, or the entries
    /// of a name's addresses as last resolved.
    by_target: Vec<Vec<Entry<T>>>,
    /// All of them, in target order: what turns pick from.
    servers: Vec<Entry<T>>,
    generation: u64,
    resolved_at: Option<Instant>,
    /// The name, and why, of the last resolution that failed; `None` when
    /// the last one succeeded for every name.
    failure: Option<(String, String)>,
}

impl<T: Clone + Send + Sync + 'static> ServerPool<T> {
    /// A pool of `targets` (URLs, `host:port` or `dns:` targets, see
    /// [`super::target`]), reached as `options` say, names resolved by
    /// `lookup`, each server's client made by `make`. Fails on an empty
    /// list or an unusable entry; names are resolved later, when first
    /// needed.
    pub fn new(
        targets: &[String],
        options: ConnectOptions,
        lookup: Arc<dyn Lookup>,
        make: impl Fn(Endpoint) -> T + Send + Sync + 'static,
    ) -> Result<ServerPool<T>, ClientError> {
        if targets.is_empty() {
            return Err(ClientError::NoServers);
        }
        let targets = targets
            .iter()
            .map(|target| Target::parse(target))
            .collect::<Result<Vec<_>, _>>()?;
        let mut by_target = Vec::with_capacity(targets.len());
        for target in &targets {
            by_target.push(match target {
                Target::Address(address) => vec![Entry {
                    label: Arc::from(address.as_str()),
                    client: make(endpoint(address, &options)?),
                }],
                Target::Dns(_) => Vec::new(),
            });
        }
        let state = State {
            servers: by_target.concat(),
            by_target,
            generation: 0,
            resolved_at: None,
            failure: None,
        };
        Ok(ServerPool {
            inner: Arc::new(Inner {
                targets,
                options,
                lookup,
                make: Box::new(make),
                state: Mutex::new(state),
                generation: AtomicU64::new(0),
                resolving: tokio::sync::Mutex::new(()),
                refresher: Mutex::new(None),
            }),
        })
    }

    /// How many times the list has changed: a caller that remembers it
    /// learns when the list changes.
    pub fn generation(&self) -> u64 {
        self.inner.generation.load(Ordering::Acquire)
    }

    /// How many servers the pool has now.
    pub fn server_count(&self) -> usize {
        self.inner.state().servers.len()
    }

    /// The server for `turn`: turn modulo the number of servers, in target
    /// order. Resolves the names first if they never were. Fails when
    /// there is no server: no fixed address, and no name resolved.
    pub async fn server(&self, turn: usize) -> Result<Server<T>, ClientError> {
        self.ensure_resolved().await;
        let state = self.inner.state();
        let Some(entry) = state.turn(turn) else {
            return Err(self.inner.no_servers(&state));
        };
        Ok(Server {
            label: entry.label.clone(),
            client: entry.client.clone(),
            generation: state.generation,
        })
    }

    /// Whether a call on `current`, picked for `turn`, should end and pick
    /// again: the list changed since it was picked, and `turn` now points
    /// at another server. Otherwise `current` is brought up to date, so
    /// that the next change is the one looked at. A lock-free check while
    /// the list does not change.
    pub fn moved(&self, turn: usize, current: &mut Server<T>) -> bool {
        if self.inner.generation.load(Ordering::Acquire) == current.generation {
            return false;
        }
        let state = self.inner.state();
        current.generation = state.generation;
        state
            .turn(turn)
            .is_some_and(|entry| entry.label != current.label)
    }

    /// Whether `turn` picks `server` from the list as it is now.
    pub fn picks(&self, turn: usize, server: &Server<T>) -> bool {
        let state = self.inner.state();
        state
            .turn(turn)
            .is_some_and(|entry| entry.label == server.label)
    }

    /// Resolves every name that was never resolved.
    pub async fn ensure_resolved(&self) {
        self.refresh_if(|resolved_at, _| resolved_at.is_none())
            .await;
    }

    /// After a failed call: resolves the names again, unless that was done
    /// less than [`MIN_RESOLVE_GAP`] ago.
    pub async fn refresh_after_failure(&self) {
        let due = |resolved_at, now| resolution_due(resolved_at, now, MIN_RESOLVE_GAP);
        self.refresh_if(due).await;
    }

    /// Resolves every name now (once any resolution under way has ended).
    pub async fn refresh(&self) {
        self.refresh_if(|_, _| true).await;
    }

    /// Resolves the names again every [`RESOLVE_INTERVAL`] in a task of its
    /// own, until the pool is dropped; nothing for a pool without names.
    /// Must be called within a Tokio runtime.
    pub fn refresh_periodically(&self) {
        if !self.inner.has_names() {
            return;
        }
        let pool = Arc::downgrade(&self.inner);
        let task = tokio::spawn(async move {
            loop {
                tokio::time::sleep(RESOLVE_INTERVAL).await;
                let Some(inner) = pool.upgrade() else {
                    return;
                };
                ServerPool { inner }.refresh().await;
            }
        });
        let mut refresher = lock(&self.inner.refresher);
        if let Some(previous) = refresher.replace(task.abort_handle()) {
            previous.abort();
        }
    }

    /// Resolves every name if `due` says so, given when they last were (if
    /// ever) and now; asked again once any resolution under way has ended,
    /// so that calls failing together resolve once.
    async fn refresh_if(&self, due: impl Fn(Option<Instant>, Instant) -> bool) {
        let inner = &self.inner;
        let resolved_at = inner.state().resolved_at;
        if !inner.has_names() || !due(resolved_at, Instant::now()) {
            return;
        }
        let _one_at_a_time = inner.resolving.lock().await;
        let resolved_at = inner.state().resolved_at;
        if !due(resolved_at, Instant::now()) {
            return;
        }
        let mut found = Vec::with_capacity(inner.targets.len());
        for target in &inner.targets {
            found.push(match target {
                Target::Address(_) => None,
                Target::Dns(name) => Some(resolve(name, inner.lookup.as_ref()).await),
            });
        }
        inner.take_in(found);
    }
}

impl<T: Clone> Inner<T> {
    fn state(&self) -> MutexGuard<'_, State<T>> {
        lock(&self.state)
    }

    fn has_names(&self) -> bool {
        self.targets
            .iter()
            .any(|target| matches!(target, Target::Dns(_)))
    }

    /// Takes in a resolution (per target; `None` for a fixed address): a
    /// name that resolved gets its new addresses, keeping the clients of
    /// those it had; a name that did not keeps the addresses it had.
    fn take_in(&self, found: Vec<Resolution>) {
        let mut guard = self.state();
        let state = &mut *guard;
        let mut failure = None;
        let resolutions = self.targets.iter().zip(found).zip(&mut state.by_target);
        for ((target, found), entries) in resolutions {
            let (Target::Dns(name), Some(found)) = (target, found) else {
                continue;
            };
            let old = entries.as_slice();
            match found.and_then(|addresses| self.entries(name, &addresses, old)) {
                Ok(fresh) => *entries = fresh,
                Err(error) => {
                    tracing::debug!(%error, "keeping the addresses the name had");
                    if failure.is_none() {
                        failure = Some((name.to_string(), reason(error)));
                    }
                }
            }
        }
        let servers = state.by_target.concat();
        let changed = servers.len() != state.servers.len()
            || servers
                .iter()
                .zip(&state.servers)
                .any(|(new, old)| new.label != old.label);
        state.servers = servers;
        state.resolved_at = Some(Instant::now());
        state.failure = failure;
        if changed {
            state.generation += 1;
            self.generation.store(state.generation, Ordering::Release);
            tracing::debug!(servers = state.servers.len(), "the servers changed");
        }
    }

    /// The entries of `name`'s `addresses`: those in `old` as they were,
    /// with their clients, and a new client for each new address.
    fn entries(
        &self,
        name: &DnsName,
        addresses: &[SocketAddr],
        old: &[Entry<T>],
    ) -> Result<Vec<Entry<T>>, ClientError> {
        let entry = |address: &SocketAddr| -> Result<Entry<T>, ClientError> {
            let label = address.to_string();
            if let Some(kept) = old.iter().find(|known| *known.label == *label) {
                return Ok(kept.clone());
            }
            Ok(Entry {
                label: label.into(),
                client: (self.make)(name.endpoint(*address, &self.options)?),
            })
        };
        addresses.iter().map(entry).collect()
    }

    /// The error for a pool without a server: every target is a name, and
    /// none has resolved.
    fn no_servers(&self, state: &State<T>) -> ClientError {
        let (name, reason) = state.failure.clone().unwrap_or_else(|| {
            let names: Vec<String> = self.targets.iter().map(describe).collect();
            (names.join(", "), "no addresses yet".to_string())
        });
        ClientError::Resolve { name, reason }
    }
}

impl<T> State<T> {
    /// The server of `turn`: turn modulo the number of servers, if any.
    fn turn(&self, turn: usize) -> Option<&Entry<T>> {
        match self.servers.len() {
            0 => None,
            len => Some(&self.servers[turn % len]),
        }
    }
}

impl<T> Drop for Inner<T> {
    fn drop(&mut self) {
        let refresher = self
            .refresher
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(task) = refresher.take() {
            task.abort();
        }
    }
}

/// A target as written.
fn describe(target: &Target) -> String {
    match target {
        Target::Address(address) => address.clone(),
        Target::Dns(name) => name.to_string(),
    }
}

/// Why a resolution failed, without the name (the caller adds it).
fn reason(error: ClientError) -> String {
    match error {
        ClientError::Resolve { reason, .. } => reason,
        other => other.to_string(),
    }
}

/// Locks `mutex`; a panic elsewhere while it was held leaves nothing half
/// done here, so a poisoned lock is used as it is.
fn lock<S>(mutex: &Mutex<S>) -> MutexGuard<'_, S> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether names last resolved at `resolved_at` (if ever) may be resolved
/// again at `now`, at most once per `gap`.
fn resolution_due(resolved_at: Option<Instant>, now: Instant, gap: Duration) -> bool {
    resolved_at.is_none_or(|at| now.saturating_duration_since(at) >= gap)
}

#[cfg(test)]
mod tests;

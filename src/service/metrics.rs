//! What the service counts, for Prometheus.
//!
//! [`Metrics`] owns a registry with the service's counters, gauges and the
//! solve-time histogram; the handlers record into it and the server's
//! metrics endpoint renders it ([`Metrics::render`]) in the Prometheus text
//! format. Recording is cheap enough for the hot path: label lookups happen
//! once, when the metrics are made, and a stream records a whole batch of
//! answers at a time ([`PuzzleTally`]).
//!
//! The pool's gauges (queue depth, jobs in flight) are read from the pool
//! when the endpoint is scraped, so they cost nothing between scrapes.

use std::sync::Arc;

use prometheus::core::Collector;
use prometheus::local::LocalHistogram;
use prometheus::{
    Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, Opts, Registry, TextEncoder,
};
use tonic::Code;

use super::convert::Solved;
use super::error::ServiceError;
use super::rpc::Rpc;
use crate::domain::Outcome;
use crate::domain::logic::Level;
use crate::pool::PoolStats;

/// A puzzle's label in `sudoku_puzzles_total`: its [`Outcome`], or why it
/// got none. Slots `0..Outcome::ALL.len()` are the outcomes by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PuzzleLabel(usize);

impl PuzzleLabel {
    /// Refused because the server was full (unary calls only: a stream
    /// waits instead).
    const SHED: PuzzleLabel = PuzzleLabel(Outcome::ALL.len());
    /// Dropped because the client went away or the deadline passed, where
    /// it is counted at all: a unary call dropped before its answer is
    /// counted in `sudoku_calls_total` only.
    const CANCELLED: PuzzleLabel = PuzzleLabel(Outcome::ALL.len() + 1);
    /// How many labels there are.
    const COUNT: usize = Outcome::ALL.len() + 2;

    fn name(self) -> &'static str {
        match Outcome::ALL.get(self.0) {
            Some(Outcome::Solved) => "solved",
            Some(Outcome::MultipleSolutions) => "multiple_solutions",
            Some(Outcome::NoSolution) => "no_solution",
            Some(Outcome::Invalid) => "invalid",
            Some(Outcome::GaveUp) => "gave_up",
            Some(Outcome::Failed) => "failed",
            None if self == PuzzleLabel::SHED => "shed",
            None => "cancelled",
        }
    }

    fn of(answer: &Result<Solved, ServiceError>) -> PuzzleLabel {
        PuzzleLabel::of_outcome(answer.as_ref().map(Solved::outcome))
    }

    fn of_outcome(answer: Result<Outcome, &ServiceError>) -> PuzzleLabel {
        match answer {
            Ok(outcome) => PuzzleLabel(outcome.index()),
            Err(error) if error.is_shed() => PuzzleLabel::SHED,
            Err(ServiceError::Cancelled | ServiceError::DeadlineExceeded) => PuzzleLabel::CANCELLED,
            Err(error) => PuzzleLabel(error.outcome().index()),
        }
    }
}

/// The service's metrics and the registry that renders them.
pub struct Metrics {
    registry: Registry,
    calls: IntCounterVec,
    /// `puzzles[rpc][label]`, looked up once.
    puzzles: [[IntCounter; PuzzleLabel::COUNT]; Rpc::COUNT],
    shed: [IntCounter; Rpc::COUNT],
    solve_seconds: Histogram,
    streams_open: IntGauge,
    streams_refused: IntCounter,
    pool: PoolGauges,
    connections: ConnectionMetrics,
    inflight_bytes: IntGauge,
    batch_inflight_bytes: IntGauge,
    generated: [IntCounter; Level::ALL.len() + 1],
    generate_attempts: IntCounter,
}

/// What becomes of client connections.
struct ConnectionMetrics {
    open: IntGauge,
    refused: IntCounter,
    idle_closed: IntCounter,
    tls_failed: IntCounter,
    received: IntCounter,
    sent: IntCounter,
}

/// The pool's gauges, set from its stats at each scrape.
struct PoolGauges {
    workers: IntGauge,
    queue_capacity: IntGauge,
    queued: IntGauge,
    running: IntGauge,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// Fresh metrics, all zero, in their own registry.
    pub fn new() -> Metrics {
        let registry = Registry::new();
        let calls = register(
            &registry,
            IntCounterVec::new(
                Opts::new(
                    "sudoku_calls_total",
                    "Finished calls by RPC and gRPC status code (CANCELLED: the client \
                     went away; DEADLINE_EXCEEDED: its deadline passed first).",
                ),
                &["rpc", "code"],
            ),
        );
        Metrics {
            calls,
            puzzles: puzzle_counters(&registry),
            shed: shed_counters(&registry),
            solve_seconds: solve_histogram(&registry),
            streams_open: gauge(
                &registry,
                "sudoku_streams_open",
                "SolveStream, SolveBatchStream and Generate calls open now.",
            ),
            streams_refused: register(
                &registry,
                IntCounter::new(
                    "sudoku_streams_refused_total",
                    "SolveStream and Generate calls refused because --max-open-streams were open.",
                ),
            ),
            pool: PoolGauges::new(&registry),
            connections: ConnectionMetrics::new(&registry),
            inflight_bytes: gauge(
                &registry,
                "sudoku_inflight_bytes",
                "Bytes charged to --max-inflight-bytes now: puzzles in flight and their answers.",
            ),
            batch_inflight_bytes: gauge(
                &registry,
                "sudoku_batch_inflight_bytes",
                "Bytes SolveBatchStreams are charged now, against a budget of their own.",
            ),
            generated: generated_counters(&registry),
            generate_attempts: register(
                &registry,
                IntCounter::new(
                    "sudoku_generate_attempts_total",
                    "Puzzles Generate made and graded, kept or not.",
                ),
            ),
            registry,
        }
    }

    /// Counts a puzzle Generate sent, by level.
    pub fn generated(&self, level: Option<Level>) {
        self.generated[level.map_or(Level::ALL.len(), |level| level as usize)].inc();
    }

    /// Counts `attempts` that Generate made.
    pub fn generate_attempts(&self, attempts: u64) {
        self.generate_attempts.inc_by(attempts);
    }

    /// Counts a finished call by its status code.
    pub fn call_finished(&self, rpc: Rpc, code: Code) {
        self.calls
            .with_label_values(&[rpc.label(), crate::pb::code_name(code)])
            .inc();
    }

    /// A tally of puzzle answers for `rpc`, added to the metrics when dropped.
    pub fn tally(&self, rpc: Rpc) -> PuzzleTally<'_> {
        PuzzleTally {
            metrics: self,
            rpc,
            counts: [0; PuzzleLabel::COUNT],
            solve_seconds: self.solve_seconds.local(),
        }
    }

    /// Marks a stream open until the returned guard is dropped.
    pub fn stream_opened(self: &Arc<Self>) -> StreamGuard {
        self.streams_open.inc();
        StreamGuard(self.clone())
    }

    /// Counts a call refused before its handler because the server was
    /// full (its end is counted where every call's is: the call layer).
    pub fn call_shed(&self, rpc: Rpc) {
        self.shed[rpc as usize].inc();
    }

    /// Marks a connection open until the returned guard is dropped.
    pub fn connection_opened(self: &Arc<Self>) -> ConnectionGauge {
        self.connections.open.inc();
        ConnectionGauge(self.clone())
    }

    /// Counts a connection closed at once because `--max-connections` were
    /// open.
    pub fn connection_refused(&self) {
        self.connections.refused.inc();
    }

    /// Counts a connection closed because it opened no call in time.
    pub fn connection_idle_closed(&self) {
        self.connections.idle_closed.inc();
    }

    /// Counts bytes read from a client connection.
    pub fn connection_received(&self, bytes: usize) {
        self.connections.received.inc_by(bytes as u64);
    }

    /// Counts bytes written to a client connection.
    pub fn connection_sent(&self, bytes: usize) {
        self.connections.sent.inc_by(bytes as u64);
    }

    /// Counts a TLS handshake that failed or did not finish in time.
    pub fn tls_handshake_failed(&self) {
        self.connections.tls_failed.inc();
    }

    /// Counts a stream (SolveStream or Generate) refused at the
    /// open-streams cap.
    pub fn stream_refused(&self, rpc: Rpc) {
        self.streams_refused.inc();
        self.shed[rpc as usize].inc();
    }

    /// The metrics in the Prometheus text format, with the pool's gauges
    /// set from `pool` and the byte budgets' from `inflight_bytes`
    /// (SolveStreams', then SolveBatchStreams') first.
    pub fn render(&self, pool: PoolStats, inflight_bytes: (usize, usize)) -> String {
        self.pool.set(pool);
        let gauge = |bytes: usize| i64::try_from(bytes).unwrap_or(i64::MAX);
        self.inflight_bytes.set(gauge(inflight_bytes.0));
        self.batch_inflight_bytes.set(gauge(inflight_bytes.1));
        TextEncoder::new()
            .encode_to_string(&self.registry.gather())
            .unwrap_or_else(|error| format!("# cannot encode metrics: {error}\n"))
    }
}

/// `sudoku_puzzles_total`, one counter per RPC and label.
fn puzzle_counters(registry: &Registry) -> [[IntCounter; PuzzleLabel::COUNT]; Rpc::COUNT] {
    let by_label = register(
        registry,
        IntCounterVec::new(
            Opts::new(
                "sudoku_puzzles_total",
                "Puzzles answered, by RPC and outcome.",
            ),
            &["rpc", "outcome"],
        ),
    );
    Rpc::ALL.map(|rpc| {
        std::array::from_fn(|slot| {
            by_label.with_label_values(&[rpc.label(), PuzzleLabel(slot).name()])
        })
    })
}

/// `sudoku_generated_total`, one counter per level, and one labelled
/// `ungraded` for puzzles sent without a grade.
fn generated_counters(registry: &Registry) -> [IntCounter; Level::ALL.len() + 1] {
    let by_level = register(
        registry,
        IntCounterVec::new(
            Opts::new(
                "sudoku_generated_total",
                "Puzzles Generate sent, by level (ungraded: sent without a grade).",
            ),
            &["level"],
        ),
    );
    let [easy, medium, hard, diabolical, extreme] = Level::ALL.map(|level| level.name());
    [easy, medium, hard, diabolical, extreme, "ungraded"]
        .map(|name| by_level.with_label_values(&[name]))
}

/// `sudoku_shed_total`, one counter per RPC.
fn shed_counters(registry: &Registry) -> [IntCounter; Rpc::COUNT] {
    let by_rpc = register(
        registry,
        IntCounterVec::new(
            Opts::new(
                "sudoku_shed_total",
                "Requests refused with RESOURCE_EXHAUSTED because the server was full.",
            ),
            &["rpc"],
        ),
    );
    Rpc::ALL.map(|rpc| by_rpc.with_label_values(&[rpc.label()]))
}

/// `sudoku_solve_duration_seconds`.
fn solve_histogram(registry: &Registry) -> Histogram {
    register(
        registry,
        Histogram::with_opts(
            HistogramOpts::new(
                "sudoku_solve_duration_seconds",
                "Time a worker spent parsing and solving one puzzle.",
            )
            .buckets(vec![
                5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 1e-2, 0.1, 1.0,
            ]),
        ),
    )
}

/// A registered gauge.
fn gauge(registry: &Registry, name: &str, help: &str) -> IntGauge {
    register(registry, IntGauge::new(name, help))
}

impl ConnectionMetrics {
    fn new(registry: &Registry) -> ConnectionMetrics {
        let counter = |name: &str, help: &str| register(registry, IntCounter::new(name, help));
        ConnectionMetrics {
            open: gauge(
                registry,
                "sudoku_connections_open",
                "Client connections open now.",
            ),
            refused: counter(
                "sudoku_connections_refused_total",
                "Connections closed as soon as accepted because --max-connections were open.",
            ),
            idle_closed: counter(
                "sudoku_connections_idle_closed_total",
                "Connections closed because they opened no call within --first-call-timeout.",
            ),
            tls_failed: counter(
                "sudoku_tls_handshakes_failed_total",
                "TLS handshakes refused or not finished in time.",
            ),
            received: counter(
                "sudoku_connection_received_bytes_total",
                "HTTP/2 bytes read from client connections (under TLS, once decrypted): \
                 requests on the wire, framing and compression included.",
            ),
            sent: counter(
                "sudoku_connection_sent_bytes_total",
                "HTTP/2 bytes written to client connections (under TLS, before encryption).",
            ),
        }
    }
}

/// Keeps `sudoku_connections_open` counting a connection until dropped.
pub struct ConnectionGauge(Arc<Metrics>);

impl Drop for ConnectionGauge {
    fn drop(&mut self) {
        self.0.connections.open.dec();
    }
}

impl PoolGauges {
    fn new(registry: &Registry) -> PoolGauges {
        PoolGauges {
            workers: gauge(registry, "sudoku_pool_workers", "Solver threads."),
            queue_capacity: gauge(
                registry,
                "sudoku_pool_queue_capacity",
                "Jobs that may wait for a solver thread (--queue-depth); a stream job \
                 holds up to 64 puzzles.",
            ),
            queued: gauge(
                registry,
                "sudoku_pool_queued_jobs",
                "Jobs waiting for a solver thread (queue depth now).",
            ),
            running: gauge(
                registry,
                "sudoku_pool_running_jobs",
                "Jobs being solved now.",
            ),
        }
    }

    fn set(&self, pool: PoolStats) {
        let to_gauge = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        self.workers.set(to_gauge(pool.workers));
        self.queue_capacity.set(to_gauge(pool.queue_depth));
        self.running.set(to_gauge(pool.running));
        self.queued
            .set(to_gauge(pool.in_flight.saturating_sub(pool.running)));
    }
}

/// Registers a new metric; its name and labels are constants, so failing
/// here is a programming error.
fn register<C: Collector + Clone + 'static>(registry: &Registry, made: prometheus::Result<C>) -> C {
    let collector = made.expect("metric names and labels are valid");
    registry
        .register(Box::new(collector.clone()))
        .expect("metric names are unique and valid");
    collector
}

/// Counts answers to puzzles of one RPC locally; adds them to the shared
/// metrics when dropped.
pub struct PuzzleTally<'a> {
    metrics: &'a Metrics,
    rpc: Rpc,
    counts: [u64; PuzzleLabel::COUNT],
    solve_seconds: LocalHistogram,
}

impl PuzzleTally<'_> {
    /// Records one answer: its outcome and, when solved, the solve time.
    pub fn record(&mut self, answer: &Result<Solved, ServiceError>) {
        let label = PuzzleLabel::of(answer);
        self.count(label);
        if let Ok(solved) = answer {
            self.solve_seconds.observe(solved.elapsed().as_secs_f64());
        }
    }

    /// Records the puzzle of a Hint or Explain call: its outcome, or the
    /// error that replaced it (no solve time: the call's time is mostly
    /// the logical solver's).
    pub fn record_outcome(&mut self, answer: Result<Outcome, &ServiceError>) {
        self.count(PuzzleLabel::of_outcome(answer));
    }

    fn count(&mut self, label: PuzzleLabel) {
        self.counts[label.0] += 1;
        if label == PuzzleLabel::SHED {
            self.metrics.shed[self.rpc as usize].inc();
        }
    }
}

impl Drop for PuzzleTally<'_> {
    fn drop(&mut self) {
        let counters = &self.metrics.puzzles[self.rpc as usize];
        for (counter, &count) in counters.iter().zip(&self.counts) {
            if count > 0 {
                counter.inc_by(count);
            }
        }
        self.solve_seconds.flush();
    }
}

/// Keeps `sudoku_streams_open` counting a stream until dropped.
pub struct StreamGuard(Arc<Metrics>);

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.0.streams_open.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::PuzzleError;
    use crate::pool::{CancelCheck, QueueFull};

    const CLASSIC: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn sample(text: &str, name: &str) -> f64 {
        text.lines()
            .find_map(|line| line.strip_prefix(name)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("no sample {name} in\n{text}"))
    }

    #[test]
    fn tallies_land_in_the_rendered_counters() {
        let metrics = Metrics::new();
        {
            let mut tally = metrics.tally(Rpc::SolveStream);
            let solved = super::super::convert::solve_job(
                CLASSIC,
                false,
                crate::domain::TimeLimits::NONE,
                &CancelCheck(&|| false),
            );
            tally.record(&solved.map_err(ServiceError::from));
            tally.record(&Err(PuzzleError::WrongCellCount { found: 2 }.into()));
            tally.record(&Err(ServiceError::Overloaded(QueueFull {
                workers: 1,
                queue_depth: 1,
            })));
        }
        metrics.call_finished(Rpc::Solve, Code::InvalidArgument);
        let stats = PoolStats {
            workers: 3,
            queue_depth: 9,
            in_flight: 5,
            running: 3,
            completed: 0,
            skipped: 0,
            panicked: 0,
        };
        let text = metrics.render(stats, (0, 0));
        let stream = |outcome: &str| {
            sample(
                &text,
                &format!("sudoku_puzzles_total{{outcome=\"{outcome}\",rpc=\"SolveStream\"}}"),
            )
        };
        assert_eq!(stream("solved"), 1.0);
        assert_eq!(stream("invalid"), 1.0);
        assert_eq!(stream("shed"), 1.0);
        assert_eq!(stream("no_solution"), 0.0);
        assert_eq!(sample(&text, "sudoku_shed_total{rpc=\"SolveStream\"}"), 1.0);
        assert_eq!(
            sample(
                &text,
                "sudoku_calls_total{code=\"INVALID_ARGUMENT\",rpc=\"Solve\"}"
            ),
            1.0
        );
        assert_eq!(sample(&text, "sudoku_solve_duration_seconds_count"), 1.0);
        assert_eq!(sample(&text, "sudoku_pool_queued_jobs"), 2.0);
        assert_eq!(sample(&text, "sudoku_pool_running_jobs"), 3.0);
        assert_eq!(sample(&text, "sudoku_pool_workers"), 3.0);
    }

    #[test]
    fn open_streams_are_counted_while_their_guard_lives() {
        let metrics = Arc::new(Metrics::new());
        let stats = PoolStats {
            workers: 1,
            queue_depth: 1,
            in_flight: 0,
            running: 0,
            completed: 0,
            skipped: 0,
            panicked: 0,
        };
        let first = metrics.stream_opened();
        let second = metrics.stream_opened();
        assert_eq!(
            sample(&metrics.render(stats, (0, 0)), "sudoku_streams_open"),
            2.0
        );
        drop((first, second));
        assert_eq!(
            sample(&metrics.render(stats, (0, 0)), "sudoku_streams_open"),
            0.0
        );
    }
}

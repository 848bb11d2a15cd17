//! Flags more than one command takes: which servers, and how to reach them.

use std::path::PathBuf;
use std::time::Duration;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args};
use tonic::codec::CompressionEncoding;
use tonic::transport::{Certificate, ClientTlsConfig, Identity};

use super::Failure;
use crate::client::{ClientError, ConnectOptions, DEFAULT_SERVER};

/// The servers to talk to.
#[derive(Debug, Args)]
pub struct ServersArg {
    /// The server, as a URL or host:port, or every address of a DNS name
    /// as dns:///NAME:PORT (a Kubernetes headless Service, say; resolved
    /// again when a call fails and every 30 s). Give it more than once (or
    /// a comma-separated list) to spread a file's streams or a benchmark's
    /// calls over several servers, or to check each one's health; a single
    /// puzzle goes to the first.
    #[arg(
        id = "server",
        long = "server",
        value_name = "URL",
        env = "SUDOKU_SERVER",
        default_value = DEFAULT_SERVER,
        value_delimiter = ',',
        value_parser = trimmed
    )]
    pub list: Vec<String>,
}

/// A server of a list, without the spaces around it (`a, b`).
fn trimmed(text: &str) -> Result<String, std::convert::Infallible> {
    Ok(text.trim().to_string())
}

impl ServersArg {
    /// The servers given, refused when there are none (a library caller, or
    /// an empty list from the environment).
    pub fn servers(&self) -> Result<&[String], ClientError> {
        if self.list.is_empty() {
            return Err(ClientError::NoServers);
        }
        Ok(&self.list)
    }
}

/// Where a command works: on a server (the default), or in this process.
#[derive(Debug, Args)]
pub struct TargetArgs {
    /// Work in this process instead of on a server.
    #[arg(long)]
    pub local: bool,
    #[command(flatten)]
    pub servers: ServersArg,
    #[command(flatten)]
    pub connect: ConnectArgs,
    #[command(flatten)]
    pub timeout: TimeoutArg,
}

/// The flags that choose or reach a server, which `--local` leaves unused.
const SERVER_FLAGS: [&str; 7] = [
    "server",
    "tls_ca",
    "tls_cert",
    "tls_key",
    "tls_domain",
    "compress",
    "timeout",
];

/// Refuses `--local` beside a server flag typed on the command line (one
/// of them is a mistake, and which is unclear). The same settings from the
/// environment (`SUDOKU_SERVER`, say) stay allowed as a shell's defaults,
/// which is why this is not one of clap's conflicts: those count the
/// environment too.
pub fn refuse_server_flags_with_local(matches: &ArgMatches) -> Result<(), String> {
    let mut command = matches;
    while let Some((_, subcommand)) = command.subcommand() {
        command = subcommand;
    }
    let given = |id: &str| {
        command.ids().any(|present| present == id)
            && command.value_source(id) == Some(ValueSource::CommandLine)
    };
    if !given("local") || !command.get_flag("local") {
        return Ok(());
    }
    match SERVER_FLAGS.into_iter().find(|&flag| given(flag)) {
        Some(flag) => Err(format!(
            "--local works in this process, so --{} (which is for a server) \
             cannot be used with it: give one or the other",
            flag.replace('_', "-")
        )),
        None => Ok(()),
    }
}

impl TargetArgs {
    /// The client options the connection and timeout flags ask for.
    pub fn options(&self) -> Result<ConnectOptions, Failure> {
        Ok(self.timeout.applied_to(self.connect.options()?))
    }
}

/// How long a single call may wait for its server.
#[derive(Debug, Args)]
pub struct TimeoutArg {
    /// How long to wait for a server's answer to one puzzle, a hint, an
    /// explanation or a health check, or for generate's next puzzle
    /// (500ms, 30s, 2m; 0 waits as long as the server takes). A file's
    /// streams have limits of their own.
    #[arg(
        long,
        env = "SUDOKU_TIMEOUT",
        value_name = "DURATION",
        default_value = "30s",
        value_parser = crate::flag_values::parse_duration
    )]
    pub timeout: Duration,
}

impl TimeoutArg {
    /// `options` with this timeout.
    pub fn applied_to(&self, options: ConnectOptions) -> ConnectOptions {
        let timeout = (!self.timeout.is_zero()).then_some(self.timeout);
        ConnectOptions { timeout, ..options }
    }
}

/// How to reach the servers: TLS and compression.
#[derive(Debug, Args)]
pub struct ConnectArgs {
    /// Use TLS, trusting this CA (PEM file) for the server's certificate
    /// [default without it: plaintext, or the system's roots for https://].
    #[arg(long, env = "SUDOKU_TLS_CA", value_name = "PEM")]
    pub tls_ca: Option<PathBuf>,
    /// Present this client certificate (PEM file) to a server that requires
    /// mutual TLS; needs --tls-key.
    #[arg(
        long,
        env = "SUDOKU_CLIENT_TLS_CERT",
        value_name = "PEM",
        requires = "tls_key"
    )]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM file).
    #[arg(
        long,
        env = "SUDOKU_CLIENT_TLS_KEY",
        value_name = "PEM",
        requires = "tls_cert"
    )]
    pub tls_key: Option<PathBuf>,
    /// The name the server's certificate must carry [default: the host of
    /// the server address, or the name of a dns:/// target].
    #[arg(long, env = "SUDOKU_TLS_DOMAIN", value_name = "NAME")]
    pub tls_domain: Option<String>,
    /// Compress requests this way and accept compressed responses. Costly
    /// for puzzle-sized messages: it slows a stream down many times
    /// (docs/performance.md, "Compression").
    #[arg(long, env = "SUDOKU_COMPRESS", value_enum, default_value_t = Compression::None)]
    pub compress: Compression,
}

/// Message compression on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Compression {
    /// No compression.
    None,
    /// gzip.
    Gzip,
    /// Zstandard.
    Zstd,
}

impl ConnectArgs {
    /// The client options these flags ask for; fails if a PEM file cannot
    /// be read.
    pub fn options(&self) -> Result<ConnectOptions, Failure> {
        let compression = match self.compress {
            Compression::None => None,
            Compression::Gzip => Some(CompressionEncoding::Gzip),
            Compression::Zstd => Some(CompressionEncoding::Zstd),
        };
        Ok(ConnectOptions {
            tls: self.tls()?,
            tls_domain: self.tls_domain.clone(),
            compression,
            timeout: None,
        })
    }

    /// The TLS configuration, when any TLS flag is given.
    fn tls(&self) -> Result<Option<ClientTlsConfig>, Failure> {
        let wants_tls =
            self.tls_ca.is_some() || self.tls_cert.is_some() || self.tls_domain.is_some();
        if !wants_tls {
            return Ok(None);
        }
        let read = |path: &PathBuf| {
            std::fs::read(path)
                .map_err(|error| Failure::error(format!("cannot read {}: {error}", path.display())))
        };
        let mut tls = match &self.tls_ca {
            Some(ca) => ClientTlsConfig::new().ca_certificate(Certificate::from_pem(read(ca)?)),
            None => ClientTlsConfig::new().with_native_roots(),
        };
        if let (Some(cert), Some(key)) = (&self.tls_cert, &self.tls_key) {
            tls = tls.identity(Identity::from_pem(read(cert)?, read(key)?));
        }
        Ok(Some(tls))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_list_of_servers_is_refused_and_a_list_is_kept_in_order() {
        let none = ServersArg { list: Vec::new() };
        assert!(matches!(none.servers(), Err(ClientError::NoServers)));
        let two = ServersArg {
            list: vec!["a:1".to_string(), "b:2".to_string()],
        };
        assert_eq!(two.servers().unwrap(), ["a:1", "b:2"]);
    }

    /// What the check says of a command line (a parse error is a panic).
    fn check(arguments: &[&str]) -> Result<(), String> {
        use clap::CommandFactory;
        let line = std::iter::once("sudoku").chain(arguments.iter().copied());
        let matches = crate::cli::Cli::command()
            .try_get_matches_from(line)
            .expect("the command line parses");
        refuse_server_flags_with_local(&matches)
    }

    #[test]
    fn local_beside_a_server_flag_on_the_command_line_is_refused_by_name() {
        let puzzle = "1".repeat(81);
        for (flags, named) in [
            (&["--server", "h:1"][..], "--server"),
            (&["--compress", "gzip"], "--compress"),
            (&["--timeout", "5s"], "--timeout"),
            (&["--tls-domain", "x"], "--tls-domain"),
        ] {
            for command in ["solve", "grade", "hint", "explain"] {
                let mut line = vec![command, "--local"];
                line.extend(flags);
                line.push(&puzzle);
                let refused = check(&line).expect_err("refused");
                assert!(refused.contains(named), "{line:?}: {refused}");
            }
        }
        let refused = check(&["generate", "--server", "h:1", "--local"]).unwrap_err();
        assert!(refused.starts_with("--local works in this process, so --server"));
    }

    #[test]
    fn local_alone_and_server_flags_alone_pass() {
        let puzzle = "1".repeat(81);
        assert_eq!(check(&["solve", "--local", &puzzle]), Ok(()));
        assert_eq!(check(&["solve", "--server", "h:1", &puzzle]), Ok(()));
        assert_eq!(check(&["generate", "--local", "--count", "2"]), Ok(()));
        assert_eq!(check(&["health", "--server", "h:1"]), Ok(()));
    }
}

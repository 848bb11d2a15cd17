//! Resolving the name of a `dns:` target to the addresses of its servers.
//!
//! The lookup is a trait ([`Lookup`]) so that tests can script what a name
//! resolves to, and how that changes, without DNS. [`SystemLookup`] is the
//! real one: the system's resolver (`getaddrinfo`, through
//! [`tokio::net::lookup_host`]), except for `localhost` and every name
//! under `.localhost`, which are the loopback addresses `127.0.0.1` and
//! `::1` without asking anyone, as RFC 6761 (section 6.3) lets resolvers
//! and curl does. Many systems' hosts files map `localhost` to 127.0.0.1
//! alone, although `::1` is up: answering both lets a client reach servers
//! on either loopback address by the one name. (Where IPv6 is off, calls to
//! `::1` fail and move on to 127.0.0.1.)
//!
//! A name's addresses come back sorted and without duplicates, so that the
//! list changes only when the servers behind the name do, however the DNS
//! server orders its answers.

use std::io;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::time::Duration;

use tonic::transport::Endpoint;

use super::target::{DnsName, Target};
use super::{ClientError, ConnectOptions, endpoint};

/// How long one lookup may take before it counts as failed.
pub const LOOKUP_TIMEOUT: Duration = Duration::from_secs(10);

/// What a lookup returns: the addresses, each with the port asked for.
pub type LookupFuture = Pin<Box<dyn Future<Output = io::Result<Vec<SocketAddr>>> + Send>>;

/// A way of finding the addresses of a host name.
pub trait Lookup: Send + Sync {
    /// Every address of `host`, each with `port`.
    fn lookup(&self, host: &str, port: u16) -> LookupFuture;
}

/// The system's resolver, with `localhost` answered as the loopback
/// addresses (see the module documentation).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemLookup;

impl Lookup for SystemLookup {
    fn lookup(&self, host: &str, port: u16) -> LookupFuture {
        if is_localhost(host) {
            let found: io::Result<Vec<SocketAddr>> = Ok(loopback(port));
            return Box::pin(std::future::ready(found));
        }
        let host = host.to_string();
        Box::pin(async move {
            let found = tokio::net::lookup_host((host.as_str(), port)).await?;
            Ok::<_, io::Error>(found.collect::<Vec<SocketAddr>>())
        })
    }
}

/// True for `localhost` and the names under it (`a.localhost`), in any
/// case, with or without the root's trailing dot.
pub fn is_localhost(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

/// 127.0.0.1 and ::1, with `port`.
fn loopback(port: u16) -> Vec<SocketAddr> {
    vec![
        SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
        SocketAddr::from((Ipv6Addr::LOCALHOST, port)),
    ]
}

/// The addresses of `name`, sorted and without duplicates. Fails when the
/// lookup fails, takes longer than [`LOOKUP_TIMEOUT`], or finds nothing.
pub async fn resolve(name: &DnsName, lookup: &dyn Lookup) -> Result<Vec<SocketAddr>, ClientError> {
    let failed = |reason: String| ClientError::Resolve {
        name: name.to_string(),
        reason,
    };
    let mut found = tokio::time::timeout(LOOKUP_TIMEOUT, lookup.lookup(&name.host, name.port))
        .await
        .map_err(|_| failed(format!("no answer within {} s", LOOKUP_TIMEOUT.as_secs())))?
        .map_err(|error| failed(error.to_string()))?;
    found.sort_unstable();
    found.dedup();
    if found.is_empty() {
        return Err(failed("the name has no addresses".to_string()));
    }
    Ok(found)
}

/// Every server `targets` name, each with what to call it: an address as
/// given, and each current address of a `dns:` name (`IP:PORT`), resolved
/// once, now. For commands that work on a fixed set of servers (health
/// checks, a benchmark). A target that is not usable, or a name that does
/// not resolve, is its own entry with the error.
pub async fn endpoints(
    targets: &[String],
    options: &ConnectOptions,
    lookup: &dyn Lookup,
) -> Vec<(String, Result<Endpoint, ClientError>)> {
    let mut all = Vec::with_capacity(targets.len());
    for target in targets {
        let name = match Target::parse(target) {
            Ok(Target::Address(address)) => {
                let made = endpoint(&address, options);
                all.push((address, made));
                continue;
            }
            Ok(Target::Dns(name)) => name,
            Err(error) => {
                all.push((target.clone(), Err(error)));
                continue;
            }
        };
        match resolve(&name, lookup).await {
            Ok(addresses) => all.extend(
                addresses
                    .into_iter()
                    .map(|address| (address.to_string(), name.endpoint(address, options))),
            ),
            Err(error) => all.push((target.clone(), Err(error))),
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lookup that answers every name with the same addresses.
    struct Fixed(Vec<SocketAddr>);

    impl Lookup for Fixed {
        fn lookup(&self, _host: &str, _port: u16) -> LookupFuture {
            let found: io::Result<Vec<SocketAddr>> = Ok(self.0.clone());
            Box::pin(std::future::ready(found))
        }
    }

    fn name(host: &str, port: u16) -> DnsName {
        DnsName {
            host: host.to_string(),
            port,
        }
    }

    fn addresses(texts: &[&str]) -> Vec<SocketAddr> {
        texts.iter().map(|text| text.parse().unwrap()).collect()
    }

    #[test]
    fn localhost_and_the_names_under_it_are_the_loopback_names() {
        let names = [
            "localhost",
            "LocalHost",
            "localhost.",
            "a.localhost",
            "b.a.LOCALHOST.",
        ];
        for host in names {
            assert!(is_localhost(host), "{host}");
        }
        let others = [
            "localhost.example",
            "notlocalhost",
            "localhostx",
            "127.0.0.1",
            "",
        ];
        for host in others {
            assert!(!is_localhost(host), "{host}");
        }
    }

    #[tokio::test]
    async fn localhost_is_both_loopback_addresses_without_the_system_resolver() {
        // /etc/hosts on many machines gives 127.0.0.1 alone: ::1 here shows
        // that the system's answer was not used.
        let found = resolve(&name("localhost", 7), &SystemLookup).await.unwrap();
        assert_eq!(found, addresses(&["127.0.0.1:7", "[::1]:7"]));
        let found = resolve(&name("pods.localhost", 8), &SystemLookup)
            .await
            .unwrap();
        assert_eq!(found, addresses(&["127.0.0.1:8", "[::1]:8"]));
    }

    #[tokio::test]
    async fn an_address_for_a_name_resolves_to_itself() {
        let found = resolve(&name("::1", 9), &SystemLookup).await.unwrap();
        assert_eq!(found, addresses(&["[::1]:9"]));
    }

    #[tokio::test]
    async fn addresses_come_back_sorted_once_each_and_never_none() {
        let shuffled = Fixed(addresses(&["10.0.0.2:1", "10.0.0.1:1", "10.0.0.2:1"]));
        let found = resolve(&name("pods", 1), &shuffled).await.unwrap();
        assert_eq!(found, addresses(&["10.0.0.1:1", "10.0.0.2:1"]));

        let error = resolve(&name("pods", 1), &Fixed(Vec::new()))
            .await
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "cannot resolve dns:///pods:1: the name has no addresses"
        );
    }

    #[tokio::test]
    async fn a_name_becomes_one_endpoint_per_address_beside_the_fixed_ones() {
        let lookup = Fixed(addresses(&["10.0.0.1:5", "10.0.0.2:5"]));
        let targets = ["h:1", "dns:///pods:5", "dns://x:1"].map(String::from);
        let found = endpoints(&targets, &ConnectOptions::default(), &lookup).await;
        let labels: Vec<&str> = found.iter().map(|(label, _)| label.as_str()).collect();
        assert_eq!(labels, ["h:1", "10.0.0.1:5", "10.0.0.2:5", "dns://x:1"]);
        let uri = |index: usize| found[index].1.as_ref().unwrap().uri().to_string();
        assert_eq!(uri(0), "http://h:1/");
        assert_eq!(uri(2), "http://10.0.0.2:5/");
        assert!(
            found[3].1.is_err(),
            "a refused target is an entry with its error"
        );
    }
}

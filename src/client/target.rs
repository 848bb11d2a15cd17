//! What `--server` names: one server by URL or `host:port`, or every
//! address of a DNS name, in gRPC's target syntax `dns:///NAME:PORT`.
//!
//! A name stands for the servers behind it (the pods of a Kubernetes
//! headless Service): the client resolves it ([`mod@super::resolve`]) and
//! spreads its calls over the addresses ([`super::pool`]). The syntax is
//! gRPC's, so that the same target works in other gRPC clients:
//!
//! * `dns:///NAME:PORT`, and the short form `dns:NAME:PORT`;
//! * `dns://AUTHORITY/NAME:PORT` (a DNS server of one's choosing) is
//!   refused: names go through the system's resolver;
//! * the port is required: gRPC's default (443) and this server's (50051)
//!   differ, and guessing either would surprise someone;
//! * `NAME` is a host name (letters, digits, `-`, `_`, `.`), an IPv4
//!   address, or an IPv6 address in brackets.
//!
//! Each address becomes `http://IP:PORT`, or `https://IP:PORT` when TLS
//! options are given. With TLS the certificate is checked against the name
//! (or `--tls-domain`), not the address, and every request carries the name
//! as its authority, as gRPC's own DNS resolver does.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use tonic::transport::Endpoint;

use super::{ClientError, ConnectOptions, base_endpoint};

/// One entry of the server list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A URL or `host:port`: one server, connected to by its name.
    Address(String),
    /// `dns:///NAME:PORT`: every address the name resolves to.
    Dns(DnsName),
}

/// A name whose every address is a server, and their port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DnsName {
    /// A host name or IP address (an IPv6 one without brackets).
    pub host: String,
    /// The port of every address.
    pub port: u16,
}

impl Target {
    /// Parses one `--server` entry; see the module documentation for the
    /// `dns:` syntax. Anything else is an [`Target::Address`], checked when
    /// it is connected to.
    pub fn parse(text: &str) -> Result<Target, ClientError> {
        let Some(rest) = strip_dns_scheme(text) else {
            return Ok(Target::Address(text.to_string()));
        };
        let invalid = |reason: String| ClientError::InvalidAddress {
            address: text.to_string(),
            reason,
        };
        let name = match rest.strip_prefix("//") {
            Some(authority_and_path) => match authority_and_path.split_once('/') {
                Some(("", name)) => name,
                Some((authority, _)) => {
                    return Err(invalid(format!(
                        "a DNS server of one's own (dns://{authority}/) is not supported: \
                         write dns:///NAME:PORT to use the system's resolver"
                    )));
                }
                None => {
                    return Err(invalid(format!(
                        "dns://{authority_and_path} names a DNS server, not the servers: \
                         write dns:///{authority_and_path} (three slashes)"
                    )));
                }
            },
            None => rest,
        };
        match split_host_port(name) {
            Ok((host, port)) => Ok(Target::Dns(DnsName { host, port })),
            Err(reason) => Err(invalid(reason.to_string())),
        }
    }
}

/// What follows `dns:` (in any case), or `None` when `text` is not a `dns:`
/// target. `dns:PORT` (digits only) is the host `dns` and a port, as it
/// always was: a `dns:` target needs a name and a port.
fn strip_dns_scheme(text: &str) -> Option<&str> {
    let scheme = text.get(..4)?;
    let rest = &text[4..];
    let only_a_port = !rest.is_empty() && rest.bytes().all(|byte| byte.is_ascii_digit());
    (scheme.eq_ignore_ascii_case("dns:") && !only_a_port).then_some(rest)
}

/// `NAME:PORT` or `[IPV6]:PORT` split, checked, brackets removed.
fn split_host_port(text: &str) -> Result<(String, u16), &'static str> {
    const NO_PORT: &str = "no port: write dns:///NAME:PORT (the port is required; \
                           sudoku-server listens on 50051 unless told otherwise)";
    if text.is_empty() {
        return Err("no name: write dns:///NAME:PORT");
    }
    if text.contains(['/', '?', '#']) {
        return Err("a path after the name: write dns:///NAME:PORT");
    }
    let (host, port) = match text.strip_prefix('[') {
        Some(bracketed) => {
            let (host, after) = bracketed
                .split_once(']')
                .ok_or("an IPv6 address without its closing ]")?;
            host.parse::<Ipv6Addr>()
                .map_err(|_| "not an IPv6 address in the brackets")?;
            (host, after.strip_prefix(':').ok_or(NO_PORT)?)
        }
        None => {
            let (host, port) = text.rsplit_once(':').ok_or(NO_PORT)?;
            if host.contains(':') {
                return Err("an IPv6 address must be in brackets: dns:///[ADDRESS]:PORT");
            }
            let valid = |byte: u8| byte.is_ascii_alphanumeric() || b"-_.".contains(&byte);
            if host.is_empty() || !host.bytes().all(valid) {
                return Err("not a host name (letters, digits, '-', '_' and '.')");
            }
            (host, port)
        }
    };
    match port.parse::<u16>() {
        Ok(0) | Err(_) => Err("the port must be a number from 1 to 65535"),
        Ok(port) => Ok((host.to_string(), port)),
    }
}

impl DnsName {
    /// The endpoint of one of the name's addresses: `http://IP:PORT`, or
    /// `https://IP:PORT` when `options` configure TLS, with the certificate
    /// checked against `options.tls_domain` or else the name. Requests
    /// carry the name as their authority.
    pub fn endpoint(
        &self,
        address: SocketAddr,
        options: &ConnectOptions,
    ) -> Result<Endpoint, ClientError> {
        let invalid = |reason: String| ClientError::InvalidAddress {
            address: format!("{self} ({address})"),
            reason,
        };
        let scheme = if options.tls.is_some() {
            "https"
        } else {
            "http"
        };
        let origin: http::Uri = format!("{scheme}://{}", self.authority())
            .parse()
            .map_err(|error: http::uri::InvalidUri| invalid(error.to_string()))?;
        let endpoint = base_endpoint(format!("{scheme}://{address}"))
            .map_err(invalid)?
            .origin(origin);
        let Some(tls) = &options.tls else {
            return Ok(endpoint);
        };
        // A certificate names a host without the root's trailing dot.
        let domain = options
            .tls_domain
            .as_deref()
            .unwrap_or(self.host.trim_end_matches('.'));
        endpoint
            .tls_config(tls.clone().domain_name(domain))
            .map_err(|error| invalid(error.to_string()))
    }

    /// `NAME:PORT`, with an IPv6 address in brackets.
    fn authority(&self) -> String {
        match self.host.parse::<IpAddr>() {
            Ok(IpAddr::V6(_)) => format!("[{}]:{}", self.host, self.port),
            _ => format!("{}:{}", self.host, self.port),
        }
    }
}

impl fmt::Display for DnsName {
    /// The target as written in full: `dns:///NAME:PORT`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "dns:///{}", self.authority())
    }
}

#[cfg(test)]
mod tests {
    use tonic::transport::ClientTlsConfig;

    use super::*;

    fn dns(host: &str, port: u16) -> Target {
        Target::Dns(DnsName {
            host: host.to_string(),
            port,
        })
    }

    fn refusal(text: &str) -> String {
        match Target::parse(text) {
            Err(ClientError::InvalidAddress { address, reason }) => {
                assert_eq!(address, text);
                reason
            }
            other => panic!("{text:?} gave {other:?}"),
        }
    }

    #[test]
    fn dns_targets_in_both_forms_and_any_case_name_a_host_and_a_port() {
        let cases = [
            ("dns:///localhost:50051", dns("localhost", 50051)),
            ("dns:localhost:7", dns("localhost", 7)),
            (
                "DNS:///Pods.NS.svc.cluster.local.:443",
                dns("Pods.NS.svc.cluster.local.", 443),
            ),
            ("dns:///10.0.0.5:1", dns("10.0.0.5", 1)),
            ("dns:///[::1]:50051", dns("::1", 50051)),
            ("dns:[fe80::1]:2", dns("fe80::1", 2)),
        ];
        for (text, expected) in cases {
            assert_eq!(Target::parse(text).unwrap(), expected, "{text}");
        }
    }

    #[test]
    fn anything_else_is_one_server_as_before() {
        for text in [
            "http://127.0.0.1:50051",
            "https://sudoku.example",
            "localhost:50051",
            "dns:50051",
            "dnsserver:1",
            "[::1]:50051",
        ] {
            assert_eq!(
                Target::parse(text).unwrap(),
                Target::Address(text.to_string()),
                "{text}"
            );
        }
    }

    #[test]
    fn a_dns_server_of_ones_own_is_refused_with_the_form_to_use() {
        let reason = refusal("dns://8.8.8.8/pods:50051");
        assert!(
            reason.contains("dns://8.8.8.8/") && reason.contains("not supported"),
            "{reason}"
        );
        let reason = refusal("dns://pods:50051");
        assert!(
            reason.contains("write dns:///pods:50051 (three slashes)"),
            "{reason}"
        );
    }

    #[test]
    fn a_dns_target_needs_a_name_and_a_port_and_nothing_more() {
        let cases = [
            ("dns:///pods", "no port"),
            ("dns:///[::1]", "no port"),
            ("dns:///", "no name"),
            ("dns:///pods:0", "from 1 to 65535"),
            ("dns:///pods:65536", "from 1 to 65535"),
            ("dns:///pods:http", "from 1 to 65535"),
            ("dns:///pods:1/path", "a path"),
            ("dns:///::1:50051", "in brackets"),
            ("dns:///[pods]:1", "not an IPv6 address"),
            ("dns:///[::1:1", "closing ]"),
            ("dns:///:1", "not a host name"),
            ("dns:///user@pods:1", "not a host name"),
            ("dns:///two words:1", "not a host name"),
        ];
        for (text, expected) in cases {
            let reason = refusal(text);
            assert!(reason.contains(expected), "{text}: {reason}");
        }
    }

    #[test]
    fn an_address_of_a_name_is_plain_http_under_the_names_authority() {
        let name = DnsName {
            host: "pods".to_string(),
            port: 50051,
        };
        let address: SocketAddr = "[::1]:50051".parse().unwrap();
        let endpoint = name.endpoint(address, &ConnectOptions::default()).unwrap();
        assert_eq!(endpoint.uri().to_string(), "http://[::1]:50051/");
        assert_eq!(name.to_string(), "dns:///pods:50051");
        let v6 = DnsName {
            host: "::1".to_string(),
            port: 7,
        };
        assert_eq!(v6.to_string(), "dns:///[::1]:7");
    }

    #[test]
    fn with_tls_an_address_of_a_name_is_https() {
        let name = DnsName {
            host: "localhost".to_string(),
            port: 50051,
        };
        let tls = ConnectOptions {
            tls: Some(ClientTlsConfig::new()),
            ..ConnectOptions::default()
        };
        let endpoint = name
            .endpoint("127.0.0.1:50051".parse().unwrap(), &tls)
            .unwrap();
        assert_eq!(endpoint.uri().to_string(), "https://127.0.0.1:50051/");
    }
}

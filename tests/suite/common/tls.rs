//! Certificates made at test time, for TLS servers and clients.

use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};

use super::process::{TempFile, temp_file};

/// A certificate and its key, in PEM.
pub struct Pem {
    pub cert: String,
    pub key: String,
}

/// A certificate authority that signs server and client certificates.
pub struct Authority {
    params: CertificateParams,
    key: KeyPair,
    pub pem: String,
}

impl Authority {
    pub fn new(name: &str) -> Authority {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, name);
        let key = KeyPair::generate().unwrap();
        let pem = params.self_signed(&key).unwrap().pem();
        Authority { params, key, pem }
    }

    /// A certificate for `names` signed by this authority.
    pub fn issue(&self, names: &[&str]) -> Pem {
        let names: Vec<String> = names.iter().map(|name| name.to_string()).collect();
        let params = CertificateParams::new(names).unwrap();
        let key = KeyPair::generate().unwrap();
        let issuer = Issuer::from_params(&self.params, &self.key);
        let cert = params.signed_by(&key, &issuer).unwrap();
        Pem {
            cert: cert.pem(),
            key: key.serialize_pem(),
        }
    }
}

/// Writes `contents` to a fresh temporary file named after `tag`.
pub fn file(tag: &str, contents: &str) -> TempFile {
    temp_file(&format!("{tag}.pem"), contents)
}

/// A server's certificate and key files, and its client CA's if it has
/// one, removed when dropped.
pub struct TlsFiles {
    pub cert: TempFile,
    pub key: TempFile,
    pub client_ca: Option<TempFile>,
}

impl TlsFiles {
    /// Files for a certificate for localhost and 127.0.0.1 from `ca`, and
    /// for `client_ca`.
    pub fn new(ca: &Authority, client_ca: Option<&Authority>) -> TlsFiles {
        let server = ca.issue(&["localhost", "127.0.0.1"]);
        TlsFiles {
            cert: file("server-cert", &server.cert),
            key: file("server-key", &server.key),
            client_ca: client_ca.map(|client_ca| file("client-ca", &client_ca.pem)),
        }
    }

    /// The server flags that name these files.
    pub fn flags(&self) -> Vec<String> {
        let mut flags = vec![
            "--tls-cert".to_string(),
            self.cert.to_str().unwrap().to_string(),
            "--tls-key".to_string(),
            self.key.to_str().unwrap().to_string(),
        ];
        if let Some(client_ca) = &self.client_ca {
            flags.push("--tls-client-ca".to_string());
            flags.push(client_ca.to_str().unwrap().to_string());
        }
        flags
    }
}

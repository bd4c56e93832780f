// Package security mirrors libs/config/src/security.ts: BENCH_SECURITY (plain, tls, mtls) and the
// BENCH_TLS_* PEM files, read once at start-up, with the same rules and messages; and the TLS
// configurations every server and client of the Go reference uses under them.
package security

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"strings"
	"sync"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// Security is what an app's connections between the services are wrapped in.
type Security struct {
	Mode string `json:"mode"`
	// CA, Cert and Key are the PEM files' contents (nil under plain; Cert and Key nil for a client under tls),
	// never serialized: results folders get shared, and a private key must not travel with them.
	CA   []byte `json:"-"`
	Cert []byte `json:"-"`
	Key  []byte `json:"-"`
	// CAInfo and CertInfo say what those certificates are, which is what /bench/info shows of them.
	CAInfo   *Certificate `json:"ca"`
	CertInfo *Certificate `json:"cert"`
	// SessionReuse is TLS_SESSION_REUSE=on (variant go-session-reuse, the Node clients' tuning
	// tls-session-reuse): under TLS the client keeps SessionCache; nil, crypto/tls's default, resumes nothing.
	SessionReuse bool                   `json:"sessionReuse"`
	SessionCache tls.ClientSessionCache `json:"-"`
}

// Plain is cleartext, the default.
var Plain = Security{Mode: "plain"}

var modes = []string{"plain", "tls", "mtls"}

// Load reads BENCH_SECURITY and the files it names; the error names the variable.
func Load(getenv func(string) string) (Security, error) {
	mode := strings.TrimSpace(getenv("BENCH_SECURITY"))
	if mode == "" {
		mode = "plain"
	}
	known := false
	for _, m := range modes {
		known = known || m == mode
	}
	if !known {
		return Plain, fmt.Errorf("BENCH_SECURITY must be one of %s; got %q", strings.Join(modes, ", "), mode)
	}
	reuse := false
	switch value := strings.TrimSpace(getenv("TLS_SESSION_REUSE")); value {
	case "", "off":
	case "on":
		reuse = true
	default:
		return Plain, fmt.Errorf("TLS_SESSION_REUSE must be on or off; got %q", value)
	}
	if mode == "plain" {
		return Security{Mode: mode, SessionReuse: reuse}, nil
	}
	file := func(variable string, required bool) ([]byte, error) {
		path := strings.TrimSpace(getenv(variable))
		if path == "" {
			if required {
				return nil, fmt.Errorf("BENCH_SECURITY=%s needs %s (a PEM file)", mode, variable)
			}
			return nil, nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read %q: %v", variable, path, err)
		}
		return data, nil
	}
	s := Security{Mode: mode}
	if reuse {
		s.SessionReuse, s.SessionCache = true, tls.NewLRUClientSessionCache(0)
	}
	var err error
	if s.CA, err = file("BENCH_TLS_CA", true); err != nil {
		return Plain, err
	}
	if s.Cert, err = file("BENCH_TLS_CERT", false); err != nil {
		return Plain, err
	}
	if s.Key, err = file("BENCH_TLS_KEY", false); err != nil {
		return Plain, err
	}
	if (s.Cert == nil) != (s.Key == nil) {
		return Plain, fmt.Errorf("BENCH_TLS_CERT and BENCH_TLS_KEY go together: set both or neither")
	}
	if s.CAInfo, err = Describe(s.CA, "BENCH_TLS_CA"); err != nil {
		return Plain, err
	}
	if s.Cert != nil {
		if s.CertInfo, err = Describe(s.Cert, "BENCH_TLS_CERT"); err != nil {
			return Plain, err
		}
	}
	return s, nil
}

// TLS is whether connections are encrypted (tls and mtls).
func (s Security) TLS() bool { return s.Mode != "plain" }

// Scheme is http or https.
func (s Security) Scheme() string {
	if s.TLS() {
		return "https"
	}
	return "http"
}

func (s Security) pool() (*x509.CertPool, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(s.CA) {
		return nil, fmt.Errorf("BENCH_TLS_CA holds no PEM certificate")
	}
	return pool, nil
}

// ServerConfig is a listener's TLS 1.3 configuration offering alpn, requiring and verifying a client
// certificate under mtls, and logging (once per distinct state) what each connection negotiated.
func (s Security) ServerConfig(app string, alpn []string) (*tls.Config, error) {
	if s.Cert == nil {
		return nil, fmt.Errorf("BENCH_SECURITY=%s: a server needs its certificate and key (BENCH_TLS_CERT, BENCH_TLS_KEY)", s.Mode)
	}
	pair, err := tls.X509KeyPair(s.Cert, s.Key)
	if err != nil {
		return nil, fmt.Errorf("BENCH_TLS_CERT / BENCH_TLS_KEY: %v", err)
	}
	pool, err := s.pool()
	if err != nil {
		return nil, err
	}
	config := &tls.Config{MinVersion: tls.VersionTLS13, Certificates: []tls.Certificate{pair}, ClientCAs: pool, NextProtos: alpn}
	if s.Mode == "mtls" {
		config.ClientAuth = tls.RequireAndVerifyClientCert
	}
	var seen sync.Map
	config.VerifyConnection = func(state tls.ConnectionState) error {
		cert := "none"
		if len(state.PeerCertificates) > 0 {
			cert = "verified"
		}
		alpn := state.NegotiatedProtocol
		if alpn == "" {
			alpn = "none"
		}
		line := fmt.Sprintf("%s: TLS %s alpn=%s client certificate %s", app, versionName(state.Version), alpn, cert)
		if _, loaded := seen.LoadOrStore(line, true); !loaded {
			fmt.Println(line)
		}
		return nil
	}
	return config, nil
}

// ClientConfig is a client's TLS 1.3 configuration trusting the run's CA, with the client's certificate
// when it has one (mtls), offering alpn. Go's client keeps no session cache unless given one
// (TLS_SESSION_REUSE=on: one cache for every configuration of the process).
func (s Security) ClientConfig(alpn []string) (*tls.Config, error) {
	pool, err := s.pool()
	if err != nil {
		return nil, err
	}
	config := &tls.Config{MinVersion: tls.VersionTLS13, RootCAs: pool, NextProtos: alpn, ClientSessionCache: s.SessionCache}
	if s.Cert != nil {
		pair, err := tls.X509KeyPair(s.Cert, s.Key)
		if err != nil {
			return nil, fmt.Errorf("BENCH_TLS_CERT / BENCH_TLS_KEY: %v", err)
		}
		config.Certificates = []tls.Certificate{pair}
	}
	return config, nil
}

// GRPCClient is a gRPC client's transport credentials: insecure in cleartext, else TLS (ALPN h2).
func (s Security) GRPCClient() (credentials.TransportCredentials, error) {
	if !s.TLS() {
		return insecure.NewCredentials(), nil
	}
	config, err := s.ClientConfig([]string{"h2"})
	if err != nil {
		return nil, err
	}
	return credentials.NewTLS(config), nil
}

func versionName(v uint16) string {
	switch v {
	case tls.VersionTLS13:
		return "TLSv1.3"
	case tls.VersionTLS12:
		return "TLSv1.2"
	}
	return fmt.Sprintf("0x%04x", v)
}

package main

import (
	"crypto/tls"
	"net"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"goreference/internal/security"
)

// The client's TLS towards both servers (BENCH_SECURITY), set once in main before any call: every
// transport, the readiness probe and the path probe dial the servers the same way.
var (
	http1TLS  *tls.Config                                                  // nil in cleartext; ALPN http/1.1
	http2TLS  *tls.Config                                                  // nil in cleartext; ALPN h2 (the path probe's raw HTTP/2 connection)
	grpcCreds credentials.TransportCredentials = insecure.NewCredentials() // until main sets it (and in tests)
)

func setClientSecurity(s security.Security) error {
	var err error
	if grpcCreds, err = s.GRPCClient(); err != nil || !s.TLS() {
		return err
	}
	if http1TLS, err = s.ClientConfig([]string{"http/1.1"}); err != nil {
		return err
	}
	http2TLS, err = s.ClientConfig([]string{"h2"})
	return err
}

// overTLS wraps a dialled connection to address in TLS (ALPN h2) when the client speaks it, handshaking now.
func overTLS(conn net.Conn, address string) (net.Conn, error) {
	if http2TLS == nil {
		return conn, nil
	}
	config := http2TLS.Clone()
	if host, _, err := net.SplitHostPort(address); err == nil {
		config.ServerName = host
	}
	secure := tls.Client(conn, config)
	if err := secure.Handshake(); err != nil {
		return nil, err
	}
	return secure, nil
}

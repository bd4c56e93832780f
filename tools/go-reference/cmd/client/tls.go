package main

import (
	"context"
	"crypto/tls"
	"net"
	"time"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"goreference/internal/harness"
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
	grpcCreds = timedCreds{grpcCreds}
	harness.WatchTLSHandshakes()
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

// dialTLS is net/http's DialTLSContext for the HTTP/1.1 transports: TCP, then the TLS handshake with
// http1TLS, timed from TCP connected to handshake done (as the Node clients time theirs) and recorded.
func dialTLS(dialer *net.Dialer) func(ctx context.Context, network, address string) (net.Conn, error) {
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		conn, err := dialer.DialContext(ctx, network, address)
		if err != nil {
			return nil, err
		}
		config := http1TLS.Clone()
		if host, _, err := net.SplitHostPort(address); err == nil {
			config.ServerName = host
		}
		secure := tls.Client(conn, config)
		started := time.Now()
		if err := secure.HandshakeContext(ctx); err != nil {
			_ = conn.Close()
			return nil, err
		}
		harness.RecordTLSHandshake(time.Since(started), secure.ConnectionState())
		return secure, nil
	}
}

// timedCreds are grpc-go's TLS credentials with every client handshake timed and recorded.
type timedCreds struct {
	credentials.TransportCredentials
}

func (c timedCreds) ClientHandshake(ctx context.Context, authority string, raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	started := time.Now()
	conn, info, err := c.TransportCredentials.ClientHandshake(ctx, authority, raw)
	if err == nil {
		if tlsInfo, ok := info.(credentials.TLSInfo); ok {
			harness.RecordTLSHandshake(time.Since(started), tlsInfo.State)
		}
	}
	return conn, info, err
}

func (c timedCreds) Clone() credentials.TransportCredentials {
	return timedCreds{c.TransportCredentials.Clone()}
}

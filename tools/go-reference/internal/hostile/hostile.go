// Package hostile is what the servers' tests do as a hostile caller would: stall a TLS handshake,
// with a throw-away certificate for the server to offer (issue 47).
package hostile

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"testing"
	"time"
)

// PartialClientHello is the start of a TLS ClientHello: a handshake record announcing 512 bytes, of
// which only 6 come.
var PartialClientHello = []byte{0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03}

// SelfSigned is a TLS 1.3 server configuration with a one-hour certificate for 127.0.0.1, made in
// memory, offering alpn.
func SelfSigned(t *testing.T, alpn ...string) *tls.Config {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	template := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Minute), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, NextProtos: alpn, MinVersion: tls.VersionTLS13}
}

// DroppedAtTheLimit connects to address, sends each of nothing and PartialClientHello on a connection
// of its own, and fails the test unless the server closed each once handshake had passed: not before
// it, and within ten times it.
func DroppedAtTheLimit(t *testing.T, address string, handshake time.Duration) {
	t.Helper()
	for _, bytes := range [][]byte{nil, PartialClientHello} {
		started := time.Now()
		conn, err := net.Dial("tcp", address)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = conn.Write(bytes)
		_ = conn.SetReadDeadline(started.Add(10 * handshake))
		_, err = io.Copy(io.Discard, conn)
		_ = conn.Close()
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("a connection that sent %d bytes of a TLS handshake was still open after %v", len(bytes), 10*handshake)
		}
		// A timer may fire a few ms early against the clock.
		if after := time.Since(started); after < handshake-50*time.Millisecond {
			t.Fatalf("a connection that sent %d bytes was closed after %v, before the %v limit", len(bytes), after, handshake)
		}
	}
}

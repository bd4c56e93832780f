package security

import (
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writePKI writes a CA and one certificate it signed (for 127.0.0.1, usable by server and client) as
// PEM files in a test folder, and returns the BENCH_TLS_* variables naming them.
func writePKI(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	key := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	caKey, leafKey := key(), key()
	now := time.Now()
	caTemplate := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"}, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	leafTemplate := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "bench"}, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTemplate, ca, &leafKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	leafKeyDER, _ := x509.MarshalPKCS8PrivateKey(leafKey)
	write := func(name, kind string, der []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	return map[string]string{
		"BENCH_TLS_CA":   write("ca.pem", "CERTIFICATE", caDER),
		"BENCH_TLS_CERT": write("cert.pem", "CERTIFICATE", leafDER),
		"BENCH_TLS_KEY":  write("key.pem", "PRIVATE KEY", leafKeyDER),
	}
}

// secondConnectionResumes dials a TLS server of this package twice with the client configuration of
// `env` and says whether the second connection resumed the first one's session.
func secondConnectionResumes(t *testing.T, env map[string]string) bool {
	t.Helper()
	s, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	serverConfig, err := s.ServerConfig("test", []string{"h2"})
	if err != nil {
		t.Fatal(err)
	}
	listener, err := tls.Listen("tcp", "127.0.0.1:0", serverConfig)
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	go func() {
		for {
			conn, err := listener.Accept()
			if err != nil {
				return
			}
			_, _ = conn.Write([]byte{1}) // handshakes, then sends its tickets and one byte
			_ = conn.Close()
		}
	}()
	clientConfig, err := s.ClientConfig([]string{"h2"})
	if err != nil {
		t.Fatal(err)
	}
	resumed := false
	for range 2 {
		conn, err := tls.Dial("tcp", listener.Addr().String(), clientConfig)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = conn.Read(make([]byte, 1)) // reading takes in the tickets that came before the byte
		resumed = conn.ConnectionState().DidResume
		_ = conn.Close()
	}
	return resumed
}

func TestSessionReuseResumesOnlyWithTheCache(t *testing.T) {
	for _, mode := range []string{"tls", "mtls"} {
		env := writePKI(t)
		env["BENCH_SECURITY"] = mode
		if secondConnectionResumes(t, env) {
			t.Errorf("%s: crypto/tls's default (no ClientSessionCache) resumed", mode)
		}
		env["TLS_SESSION_REUSE"] = "on"
		if !secondConnectionResumes(t, env) {
			t.Errorf("%s: TLS_SESSION_REUSE=on did not resume the second connection", mode)
		}
	}
}

func TestSessionReuseRefusesOtherValues(t *testing.T) {
	env := writePKI(t)
	env["BENCH_SECURITY"] = "tls"
	env["TLS_SESSION_REUSE"] = "yes"
	if _, err := Load(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "TLS_SESSION_REUSE must be on or off") {
		t.Fatalf("want a usage error naming TLS_SESSION_REUSE, got %v", err)
	}
}

// The settings as /bench/info serializes them describe the certificates and carry none of the PEM
// files' bytes, the private key least of all.
func TestSerializedSecurityDescribesCertificatesWithoutTheirBytes(t *testing.T) {
	env := writePKI(t)
	env["BENCH_SECURITY"] = "mtls"
	s, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	text, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := os.ReadFile(env["BENCH_TLS_KEY"])
	block, _ := pem.Decode(key)
	for _, secret := range []string{"-----BEGIN", base64.StdEncoding.EncodeToString(block.Bytes)[:40], base64.StdEncoding.EncodeToString(s.Cert)[:40]} {
		if strings.Contains(string(text), secret) {
			t.Errorf("serialized security holds %q: %s", secret, text)
		}
	}
	if s.CertInfo == nil || s.CertInfo.Subject != "CN=bench" || s.CertInfo.Issuer != "CN=test CA" || s.CertInfo.KeyType != "ec P-256" || len(s.CertInfo.Fingerprint256) != 95 {
		t.Errorf("certificate described as %+v", s.CertInfo)
	}
	if !strings.Contains(string(text), `"fingerprint256"`) {
		t.Errorf("serialized security names no fingerprint: %s", text)
	}
}

func TestLoadRefusesAFileWithoutACertificate(t *testing.T) {
	env := writePKI(t)
	env["BENCH_SECURITY"] = "tls"
	env["BENCH_TLS_CA"] = env["BENCH_TLS_KEY"]
	if _, err := Load(func(k string) string { return env[k] }); err == nil || err.Error() != "BENCH_TLS_CA holds no PEM certificate" {
		t.Fatalf("want an error naming BENCH_TLS_CA, got %v", err)
	}
}

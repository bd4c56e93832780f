package security

import (
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestRefusalReasonNamesWhatWasWrong(t *testing.T) {
	cases := map[string]error{
		"unknown CA":           fmt.Errorf("tls: %w", x509.UnknownAuthorityError{}),
		"expired certificate":  x509.CertificateInvalidError{Reason: x509.Expired},
		"no client EKU":        x509.CertificateInvalidError{Reason: x509.IncompatibleUsage},
		"no certificate":       errors.New("tls: client didn't provide a certificate"),
		"protocol error (tls)": errors.New("tls: first record does not look like a TLS handshake"),
	}
	for want, err := range cases {
		if got := RefusalReason(err); !strings.HasPrefix(got, want) {
			t.Errorf("RefusalReason(%v) = %q; want it to start with %q", err, got, want)
		}
	}
}

// A flood is logged a few lines per window; the window's end says how many more there were, and why.
func TestRefusalLogIsRateLimited(t *testing.T) {
	lines := make(chan string, 16)
	log := NewRefusalLog("server-a", 2, 50*time.Millisecond, func(line string) { lines <- line })
	for i := 0; i < 5; i++ {
		log.Refused(fmt.Sprintf("127.0.0.1:%d", 40000+i), x509.UnknownAuthorityError{})
	}
	for i := 0; i < 2; i++ {
		if line := <-lines; !strings.HasPrefix(line, fmt.Sprintf("server-a: refused a TLS handshake from 127.0.0.1:%d: unknown CA", 40000+i)) {
			t.Errorf("line %d: %q", i, line)
		}
	}
	select {
	case line := <-lines:
		if want := "server-a: 3 more refused TLS handshakes not logged in the last 0.05 s (at most 2 lines per 0.05 s): unknown CA ×3"; line != want {
			t.Errorf("summary %q; want %q", line, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no summary line after the window")
	}
}

package httpx

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestLimitBodies(t *testing.T) {
	var seen string
	handler := LimitBodies(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		seen = string(data)
		w.WriteHeader(http.StatusNoContent)
	}), 10)
	for _, c := range []struct {
		body, encoding string
		chunked        bool
		code           int
	}{
		{"0123456789", "", false, 204},
		{"0123456789", "identity", false, 204},
		{"0123456789", "gzip", false, 415},
		{"0123456789", " Deflate ", false, 415},
		{"0123456789a", "", false, 413},
		{"0123456789a", "", true, 413},
		{"", "", false, 204},
	} {
		seen = ""
		req := httptest.NewRequest("POST", "/bench/run", strings.NewReader(c.body))
		if c.chunked {
			req.ContentLength = -1
		}
		if c.encoding != "" {
			req.Header.Set("Content-Encoding", c.encoding)
		}
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != c.code || (c.code == 204 && seen != c.body) || (c.code != 204 && !strings.Contains(rec.Body.String(), `"field":"body"`)) {
			t.Errorf("%q (%q, chunked %v): %d %s, handler saw %q", c.body, c.encoding, c.chunked, rec.Code, rec.Body, seen)
		}
	}
}

// Once the request has arrived, the server's ReadTimeout no longer bounds the reply: net/http would
// cancel the request's context at it while a long reply is still being written.
func TestTheRequestTimeoutDoesNotCutAReply(t *testing.T) {
	done := make(chan error, 1)
	server := NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(600 * time.Millisecond)
		done <- r.Context().Err()
	}), Limits{Handshake: 200 * time.Millisecond, Body: 10})
	server.ReadTimeout = 200 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = server.Serve(ln) }()
	t.Cleanup(func() { _ = server.Close() })
	res, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if err := <-done; err != nil {
		t.Fatalf("the request's context ended at the read timeout: %v", err)
	}
}

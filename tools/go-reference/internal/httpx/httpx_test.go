package httpx

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

func TestSafeDecode(t *testing.T) {
	cases := map[string]string{
		"12":           "12",
		"%31%32":       "12",
		"%2F":          "/",
		"a+b":          "a+b",
		"%E0%A4%A":     "%E0%A4%A", // malformed escape: left as it is
		"%E0%A4%A0":    "\u0920",
		"%FF":          "%FF", // not UTF-8: decodeURIComponent throws, so left as it is
		"%ED%A0%80abc": "%ED%A0%80abc",
	}
	for in, want := range cases {
		if got := SafeDecode(in); got != want {
			t.Errorf("SafeDecode(%q) = %q; want %q", in, got, want)
		}
	}
}

// A handler that reports what it was asked, through the rescuing listener.
func echoServer(t *testing.T) string {
	t.Helper()
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SendBadRequest(w, "count", "integer", r.Method+" "+Path(r)+" ? "+r.URL.RawQuery)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := &http.Server{Handler: handler}
	go func() { _ = server.Serve(Listener(ln, handler)) }()
	t.Cleanup(func() { _ = server.Close() })
	return ln.Addr().String()
}

func roundTrip(t *testing.T, conn net.Conn, reader *bufio.Reader, requestLine string) (*http.Response, map[string]any) {
	t.Helper()
	if _, err := io.WriteString(conn, requestLine+"\r\nHost: local\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(reader, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("%s: body is not JSON: %v", requestLine, err)
	}
	return res, body
}

func TestMalformedTargetsReachTheHandler(t *testing.T) {
	addr := echoServer(t)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	reader := bufio.NewReader(conn)

	// A well-formed request first, on the same keep-alive connection.
	res, body := roundTrip(t, conn, reader, "GET /server-a/%31?resetPeak=true HTTP/1.1")
	if res.StatusCode != 400 || body["message"] != "GET /server-a/%31 ? resetPeak=true" {
		t.Fatalf("well-formed request: %d %v", res.StatusCode, body)
	}
	res, body = roundTrip(t, conn, reader, "GET /server-a/%E0%A4%A HTTP/1.1")
	if res.StatusCode != 400 || body["message"] != "GET /server-a/%E0%A4%A ? " || body["field"] != "count" {
		t.Fatalf("malformed request: %d %v", res.StatusCode, body)
	}
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || res.ContentLength <= 0 {
		t.Fatalf("headers: %v", res.Header)
	}
}

func TestOtherParseErrorsKeepNetHTTPsAnswer(t *testing.T) {
	addr := echoServer(t)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /x HTTP/1.1\r\nHost: local\r\nbad header line\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 400 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("%d %v", res.StatusCode, res.Header)
	}
}

func TestQueryValue(t *testing.T) {
	cases := []struct {
		query, name string
		value       string
		ok          bool
	}{
		{"bytes=10", "bytes", "10", true},
		{"a=1&bytes=10&bytes=20", "bytes", "10", true}, // the first, as URLSearchParams.get
		{"bytes=", "bytes", "", true},
		{"bytes", "bytes", "", true},
		{"other=1", "bytes", "", false},
		{"", "bytes", "", false},
		{"bytes=%31%30", "bytes", "10", true},
		{"bytes=1+2", "bytes", "1 2", true},
		{"bytes=%zz", "bytes", "%zz", true}, // malformed: kept, so validation names it
		{"bytes=1%", "bytes", "1%", true},
		{"by%74es=7", "bytes", "7", true},
		{"bytes=%FF", "bytes", "\uFFFD", true},
	}
	for _, c := range cases {
		r, _ := http.NewRequest("GET", "http://x/p", nil)
		r.URL.RawQuery = c.query
		value, ok := QueryValue(r, c.name)
		if value != c.value || ok != c.ok {
			t.Errorf("QueryValue(%q, %q) = %q, %v; want %q, %v", c.query, c.name, value, ok, c.value, c.ok)
		}
	}
}

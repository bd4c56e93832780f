package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"goreference/internal/hostile"
	"goreference/internal/httpx"
	"goreference/internal/limits"
	"goreference/internal/procmetrics"
	"goreference/internal/samples"
	"goreference/internal/settings"
)

func TestSlicedReplyIsTheWholeReply(t *testing.T) {
	base := startWith(t, 40_000, 10*time.Second)
	count := samples.WholeReplyMaxRows + samples.ReplySliceRows + 7
	res, body := fetch(t, "GET", base+"/server-a/"+strconv.Itoa(count))
	whole, _ := json.Marshal(reply{Samples: samples.BuildRows(count)})
	if res.StatusCode != 200 || !bytes.Equal(body, whole) || res.Header.Get("Content-Length") != strconv.Itoa(len(whole)) {
		t.Fatalf("%d, %d bytes (Content-Length %s); want the %d bytes of the whole reply", res.StatusCode, len(body), res.Header.Get("Content-Length"), len(whole))
	}
}

// request sends a GET and returns the connection without reading the reply (a client that does not read).
func request(t *testing.T, base, target string, headers ...string) net.Conn {
	t.Helper()
	host := strings.TrimPrefix(base, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	head := "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n" + strings.Join(headers, "") + "\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	return conn
}

func waitAbandoned(t *testing.T, before int64) {
	t.Helper()
	if !samples.AwaitAbandoned(before, 2*time.Second) {
		t.Fatal("the server did not abandon the reply within 2 s")
	}
}

func healthWithin2s(t *testing.T, base string) {
	t.Helper()
	client := &http.Client{Timeout: 2 * time.Second}
	res, err := client.Get(base + "/health")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("health: %v", err)
	}
	res.Body.Close()
}

// The probe of issue 31: a client that asks for a large reply with a deadline and never reads it.
func TestAReplyStopsAtTheCallersDeadline(t *testing.T) {
	base := startWith(t, 500_000, 10*time.Second)
	before := samples.AbandonedReplies()
	request(t, base, "/server-a/500000", samples.DeadlineHeader+": 200\r\n")
	waitAbandoned(t, before)
	healthWithin2s(t, base)
}

func TestAReplyStopsWhenTheCallerDisconnects(t *testing.T) {
	base := startWith(t, 500_000, 10*time.Second)
	before := samples.AbandonedReplies()
	conn := request(t, base, "/server-a/500000")
	// Read a little, so the reply is under way, then go.
	if _, err := io.ReadFull(conn, make([]byte, 64<<10)); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	waitAbandoned(t, before)
	healthWithin2s(t, base)
}

func status(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

func TestBodiesOverTheLimitAre413(t *testing.T) {
	base := start(t)
	big := make([]byte, 3<<20)
	req, _ := http.NewRequest("GET", base+"/server-a/1", bytes.NewReader(big))
	if code, body := status(t, req); code != 413 || !strings.Contains(body, `"statusCode":413`) {
		t.Errorf("with a Content-Length: %d %s", code, body)
	}
	// No Content-Length (chunked): refused once the limit is read.
	req, _ = http.NewRequest("GET", base+"/server-a/1", io.MultiReader(bytes.NewReader(big)))
	if code, body := status(t, req); code != 413 {
		t.Errorf("chunked: %d %s", code, body)
	}
	req, _ = http.NewRequest("GET", base+"/server-a/1", bytes.NewReader(make([]byte, 1<<20)))
	if code, body := status(t, req); code != 200 {
		t.Errorf("1 MiB body, under the limit: %d %.80s", code, body)
	}
}

func TestCompressedBodiesAre415(t *testing.T) {
	base := start(t)
	var bomb bytes.Buffer
	z := gzip.NewWriter(&bomb)
	_, _ = z.Write(make([]byte, 50<<20))
	_ = z.Close()
	req, _ := http.NewRequest("GET", base+"/server-a/1", bytes.NewReader(bomb.Bytes()))
	req.Header.Set("Content-Encoding", "gzip")
	if code, body := status(t, req); code != 415 || !strings.Contains(body, `content encoding \"gzip\" is not accepted`) {
		t.Errorf("%d %s", code, body)
	}
}

// A connection that sends half a request head is dropped after the handshake limit.
func TestHalfARequestHeadIsDropped(t *testing.T) {
	base := startWith(t, 50, 300*time.Millisecond)
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "GET /health HTTP/1.1\r\nHost: x\r\n")
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err = io.Copy(io.Discard, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("half a request head kept its connection for 10 s")
	}
	// A whole request on a fresh connection is still answered.
	res, _ := fetch(t, "GET", base+"/health")
	if res.StatusCode != 200 {
		t.Fatalf("health %d", res.StatusCode)
	}
}

// A sliced reply that finished within its deadline leaves no write deadline on its kept-alive connection.
func TestAKeptAliveConnectionOutlivesAReplysDeadline(t *testing.T) {
	base := startWith(t, 40_000, 10*time.Second)
	conn := request(t, base, "/server-a/25000", samples.DeadlineHeader+": 1000\r\n")
	reader := bufio.NewReader(conn)
	res, err := http.ReadResponse(reader, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := io.Copy(io.Discard, res.Body); err != nil || n != int64(samples.SamplesJSONLength(25_000)) {
		t.Fatalf("first reply: %d bytes, %v", n, err)
	}
	time.Sleep(1200 * time.Millisecond)
	if _, err := io.WriteString(conn, "GET /server-a/25000 HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	res, err = http.ReadResponse(reader, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := io.Copy(io.Discard, res.Body); err != nil || n != int64(samples.SamplesJSONLength(25_000)) {
		t.Fatalf("second reply on the same connection: %d bytes, %v", n, err)
	}
}

// Under TLS, a connection that stops before its TLS handshake is done is dropped at the handshake
// limit: net/http reads the handshake under the request head's deadline (ReadHeaderTimeout).
func TestAnUnfinishedTLSHandshakeIsDropped(t *testing.T) {
	const handshake = 300 * time.Millisecond
	server := httpx.NewServer(newHandler(settings.Defaults, procmetrics.New()), httpx.Limits{Handshake: handshake, Body: limits.HTTPRequestBytes})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = server.Serve(httpx.Listener(tls.NewListener(ln, hostile.SelfSigned(t, "http/1.1")), server.Handler))
	}()
	t.Cleanup(func() { _ = server.Close() })
	hostile.DroppedAtTheLimit(t, ln.Addr().String(), handshake)
}

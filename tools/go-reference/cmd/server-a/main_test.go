package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"goreference/internal/httpx"
	"goreference/internal/limits"
	"goreference/internal/procmetrics"
	"goreference/internal/samples"
	"goreference/internal/settings"
)

// start runs server-a's handler behind the same listener main uses, on a free port.
func start(t *testing.T) string {
	t.Helper()
	return startWith(t, 50, limits.Handshake)
}

// startWith is start with MAX_ROWS maxRows and HANDSHAKE_TIMEOUT_MS handshake.
func startWith(t *testing.T, maxRows int, handshake time.Duration) string {
	t.Helper()
	s := settings.Defaults
	s.MaxRows = maxRows
	server := httpx.NewServer(newHandler(s, procmetrics.New()), httpx.Limits{Handshake: handshake, Body: limits.HTTPRequestBytes})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = server.Serve(httpx.Listener(ln, server.Handler)) }()
	t.Cleanup(func() { _ = server.Close() })
	return "http://" + ln.Addr().String()
}

// fetch sends the request target as written (Go's own client would refuse a malformed %-escape).
func fetch(t *testing.T, method, url string) (*http.Response, []byte) {
	t.Helper()
	host, target, _ := strings.Cut(strings.TrimPrefix(url, "http://"), "/")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, method+" /"+target+" HTTP/1.1\r\nHost: "+host+"\r\nContent-Length: 0\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

func TestServesTheBlogRowsWithAContentLength(t *testing.T) {
	base := start(t)
	res, body := fetch(t, "GET", base+"/server-a/3")
	want, _ := json.Marshal(map[string][]samples.Row{"samples": samples.BuildRows(3)})
	if res.StatusCode != 200 || string(body) != string(want) || res.Header.Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Fatalf("%d %s %v", res.StatusCode, body, res.Header)
	}
	if res.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("content type %q", res.Header.Get("Content-Type"))
	}
}

func TestRefusesBadCountsAndStaysUp(t *testing.T) {
	base := start(t)
	for count, rule := range map[string]string{"abc": "integer", "1.5": "integer", "-1": "integer", "%E0%A4%A": "integer",
		"%E0%A4%A0": "integer", "0": "min", "51": "max", "": "required"} {
		res, body := fetch(t, "GET", base+"/server-a/"+count)
		var reply map[string]any
		_ = json.Unmarshal(body, &reply)
		if res.StatusCode != 400 || reply["field"] != "count" || reply["rule"] != rule || reply["statusCode"] != 400.0 || reply["error"] != "Bad Request" {
			t.Errorf("%q: %d %s", count, res.StatusCode, body)
		}
		if res, _ := fetch(t, "GET", base+"/health"); res.StatusCode != 200 {
			t.Fatalf("down after %q", count)
		}
	}
	if res, _ := fetch(t, "GET", base+"/server-a/%31%32"); res.StatusCode != 200 {
		t.Errorf("%%31%%32 is 12: %d", res.StatusCode)
	}
}

func TestRoutesAndMethods(t *testing.T) {
	base := start(t)
	if res, body := fetch(t, "GET", base+"/nope"); res.StatusCode != 404 || string(body) != `{"statusCode":404,"error":"Not Found","message":"no route /nope"}` {
		t.Errorf("404: %d %s", res.StatusCode, body)
	}
	if res, body := fetch(t, "POST", base+"/server-a/1"); res.StatusCode != 405 || string(body) != `{"statusCode":405,"error":"Method Not Allowed"}` {
		t.Errorf("405: %d %s", res.StatusCode, body)
	}
	if res, body := fetch(t, "GET", base+"/health"); res.StatusCode != 200 || string(body) != `{"status":"SERVING","service":"server-a"}` {
		t.Errorf("health: %d %s", res.StatusCode, body)
	}
}

func TestMetricsReportPhases(t *testing.T) {
	base := start(t)
	read := func(url string) procmetrics.Sample {
		_, body := fetch(t, "GET", url)
		var s procmetrics.Sample
		if err := json.Unmarshal(body, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := read(base + "/metrics?resetPeak=true")
	fetch(t, "GET", base+"/server-a/50")
	after := read(base + "/metrics")
	if after.BuildMs <= before.BuildMs || after.EncodeMs <= before.EncodeMs || after.RSSBytes <= 0 || after.CPUUserMs < before.CPUUserMs {
		t.Fatalf("before %+v after %+v", before, after)
	}
}

func TestPathBulk(t *testing.T) {
	base := start(t)
	for _, n := range []int{1, 262_144, 1_000_003} {
		res, body := fetch(t, "GET", base+"/path/bulk?bytes="+strconv.Itoa(n))
		if res.StatusCode != 200 || len(body) != n || res.Header.Get("Content-Length") != strconv.Itoa(n) ||
			res.Header.Get("Content-Type") != "application/octet-stream" || strings.Trim(string(body), "\x00") != "" {
			t.Errorf("%d: %d, %d bytes, %v", n, res.StatusCode, len(body), res.Header)
		}
	}
	for query, rule := range map[string]string{"bytes=0": "min", "bytes=268435457": "max", "bytes=abc": "integer",
		"bytes=%zz": "integer", "bytes=": "required", "": "required", "other=1": "required"} {
		res, body := fetch(t, "GET", base+"/path/bulk?"+query)
		var reply map[string]any
		_ = json.Unmarshal(body, &reply)
		if res.StatusCode != 400 || reply["field"] != "bytes" || reply["rule"] != rule || reply["error"] != "Bad Request" {
			t.Errorf("%q: %d %s", query, res.StatusCode, body)
		}
	}
	if res, body := fetch(t, "GET", base+"/path/bulk?bytes=268435457"); !strings.Contains(string(body), `"message":"bytes must be at most 268435456, got 268435457"`) {
		t.Errorf("message: %d %s", res.StatusCode, body)
	}
}

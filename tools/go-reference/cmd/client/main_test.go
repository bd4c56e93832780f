package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/peer"

	"goreference/gen/healthpb"
	"goreference/gen/metricspb"
	"goreference/gen/pathpb"
	"goreference/gen/samplepb"
	"goreference/internal/access"
	"goreference/internal/harness"
	"goreference/internal/httpx"
	"goreference/internal/procmetrics"
	"goreference/internal/samples"
	"goreference/internal/settings"
)

// Minimal upstreams for the client: JSON rows and /path/bulk over HTTP, and SampleService + Health +
// metrics + PathProbe over gRPC.
type upstreams struct {
	jsonURL  string
	grpcAddr string
	wrong    bool // reply with one row too few, one bulk byte too few

	mu         sync.Mutex
	bulkPeers  map[string]bool // PathProbe.Bulk's callers (one per connection)
	keepAlives int             // GET /path/bulk requests that did not ask to close their connection
	deadlines  []time.Duration // each sample call's deadline as the server saw it (x-deadline-ms, grpc-timeout); -1: none
}

func (u *upstreams) sawDeadline(d time.Duration) {
	u.mu.Lock()
	u.deadlines = append(u.deadlines, d)
	u.mu.Unlock()
}

type fakePath struct {
	pathpb.UnimplementedPathProbeServer
	u *upstreams
}

func (f fakePath) Bulk(req *pathpb.BulkRequest, stream grpc.ServerStreamingServer[pathpb.BulkChunk]) error {
	if p, ok := peer.FromContext(stream.Context()); ok {
		f.u.mu.Lock()
		f.u.bulkPeers[p.Addr.String()] = true
		f.u.mu.Unlock()
	}
	n := int(req.Bytes)
	if f.u.wrong {
		n--
	}
	zeros := make([]byte, 64*1024)
	for left := n; left > 0; left -= min(left, len(zeros)) {
		if err := stream.Send(&pathpb.BulkChunk{Data: zeros[:min(left, len(zeros))]}); err != nil {
			return err
		}
	}
	return nil
}

type fakeSamples struct {
	samplepb.UnimplementedSampleServiceServer
	u *upstreams
}

func (f fakeSamples) GetSamples(ctx context.Context, p *samplepb.GetSamplesParam) (*samplepb.Samples, error) {
	if deadline, ok := ctx.Deadline(); ok {
		f.u.sawDeadline(time.Until(deadline))
	} else {
		f.u.sawDeadline(-1)
	}
	n := int(p.Count)
	if f.u.wrong {
		n--
	}
	out := &samplepb.Samples{}
	for _, row := range samples.BuildRows(n) {
		out.Samples = append(out.Samples, &samplepb.Sample{RowNum: int32(row.RowNum), ColumnA: row.ColumnA, ColumnB: row.ColumnB,
			ColumnC: row.ColumnC, ColumnD: row.ColumnD, ColumnE: row.ColumnE, ColumnF: row.ColumnF, ColumnG: row.ColumnG,
			ColumnH: row.ColumnH, ColumnI: row.ColumnI, ColumnJ: row.ColumnJ})
	}
	return out, nil
}

type fakeHealth struct {
	healthpb.UnimplementedHealthServer
}

func (fakeHealth) Check(context.Context, *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

type fakeMetrics struct {
	metricspb.UnimplementedProcessMetricsServer
}

func (fakeMetrics) Read(context.Context, *metricspb.ReadRequest) (*metricspb.ProcessSample, error) {
	return &metricspb.ProcessSample{CpuUserMs: 1, PeakRssBytes: 2}, nil
}

func startUpstreams(t *testing.T) *upstreams {
	t.Helper()
	u := &upstreams{bulkPeers: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /server-a/{count}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("count"))
		if ms := samples.ParseDeadlineHeader(r.Header.Get(samples.DeadlineHeader)); ms > 0 {
			u.sawDeadline(time.Duration(ms) * time.Millisecond)
		} else {
			u.sawDeadline(-1)
		}
		if u.wrong {
			n--
		}
		text, _ := json.Marshal(map[string]any{"samples": samples.BuildRows(n)})
		httpx.SendBytes(w, 200, text)
	})
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {
		httpx.SendJSON(w, 200, map[string]string{"status": "SERVING", "service": "server-a"})
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		httpx.SendJSON(w, 200, procmetrics.Sample{BuildMs: 1})
	})
	mux.HandleFunc("GET /path/bulk", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("bytes"))
		if u.wrong {
			n--
		}
		u.mu.Lock()
		if !r.Close {
			u.keepAlives++
		}
		u.mu.Unlock()
		w.Header().Set("Content-Length", strconv.Itoa(n))
		_, _ = w.Write(make([]byte, n))
	})
	httpServer := httptest.NewServer(mux)
	t.Cleanup(httpServer.Close)
	u.jsonURL = httpServer.URL

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// As server-b: HTTP/2 PINGs answered however often they come (the path probe sends them back to back).
	grpcServer := grpc.NewServer(grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Nanosecond, PermitWithoutStream: true}))
	samplepb.RegisterSampleServiceServer(grpcServer, fakeSamples{u: u})
	pathpb.RegisterPathProbeServer(grpcServer, fakePath{u: u})
	healthpb.RegisterHealthServer(grpcServer, fakeHealth{})
	metricspb.RegisterProcessMetricsServer(grpcServer, fakeMetrics{})
	go func() { _ = grpcServer.Serve(ln) }()
	t.Cleanup(grpcServer.Stop)
	u.grpcAddr = ln.Addr().String()
	return u
}

func newTestApp(t *testing.T, u *upstreams) *app {
	t.Helper()
	s := settings.Defaults
	s.ServerAURL, s.ServerBURL, s.MaxRows, s.MaxParallel = u.jsonURL, u.grpcAddr, 1000, 50
	jsonT := newJSONTransport(s)
	grpcT, err := newGRPCTransport(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(grpcT.Close)
	return &app{settings: s, runner: harness.NewRunner(procmetrics.New(), jsonT, grpcT), probe: &http.Client{}}
}

func serve(a *app, method, target, body string) (int, map[string]any) {
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, httptest.NewRequest(method, target, strings.NewReader(body)))
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

func TestBenchRunBothTransports(t *testing.T) {
	a := newTestApp(t, startUpstreams(t))
	for _, transport := range []string{"json", "grpc"} {
		code, run := serve(a, "POST", "/bench/run", `{"transport":"`+transport+`","rows":20,"requests":3,"runs":2}`)
		if code != 200 {
			t.Fatalf("%s: %d %v", transport, code, run)
		}
		if run["transport"] != transport || run["rowsPerCall"] != 60.0 || run["coldMs"] == nil ||
			len(run["warmupMs"].([]any)) != 1 || len(run["samplesMs"].([]any)) != 2 || run["serverMetricsError"] != nil {
			t.Errorf("%s: %v", transport, run)
		}
		if bytes, _ := run["bytesPerResponse"].(float64); bytes < 1000 {
			t.Errorf("%s: bytesPerResponse %v", transport, run["bytesPerResponse"])
		}
		phases, _ := run["phases"].(map[string]any)
		if phases == nil || phases["clientDecodeMs"] == nil || phases["serverBuildMs"] == nil {
			t.Errorf("%s: phases %v", transport, run["phases"])
		}
		if run["client"] == nil || run["server"] == nil {
			t.Errorf("%s: costs %v %v", transport, run["client"], run["server"])
		}
	}
}

func TestBlogRoutes(t *testing.T) {
	a := newTestApp(t, startUpstreams(t))
	for target, want := range map[string][2]float64{
		"/client/call-a/5":          {5, 1},
		"/client/call-b/5":          {5, 1},
		"/client/call-a-parallel/4": {1, 4},
		"/client/call-b-parallel/4": {1, 4},
	} {
		code, body := serve(a, "GET", target, "")
		if code != 200 || body["rows"] != want[0] || body["requests"] != want[1] || body["rowsReceived"] != want[0]*want[1] {
			t.Errorf("%s: %d %v", target, code, body)
		}
	}
	for target, rule := range map[string]string{
		"/client/call-a/abc":          "integer",
		"/client/call-b/0":            "min",
		"/client/call-a/1001":         "max",
		"/client/call-b-parallel/51":  "max",
		"/client/call-a/%E0%A4%A0":    "integer",
		"/client/call-a-parallel/1.5": "integer",
	} {
		code, body := serve(a, "GET", target, "")
		if code != 400 || body["field"] != "count" || body["rule"] != rule {
			t.Errorf("%s: %d %v", target, code, body)
		}
	}
}

func TestBadInputAndRoutes(t *testing.T) {
	a := newTestApp(t, startUpstreams(t))
	cases := []struct {
		method, target, body string
		code                 int
		field, rule          string
	}{
		{"POST", "/bench/run", `{`, 400, "body", "type"},
		{"POST", "/bench/run", `[1]`, 400, "body", "type"},
		{"POST", "/bench/run", `{"transport":"xml","rows":1,"requests":1,"runs":1}`, 400, "transport", "enum"},
		{"POST", "/bench/run", `{"transport":"json","rows":1001,"requests":1,"runs":1}`, 400, "rows", "max"},
		{"POST", "/bench/run", `{"transport":"json","rows":1,"requests":51,"runs":1}`, 400, "requests", "max"},
		{"POST", "/bench/run", `{"transport":"json","rows":1,"requests":1}`, 400, "runs", "required"},
		{"POST", "/bench/run", `{"pad":"` + strings.Repeat("x", bodyLimit) + `"}`, 413, "body", "type"},
		{"GET", "/bench/run", ``, 404, "", ""},
		{"PUT", "/health", ``, 405, "", ""},
		{"GET", "/nope", ``, 404, "", ""},
	}
	for _, c := range cases {
		code, body := serve(a, c.method, c.target, c.body)
		if code != c.code || (c.field != "" && (body["field"] != c.field || body["rule"] != c.rule)) {
			t.Errorf("%s %s %.40s: %d %v", c.method, c.target, c.body, code, body)
		}
	}
}

func TestWrongRepliesAre502(t *testing.T) {
	u := startUpstreams(t)
	a := newTestApp(t, u)
	u.wrong = true
	for _, transport := range []string{"json", "grpc"} {
		code, body := serve(a, "POST", "/bench/run", `{"transport":"`+transport+`","rows":3,"requests":1,"runs":1}`)
		if code != 502 || body["stage"] != "cold" || body["message"] != "cold call failed: wrong reply: expected 3 rows, got 2" {
			t.Errorf("%s: %d %v", transport, code, body)
		}
		code, body = serve(a, "POST", "/bench/run", `{"transport":"`+transport+`","rows":3,"requests":1,"runs":1,"cold":false}`)
		if code != 502 || body["stage"] != "warmup" {
			t.Errorf("%s: %d %v", transport, code, body)
		}
	}
}

func TestHealthReadyAndInfo(t *testing.T) {
	a := newTestApp(t, startUpstreams(t))
	code, body := serve(a, "GET", "/health/ready", "")
	if code != 200 || body["status"] != "SERVING" {
		t.Fatalf("ready: %d %v", code, body)
	}
	code, body = serve(a, "GET", "/health", "")
	if code != 200 || body["service"] != "client" {
		t.Fatalf("health: %d %v", code, body)
	}
	code, body = serve(a, "GET", "/bench/info", "")
	packages, _ := body["packages"].(map[string]any)
	if code != 200 || body["framework"] != "go" || !strings.HasPrefix(body["node"].(string), "go") || body["go"] != runtime.Version() || packages == nil {
		t.Fatalf("info: %d %v", code, body)
	}
	if _, ok := packages["google.golang.org/grpc"]; !ok {
		t.Fatalf("packages: %v", packages)
	}

	a.settings.ServerAURL = "http://127.0.0.1:1"
	code, body = serve(a, "GET", "/health/ready", "")
	upstreams, _ := body["upstreams"].(map[string]any)
	if code != 503 || body["status"] != "NOT_SERVING" || !strings.HasPrefix(upstreams["server-a"].(string), "UNREACHABLE (") {
		t.Fatalf("not ready: %d %v", code, body)
	}
}

// checkSpread fails unless v is a Spread of n positive samples in order.
func checkSpread(t *testing.T, what string, v any, n int) {
	t.Helper()
	m, _ := v.(map[string]any)
	minMs, _ := m["minMs"].(float64)
	median, _ := m["medianMs"].(float64)
	maxMs, _ := m["maxMs"].(float64)
	if m == nil || len(m) != 4 || m["n"] != float64(n) || !(0 < minMs && minMs <= median && median <= maxMs && maxMs < 5000) {
		t.Errorf("%s: %v", what, v)
	}
}

// checkBulk fails unless v is a BulkSpread of three transfers of `bytes` (plus the window for server-b).
func checkBulk(t *testing.T, what string, v any, bytes int, window bool) {
	t.Helper()
	m, _ := v.(map[string]any)
	minMbit, _ := m["minMbit"].(float64)
	median, _ := m["medianMbit"].(float64)
	maxMbit, _ := m["maxMbit"].(float64)
	keys := 5
	if window {
		keys = 6
		if m["http2WindowBytes"] != 16777216.0 {
			t.Errorf("%s: window %v", what, m["http2WindowBytes"])
		}
	}
	if m == nil || len(m) != keys || m["bytes"] != float64(bytes) || m["n"] != 3.0 || !(0 < minMbit && minMbit <= median && median <= maxMbit) {
		t.Errorf("%s: %v", what, v)
	}
}

func path(t *testing.T, body map[string]any, keys ...string) any {
	t.Helper()
	var v any = body
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%v: no %s in %v", keys, k, v)
		}
		v = m[k]
	}
	return v
}

func TestBenchPath(t *testing.T) {
	u := startUpstreams(t)
	a := newTestApp(t, u)
	started := time.Now().UTC().Truncate(time.Millisecond)
	code, body := serve(a, "GET", "/bench/path?samples=5&bulkBytes=300001", "")
	if code != 200 {
		t.Fatalf("%d %v", code, body)
	}
	at, err := time.Parse("2006-01-02T15:04:05.000Z", body["measuredAt"].(string))
	if err != nil || at.Before(started) || at.After(time.Now()) {
		t.Errorf("measuredAt %v (%v)", body["measuredAt"], err)
	}
	if len(body) != 3 || len(body["serverA"].(map[string]any)) != 3 || len(body["serverB"].(map[string]any)) != 4 {
		t.Errorf("shape %v", body)
	}
	if want := strings.TrimPrefix(u.jsonURL, "http://"); path(t, body, "serverA", "address") != want {
		t.Errorf("serverA address %v; want %s", path(t, body, "serverA", "address"), want)
	}
	if path(t, body, "serverB", "address") != u.grpcAddr {
		t.Errorf("serverB address %v; want %s", path(t, body, "serverB", "address"), u.grpcAddr)
	}
	checkSpread(t, "serverA.tcpConnectMs", path(t, body, "serverA", "tcpConnectMs"), 5)
	checkSpread(t, "serverB.tcpConnectMs", path(t, body, "serverB", "tcpConnectMs"), 5)
	checkSpread(t, "serverB.http2PingMs", path(t, body, "serverB", "http2PingMs"), 5)
	checkBulk(t, "serverA.bulk", path(t, body, "serverA", "bulk"), 300001, false)
	checkBulk(t, "serverB.bulk", path(t, body, "serverB", "bulk"), 300001, true)
	// Each transfer (one untimed, three timed) on a connection of its own.
	u.mu.Lock()
	if u.keepAlives != 0 || len(u.bulkPeers) != 4 {
		t.Errorf("server-a keep-alive requests %d, server-b connections %d", u.keepAlives, len(u.bulkPeers))
	}
	u.mu.Unlock()

	// Defaults: 10 samples, 8 MiB.
	code, body = serve(a, "GET", "/bench/path", "")
	if code != 200 {
		t.Fatalf("%d %v", code, body)
	}
	checkSpread(t, "default serverB.http2PingMs", path(t, body, "serverB", "http2PingMs"), 10)
	checkBulk(t, "default serverA.bulk", path(t, body, "serverA", "bulk"), 8*1024*1024, false)
	checkBulk(t, "default serverB.bulk", path(t, body, "serverB", "bulk"), 8*1024*1024, true)
}

func TestBenchPathRefusesABadQuery(t *testing.T) {
	a := newTestApp(t, startUpstreams(t))
	for query, want := range map[string]string{
		"samples=0":                     `{"statusCode":400,"error":"Bad Request","field":"samples","rule":"min","message":"samples must be at least 1, got 0"}`,
		"samples=101":                   `{"statusCode":400,"error":"Bad Request","field":"samples","rule":"max","message":"samples must be at most 100, got 101"}`,
		"samples=1.5&bulkBytes=0":       `{"statusCode":400,"error":"Bad Request","field":"samples","rule":"integer","message":"samples must be a whole number written in digits, got \"1.5\""}`,
		"samples=":                      `{"statusCode":400,"error":"Bad Request","field":"samples","rule":"required","message":"samples is required (a whole number from 1 to 100)"}`,
		"bulkBytes=0":                   `{"statusCode":400,"error":"Bad Request","field":"bulkBytes","rule":"min","message":"bulkBytes must be at least 1, got 0"}`,
		"samples=3&bulkBytes=268435457": `{"statusCode":400,"error":"Bad Request","field":"bulkBytes","rule":"max","message":"bulkBytes must be at most 268435456, got 268435457"}`,
		"bulkBytes=%zz":                 `{"statusCode":400,"error":"Bad Request","field":"bulkBytes","rule":"integer","message":"bulkBytes must be a whole number written in digits, got \"%zz\""}`,
	} {
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, httptest.NewRequest("GET", "/bench/path?"+query, nil))
		if rec.Code != 400 || rec.Body.String() != want {
			t.Errorf("%s: %d %s", query, rec.Code, rec.Body.String())
		}
	}
}

// freeAddress is a loopback host:port nothing listens on.
func freeAddress(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	address := ln.Addr().String()
	_ = ln.Close()
	return address
}

func errorOf(v any) string {
	m, _ := v.(map[string]any)
	if len(m) != 1 {
		return ""
	}
	text, _ := m["error"].(string)
	return text
}

func TestBenchPathServerDownIsThatPartsError(t *testing.T) {
	u := startUpstreams(t)
	a := newTestApp(t, u)
	down := freeAddress(t)

	a.settings.ServerAURL = "http://" + down
	code, body := serve(a, "GET", "/bench/path?samples=2&bulkBytes=1000", "")
	if code != 200 || path(t, body, "serverA", "address") != down {
		t.Fatalf("%d %v", code, body)
	}
	for _, part := range []string{"tcpConnectMs", "bulk"} {
		if e := errorOf(path(t, body, "serverA", part)); !strings.Contains(e, "connection refused") {
			t.Errorf("serverA.%s: %v", part, path(t, body, "serverA", part))
		}
	}
	checkSpread(t, "serverB.tcpConnectMs", path(t, body, "serverB", "tcpConnectMs"), 2)
	checkSpread(t, "serverB.http2PingMs", path(t, body, "serverB", "http2PingMs"), 2)
	checkBulk(t, "serverB.bulk", path(t, body, "serverB", "bulk"), 1000, true)

	a.settings.ServerAURL, a.settings.ServerBURL = u.jsonURL, down
	code, body = serve(a, "GET", "/bench/path?samples=2&bulkBytes=1000", "")
	if code != 200 || path(t, body, "serverB", "address") != down {
		t.Fatalf("%d %v", code, body)
	}
	for _, part := range []string{"tcpConnectMs", "http2PingMs", "bulk"} {
		if e := errorOf(path(t, body, "serverB", part)); !strings.Contains(e, "connection refused") {
			t.Errorf("serverB.%s: %v", part, path(t, body, "serverB", part))
		}
	}
	if e := errorOf(path(t, body, "serverB", "bulk")); !strings.HasPrefix(e, "PathProbe.Bulk: ") {
		t.Errorf("serverB.bulk: %q", e)
	}
	checkSpread(t, "serverA.tcpConnectMs", path(t, body, "serverA", "tcpConnectMs"), 2)
	checkBulk(t, "serverA.bulk", path(t, body, "serverA", "bulk"), 1000, false)
}

func TestBenchPathShortTransfersAndSilentServers(t *testing.T) {
	u := startUpstreams(t)
	a := newTestApp(t, u)
	u.wrong = true
	_, body := serve(a, "GET", "/bench/path?samples=1&bulkBytes=1000", "")
	if e := errorOf(path(t, body, "serverA", "bulk")); e != "bulk transfer ended after 999 of 1000 bytes" {
		t.Errorf("serverA.bulk: %v", path(t, body, "serverA", "bulk"))
	}
	if e := errorOf(path(t, body, "serverB", "bulk")); e != "bulk transfer ended after 999 of 1000 bytes" {
		t.Errorf("serverB.bulk: %v", path(t, body, "serverB", "bulk"))
	}
	u.wrong = false

	// A server that accepts connections and never answers: each part ends at its timeout.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { _ = conn.Close() })
		}
	}()
	silent := ln.Addr().String()
	a.settings.ServerAURL, a.settings.ServerBURL, a.pathTimeout = "http://"+silent, silent, 300*time.Millisecond
	started := time.Now()
	_, body = serve(a, "GET", "/bench/path?samples=2&bulkBytes=1000", "")
	if elapsed := time.Since(started); elapsed > 5*time.Second {
		t.Errorf("took %v", elapsed)
	}
	checkSpread(t, "serverA.tcpConnectMs", path(t, body, "serverA", "tcpConnectMs"), 2)
	if e := errorOf(path(t, body, "serverA", "bulk")); e != "bulk transfer from http://"+silent+" took over 300 ms" {
		t.Errorf("serverA.bulk: %v", path(t, body, "serverA", "bulk"))
	}
	if e := errorOf(path(t, body, "serverB", "http2PingMs")); e != "no HTTP/2 connection to "+silent+" within 300 ms" {
		t.Errorf("serverB.http2PingMs: %v", path(t, body, "serverB", "http2PingMs"))
	}
	if e := errorOf(path(t, body, "serverB", "bulk")); !strings.HasPrefix(e, "PathProbe.Bulk: ") {
		t.Errorf("serverB.bulk: %v", path(t, body, "serverB", "bulk"))
	}
	t.Logf("silent servers: %v", body)
}

func TestBenchPathWaitsForNoRun(t *testing.T) {
	a := newTestApp(t, startUpstreams(t))
	// While a case holds the runner (as POST /bench/run does), the path is refused: its transfers would disturb the case.
	held := a.runner.Exclusive(func() {
		code, body := serve(a, "GET", "/bench/path?samples=1&bulkBytes=1000", "")
		if code != http.StatusConflict || body["statusCode"] != 409.0 {
			t.Errorf("during a run: %d %v", code, body)
		}
	})
	if held != nil {
		t.Fatal(held)
	}
	if code, body := serve(a, "GET", "/bench/path?samples=1&bulkBytes=1000", ""); code != 200 {
		t.Errorf("after the run: %d %v", code, body)
	}
}

func TestControlTokenGuardsEveryRouteButHealth(t *testing.T) {
	a := newTestApp(t, startUpstreams(t))
	token := strings.Repeat("t", 32)
	rule, err := access.Load("0.0.0.0", func(name string) string { return map[string]string{access.TokenEnv: token}[name] })
	if err != nil {
		t.Fatal(err)
	}
	a.access = rule
	call := func(method, target, authorization string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(method, target, strings.NewReader(`{"transport":"json","rows":1,"requests":1,"runs":1}`))
		if authorization != "" {
			req.Header.Set("Authorization", authorization)
		}
		a.ServeHTTP(rec, req)
		return rec
	}
	for _, target := range []string{"/bench/info", "/bench/path", "/client/call-a/1"} {
		rec := call("GET", target, "")
		if rec.Code != 401 || rec.Header().Get("WWW-Authenticate") != "Bearer" || !strings.Contains(rec.Body.String(), "BENCH_TOKEN") {
			t.Errorf("%s without a token: %d %q", target, rec.Code, rec.Body.String())
		}
	}
	if rec := call("POST", "/bench/run", "Bearer "+strings.Repeat("x", 32)); rec.Code != 401 {
		t.Errorf("wrong token: %d", rec.Code)
	}
	if rec := call("POST", "/bench/run", "Bearer "+token); rec.Code != 200 {
		t.Errorf("right token: %d %s", rec.Code, rec.Body.String())
	}
	if rec := call("GET", "/health", ""); rec.Code != 200 {
		t.Errorf("/health: %d", rec.Code)
	}
}

// Each call carries its deadline to the server, as the Node clients send it, so a server stops a
// reply nobody waits for.
func TestCallsCarryTheirDeadline(t *testing.T) {
	u := startUpstreams(t)
	a := newTestApp(t, u)
	for _, transport := range []string{"json", "grpc"} {
		u.mu.Lock()
		u.deadlines = nil
		u.mu.Unlock()
		code, body := serve(a, "POST", "/bench/run", `{"transport":"`+transport+`","rows":3,"requests":2,"runs":1,"deadlineMs":5000}`)
		if code != 200 {
			t.Fatalf("%s: %d %v", transport, code, body)
		}
		u.mu.Lock()
		seen := append([]time.Duration(nil), u.deadlines...)
		u.mu.Unlock()
		if len(seen) == 0 {
			t.Fatalf("%s: no call reached the server", transport)
		}
		for _, d := range seen {
			if d <= 0 || d > 5*time.Second {
				t.Errorf("%s: a call's deadline as the server saw it: %v; want (0, 5 s]", transport, d)
			}
		}
	}
}

package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/grpc"

	"goreference/gen/healthpb"
	"goreference/gen/metricspb"
	"goreference/gen/samplepb"
	"goreference/internal/harness"
	"goreference/internal/httpx"
	"goreference/internal/procmetrics"
	"goreference/internal/samples"
	"goreference/internal/settings"
)

// Minimal upstreams for the client: JSON rows over HTTP, and SampleService + Health + metrics over gRPC.
type upstreams struct {
	jsonURL  string
	grpcAddr string
	wrong    bool // reply with one row too few
}

type fakeSamples struct {
	samplepb.UnimplementedSampleServiceServer
	u *upstreams
}

func (f fakeSamples) GetSamples(_ context.Context, p *samplepb.GetSamplesParam) (*samplepb.Samples, error) {
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
	u := &upstreams{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /server-a/{count}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("count"))
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
	httpServer := httptest.NewServer(mux)
	t.Cleanup(httpServer.Close)
	u.jsonURL = httpServer.URL

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	grpcServer := grpc.NewServer()
	samplepb.RegisterSampleServiceServer(grpcServer, fakeSamples{u: u})
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
	if code != 200 || body["framework"] != "go" || !strings.HasPrefix(body["node"].(string), "go") || packages == nil {
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

package harness

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"goreference/internal/procmetrics"
	"goreference/internal/samples"
)

func body(t *testing.T, text string) any {
	t.Helper()
	value, err := DecodeBody([]byte(text))
	if err != nil {
		t.Fatalf("DecodeBody(%s): %v", text, err)
	}
	return value
}

func TestParseCaseRequestDefaults(t *testing.T) {
	got, err := ParseCaseRequest(body(t, `{"transport":"grpc","rows":10,"requests":"4","runs":0}`), 1000, 100)
	want := CaseRequest{Transport: "grpc", Rows: 10, Requests: 4, Warmup: 1, Runs: 0, Cold: true, DeadlineMs: 120000}
	if err != nil || got != want {
		t.Fatalf("got %+v, %v", got, err)
	}
	got, err = ParseCaseRequest(body(t, `{"transport":"json","rows":1,"requests":1,"runs":3,"warmup":0,"cold":false}`), 1000, 100)
	want = CaseRequest{Transport: "json", Rows: 1, Requests: 1, Warmup: 0, Runs: 3, Cold: false, DeadlineMs: 120000}
	if err != nil || got != want {
		t.Fatalf("got %+v, %v", got, err)
	}
	got, err = ParseCaseRequest(body(t, `{"transport":"json","rows":1,"requests":1,"runs":3,"warmup":null,"cold":null}`), 1000, 100)
	if err != nil || got.Warmup != 1 || !got.Cold {
		t.Fatalf("null should mean the default: %+v, %v", got, err)
	}
}

func TestParseCaseRequestRefuses(t *testing.T) {
	cases := []struct{ text, field, rule string }{
		{`[]`, "body", "type"},
		{`"x"`, "body", "type"},
		{`null`, "body", "type"},
		{`{"transport":"json","rows":1,"requests":1,"runs":1,"cold":"yes"}`, "cold", "type"},
		{`{"rows":1,"requests":1,"runs":1}`, "transport", "required"},
		{`{"transport":"xml","rows":1,"requests":1,"runs":1}`, "transport", "enum"},
		{`{"transport":"json","requests":1,"runs":1}`, "rows", "required"},
		{`{"transport":"json","rows":0,"requests":1,"runs":1}`, "rows", "min"},
		{`{"transport":"json","rows":1001,"requests":1,"runs":1}`, "rows", "max"},
		{`{"transport":"json","rows":1.5,"requests":1,"runs":1}`, "rows", "integer"},
		{`{"transport":"json","rows":"1e3","requests":1,"runs":1}`, "rows", "integer"},
		{`{"transport":"json","rows":true,"requests":1,"runs":1}`, "rows", "type"},
		{`{"transport":"json","rows":1,"requests":101,"runs":1}`, "requests", "max"},
		{`{"transport":"json","rows":1,"requests":1,"warmup":-1,"runs":1}`, "warmup", "min"},
		{`{"transport":"json","rows":1,"requests":1,"warmup":"","runs":1}`, "warmup", "required"},
		{`{"transport":"json","rows":1,"requests":1}`, "runs", "required"},
		{`{"transport":"json","rows":1,"requests":1,"runs":10001}`, "runs", "max"},
	}
	for _, c := range cases {
		_, err := ParseCaseRequest(body(t, c.text), 1000, 100)
		if err == nil || err.Field != c.field || err.Rule != c.rule {
			t.Errorf("%s: got %+v; want %s/%s", c.text, err, c.field, c.rule)
		}
	}
}

func TestParseCaseRequestCapsTheRunsWork(t *testing.T) {
	if _, err := ParseCaseRequest(body(t, `{"transport":"json","rows":1000000,"requests":1,"warmup":1,"runs":1}`), 1_000_000, 10_000); err != nil {
		t.Fatalf("the bench's largest request was refused: %+v", err)
	}
	_, err := ParseCaseRequest(body(t, `{"transport":"json","rows":1000000,"requests":40,"warmup":0,"runs":1,"cold":false}`), 1_000_000, 10_000)
	if err == nil || err.Field != "body" || err.Rule != "max" || !strings.Contains(err.Message, "MAX_RUN_ROWS = 10000000") || !strings.Contains(err.Message, "1000000 × 40 × 1 = 40000000 rows") {
		t.Errorf("1,000,000 rows × 40 requests: got %+v; want body/max naming the cap", err)
	}
}

// Issue 47: 1 row × 10,000 requests × 999 runs is under the rows cap and asked for 21–73 minutes.
func TestParseCaseRequestCapsTheRunsCalls(t *testing.T) {
	if _, err := ParseCaseRequest(body(t, `{"transport":"json","rows":1,"requests":1000,"warmup":99,"runs":0}`), 1_000_000, 10_000); err != nil {
		t.Fatalf("②-3 with --warmup 99 was refused: %+v", err)
	}
	_, err := ParseCaseRequest(body(t, `{"transport":"grpc","rows":1,"requests":10000,"warmup":0,"runs":999,"cold":false}`), 1_000_000, 10_000)
	if err == nil || err.Field != "body" || err.Rule != "max" || !strings.Contains(err.Message, "MAX_RUN_CALLS = 100000") || !strings.Contains(err.Message, "10000 × 999 = 9990000 calls") {
		t.Errorf("1 row × 10,000 requests × 999 runs: got %+v; want body/max naming the calls cap", err)
	}
}

func TestDecodeBodyRefusesWhatJSONParseRefuses(t *testing.T) {
	for _, text := range []string{``, `{`, `{"a":1}x`, `{"a":1} {}`, `abc`} {
		if _, err := DecodeBody([]byte(text)); err == nil {
			t.Errorf("DecodeBody(%q) accepted", text)
		}
	}
	if _, err := DecodeBody([]byte(" {\"a\": 1e400}\n")); err != nil {
		t.Errorf("a huge number is a valid JSON document: %v", err)
	}
}

// fakeConn replies with the generator's rows, or with whatever wrong reply it is told to.
type fakeConn struct {
	t      *fakeTransport
	closed bool
}

func (c *fakeConn) FetchAll(_ context.Context, rows, requests int) ([]samples.Reply, error) {
	c.t.mu.Lock()
	defer c.t.mu.Unlock()
	c.t.calls++
	if c.t.fail != nil {
		return nil, c.t.fail
	}
	replies := make([]samples.Reply, requests)
	for i := range replies {
		n := rows
		if c.t.short {
			n--
		}
		list := samples.BuildRows(n)
		replies[i] = &samples.JSONReply{Samples: &list}
		c.t.meter.Record(101, time.Millisecond)
	}
	return replies, nil
}

func (c *fakeConn) Close() { c.closed = true }

type fakeTransport struct {
	mu         sync.Mutex
	meter      Meter
	calls      int
	fail       error
	short      bool
	metricsErr error
	// metricsHang: the read answers only when its context ends (a server behind a blackhole).
	metricsHang bool
	fresh      []*fakeConn
	build      float64
}

func (t *fakeTransport) Name() string       { return "json" }
func (t *fakeTransport) Shared() Connection { return &fakeConn{t: t} }
func (t *fakeTransport) OpenFresh() Connection {
	c := &fakeConn{t: t}
	t.fresh = append(t.fresh, c)
	return c
}
func (t *fakeTransport) TakeReplies() Tally { return t.meter.Take() }
func (t *fakeTransport) ReadServerMetrics(ctx context.Context, _ bool) (procmetrics.Sample, error) {
	if t.metricsHang {
		<-ctx.Done()
		return procmetrics.Sample{}, ctx.Err()
	}
	if t.metricsErr != nil {
		return procmetrics.Sample{}, t.metricsErr
	}
	t.build += 6
	return procmetrics.Sample{BuildMs: t.build, EncodeMs: t.build / 2, PeakRSSBytes: 1000, CPUUserMs: t.build}, nil
}

func TestRunShapesTheCaseRun(t *testing.T) {
	ft := &fakeTransport{}
	runner := NewRunner(procmetrics.New(), ft)
	run, err := runner.Run(CaseRequest{Transport: "json", Rows: 3, Requests: 2, Warmup: 2, Runs: 3, Cold: true, DeadlineMs: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if ft.calls != 1+2+3 || len(ft.fresh) != 1 || !ft.fresh[0].closed {
		t.Fatalf("calls %d, fresh %d", ft.calls, len(ft.fresh))
	}
	if run.ColdMs == nil || len(run.WarmupMs) != 2 || len(run.SamplesMs) != 3 || run.RowsPerCall != 6 {
		t.Fatalf("run %+v", run)
	}
	if run.BytesPerResponse == nil || *run.BytesPerResponse != 101 {
		t.Fatalf("bytes %v", run.BytesPerResponse)
	}
	// Timed calls' replies only: 3 runs × 2 replies × 1 ms, per run.
	if run.Phases == nil || *run.Phases.ClientDecodeMs != 2 || *run.Phases.ServerBuildMs != 2 || *run.Phases.ServerEncodeMs != 1 {
		t.Fatalf("phases %+v", run.Phases)
	}
	if run.Client == nil || run.Server == nil || run.Server.CPUUserMs != 6 || run.Server.PeakRSSBytes != 1000 || run.ServerMetricsError != nil {
		t.Fatalf("costs %+v %+v %v", run.Client, run.Server, run.ServerMetricsError)
	}
	text, _ := json.Marshal(run)
	for _, key := range []string{`"transport":"json"`, `"coldMs":`, `"warmupMs":[`, `"samplesMs":[`, `"bytesPerResponse":101`,
		`"rowsPerCall":6`, `"phases":{"serverBuildMs":2,"serverEncodeMs":1,"clientDecodeMs":2}`, `"client":{"cpuUserMs":`, `"server":{"cpuUserMs":6,`, `"serverMetricsError":null`} {
		if !strings.Contains(string(text), key) {
			t.Errorf("JSON lacks %s: %s", key, text)
		}
	}
}

func TestRunWithoutTimedCalls(t *testing.T) {
	ft := &fakeTransport{metricsErr: errors.New("connection refused")}
	run, err := NewRunner(procmetrics.New(), ft).Run(CaseRequest{Transport: "json", Rows: 1, Requests: 1, Warmup: 1, Runs: 0, Cold: false})
	if err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(run)
	want := `{"transport":"json","rows":1,"requests":1,"coldMs":null,"warmupMs":[` + jsonNumber(run.WarmupMs[0]) + `],"samplesMs":[],` +
		`"bytesPerResponse":null,"rowsPerCall":1,"phases":null,"client":null,"server":null,` +
		`"serverMetricsError":"server metrics unavailable: connection refused"}`
	if string(text) != want {
		t.Fatalf("got  %s\nwant %s", text, want)
	}
}

func jsonNumber(f float64) string {
	text, _ := json.Marshal(f)
	return string(text)
}

func TestWrongRepliesFailTheirStage(t *testing.T) {
	ft := &fakeTransport{short: true}
	_, err := NewRunner(procmetrics.New(), ft).Run(CaseRequest{Transport: "json", Rows: 3, Requests: 1, Warmup: 1, Runs: 1, Cold: true})
	var failure *CaseFailure
	if !errors.As(err, &failure) || failure.Stage != "cold" || failure.Error() != "cold call failed: wrong reply: expected 3 rows, got 2" {
		t.Fatalf("got %v", err)
	}
	ft = &fakeTransport{fail: errors.New("HTTP 400: nope")}
	_, err = NewRunner(procmetrics.New(), ft).Run(CaseRequest{Transport: "json", Rows: 3, Requests: 1, Warmup: 1, Runs: 1, Cold: false})
	if !errors.As(err, &failure) || failure.Stage != "warmup" || !strings.Contains(failure.Error(), "HTTP 400: nope") {
		t.Fatalf("got %v", err)
	}
	_, err = NewRunner(procmetrics.New(), ft).TimeOnce("json", 1, 1)
	if !errors.As(err, &failure) || failure.Stage != "timed" {
		t.Fatalf("got %v", err)
	}
}

type stuckConn struct{}

func (stuckConn) FetchAll(context.Context, int, int) ([]samples.Reply, error) { select {} }
func (stuckConn) Close()                                                      {}

func TestTimeCallFailsPastItsDeadline(t *testing.T) {
	started := time.Now()
	_, err := TimeCall(stuckConn{}, 1, 1, 30*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "DEADLINE_EXCEEDED") || !strings.Contains(err.Error(), "30 ms") {
		t.Fatalf("got %v", err)
	}
	if time.Since(started) > 2*time.Second {
		t.Fatalf("took %v", time.Since(started))
	}
}

func TestParseCaseRequestDeadline(t *testing.T) {
	got, err := ParseCaseRequest(body(t, `{"transport":"json","rows":1,"requests":1,"runs":1,"deadlineMs":1500}`), 1000, 100)
	if err != nil || got.DeadlineMs != 1500 {
		t.Fatalf("got %+v, %v", got, err)
	}
	if _, err := ParseCaseRequest(body(t, `{"transport":"json","rows":1,"requests":1,"runs":1,"deadlineMs":0}`), 1000, 100); err == nil || err.Field != "deadlineMs" {
		t.Fatalf("got %v", err)
	}
}

// slowTransport's shared calls take 2 s each.
type slowTransport struct{ fakeTransport }

type slowConn struct{ fakeConn }

func (t *slowTransport) Shared() Connection { return &slowConn{fakeConn{t: &t.fakeTransport}} }
func (c *slowConn) FetchAll(ctx context.Context, rows, requests int) ([]samples.Reply, error) {
	time.Sleep(2 * time.Second)
	return c.fakeConn.FetchAll(ctx, rows, requests)
}

func TestRunEndsWhenItsCallerGoesAway(t *testing.T) {
	runner := NewRunner(procmetrics.New(), &slowTransport{})
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() {
		_, err := runner.RunContext(ctx, CaseRequest{Transport: "json", Rows: 1, Requests: 1, Runs: 5, DeadlineMs: 30_000})
		ended <- err
	}()
	time.Sleep(100 * time.Millisecond)
	if _, err := runner.Run(CaseRequest{Transport: "json", Rows: 1, Requests: 1, Runs: 1}); !errors.Is(err, ErrBusy) {
		t.Fatalf("a second run while the first runs: got %v, want ErrBusy", err)
	}
	started := time.Now()
	cancel()
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Fatalf("the abandoned run ended with %v, want context.Canceled", err)
	}
	if waited := time.Since(started); waited > time.Second {
		t.Fatalf("the abandoned run took %v to end; it should not wait for the call in flight (2 s)", waited)
	}
	if runner.busy.Load() {
		t.Fatal("the runner is still busy after its caller went away")
	}
}

func TestOneCaseAtATime(t *testing.T) {
	runner := NewRunner(procmetrics.New(), &fakeTransport{})
	runner.busy.Store(true)
	if _, err := runner.Run(CaseRequest{Transport: "json", Rows: 1, Requests: 1, Runs: 1}); !errors.Is(err, ErrBusy) {
		t.Fatalf("got %v", err)
	}
	if _, err := runner.TimeOnce("json", 1, 1); !errors.Is(err, ErrBusy) {
		t.Fatalf("got %v", err)
	}
	runner.busy.Store(false)
	if _, err := runner.TimeOnce("json", 1, 1); err != nil {
		t.Fatalf("got %v", err)
	}
}

func TestMeterRoundsLikeMathRound(t *testing.T) {
	var m Meter
	m.Record(100, time.Millisecond)
	m.Record(101, 2*time.Millisecond)
	tally := m.Take()
	if tally.Messages != 2 || tally.Bytes != 201 || math.Abs(tally.DecodeMs-3) > 1e-9 {
		t.Fatalf("tally %+v", tally)
	}
	if m.Take().Messages != 0 {
		t.Fatal("take did not reset")
	}
}

func TestServerMetricsReadEndsWithTheCaseDeadline(t *testing.T) {
	ft := &fakeTransport{metricsHang: true}
	runner := NewRunner(procmetrics.New(), ft)
	run, err := runner.Run(CaseRequest{Transport: "json", Rows: 1, Requests: 1, Runs: 1, DeadlineMs: 50})
	if err != nil {
		t.Fatalf("a server that cannot report its metrics must not fail the case: %v", err)
	}
	if run.ServerMetricsError == nil || !strings.Contains(*run.ServerMetricsError, "deadline exceeded") || len(run.SamplesMs) != 1 {
		t.Fatalf("want the samples and the read's deadline as the metrics error, got %+v", run)
	}
}

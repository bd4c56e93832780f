package harness

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"goreference/internal/procmetrics"
	"goreference/internal/samples"
)

// Connection is one way to reach a server: the client's long-lived one, or a fresh one for a cold call.
type Connection interface {
	// FetchAll fires `requests` requests of `rows` rows at once and returns when every reply has
	// arrived and been decoded (the blog's forkJoin), or with the first error. ctx ends at the call's
	// deadline: each request carries it to the server (x-deadline-ms, grpc-timeout), and is abandoned
	// (its connection closed, its stream cancelled) when ctx ends, so the server stops producing it.
	FetchAll(ctx context.Context, rows, requests int) ([]samples.Reply, error)
	Close()
}

// Transport is a transport the client benchmarks (RowTransport).
type Transport interface {
	Name() string
	// Shared is the connection the client keeps for its lifetime.
	Shared() Connection
	// OpenFresh is a brand-new connection whose first call pays connection set-up.
	OpenFresh() Connection
	// TakeReplies returns the replies decoded since the last take.
	TakeReplies() Tally
	// ReadServerMetrics is the serving process's own reading (outside any timed call), given up when
	// ctx ends.
	ReadServerMetrics(ctx context.Context, resetPeak bool) (procmetrics.Sample, error)
}

// Tally counts reply messages, their encoded bytes (NaN when a reply did not say) and decode time.
type Tally struct {
	Messages int
	Bytes    float64
	DecodeMs float64
}

// Meter is ReplyMeter: replies are recorded as they are decoded, from many goroutines.
type Meter struct {
	mu    sync.Mutex
	tally Tally
}

// Record adds one decoded reply.
func (m *Meter) Record(bytes float64, decode time.Duration) {
	m.mu.Lock()
	m.tally.Messages++
	m.tally.Bytes += bytes
	m.tally.DecodeMs += Ms(decode)
	m.mu.Unlock()
}

// Take returns what was recorded since the previous take.
func (m *Meter) Take() Tally {
	m.mu.Lock()
	defer m.mu.Unlock()
	taken := m.tally
	m.tally = Tally{}
	return taken
}

// Ms is a duration in milliseconds, to the nanosecond.
func Ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// Phases are where a timed call's time went, per call.
type Phases struct {
	ServerBuildMs  *float64 `json:"serverBuildMs"`
	ServerEncodeMs *float64 `json:"serverEncodeMs"`
	ClientDecodeMs *float64 `json:"clientDecodeMs"`
}

// CallSamples is the raw samples of one case, in exactly the shape of libs/harness CallSamples.
type CallSamples struct {
	Transport          string            `json:"transport"`
	Rows               int               `json:"rows"`
	Requests           int               `json:"requests"`
	ColdMs             *float64          `json:"coldMs"`
	WarmupMs           []float64         `json:"warmupMs"`
	SamplesMs          []float64         `json:"samplesMs"`
	BytesPerResponse   *int64            `json:"bytesPerResponse"`
	RowsPerCall        int               `json:"rowsPerCall"`
	Phases             *Phases           `json:"phases"`
	Client             *procmetrics.Cost `json:"client"`
	Server             *procmetrics.Cost `json:"server"`
	ServerMetricsError *string           `json:"serverMetricsError"`
	// TLS is present when the client speaks TLS (WatchTLSHandshakes), as the Node clients' cells.
	TLS *TLSCell `json:"tls,omitempty"`
}

// TimedCall is one call's time and the rows it received and checked.
type TimedCall struct {
	ElapsedMs    float64
	RowsReceived int
}

// CaseFailure is a call that failed or returned the wrong rows, with the stage it happened in.
type CaseFailure struct {
	Stage  string // cold | warmup | timed
	Reason string
}

func (f *CaseFailure) Error() string { return fmt.Sprintf("%s call failed: %s", f.Stage, f.Reason) }

// ErrBusy is a second case asked of a client already running one.
var ErrBusy = errors.New("another case (or path measurement) is running in this client; run one at a time")

// DefaultDeadline bounds a call when the caller gives none (the Node apps' CALL_TIMEOUT_MS default).
const DefaultDeadline = 120 * time.Second

// fetchWithin is FetchAll with a wall: past the deadline the call fails with DEADLINE_EXCEEDED, so a
// server that accepts and never answers fails the case instead of hanging it. The abandoned fetch's
// requests are cancelled; its result is dropped.
func fetchWithin(conn Connection, rows, requests int, deadline time.Duration) ([]samples.Reply, error) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	type result struct {
		replies []samples.Reply
		err     error
	}
	done := make(chan result, 1)
	go func() {
		replies, err := conn.FetchAll(ctx, rows, requests)
		done <- result{replies, err}
	}()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.replies, r.err
	case <-timer.C:
		return nil, fmt.Errorf("DEADLINE_EXCEEDED: no complete reply within the call's deadline of %d ms", deadline.Milliseconds())
	}
}

// TimeCall is the blog's measurement: fire `requests` requests at once, wait for every reply,
// decoded. The timer covers exactly that; replies are checked after it stops.
func TimeCall(conn Connection, rows, requests int, deadline time.Duration) (TimedCall, error) {
	started := time.Now()
	replies, err := fetchWithin(conn, rows, requests, deadline)
	elapsed := time.Since(started)
	if err != nil {
		return TimedCall{}, err
	}
	if len(replies) != requests {
		return TimedCall{}, fmt.Errorf("wrong reply: expected %d replies, got %d", requests, len(replies))
	}
	for _, reply := range replies {
		if reason := samples.Verify(reply, rows); reason != "" {
			return TimedCall{}, fmt.Errorf("wrong reply: %s", reason)
		}
	}
	return TimedCall{ElapsedMs: Ms(elapsed), RowsReceived: rows * len(replies)}, nil
}

// Runner runs cases for one client process, one at a time.
type Runner struct {
	transports map[string]Transport
	sampler    *procmetrics.Sampler
	busy       atomic.Bool
}

// NewRunner is a runner over the given transports, reading the client's own cost from sampler.
func NewRunner(sampler *procmetrics.Sampler, transports ...Transport) *Runner {
	r := &Runner{transports: map[string]Transport{}, sampler: sampler}
	for _, t := range transports {
		r.transports[t.Name()] = t
	}
	return r
}

// Exclusive runs work under the same one-at-a-time rule as Run (GET /bench/path: its transfers would
// share the sockets and CPU of a run's timed calls and disturb them unseen); ErrBusy while a case runs.
func (r *Runner) Exclusive(work func()) error {
	if !r.busy.CompareAndSwap(false, true) {
		return ErrBusy
	}
	defer r.busy.Store(false)
	work()
	return nil
}

// TimeOnce is one timed call on the shared connection (the blog's four routes).
func (r *Runner) TimeOnce(transport string, rows, requests int) (TimedCall, error) {
	if !r.busy.CompareAndSwap(false, true) {
		return TimedCall{}, ErrBusy
	}
	defer r.busy.Store(false)
	call, err := TimeCall(r.transports[transport].Shared(), rows, requests, DefaultDeadline)
	if err != nil {
		return TimedCall{}, &CaseFailure{Stage: "timed", Reason: err.Error()}
	}
	return call, nil
}

// Run is the cold call, warm-up, then timed calls, returning every raw sample (the bench route).
func (r *Runner) Run(req CaseRequest) (CallSamples, error) {
	return r.RunContext(context.Background(), req)
}

// untilDone runs timed, or returns ctx's error as soon as ctx is done (the caller of the run went
// away): the call in flight then finishes on its own, by its deadline at most, and the runner is free.
func untilDone(ctx context.Context, timed func() (TimedCall, error)) (TimedCall, error) {
	if ctx.Done() == nil {
		return timed()
	}
	if err := ctx.Err(); err != nil {
		return TimedCall{}, err
	}
	type result struct {
		call TimedCall
		err  error
	}
	done := make(chan result, 1)
	go func() {
		call, err := timed()
		done <- result{call, err}
	}()
	select {
	case got := <-done:
		return got.call, got.err
	case <-ctx.Done():
		return TimedCall{}, ctx.Err()
	}
}

// RunContext is Run ended as soon as ctx is done (POST /bench/run: its caller disconnected), as the
// Node clients end theirs (libs/harness CallRunner.run's signal).
func (r *Runner) RunContext(ctx context.Context, req CaseRequest) (CallSamples, error) {
	if !r.busy.CompareAndSwap(false, true) {
		return CallSamples{}, ErrBusy
	}
	defer r.busy.Store(false)
	transport := r.transports[req.Transport]
	rows, requests, runs := req.Rows, req.Requests, req.Runs
	deadline := time.Duration(req.DeadlineMs) * time.Millisecond
	if deadline <= 0 {
		deadline = DefaultDeadline
	}

	var coldMs *float64
	takeTLSHandshakes()
	var coldTLS *TLSHandshakes
	if req.Cold {
		fresh := transport.OpenFresh()
		call, err := untilDone(ctx, func() (TimedCall, error) {
			defer fresh.Close()
			return TimeCall(fresh, rows, requests, deadline)
		})
		if ctx.Err() != nil {
			return CallSamples{}, ctx.Err()
		}
		if err != nil {
			return CallSamples{}, &CaseFailure{Stage: "cold", Reason: err.Error()}
		}
		coldMs = &call.ElapsedMs
		coldTLS = takeTLSHandshakes()
	}
	warmupMs := []float64{}
	for range req.Warmup {
		call, err := untilDone(ctx, func() (TimedCall, error) { return TimeCall(transport.Shared(), rows, requests, deadline) })
		if ctx.Err() != nil {
			return CallSamples{}, ctx.Err()
		}
		if err != nil {
			return CallSamples{}, &CaseFailure{Stage: "warmup", Reason: err.Error()}
		}
		warmupMs = append(warmupMs, call.ElapsedMs)
	}

	serverBefore, errBefore := readQuietly(ctx, transport, true, deadline)
	transport.TakeReplies()
	clientBefore := r.sampler.Read(true)
	takeTLSHandshakes()
	samplesMs := []float64{}
	for range runs {
		call, err := untilDone(ctx, func() (TimedCall, error) { return TimeCall(transport.Shared(), rows, requests, deadline) })
		if ctx.Err() != nil {
			return CallSamples{}, ctx.Err()
		}
		if err != nil {
			return CallSamples{}, &CaseFailure{Stage: "timed", Reason: err.Error()}
		}
		samplesMs = append(samplesMs, call.ElapsedMs)
	}
	clientAfter := r.sampler.Read(false)
	timedTLS := takeTLSHandshakes()
	replies := transport.TakeReplies()
	serverAfter, errAfter := readQuietly(ctx, transport, false, deadline)

	timed := runs > 0
	serverOK := timed && errBefore == nil && errAfter == nil
	run := CallSamples{
		Transport:   req.Transport,
		Rows:        rows,
		Requests:    requests,
		ColdMs:      coldMs,
		WarmupMs:    warmupMs,
		SamplesMs:   samplesMs,
		RowsPerCall: rows * requests,
	}
	if watchingTLSHandshakes() {
		run.TLS = &TLSCell{Cold: coldTLS, Timed: timedTLS}
	}
	if replies.Messages > 0 && runs > 0 && !math.IsNaN(replies.Bytes) && !math.IsInf(replies.Bytes, 0) {
		// Bytes per reply (request), not per message, as libs/harness counts them (a streamed reply
		// would be several messages; this client's replies are one message each, so both agree).
		bytes := int64(math.Floor(replies.Bytes/float64(requests*runs) + 0.5)) // Math.round
		run.BytesPerResponse = &bytes
	}
	if timed {
		phases := &Phases{}
		if serverOK {
			phases.ServerBuildMs = ptr((serverAfter.BuildMs - serverBefore.BuildMs) / float64(runs))
			phases.ServerEncodeMs = ptr((serverAfter.EncodeMs - serverBefore.EncodeMs) / float64(runs))
		}
		if replies.Messages > 0 && !math.IsNaN(replies.DecodeMs) && !math.IsInf(replies.DecodeMs, 0) {
			phases.ClientDecodeMs = ptr(replies.DecodeMs / float64(runs))
		}
		run.Phases = phases
		client := procmetrics.CostBetween(clientBefore, clientAfter)
		run.Client = &client
	}
	if serverOK {
		server := procmetrics.CostBetween(serverBefore, serverAfter)
		run.Server = &server
	}
	if errBefore != nil {
		run.ServerMetricsError = ptr(errBefore.Error())
	} else if errAfter != nil {
		run.ServerMetricsError = ptr(errAfter.Error())
	}
	return run, nil
}

// readQuietly: server metrics are extra information; a server that cannot report them does not fail the
// case. The read ends with the case's deadline or its caller: across a dead path (a blackhole) it would
// otherwise hold the runner, and every next case would be refused as a second run.
func readQuietly(ctx context.Context, t Transport, resetPeak bool, deadline time.Duration) (procmetrics.Sample, error) {
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	sample, err := t.ReadServerMetrics(ctx, resetPeak)
	if err != nil {
		return sample, fmt.Errorf("server metrics unavailable: %v", err)
	}
	return sample, nil
}

func ptr[T any](v T) *T { return &v }

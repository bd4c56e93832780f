package main

// GET /bench/path: the client measures its own network path to each server, from wherever it runs,
// as libs/harness/src/path-probe.ts does (same parts, same JSON, same rules): TCP connects to both,
// HTTP/2 PINGs to server-b, and bulk transfers from server-a (GET /path/bulk) and server-b
// (PathProbe.Bulk). A part that fails carries {error} instead of failing the report.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"goreference/gen/pathpb"
	"goreference/internal/bulk"
	"goreference/internal/harness"
	"goreference/internal/httpx"
	"goreference/internal/validation"
)

const (
	// pathDefaultSamples and pathDefaultBulkBytes are PATH_DEFAULTS (libs/harness/src/path-request.ts).
	pathDefaultSamples   = 10
	pathDefaultBulkBytes = 8 * 1024 * 1024
	pathMaxSamples       = 100
	// bulkTransfers is the timed transfers per bulk measurement (after one untimed): one alone swings
	// by tens of percent on a busy machine.
	bulkTransfers = 3
	// pathBulkHTTP2WindowBytes is the HTTP/2 window (stream and connection) of server-b's bulk transfer,
	// so it measures the path, not gRPC's default window (PATH_BULK_HTTP2_WINDOW_BYTES).
	pathBulkHTTP2WindowBytes = 16 * 1024 * 1024
	// bulkReadBytes is the read buffer of server-a's bulk transfer.
	bulkReadBytes = 256 * 1024
	// defaultPathTimeout bounds each connect, the pings and each transfer: the Node clients use their
	// CALL_TIMEOUT_MS, whose default this is (the Go client does not read CALL_TIMEOUT_MS).
	defaultPathTimeout = harness.DefaultDeadline
)

// Spread is n samples' median, min and max, in ms.
type Spread struct {
	N        int     `json:"n"`
	MedianMs float64 `json:"medianMs"`
	MinMs    float64 `json:"minMs"`
	MaxMs    float64 `json:"maxMs"`
}

// BulkSpread is the throughput of bulkTransfers transfers of Bytes each, in Mbit/s.
type BulkSpread struct {
	Bytes      int     `json:"bytes"`
	N          int     `json:"n"`
	MedianMbit float64 `json:"medianMbit"`
	MinMbit    float64 `json:"minMbit"`
	MaxMbit    float64 `json:"maxMbit"`
}

// GrpcBulkSpread is server-b's BulkSpread with the HTTP/2 window it ran on.
type GrpcBulkSpread struct {
	BulkSpread
	HTTP2WindowBytes int `json:"http2WindowBytes"`
}

// partError is a part that could not be measured, and why.
type partError struct {
	Error string `json:"error"`
}

// PathReport is the JSON of GET /bench/path; each `any` is the part's value or a partError.
type PathReport struct {
	MeasuredAt string      `json:"measuredAt"`
	ServerA    serverAPath `json:"serverA"`
	ServerB    serverBPath `json:"serverB"`
}

type serverAPath struct {
	Address      string `json:"address"`
	TCPConnectMs any    `json:"tcpConnectMs"`
	Bulk         any    `json:"bulk"`
}

type serverBPath struct {
	Address      string `json:"address"`
	TCPConnectMs any    `json:"tcpConnectMs"`
	HTTP2PingMs  any    `json:"http2PingMs"`
	Bulk         any    `json:"bulk"`
}

// pathRequest is GET /bench/path's validated query.
type pathRequest struct {
	Samples   int
	BulkBytes int
}

// parsePathRequest validates the query as parsePathRequest does: an absent field takes its default,
// a present one (even empty) must be a whole number in range; the first field that breaks a rule is named.
func parsePathRequest(r *http.Request) (pathRequest, *validation.FieldError) {
	field := func(name string, fallback int, max int64) (int, *validation.FieldError) {
		var raw any = fallback
		if value, ok := httpx.QueryValue(r, name); ok {
			raw = value
		}
		n, bad := validation.ParseInt(name, raw, validation.Range{Min: 1, Max: max})
		return int(n), bad
	}
	samples, bad := field("samples", pathDefaultSamples, pathMaxSamples)
	if bad != nil {
		return pathRequest{}, bad
	}
	bulkBytes, bad := field("bulkBytes", pathDefaultBulkBytes, bulk.MaxBytes)
	if bad != nil {
		return pathRequest{}, bad
	}
	return pathRequest{Samples: samples, BulkBytes: bulkBytes}, nil
}

// benchPath answers GET /bench/path.
func (a *app) benchPath(w http.ResponseWriter, r *http.Request) {
	req, bad := parsePathRequest(r)
	if bad != nil {
		httpx.SendBadRequest(w, bad.Field, bad.Rule, bad.Message)
		return
	}
	timeout := a.pathTimeout
	if timeout <= 0 {
		timeout = defaultPathTimeout
	}
	var report PathReport
	if err := a.runner.Exclusive(func() { report = measurePath(a.settings.ServerAURL, a.settings.ServerBURL, req, timeout) }); err != nil {
		fail(w, err)
		return
	}
	httpx.SendJSON(w, http.StatusOK, report)
}

// measurePath is the path from this client to both servers, part after part (never two at once).
func measurePath(serverAURL, serverBAddress string, req pathRequest, timeout time.Duration) PathReport {
	report := PathReport{MeasuredAt: time.Now().UTC().Format("2006-01-02T15:04:05.000Z")}
	serverAURL = trimSlash(serverAURL)
	aAddress, aErr := serverAAddress(serverAURL)
	report.ServerA.Address = aAddress
	report.ServerA.TCPConnectMs = attempt(func() (any, error) {
		if aErr != nil {
			return nil, aErr
		}
		return tcpConnects(aAddress, req.Samples, timeout)
	})
	report.ServerA.Bulk = attempt(func() (any, error) {
		return bulkSpread(req.BulkBytes, func() (int, time.Duration, error) { return bulkFromServerA(serverAURL, req.BulkBytes, timeout) })
	})
	report.ServerB.Address = serverBAddress
	report.ServerB.TCPConnectMs = attempt(func() (any, error) { return tcpConnects(serverBAddress, req.Samples, timeout) })
	report.ServerB.HTTP2PingMs = attempt(func() (any, error) { return http2Pings(serverBAddress, req.Samples, timeout) })
	report.ServerB.Bulk = attempt(func() (any, error) {
		s, err := bulkSpread(req.BulkBytes, func() (int, time.Duration, error) { return bulkFromServerB(serverBAddress, req.BulkBytes, timeout) })
		if err != nil {
			return nil, err
		}
		return GrpcBulkSpread{BulkSpread: s, HTTP2WindowBytes: pathBulkHTTP2WindowBytes}, nil
	})
	return report
}

func attempt(work func() (any, error)) any {
	value, err := work()
	if err != nil {
		return partError{Error: err.Error()}
	}
	return value
}

func trimSlash(s string) string {
	if len(s) > 0 && s[len(s)-1] == '/' {
		return s[:len(s)-1]
	}
	return s
}

// serverAAddress is server-a's host:port from its URL (port 80 when the URL gives none, as the Node probe).
func serverAAddress(serverAURL string) (string, error) {
	u, err := url.Parse(serverAURL)
	if err != nil {
		return "", err
	}
	port := u.Port()
	if port == "" {
		port = "80"
	}
	return net.JoinHostPort(u.Hostname(), port), nil
}

func spread(values []float64) Spread {
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	mid := len(sorted) / 2
	median := sorted[mid]
	if len(sorted)%2 == 0 {
		median = (sorted[mid-1] + sorted[mid]) / 2
	}
	return Spread{N: len(sorted), MedianMs: median, MinMs: sorted[0], MaxMs: sorted[len(sorted)-1]}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// isTimeout is an error that is a deadline passing.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// connectOnce is one TCP handshake (SYN → SYN-ACK as the client sees it), then closed.
func connectOnce(address string, timeout time.Duration) (float64, error) {
	dialer := net.Dialer{Timeout: timeout}
	started := time.Now()
	conn, err := dialer.Dial("tcp", address)
	elapsed := time.Since(started)
	if err != nil {
		if isTimeout(err) {
			return 0, fmt.Errorf("no TCP connection to %s within %d ms", address, timeout.Milliseconds())
		}
		return 0, err
	}
	_ = conn.Close()
	return ms(elapsed), nil
}

func tcpConnects(address string, samples int, timeout time.Duration) (Spread, error) {
	times := make([]float64, 0, samples)
	for range samples {
		t, err := connectOnce(address, timeout)
		if err != nil {
			return Spread{}, err
		}
		times = append(times, t)
	}
	return spread(times), nil
}

// http2Pings is `samples` HTTP/2 PING round trips on a connection of its own to server-b (its gRPC
// server's HTTP/2 layer answers them): prior-knowledge h2c, spoken with x/net's HTTP/2 framer. The
// pings start once the server's SETTINGS have arrived, so none carries the connection's set-up.
func http2Pings(address string, samples int, timeout time.Duration) (Spread, error) {
	conn, err := (&net.Dialer{Timeout: timeout}).Dial("tcp", address)
	if err != nil {
		if isTimeout(err) {
			return Spread{}, fmt.Errorf("no HTTP/2 connection to %s within %d ms", address, timeout.Milliseconds())
		}
		return Spread{}, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(timeout))
	if conn, err = overTLS(conn, address); err != nil {
		return Spread{}, fmt.Errorf("HTTP/2 connection to %s: %w", address, err)
	}
	noConnection := func(err error) error {
		if isTimeout(err) {
			return fmt.Errorf("no HTTP/2 connection to %s within %d ms", address, timeout.Milliseconds())
		}
		return fmt.Errorf("HTTP/2 connection to %s: %w", address, err)
	}
	noAnswer := func(err error) error {
		if isTimeout(err) {
			return fmt.Errorf("no HTTP/2 PING answer from %s within %d ms", address, timeout.Milliseconds())
		}
		return fmt.Errorf("HTTP/2 PING to %s: %w", address, err)
	}
	if _, err := io.WriteString(conn, http2.ClientPreface); err != nil {
		return Spread{}, noConnection(err)
	}
	framer := http2.NewFramer(conn, conn)
	if err := framer.WriteSettings(); err != nil {
		return Spread{}, noConnection(err)
	}
	// await reads frames until done says stop, answering what HTTP/2 requires an answer to.
	await := func(done func(http2.Frame) bool) error {
		for {
			frame, err := framer.ReadFrame()
			if err != nil {
				return err
			}
			switch f := frame.(type) {
			case *http2.SettingsFrame:
				if !f.IsAck() {
					if err := framer.WriteSettingsAck(); err != nil {
						return err
					}
				}
			case *http2.PingFrame:
				if !f.IsAck() {
					if err := framer.WritePing(true, f.Data); err != nil {
						return err
					}
				}
			case *http2.GoAwayFrame:
				return fmt.Errorf("GOAWAY %v %q", f.ErrCode, f.DebugData())
			}
			if done(frame) {
				return nil
			}
		}
	}
	err = await(func(frame http2.Frame) bool {
		settings, ok := frame.(*http2.SettingsFrame)
		return ok && !settings.IsAck()
	})
	if err != nil {
		return Spread{}, noConnection(err)
	}
	times := make([]float64, 0, samples)
	for i := range samples {
		data := [8]byte{'p', 'a', 't', 'h', 0, 0, byte(i >> 8), byte(i)}
		started := time.Now()
		if err := framer.WritePing(false, data); err != nil {
			return Spread{}, noAnswer(err)
		}
		err := await(func(frame http2.Frame) bool {
			ping, ok := frame.(*http2.PingFrame)
			return ok && ping.IsAck() && ping.Data == data
		})
		if err != nil {
			return Spread{}, noAnswer(err)
		}
		times = append(times, ms(time.Since(started)))
	}
	return spread(times), nil
}

// bulkSpread runs bulkTransfers timed transfers after one untimed, one after another (the first of a
// process runs its code cold, as in the Node probe); each must bring exactly `size` bytes.
func bulkSpread(size int, once func() (int, time.Duration, error)) (BulkSpread, error) {
	mbits := make([]float64, 0, bulkTransfers)
	for i := -1; i < bulkTransfers; i++ {
		received, elapsed, err := once()
		if err != nil {
			return BulkSpread{}, err
		}
		if received != size {
			return BulkSpread{}, fmt.Errorf("bulk transfer ended after %d of %d bytes", received, size)
		}
		if i >= 0 {
			elapsed = max(elapsed, time.Nanosecond)
			mbits = append(mbits, float64(received)*8/(ms(elapsed)*1000))
		}
	}
	s := spread(mbits)
	return BulkSpread{Bytes: size, N: s.N, MedianMbit: s.MedianMs, MinMbit: s.MinMs, MaxMbit: s.MaxMs}, nil
}

// bulkFromServerA is one bulk transfer from server-a on a fresh connection (no keep-alive, no
// proxy): the bytes received and the time from the request to the last byte.
func bulkFromServerA(serverAURL string, size int, timeout time.Duration) (int, time.Duration, error) {
	transport := &http.Transport{DisableKeepAlives: true, DisableCompression: true, TLSClientConfig: http1TLS}
	defer transport.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, serverAURL+"/path/bulk?bytes="+strconv.Itoa(size), nil)
	if err != nil {
		return 0, 0, err
	}
	tooLong := func(err error) error {
		if isTimeout(err) {
			return fmt.Errorf("bulk transfer from %s took over %d ms", serverAURL, timeout.Milliseconds())
		}
		return err
	}
	started := time.Now()
	res, err := transport.RoundTrip(req)
	if err != nil {
		return 0, 0, tooLong(err)
	}
	defer res.Body.Close()
	buf := make([]byte, bulkReadBytes)
	received := 0
	for {
		n, err := res.Body.Read(buf)
		received += n
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, tooLong(err)
		}
	}
	elapsed := time.Since(started)
	if res.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("GET /path/bulk: HTTP %d", res.StatusCode)
	}
	return received, elapsed, nil
}

// bulkFromServerB is one bulk transfer from server-b (PathProbe.Bulk) on a ClientConn of its own,
// whose HTTP/2 windows are pathBulkHTTP2WindowBytes: the bytes received and the time from the call
// (connection included: the ClientConn connects on its first call) to the stream's end.
func bulkFromServerB(address string, size int, timeout time.Duration) (int, time.Duration, error) {
	cc, err := grpc.NewClient(address,
		grpc.WithTransportCredentials(grpcCreds),
		grpc.WithInitialWindowSize(pathBulkHTTP2WindowBytes),
		grpc.WithInitialConnWindowSize(pathBulkHTTP2WindowBytes),
	)
	if err != nil {
		return 0, 0, fmt.Errorf("PathProbe.Bulk: %w", err)
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	failed := func(err error) error { return fmt.Errorf("PathProbe.Bulk: %s", status.Convert(err).Message()) }
	started := time.Now()
	stream, err := pathpb.NewPathProbeClient(cc).Bulk(ctx, &pathpb.BulkRequest{Bytes: int32(size)})
	if err != nil {
		return 0, 0, failed(err)
	}
	received := 0
	for {
		chunk, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, failed(err)
		}
		received += len(chunk.Data)
	}
	return received, time.Since(started), nil
}

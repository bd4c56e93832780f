package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"goreference/internal/harness"
	"goreference/internal/limits"
	"goreference/internal/procmetrics"
	"goreference/internal/samples"
	"goreference/internal/settings"
)

// newHTTPTransport is an HTTP/1.1 keep-alive connection pool that keeps up to maxParallel idle
// connections to server-a, so a burst of maxParallel parallel requests finds them all again on the
// next call (no connection churn), with no limit on connections and no compression. An idle connection
// is dropped after limits.ClientPoolIdle, before server-a would drop it (limits.HTTPIdle).
func newHTTPTransport(maxParallel int) *http.Transport {
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	transport := &http.Transport{
		DialContext:         dialer.DialContext,
		MaxIdleConns:        0, // no limit over all hosts
		MaxIdleConnsPerHost: maxParallel,
		MaxConnsPerHost:     0,
		IdleConnTimeout:     limits.ClientPoolIdle,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
		TLSClientConfig:     http1TLS,
	}
	if http1TLS != nil {
		transport.DialTLSContext = dialTLS(dialer) // the same handshake, timed (cells' tls record)
	}
	return transport
}

// jsonTransport is server-a over HTTP/1.1 with net/http and encoding/json.
type jsonTransport struct {
	settings settings.Settings
	meter    harness.Meter
	shared   *http.Transport
	conn     *jsonConn
}

func newJSONTransport(s settings.Settings) *jsonTransport {
	t := &jsonTransport{settings: s, shared: newHTTPTransport(s.MaxParallel)}
	t.conn = &jsonConn{transport: t, pool: t.shared}
	return t
}

func (t *jsonTransport) Name() string               { return "json" }
func (t *jsonTransport) Shared() harness.Connection { return t.conn }
func (t *jsonTransport) TakeReplies() harness.Tally { return t.meter.Take() }
func (t *jsonTransport) Close()                     { t.shared.CloseIdleConnections() }
func (t *jsonTransport) OpenFresh() harness.Connection {
	return &jsonConn{transport: t, pool: newHTTPTransport(t.settings.MaxParallel), fresh: true}
}

func (t *jsonTransport) ReadServerMetrics(ctx context.Context, resetPeak bool) (procmetrics.Sample, error) {
	var sample procmetrics.Sample
	text, _, err := get(ctx, t.shared, t.settings.ServerAURL+"/metrics?resetPeak="+strconv.FormatBool(resetPeak))
	if err != nil {
		return sample, err
	}
	err = json.Unmarshal(text, &sample)
	return sample, err
}

// get fetches a URL and returns the body with its Content-Length (-1 when the reply had none);
// anything but 200 is an error quoting the start of the body, as in the bare client. A deadline on
// ctx is sent as samples.DeadlineHeader (the milliseconds the client will still wait, as the Node
// clients send it), and when ctx ends the request is abandoned (its connection closed).
func get(ctx context.Context, pool *http.Transport, url string) ([]byte, int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, 0, err
	}
	if deadline, ok := ctx.Deadline(); ok {
		req.Header.Set(samples.DeadlineHeader, strconv.FormatInt(max(1, time.Until(deadline).Milliseconds()), 10))
	}
	res, err := pool.RoundTrip(req)
	if err != nil {
		return nil, 0, err
	}
	defer res.Body.Close()
	var body []byte
	if res.ContentLength >= 0 {
		body = make([]byte, res.ContentLength)
		_, err = io.ReadFull(res.Body, body)
	} else {
		body, err = io.ReadAll(res.Body)
	}
	if err != nil {
		return nil, 0, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, 0, fmt.Errorf("HTTP %d: %s", res.StatusCode, truncate(string(body), 200))
	}
	return body, res.ContentLength, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

type jsonConn struct {
	transport *jsonTransport
	pool      *http.Transport
	fresh     bool
}

func (c *jsonConn) Close() {
	if c.fresh {
		c.pool.CloseIdleConnections()
	}
}

// one is one request: the body read whole, then decoded into structs (timed and counted).
func (c *jsonConn) one(ctx context.Context, url string) (samples.Reply, error) {
	text, length, err := get(ctx, c.pool, url)
	if err != nil {
		return nil, err
	}
	started := time.Now()
	reply := &samples.JSONReply{}
	if err := json.Unmarshal(text, reply); err != nil {
		return nil, err
	}
	bytes := float64(length)
	if length < 0 {
		bytes = math.NaN()
	}
	c.transport.meter.Record(bytes, time.Since(started))
	return reply, nil
}

func (c *jsonConn) FetchAll(ctx context.Context, rows, requests int) ([]samples.Reply, error) {
	url := c.transport.settings.ServerAURL + "/server-a/" + strconv.Itoa(rows)
	return fetchAll(requests, func() (samples.Reply, error) { return c.one(ctx, url) })
}

// fetchAll fires n calls at once, one goroutine each, and waits for all of them (forkJoin); the
// first error wins.
func fetchAll(n int, call func() (samples.Reply, error)) ([]samples.Reply, error) {
	replies := make([]samples.Reply, n)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for i := range n {
		wg.Go(func() {
			reply, err := call()
			if err != nil {
				once.Do(func() { first = err })
				return
			}
			replies[i] = reply
		})
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return replies, nil
}

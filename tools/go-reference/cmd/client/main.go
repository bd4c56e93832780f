// client (Go reference): the blog's caller on net/http, encoding/json and google.golang.org/grpc.
// Serves the same /bench/run, /bench/path, /bench/info, /health, /health/ready and /client/* routes as
// apps/bare/src/client.ts, and times calls by the same rules as libs/harness.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"goreference/gen/healthpb"
	"goreference/internal/access"
	"goreference/internal/cpuprofile"
	"goreference/internal/harness"
	"goreference/internal/httpx"
	"goreference/internal/lifecycle"
	"goreference/internal/limits"
	"goreference/internal/procmetrics"
	"goreference/internal/security"
	"goreference/internal/settings"
	"goreference/internal/validation"
)

const (
	name       = "client"
	bodyLimit  = limits.ControlRequestBytes
	probeLimit = 2 * time.Second
)

var blogRoute = regexp.MustCompile(`^/client/call-(a|b)(-parallel)?/([^/]*)$`)

type app struct {
	settings    settings.Settings
	access      access.Access
	runner      *harness.Runner
	probe       *http.Client
	pathTimeout time.Duration // of each GET /bench/path part; 0: defaultPathTimeout
}

type bodyError struct {
	StatusCode int    `json:"statusCode"`
	Field      string `json:"field"`
	Rule       string `json:"rule"`
	Message    string `json:"message"`
}

type failure struct {
	StatusCode int    `json:"statusCode"`
	Error      string `json:"error,omitempty"`
	Stage      string `json:"stage,omitempty"`
	Message    string `json:"message"`
}

type blogReply struct {
	Transport    string  `json:"transport"`
	Rows         int     `json:"rows"`
	Requests     int     `json:"requests"`
	ElapsedMs    float64 `json:"elapsedMs"`
	RowsReceived int     `json:"rowsReceived"`
}

type health struct {
	Status  string `json:"status"`
	Service string `json:"service"`
}

type readiness struct {
	Status    string            `json:"status"`
	Upstreams map[string]string `json:"upstreams"`
}

func (a *app) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := httpx.Path(r)
	if !a.access.Allows(path, r.Header.Get("Authorization")) {
		w.Header().Set("WWW-Authenticate", "Bearer")
		httpx.SendJSON(w, http.StatusUnauthorized, access.UnauthorizedBody())
		return
	}
	if r.Method == http.MethodPost && path == "/bench/run" {
		a.benchRun(w, r)
		return
	}
	if r.Method != http.MethodGet {
		httpx.SendMethodNotAllowed(w)
		return
	}
	switch path {
	case "/health":
		httpx.SendJSON(w, http.StatusOK, health{Status: "SERVING", Service: name})
		return
	case "/health/ready":
		upstreams := a.readiness()
		ok := upstreams["server-a"] == "SERVING" && upstreams["server-b"] == "SERVING"
		if ok {
			httpx.SendJSON(w, http.StatusOK, readiness{Status: "SERVING", Upstreams: upstreams})
		} else {
			httpx.SendJSON(w, http.StatusServiceUnavailable, readiness{Status: "NOT_SERVING", Upstreams: upstreams})
		}
		return
	case "/bench/info":
		httpx.SendJSON(w, http.StatusOK, runtimeInfo(a.settings))
		return
	case "/bench/path":
		a.benchPath(w, r)
		return
	}
	blog := blogRoute.FindStringSubmatch(path)
	if blog == nil {
		httpx.SendNotFound(w, path)
		return
	}
	transport := "grpc"
	if blog[1] == "a" {
		transport = "json"
	}
	parallel := blog[2] != ""
	limit := a.settings.MaxRows
	if parallel {
		limit = a.settings.MaxParallel
	}
	count, bad := validation.ParseInt("count", httpx.SafeDecode(blog[3]), validation.Range{Min: 1, Max: int64(limit)})
	if bad != nil {
		httpx.SendBadRequest(w, bad.Field, bad.Rule, bad.Message)
		return
	}
	rows, requests := int(count), 1
	if parallel {
		rows, requests = 1, int(count)
	}
	call, err := a.runner.TimeOnce(transport, rows, requests)
	if err != nil {
		fail(w, err)
		return
	}
	httpx.SendJSON(w, http.StatusOK, blogReply{Transport: transport, Rows: rows, Requests: requests, ElapsedMs: call.ElapsedMs, RowsReceived: call.RowsReceived})
}

func (a *app) benchRun(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(io.LimitReader(r.Body, bodyLimit+1))
	if err == nil && len(data) > bodyLimit {
		httpx.SendJSON(w, http.StatusRequestEntityTooLarge, bodyError{StatusCode: 413, Field: "body", Rule: "type", Message: fmt.Sprintf("body larger than %d bytes", bodyLimit)})
		return
	}
	var body any
	if err == nil {
		body, err = harness.DecodeBody(data)
	}
	if err != nil {
		httpx.SendJSON(w, http.StatusBadRequest, bodyError{StatusCode: 400, Field: "body", Rule: "type", Message: err.Error()})
		return
	}
	request, bad := harness.ParseCaseRequest(body, a.settings.MaxRows, a.settings.MaxParallel)
	if bad != nil {
		httpx.SendBadRequest(w, bad.Field, bad.Rule, bad.Message)
		return
	}
	// A caller that disconnects ends its run (r.Context() is done), so the next one is not refused as busy.
	run, err := a.runner.RunContext(r.Context(), request)
	if err != nil {
		fail(w, err)
		return
	}
	httpx.SendJSON(w, http.StatusOK, run)
}

// fail answers a failed call (502 with its stage), a busy client (409), or anything else (500).
func fail(w http.ResponseWriter, err error) {
	var caseFailure *harness.CaseFailure
	switch {
	case errors.As(err, &caseFailure):
		httpx.SendJSON(w, http.StatusBadGateway, failure{StatusCode: 502, Error: "Bad Gateway", Stage: caseFailure.Stage, Message: err.Error()})
	case errors.Is(err, harness.ErrBusy):
		httpx.SendJSON(w, http.StatusConflict, failure{StatusCode: 409, Error: "Conflict", Message: err.Error()})
	default:
		httpx.SendJSON(w, http.StatusInternalServerError, failure{StatusCode: 500, Message: err.Error()})
	}
}

// readiness probes both servers' health endpoints (2 s each, in parallel), as the bare client does.
func (a *app) readiness() map[string]string {
	var wg sync.WaitGroup
	var serverA, serverB string
	wg.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), probeLimit)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.settings.ServerAURL+"/health", nil)
		if err != nil {
			serverA = fmt.Sprintf("UNREACHABLE (%v)", err)
			return
		}
		res, err := a.probe.Do(req)
		if err != nil {
			serverA = fmt.Sprintf("UNREACHABLE (%v)", err)
			return
		}
		defer res.Body.Close()
		var reply struct {
			Status *string `json:"status"`
		}
		if err := json.NewDecoder(res.Body).Decode(&reply); err != nil {
			serverA = fmt.Sprintf("UNREACHABLE (%v)", err)
		} else if reply.Status == nil {
			serverA = "UNKNOWN"
		} else {
			serverA = *reply.Status
		}
	})
	wg.Go(func() {
		cc, err := grpc.NewClient(a.settings.ServerBURL, grpc.WithTransportCredentials(grpcCreds))
		if err != nil {
			serverB = fmt.Sprintf("UNREACHABLE (%v)", err)
			return
		}
		defer cc.Close()
		ctx, cancel := context.WithTimeout(context.Background(), probeLimit)
		defer cancel()
		reply, err := healthpb.NewHealthClient(cc).Check(ctx, &healthpb.HealthCheckRequest{Service: ""})
		if err != nil {
			serverB = fmt.Sprintf("UNREACHABLE (%s)", status.Convert(err).Message())
			return
		}
		serverB = reply.GetStatus().String()
	})
	wg.Wait()
	return map[string]string{"server-a": serverA, "server-b": serverB}
}

func main() {
	lifecycle.ExitWithParent(name)
	cpuprofile.Serve(name)
	s := lifecycle.LoadSettings(name)
	rule, err := access.Load(s.Host, os.Getenv)
	if err != nil {
		lifecycle.Fail(name, err)
	}
	if err := setClientSecurity(s.Security); err != nil {
		lifecycle.Fail(name, err)
	}
	sampler := procmetrics.Shared()
	jsonT := newJSONTransport(s)
	grpcT, err := newGRPCTransport(s)
	if err != nil {
		lifecycle.Fail(name, err)
	}
	handler := &app{
		settings: s,
		access:   rule,
		runner:   harness.NewRunner(sampler, jsonT, grpcT),
		probe:    &http.Client{Transport: &http.Transport{DisableKeepAlives: true, DisableCompression: true, TLSClientConfig: http1TLS}},
	}
	server := httpx.NewServer(handler, httpx.Limits{Handshake: s.Handshake(), Body: limits.ControlRequestBytes})
	// The control API stays cleartext: --security is about the calls between the services.
	address := httpx.Serve(name, server, s.Host, s.ClientPort, "CLIENT_PORT", security.Plain)
	fmt.Printf("%s (go net/http + google.golang.org/grpc) listening on http://%s; %s\n", name, address, rule.Describe)
	lifecycle.StopOnSignals(name, func(ctx context.Context) error {
		err := server.Shutdown(ctx)
		grpcT.Close()
		jsonT.Close()
		return err
	})
}

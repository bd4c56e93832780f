// server-a (Go reference): the blog's JSON endpoint on net/http + encoding/json. Same routes, rows,
// validation, metrics, path probe (GET /path/bulk) and shutdown as apps/bare/src/server-a.ts, seen
// from outside.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"goreference/internal/bulk"
	"goreference/internal/cpuprofile"
	"goreference/internal/httpx"
	"goreference/internal/lifecycle"
	"goreference/internal/limits"
	"goreference/internal/procmetrics"
	"goreference/internal/samples"
	"goreference/internal/settings"
	"goreference/internal/validation"
)

const name = "server-a"

var route = regexp.MustCompile(`^/server-a/([^/]*)$`)

type health struct {
	Status  string `json:"status"`
	Service string `json:"service"`
}

type reply struct {
	Samples []samples.Row `json:"samples"`
}

// handler serves server-a's routes (exported to tests through newHandler).
func newHandler(s settings.Settings, sampler *procmetrics.Sampler) http.Handler {
	countRange := validation.Range{Min: 1, Max: int64(s.MaxRows)}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A caller's deadline counts from when it sent the request, i.e. about now (its body is read).
		arrived := time.Now()
		path := httpx.Path(r)
		if r.Method != http.MethodGet {
			httpx.SendMethodNotAllowed(w)
			return
		}
		switch path {
		case "/health":
			httpx.SendJSON(w, http.StatusOK, health{Status: "SERVING", Service: name})
			return
		case "/metrics":
			httpx.SendJSON(w, http.StatusOK, sampler.Read(r.URL.Query().Get("resetPeak") == "true"))
			return
		case "/path/bulk":
			sendBulk(w, r)
			return
		}
		match := route.FindStringSubmatch(path)
		if match == nil {
			httpx.SendNotFound(w, path)
			return
		}
		count, bad := validation.ParseInt("count", httpx.SafeDecode(match[1]), countRange)
		if bad != nil {
			httpx.SendBadRequest(w, bad.Field, bad.Rule, bad.Message)
			return
		}
		if count > samples.WholeReplyMaxRows {
			sendSliced(w, r, int(count), sampler, arrived)
			return
		}
		built := time.Now()
		rows := samples.BuildRows(int(count))
		encoded := time.Now()
		sampler.AddBuild(encoded.Sub(built))
		text, err := json.Marshal(reply{Samples: rows})
		sampler.AddEncode(time.Since(encoded))
		if err != nil {
			httpx.SendJSON(w, http.StatusInternalServerError, map[string]any{"statusCode": 500, "message": err.Error()})
			return
		}
		httpx.SendBytes(w, http.StatusOK, text)
	})
}

// bulkWriteBytes is the size of the one zeroed buffer GET /path/bulk writes its body from.
const bulkWriteBytes = 256 * 1024

// sendBulk answers GET /path/bulk?bytes=N with N zero bytes (a memset, no serializer): the client's
// path probe (GET /bench/path) times the transfer to measure its path's throughput.
func sendBulk(w http.ResponseWriter, r *http.Request) {
	var raw any = validation.Missing
	if value, ok := httpx.QueryValue(r, "bytes"); ok {
		raw = value
	}
	req, bad := bulk.ParseRequest(raw, validation.Missing)
	if bad != nil {
		httpx.SendBadRequest(w, bad.Field, bad.Rule, bad.Message)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Length", strconv.Itoa(req.Bytes))
	w.WriteHeader(http.StatusOK)
	zeros := make([]byte, min(bulkWriteBytes, req.Bytes))
	for left := req.Bytes; left > 0; {
		n, err := w.Write(zeros[:min(len(zeros), left)])
		if err != nil {
			return // the client went away
		}
		left -= n
	}
}

func main() {
	lifecycle.ExitWithParent(name)
	cpuprofile.Serve(name)
	s := lifecycle.LoadSettings(name)
	sampler := procmetrics.Shared()
	server := httpx.NewServer(newHandler(s, sampler), httpx.Limits{Handshake: s.Handshake(), Body: limits.HTTPRequestBytes})
	address := httpx.Serve(name, server, s.Host, s.ServerAPort, "SERVER_A_PORT", s.Security)
	fmt.Printf("%s (go net/http, JSON, %s) listening on %s://%s\n", name, s.Security.Mode, s.Security.Scheme(), address)
	lifecycle.StopOnSignals(name, func(ctx context.Context) error { return server.Shutdown(ctx) })
}

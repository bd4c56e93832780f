package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"goreference/internal/httpx"
	"goreference/internal/procmetrics"
	"goreference/internal/samples"
)

// sendSliced writes the reply of count rows (over samples.WholeReplyMaxRows) as the same bytes, with
// the same Content-Length, as the one-piece reply, built and encoded samples.ReplySliceRows at a
// time: one slice's rows and text are alive at once, a slice is built only once the socket took the
// one before (a client that does not read stops production), and production stops when the caller
// goes away (r.Context() is done) or its deadline (samples.DeadlineHeader, counted from arrived)
// passes; a write then blocked on a full socket fails at that deadline.
func sendSliced(w http.ResponseWriter, r *http.Request, count int, sampler *procmetrics.Sampler, arrived time.Time) {
	ctx := r.Context()
	deadlineMs := samples.ParseDeadlineHeader(r.Header.Get(samples.DeadlineHeader))
	var deadline time.Time
	if deadlineMs > 0 {
		deadline = arrived.Add(time.Duration(deadlineMs) * time.Millisecond)
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
		rc := http.NewResponseController(w)
		_ = rc.SetWriteDeadline(deadline)
		// net/http sets no write deadline per request (no WriteTimeout): a kept-alive connection's next
		// reply must not inherit this one.
		defer func() { _ = rc.SetWriteDeadline(time.Time{}) }()
	}
	h := w.Header()
	h.Set("Content-Type", httpx.ContentType)
	h.Set("Content-Length", strconv.Itoa(samples.SamplesJSONLength(count)))
	w.WriteHeader(http.StatusOK)
	abandon := func(sent int) {
		why := "the caller closed the connection before the reply was sent"
		if !deadline.IsZero() && !time.Now().Before(deadline) {
			why = fmt.Sprintf("the caller's deadline of %d ms passed", deadlineMs)
		}
		samples.NoteAbandoned(fmt.Sprintf("server-a JSON reply of %d rows (after %d)", count, sent), why)
	}
	rows := make([]samples.Row, 0, samples.ReplySliceRows)
	var out []byte
	for start := 0; start < count; start += samples.ReplySliceRows {
		if ctx.Err() != nil {
			abandon(start)
			return
		}
		end := min(count, start+samples.ReplySliceRows)
		built := time.Now()
		rows = rows[:0]
		for i := start; i < end; i++ {
			rows = append(rows, samples.BuildRow(i))
		}
		encoded := time.Now()
		text, err := json.Marshal(rows)
		sampler.AddBuild(encoded.Sub(built))
		sampler.AddEncode(time.Since(encoded))
		if err != nil {
			panic(http.ErrAbortHandler) // cannot happen (rows of strings); the connection is cut, the reply short
		}
		// Each slice's array text without its brackets, joined by commas inside the one array.
		out = out[:0]
		if start == 0 {
			out = append(out, `{"samples":[`...)
		} else {
			out = append(out, ',')
		}
		out = append(out, text[1:len(text)-1]...)
		if end == count {
			out = append(out, `]}`...)
		}
		if _, err := w.Write(out); err != nil {
			abandon(start)
			return
		}
	}
}

// Package harness mirrors libs/harness: the POST /bench/run request, and the case runner that times
// calls exactly as the Node clients do (cold call, warm-up, timed calls, costs around them).
package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"goreference/internal/validation"
)

// MaxCalls is the most untimed and timed calls one bench request may ask for.
const MaxCalls = 10_000

// TransportNames are the transports a client benchmarks.
var TransportNames = []string{"json", "grpc"}

// CaseRequest is one case: `requests` parallel requests of `rows` rows each.
type CaseRequest struct {
	Transport string `json:"transport"`
	Rows      int    `json:"rows"`
	Requests  int    `json:"requests"`
	Warmup    int    `json:"warmup"`
	Runs      int    `json:"runs"`
	Cold      bool   `json:"cold"`
	// DeadlineMs bounds each call (the bench derives it from the case); absent: DefaultDeadline.
	DeadlineMs int `json:"deadlineMs"`
}

// MaxRunRows is the most rows one POST /bench/run may ask for in all: rows × requests × calls (the cold
// call, the warm-up and the timed runs), as libs/config RUN_LIMITS.rows, whose reason says why 10,000,000.
const MaxRunRows = 10_000_000

// MaxRunCalls is the most calls one POST /bench/run may make in all: requests × calls, as libs/config
// RUN_LIMITS.calls: the rows cap alone let 1 row × 10,000 requests × 999 runs ask for 21–73 minutes.
const MaxRunCalls = 100_000

// MaxDeadlineMs is the longest deadline one call may be given (as libs/harness allows).
const MaxDeadlineMs = 3_600_000

// DecodeBody parses a request body as JavaScript's JSON.parse would (numbers kept exact, a single
// value and nothing after it).
func DecodeBody(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var value any
	if err := dec.Decode(&value); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("Unexpected end of JSON input")
		}
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("Unexpected non-whitespace character after JSON")
	}
	return value, nil
}

// ParseCaseRequest validates a POST /bench/run body, naming the first field that breaks a rule
// (the same order, rules and messages as parseCaseRequest).
func ParseCaseRequest(body any, maxRows, maxParallel int) (CaseRequest, *validation.FieldError) {
	input, ok := body.(map[string]any)
	if !ok {
		return CaseRequest{}, &validation.FieldError{Field: "body", Rule: "type", Message: "body must be a JSON object"}
	}
	get := func(key string) any {
		if value, present := input[key]; present {
			return value
		}
		return validation.Missing
	}
	orDefault := func(key string, fallback any) any {
		if value := get(key); value != nil && value != validation.Missing {
			return value
		}
		return fallback
	}
	cold, isBool := orDefault("cold", true).(bool)
	if !isBool {
		return CaseRequest{}, &validation.FieldError{Field: "cold", Rule: "type", Message: "cold must be true or false"}
	}
	transport, err := validation.ParseEnum("transport", get("transport"), TransportNames)
	if err != nil {
		return CaseRequest{}, err
	}
	rows, err := validation.ParseInt("rows", get("rows"), validation.Range{Min: 1, Max: int64(maxRows)})
	if err != nil {
		return CaseRequest{}, err
	}
	requests, err := validation.ParseInt("requests", get("requests"), validation.Range{Min: 1, Max: int64(maxParallel)})
	if err != nil {
		return CaseRequest{}, err
	}
	warmup, err := validation.ParseInt("warmup", orDefault("warmup", json.Number("1")), validation.Range{Min: 0, Max: MaxCalls})
	if err != nil {
		return CaseRequest{}, err
	}
	runs, err := validation.ParseInt("runs", get("runs"), validation.Range{Min: 0, Max: MaxCalls})
	if err != nil {
		return CaseRequest{}, err
	}
	deadlineMs, err := validation.ParseInt("deadlineMs", orDefault("deadlineMs", json.Number(fmt.Sprint(DefaultDeadline.Milliseconds()))), validation.Range{Min: 1, Max: MaxDeadlineMs})
	if err != nil {
		return CaseRequest{}, err
	}
	calls := warmup + runs
	if cold {
		calls++
	}
	// In float64: rows × requests × calls can pass int64's range with large MAX_ROWS and MAX_PARALLEL.
	if total := float64(rows) * float64(requests) * float64(calls); total > MaxRunRows {
		message := fmt.Sprintf("rows × requests × calls (cold + warmup + runs) = %d × %d × %d = %.0f rows, above the cap MAX_RUN_ROWS = %d rows per /bench/run: split the work over several requests", rows, requests, calls, total, MaxRunRows)
		return CaseRequest{}, &validation.FieldError{Field: "body", Rule: "max", Message: message}
	}
	if made := float64(requests) * float64(calls); made > MaxRunCalls {
		message := fmt.Sprintf("requests × calls (cold + warmup + runs) = %d × %d = %.0f calls, above the cap MAX_RUN_CALLS = %d calls per /bench/run: split the work over several requests", requests, calls, made, MaxRunCalls)
		return CaseRequest{}, &validation.FieldError{Field: "body", Rule: "max", Message: message}
	}
	return CaseRequest{Transport: transport, Rows: int(rows), Requests: int(requests), Warmup: int(warmup), Runs: int(runs), Cold: cold, DeadlineMs: int(deadlineMs)}, nil
}

package validation

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

var countRange = Range{Min: 1, Max: 1_000_000}

func TestParseIntAccepts(t *testing.T) {
	cases := []struct {
		raw  any
		want int64
	}{
		{"1", 1},
		{"1000000", 1_000_000},
		{"0042", 42},
		{json.Number("42"), 42},
		{json.Number("1.0"), 1},
		{json.Number("1e3"), 1000}, // a JSON number, not a string: JavaScript reads it as 1000
		{float64(7), 7},
		{int32(9), 9},
	}
	for _, c := range cases {
		got, err := ParseInt("count", c.raw, countRange)
		if err != nil || got != c.want {
			t.Errorf("ParseInt(%#v) = %d, %v; want %d", c.raw, got, err, c.want)
		}
	}
}

func TestParseIntRefuses(t *testing.T) {
	cases := []struct {
		raw  any
		rule string
	}{
		{"abc", "integer"},
		{"-1", "integer"},
		{"1.5", "integer"},
		{"1e3", "integer"},
		{" 7", "integer"},
		{"0x10", "integer"},
		{"99999999999999999", "integer"},
		{"%E0%A4%A", "integer"},
		{json.Number("1.5"), "integer"},
		{1.5, "integer"},
		{math.NaN(), "integer"},
		{json.Number("1e400"), "integer"},
		{"", "required"},
		{Missing, "required"},
		{nil, "required"},
		{true, "type"},
		{map[string]any{}, "type"},
		{[]any{}, "type"},
		{"0", "min"},
		{json.Number("-3"), "min"},
		{int32(0), "min"},
		{"1000001", "max"},
		{json.Number("1e300"), "max"},
	}
	for _, c := range cases {
		_, err := ParseInt("count", c.raw, countRange)
		if err == nil {
			t.Errorf("ParseInt(%#v) accepted", c.raw)
			continue
		}
		if err.Field != "count" || err.Rule != c.rule || !strings.Contains(err.Message, "count") {
			t.Errorf("ParseInt(%#v) = %+v; want rule %s", c.raw, err, c.rule)
		}
	}
}

func TestParseIntMessagesMatchNode(t *testing.T) {
	cases := []struct {
		raw  any
		want string
	}{
		{"abc", `count must be a whole number written in digits, got "abc"`},
		{json.Number("1.5"), "count must be a whole number, got 1.5"},
		{true, "count must be a whole number, got a boolean"},
		{[]any{}, "count must be a whole number, got a object"},
		{Missing, "count is required (a whole number from 1 to 1000000)"},
		{"0", "count must be at least 1, got 0"},
		{"1000001", "count must be at most 1000000, got 1000001"},
		{"9999999999999999", "count must be at most 1000000, got 10000000000000000"},
		{json.Number("1e300"), "count must be at most 1000000, got 1e+300"},
	}
	for _, c := range cases {
		_, err := ParseInt("count", c.raw, countRange)
		if err == nil || err.Message != c.want {
			t.Errorf("ParseInt(%#v) message = %v; want %q", c.raw, err, c.want)
		}
	}
}

func TestParseEnum(t *testing.T) {
	allowed := []string{"json", "grpc"}
	if v, err := ParseEnum("transport", "grpc", allowed); err != nil || v != "grpc" {
		t.Fatalf("grpc refused: %v", err)
	}
	if _, err := ParseEnum("transport", "xml", allowed); err == nil || err.Rule != "enum" || err.Message != `transport must be one of json, grpc, got "xml"` {
		t.Fatalf("xml: %+v", err)
	}
	if _, err := ParseEnum("transport", json.Number("5"), allowed); err == nil || err.Rule != "enum" || err.Message != "transport must be one of json, grpc, got 5" {
		t.Fatalf("5: %+v", err)
	}
	if _, err := ParseEnum("transport", Missing, allowed); err == nil || err.Rule != "required" {
		t.Fatalf("missing: %+v", err)
	}
}

func TestFormatNumber(t *testing.T) {
	cases := map[float64]string{0: "0", 1: "1", -3: "-3", 1.5: "1.5", 1e21: "1e+21", 1e300: "1e+300", 1e16: "10000000000000000", 1.5e-7: "1.5e-7", 0.000001: "0.000001"}
	for f, want := range cases {
		if got := FormatNumber(f); got != want {
			t.Errorf("FormatNumber(%v) = %q; want %q", f, got, want)
		}
	}
}

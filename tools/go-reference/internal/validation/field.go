// Package validation mirrors libs/validation: the input rules every route and RPC applies, with the
// same field names, rules and messages (HTTP 400 / gRPC INVALID_ARGUMENT).
package validation

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// FieldError says which field was refused, by which rule, in a sentence a person can act on.
type FieldError struct {
	Field   string `json:"field"`
	Rule    string `json:"rule"` // integer | min | max | required | enum | type
	Message string `json:"message"`
}

func (e *FieldError) Error() string { return e.Message }

// Range is an inclusive range of whole numbers.
type Range struct{ Min, Max int64 }

// Missing stands for a JSON field that is absent (JavaScript's undefined).
var Missing = missing{}

type missing struct{}

var digits = regexp.MustCompile(`^[0-9]{1,16}$`)

// ParseInt reads a whole number in [min, max] from a path segment or query value (a Go string), or
// from a decoded JSON value (json.Number, float64, bool, nil, map, slice, or Missing). Strings must
// be plain decimal digits: `-1`, `1.5`, `1e3`, ` 7`, `0x10` and "" are refused rather than coerced.
func ParseInt(field string, raw any, r Range) (int64, *FieldError) {
	var value float64
	switch v := raw.(type) {
	case nil, missing:
		return 0, required(field, r)
	case string:
		if v == "" {
			return 0, required(field, r)
		}
		if !digits.MatchString(v) {
			return 0, fail(field, "integer", fmt.Sprintf("%s must be a whole number written in digits, got %s", field, JSString(v)))
		}
		n, _ := strconv.ParseInt(v, 10, 64) // at most 16 digits: always fits
		value = float64(n)                  // as JavaScript's Number() would hold it
	case json.Number:
		f, ok := numberValue(v)
		if !ok || !isInteger(f) {
			return 0, fail(field, "integer", fmt.Sprintf("%s must be a whole number, got %s", field, FormatNumber(f)))
		}
		value = f
	case float64:
		if !isInteger(v) {
			return 0, fail(field, "integer", fmt.Sprintf("%s must be a whole number, got %s", field, FormatNumber(v)))
		}
		value = v
	case int:
		value = float64(v)
	case int32:
		value = float64(v)
	case int64:
		value = float64(v)
	default:
		return 0, fail(field, "type", fmt.Sprintf("%s must be a whole number, got a %s", field, jsTypeOf(raw)))
	}
	if value < float64(r.Min) {
		return 0, fail(field, "min", fmt.Sprintf("%s must be at least %d, got %s", field, r.Min, FormatNumber(value)))
	}
	if value > float64(r.Max) {
		return 0, fail(field, "max", fmt.Sprintf("%s must be at most %d, got %s", field, r.Max, FormatNumber(value)))
	}
	return int64(value), nil
}

// ParseEnum reads one of a fixed set of strings.
func ParseEnum(field string, raw any, allowed []string) (string, *FieldError) {
	switch v := raw.(type) {
	case nil, missing:
		return "", fail(field, "required", fmt.Sprintf("%s is required (one of %s)", field, strings.Join(allowed, ", ")))
	case string:
		if v == "" {
			return "", fail(field, "required", fmt.Sprintf("%s is required (one of %s)", field, strings.Join(allowed, ", ")))
		}
		if slices.Contains(allowed, v) {
			return v, nil
		}
	}
	return "", fail(field, "enum", fmt.Sprintf("%s must be one of %s, got %s", field, strings.Join(allowed, ", "), JSString(raw)))
}

func required(field string, r Range) *FieldError {
	return fail(field, "required", fmt.Sprintf("%s is required (a whole number from %d to %d)", field, r.Min, r.Max))
}

func fail(field, rule, message string) *FieldError {
	return &FieldError{Field: field, Rule: rule, Message: message}
}

func isInteger(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) && math.Trunc(f) == f }

// numberValue reads a JSON number as JavaScript's JSON.parse would (out-of-range values become ±Infinity).
func numberValue(n json.Number) (float64, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return math.NaN(), false
	}
	return f, true
}

// FormatNumber writes a number the way JavaScript's String(number) does.
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64) // 1e+21, 1.5e-7
		mantissa, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		exp = strings.TrimLeft(exp[1:], "0")
		return mantissa + "e" + string(sign) + exp
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// JSString writes a value the way JavaScript's JSON.stringify does, for error messages.
func JSString(v any) string {
	switch x := v.(type) {
	case missing:
		return "undefined"
	case json.Number:
		f, _ := numberValue(x)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return "null"
		}
		return FormatNumber(f)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return "null"
		}
		return FormatNumber(x)
	case []any:
		parts := make([]string, len(x))
		for i, item := range x {
			parts[i] = JSString(item)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys) // Go maps forget insertion order; sorted is at least stable
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = JSString(k) + ":" + JSString(x[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func jsTypeOf(v any) string {
	switch v.(type) {
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number, float64, int, int32, int64:
		return "number"
	default:
		return "object"
	}
}

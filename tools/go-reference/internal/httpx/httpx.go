// Package httpx holds what server-a and the client share on net/http: JSON replies with their
// Content-Length (as Express's res.json and the bare apps' sendJson send them), path segments decoded
// like decodeURIComponent, and a listener that answers malformed request targets like the Node apps.
package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ContentType is the Content-Type of every JSON reply.
const ContentType = "application/json; charset=utf-8"

// SendJSON writes body as JSON (no HTML escaping, like JSON.stringify) with its Content-Length.
func SendJSON(w http.ResponseWriter, status int, body any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"statusCode":500,"message":` + strconv.Quote(err.Error()) + "}\n")
	}
	SendBytes(w, status, bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// SendBytes writes an already encoded JSON body with its Content-Length.
func SendBytes(w http.ResponseWriter, status int, text []byte) {
	h := w.Header()
	h.Set("Content-Type", ContentType)
	h.Set("Content-Length", strconv.Itoa(len(text)))
	w.WriteHeader(status)
	_, _ = w.Write(text)
}

// NotFound is the 404 body of an unknown route, naming the path.
type NotFound struct {
	StatusCode int    `json:"statusCode"`
	Error      string `json:"error"`
	Message    string `json:"message"`
}

// MethodNotAllowed is the 405 body.
type MethodNotAllowed struct {
	StatusCode int    `json:"statusCode"`
	Error      string `json:"error"`
}

// BadRequest is the 400 body that names the field and the rule it broke.
type BadRequest struct {
	StatusCode int    `json:"statusCode"`
	Error      string `json:"error"`
	Field      string `json:"field"`
	Rule       string `json:"rule"`
	Message    string `json:"message"`
}

// SendNotFound answers 404 {"statusCode":404,"error":"Not Found","message":"no route <path>"}.
func SendNotFound(w http.ResponseWriter, path string) {
	SendJSON(w, http.StatusNotFound, NotFound{StatusCode: 404, Error: "Not Found", Message: "no route " + path})
}

// SendMethodNotAllowed answers 405 {"statusCode":405,"error":"Method Not Allowed"}.
func SendMethodNotAllowed(w http.ResponseWriter) {
	SendJSON(w, http.StatusMethodNotAllowed, MethodNotAllowed{StatusCode: 405, Error: "Method Not Allowed"})
}

// SendBadRequest answers 400 with the field, rule and message.
func SendBadRequest(w http.ResponseWriter, field, rule, message string) {
	SendJSON(w, http.StatusBadRequest, BadRequest{StatusCode: 400, Error: "Bad Request", Field: field, Rule: rule, Message: message})
}

type rawPathKey struct{}

// Path is the request's path as sent, still percent-encoded (like the pathname of Node's URL).
func Path(r *http.Request) string {
	if raw, ok := r.Context().Value(rawPathKey{}).(string); ok {
		return raw
	}
	return r.URL.EscapedPath()
}

// SafeDecode is a path segment decoded, or left as it is when its %-escapes are malformed or do not
// spell UTF-8 (then validation refuses it), like the bare apps' safeDecode(decodeURIComponent).
func SafeDecode(segment string) string {
	decoded, err := url.PathUnescape(segment)
	if err != nil || !utf8.ValidString(decoded) {
		return segment
	}
	return decoded
}

// withRawPath marks a request whose target net/http could not parse, carrying the target's path.
func withRawPath(r *http.Request, path string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), rawPathKey{}, path))
}

// QueryValue is the first value of a query parameter, as URLSearchParams.get reads it: `+` is a
// space, a malformed %-escape stays as written (net/url would drop the whole pair), and ok is false
// only when the parameter is absent.
func QueryValue(r *http.Request, name string) (value string, ok bool) {
	for pair := range strings.SplitSeq(r.URL.RawQuery, "&") {
		if pair == "" {
			continue
		}
		key, val, _ := strings.Cut(pair, "=")
		if decodeQuery(key) == name {
			return decodeQuery(val), true
		}
	}
	return "", false
}

// decodeQuery decodes one query component leniently, as the WHATWG URL parser does.
func decodeQuery(s string) string {
	if !strings.ContainsAny(s, "%+") {
		return s
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			out = append(out, ' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			out = append(out, c)
		}
	}
	return strings.ToValidUTF8(string(out), "\uFFFD")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}

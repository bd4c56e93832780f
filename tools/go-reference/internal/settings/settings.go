// Package settings mirrors libs/config/src/settings.ts: the environment every process reads, with the
// same variables, defaults, rules and messages.
package settings

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"goreference/internal/limits"
	"goreference/internal/security"
	"goreference/internal/validation"
)

// Settings are the values every process reads from the environment (JSON names as in /bench/info).
type Settings struct {
	Host        string `json:"host"`
	ClientPort  int    `json:"clientPort"`
	ServerAPort int    `json:"serverAPort"`
	ServerBPort int    `json:"serverBPort"`
	ServerAURL  string `json:"serverAUrl"`
	ServerBURL  string `json:"serverBUrl"`
	MaxRows     int    `json:"maxRows"`
	MaxParallel int    `json:"maxParallel"`
	// HandshakeTimeoutMs bounds the wait for an HTTP/1.1 request head or the HTTP/2 preface on every
	// listener (HANDSHAKE_TIMEOUT_MS, limits.Handshake by default; a test makes it short).
	HandshakeTimeoutMs int `json:"handshakeTimeoutMs"`
	// Security is BENCH_SECURITY and its files (security.Load); the scheme of ServerAURL follows it.
	Security security.Security `json:"security"`
}

// Defaults are the values used when a variable is unset or blank: the same as DEFAULT_SETTINGS.
var Defaults = Settings{
	Host:        "127.0.0.1",
	ClientPort:  3000,
	ServerAPort: 3001,
	ServerBPort: 3002,
	ServerAURL:  "http://127.0.0.1:3001",
	ServerBURL:  "127.0.0.1:3002",
	MaxRows:     1_000_000,
	MaxParallel: 10_000,

	HandshakeTimeoutMs: int(limits.Handshake / time.Millisecond),
	Security:           security.Plain,
}

// Handshake is HandshakeTimeoutMs as a duration.
func (s Settings) Handshake() time.Duration {
	return time.Duration(s.HandshakeTimeoutMs) * time.Millisecond
}

var (
	portRange  = validation.Range{Min: 1, Max: 65_535}
	countRange = validation.Range{Min: 1, Max: 100_000_000}
	// handshakeRange is settings.ts's: 0.1 s lets a test drop a half-open connection quickly.
	handshakeRange = validation.Range{Min: 100, Max: 600_000}
	serverAURL     = regexp.MustCompile(`^https?://[^/\s]+$`)
	serverBURL     = regexp.MustCompile(`^[^/\s:]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$`)
)

// Load reads and validates the settings once, at start-up; the error names the variable.
func Load(getenv func(string) string) (Settings, error) {
	read := func(name string) (string, bool) {
		value := strings.TrimSpace(getenv(name))
		return value, value != ""
	}
	s := Defaults
	sec, err := security.Load(getenv)
	if err != nil {
		return s, err
	}
	s.Security = sec
	s.ServerAURL = strings.Replace(s.ServerAURL, "http:", sec.Scheme()+":", 1)
	ints := []struct {
		name   string
		target *int
		r      validation.Range
	}{
		{"CLIENT_PORT", &s.ClientPort, portRange},
		{"SERVER_A_PORT", &s.ServerAPort, portRange},
		{"SERVER_B_PORT", &s.ServerBPort, portRange},
		{"MAX_ROWS", &s.MaxRows, countRange},
		{"MAX_PARALLEL", &s.MaxParallel, countRange},
		{"HANDSHAKE_TIMEOUT_MS", &s.HandshakeTimeoutMs, handshakeRange},
	}
	if host, ok := read("HOST"); ok {
		s.Host = host
	}
	if url, ok := read("SERVER_A_URL"); ok {
		if !serverAURL.MatchString(strings.TrimSuffix(url, "/")) {
			return s, fmt.Errorf("SERVER_A_URL must look like http://host:port, got %s", validation.JSString(url))
		}
		if !strings.HasPrefix(url, sec.Scheme()+"://") {
			return s, fmt.Errorf("SERVER_A_URL is %s but BENCH_SECURITY=%s needs %s://", validation.JSString(url), sec.Mode, sec.Scheme())
		}
		s.ServerAURL = strings.TrimSuffix(url, "/")
	}
	if url, ok := read("SERVER_B_URL"); ok {
		if !serverBURL.MatchString(url) {
			return s, fmt.Errorf("SERVER_B_URL must look like host:port (no scheme), got %s", validation.JSString(url))
		}
		s.ServerBURL = url
	}
	for _, item := range ints {
		raw, ok := read(item.name)
		if !ok {
			continue
		}
		value, err := validation.ParseInt(item.name, raw, item.r)
		if err != nil {
			return s, fmt.Errorf("%s", err.Message)
		}
		*item.target = int(value)
	}
	return s, nil
}

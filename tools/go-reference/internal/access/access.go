// Package access mirrors libs/config/src/control-access.ts: who may call the client's control API.
// Open on loopback without BENCH_TOKEN; bound anywhere else it needs the token, and a client without
// one refuses to start. Callers send `Authorization: Bearer <token>`; the health checks stay open.
package access

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"regexp"
	"strings"
)

// TokenEnv is the variable that holds the token (CONTROL_TOKEN_ENV).
const TokenEnv = "BENCH_TOKEN"

// MinTokenLength is the shortest token accepted: a guessable one protects nothing (CONTROL_TOKEN_MIN_LENGTH).
const MinTokenLength = 16

// openRoutes answer without the token: orchestrators poll them and they start no work (OPEN_ROUTES).
var openRoutes = map[string]bool{"/health": true, "/health/ready": true}

var bearer = regexp.MustCompile(`(?i)^Bearer\s+(\S+)\s*$`)

// Access is the rule decided at start-up; Token is empty when none is asked.
type Access struct {
	Token    string
	Describe string
}

// IsLoopback says whether host (HOST) accepts connections from this machine only.
func IsLoopback(host string) bool {
	bare := strings.ToLower(strings.Trim(host, "[]"))
	if bare == "localhost" {
		return true
	}
	ip := net.ParseIP(bare)
	return ip != nil && ip.IsLoopback()
}

// Load reads BENCH_TOKEN and decides the rule for a client bound to host; the error says what to set.
func Load(host string, getenv func(string) string) (Access, error) {
	token := strings.TrimSpace(getenv(TokenEnv))
	if token != "" && len(token) < MinTokenLength {
		return Access{}, fmt.Errorf("%s is %d characters; use at least %d, e.g. %s=$(openssl rand -hex 32)", TokenEnv, len(token), MinTokenLength, TokenEnv)
	}
	if token == "" && !IsLoopback(host) {
		return Access{}, fmt.Errorf("HOST=%s opens the control API (POST /bench/run, GET /bench/path, /client/*) to other machines: "+
			"set %s to a secret (e.g. %s=$(openssl rand -hex 32)) and give the bench the same one, or bind HOST=127.0.0.1", host, TokenEnv, TokenEnv)
	}
	if token == "" {
		return Access{Describe: fmt.Sprintf("control API open to this machine only (HOST=%s is loopback; set %s to require a token)", host, TokenEnv)}, nil
	}
	return Access{Token: token, Describe: fmt.Sprintf("control API requires Authorization: Bearer <%s> (/health and /health/ready stay open)", TokenEnv)}, nil
}

// Allows says whether a request for path with this Authorization header may go on.
func (a Access) Allows(path, authorization string) bool {
	if a.Token == "" || openRoutes[path] {
		return true
	}
	match := bearer.FindStringSubmatch(authorization)
	if match == nil {
		return false
	}
	given, want := sha256.Sum256([]byte(match[1])), sha256.Sum256([]byte(a.Token))
	return subtle.ConstantTimeCompare(given[:], want[:]) == 1
}

// Unauthorized is the 401 body (unauthorizedBody).
type Unauthorized struct {
	StatusCode int    `json:"statusCode"`
	Error      string `json:"error"`
	Message    string `json:"message"`
}

// UnauthorizedBody is what a caller without the token is told.
func UnauthorizedBody() Unauthorized {
	return Unauthorized{StatusCode: 401, Error: "Unauthorized", Message: fmt.Sprintf("this client's control API needs Authorization: Bearer <%s> (the token it was started with)", TokenEnv)}
}

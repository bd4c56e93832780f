package httpx

import (
	"net"
	"net/http"
	"strconv"
	"time"

	"goreference/internal/lifecycle"
	"goreference/internal/limits"
	"goreference/internal/security"
)

// Limits are one HTTP/1.1 listener's bounds (limits package and docs/reliability.md say why).
type Limits struct {
	// Handshake bounds the wait for a request head (HANDSHAKE_TIMEOUT_MS).
	Handshake time.Duration
	// Body is the largest request body read; larger is 413, compressed is 415 (LimitBodies).
	Body int64
}

// NewServer is handler on a net/http server whose connections must send a request head within
// l.Handshake and a whole request within limits.Request (the reply is not bound by it: LimitBodies
// lifts the read deadline once the body is in), and are closed after limits.HTTPIdle idle.
func NewServer(handler http.Handler, l Limits) *http.Server {
	return &http.Server{
		Handler:                      LimitBodies(handler, l.Body),
		DisableGeneralOptionsHandler: true,
		ReadHeaderTimeout:            l.Handshake,
		ReadTimeout:                  max(limits.Request, l.Handshake),
		IdleTimeout:                  limits.HTTPIdle,
	}
}

// Serve binds host:port (a busy port stops the program with a message naming variable, as the Node
// apps do), serves server on it in the background, and returns its address, so the caller can print
// its banner and shut it down on a signal.
func Serve(name string, server *http.Server, host string, port int, variable string, sec security.Security) string {
	address := net.JoinHostPort(host, strconv.Itoa(port))
	ln, err := net.Listen("tcp", address)
	if err != nil {
		lifecycle.Fail(name, lifecycle.ExplainListenError(err, variable, port, host))
	}
	if sec.TLS() {
		// TLS under the rescue listener, so that it reads and writes plain HTTP (ALPN http/1.1 only).
		config, err := sec.ServerConfig(name, []string{"http/1.1"})
		if err != nil {
			lifecycle.Fail(name, err)
		}
		ln = security.RefusalListener(ln, config, name)
	}
	go func() {
		if err := server.Serve(Listener(ln, server.Handler)); err != nil && err != http.ErrServerClosed {
			lifecycle.Fail(name, err)
		}
	}()
	return address
}

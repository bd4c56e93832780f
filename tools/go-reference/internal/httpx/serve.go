package httpx

import (
	"net"
	"net/http"
	"strconv"

	"goreference/internal/lifecycle"
)

// Serve binds host:port (a busy port stops the program with a message naming variable, as the Node
// apps do), serves handler on it in the background, and returns the server and its address, so the
// caller can print its banner and shut it down on a signal.
func Serve(name string, handler http.Handler, host string, port int, variable string) (*http.Server, string) {
	address := net.JoinHostPort(host, strconv.Itoa(port))
	ln, err := net.Listen("tcp", address)
	if err != nil {
		lifecycle.Fail(name, lifecycle.ExplainListenError(err, variable, port, host))
	}
	server := &http.Server{Handler: handler, DisableGeneralOptionsHandler: true}
	go func() {
		if err := server.Serve(Listener(ln, handler)); err != nil && err != http.ErrServerClosed {
			lifecycle.Fail(name, err)
		}
	}()
	return server, address
}

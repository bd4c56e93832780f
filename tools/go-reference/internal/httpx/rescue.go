package httpx

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
)

// net/http refuses a request whose target has a malformed %-escape (`/server-a/%E0%A4%A`) before any
// handler sees it, answering a plain-text "400 Bad Request" and closing the connection. The Node apps
// route such a request like any other (their 400 names the field and rule, or 404 names the path). To
// behave the same from the outside, the listener below remembers the last bytes read on each
// connection and, when net/http writes exactly that canned reply, answers instead with what the
// handler says about the refused request line. Nothing else on the connection is touched.

const cannedBadRequest = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request"

// keepRecent bounds the bytes remembered per connection (request lines are short; Node allows 16 KiB
// of headers in all).
const keepRecent = 16 << 10

// Listener wraps ln so that requests with malformed request targets reach handler (see above).
func Listener(ln net.Listener, handler http.Handler) net.Listener {
	return &rescueListener{Listener: ln, handler: handler}
}

type rescueListener struct {
	net.Listener
	handler http.Handler
}

func (l *rescueListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &rescueConn{Conn: conn, handler: l.handler}, nil
}

type rescueConn struct {
	net.Conn
	handler http.Handler
	mu      sync.Mutex
	recent  []byte
}

// CloseWrite keeps net/http's graceful half-close (it looks for this method on the connection).
func (c *rescueConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *rescueConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		c.remember(p[:n])
		c.mu.Unlock()
	}
	return n, err
}

func (c *rescueConn) remember(chunk []byte) {
	if len(chunk) >= keepRecent {
		c.recent = append(c.recent[:0], chunk[len(chunk)-keepRecent:]...)
		return
	}
	if len(c.recent)+len(chunk) > 2*keepRecent {
		keep := c.recent[len(c.recent)-(keepRecent-len(chunk)):]
		c.recent = append(c.recent[:0], keep...)
	}
	c.recent = append(c.recent, chunk...)
}

func (c *rescueConn) Write(p []byte) (int, error) {
	if len(p) != len(cannedBadRequest) || string(p) != cannedBadRequest {
		return c.Conn.Write(p)
	}
	c.mu.Lock()
	method, target, ok := refusedRequestLine(c.recent)
	c.mu.Unlock()
	if !ok {
		return c.Conn.Write(p)
	}
	if _, err := c.Conn.Write(Rescue(c.handler, method, target)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// refusedRequestLine finds the last request line in data whose target net/http cannot parse.
func refusedRequestLine(data []byte) (method, target string, ok bool) {
	lines := bytes.Split(data, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		parts := strings.Split(strings.TrimSuffix(string(lines[i]), "\r"), " ")
		if len(parts) != 3 || !strings.HasPrefix(parts[2], "HTTP/") || !strings.HasPrefix(parts[1], "/") {
			continue
		}
		if _, err := url.ParseRequestURI(parts[1]); err != nil {
			return parts[0], parts[1], true
		}
	}
	return "", "", false
}

// Rescue runs handler for a request line net/http refused and returns the whole HTTP/1.1 response
// (the connection is closed after it, as net/http would have done).
func Rescue(handler http.Handler, method, target string) []byte {
	path, query, _ := strings.Cut(target, "?")
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Method = method
	req.URL.RawQuery = query
	req.RequestURI = target
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, withRawPath(req, path))
	body := rec.Body.Bytes()
	var out bytes.Buffer
	fmt.Fprintf(&out, "HTTP/1.1 %d %s\r\n", rec.Code, http.StatusText(rec.Code))
	fmt.Fprintf(&out, "Content-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", rec.Header().Get("Content-Type"), len(body))
	out.Write(body)
	return out.Bytes()
}

package security

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc/credentials"
)

// RefusalLogLines refused handshakes a process logs a line each for per RefusalLogWindow; beyond
// them one line per window says how many more there were and why (libs/config REFUSAL_LOG: a caller
// can make a refusal per connection for free, thousands a second).
const (
	RefusalLogLines  = 10
	RefusalLogWindow = 10 * time.Second
)

// RefusalLog is one process's refusal lines, rate-limited; one per app name, shared by its listeners.
type RefusalLog struct {
	app        string
	lines      int
	window     time.Duration
	write      func(string)
	mu         sync.Mutex
	open       bool
	logged     int
	suppressed map[string]int
}

// NewRefusalLog logs through write at most lines lines per window.
func NewRefusalLog(app string, lines int, window time.Duration, write func(string)) *RefusalLog {
	return &RefusalLog{app: app, lines: lines, window: window, write: write, suppressed: map[string]int{}}
}

var (
	logsMu sync.Mutex
	logs   = map[string]*RefusalLog{}
)

func refusalLogOf(app string) *RefusalLog {
	logsMu.Lock()
	defer logsMu.Unlock()
	if logs[app] == nil {
		logs[app] = NewRefusalLog(app, RefusalLogLines, RefusalLogWindow, func(line string) { fmt.Println(line) })
	}
	return logs[app]
}

// Refused logs one refused handshake from peer, or counts it when the window's lines are spent.
func (l *RefusalLog) Refused(peer string, err error) {
	reason := RefusalReason(err)
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.open {
		l.open = true
		time.AfterFunc(l.window, l.closeWindow)
	}
	if l.logged < l.lines {
		l.logged++
		l.write(fmt.Sprintf("%s: refused a TLS handshake from %s: %s", l.app, peer, reason))
		return
	}
	kind, _, _ := strings.Cut(reason, " (")
	l.suppressed[kind]++
}

func (l *RefusalLog) closeWindow() {
	l.mu.Lock()
	defer l.mu.Unlock()
	total := 0
	kinds := make([]string, 0, len(l.suppressed))
	for kind, n := range l.suppressed {
		total += n
		kinds = append(kinds, fmt.Sprintf("%s ×%d", kind, n))
	}
	if total > 0 {
		sort.Strings(kinds)
		seconds := l.window.Seconds()
		l.write(fmt.Sprintf("%s: %d more refused TLS handshakes not logged in the last %g s (at most %d lines per %g s): %s", l.app, total, seconds, l.lines, seconds, strings.Join(kinds, ", ")))
	}
	l.open, l.logged, l.suppressed = false, 0, map[string]int{}
}

// RefusalReason is why a server-side handshake failed, in the words the Node servers use, with Go's
// category; never the error's own text past that (it can quote what the peer sent).
func RefusalReason(err error) string {
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var alert tls.AlertError
	var netErr net.Error
	switch {
	case errors.As(err, &unknown):
		return "unknown CA (x509.UnknownAuthorityError)"
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return "expired certificate (x509.Expired)"
	case errors.As(err, &invalid) && invalid.Reason == x509.IncompatibleUsage:
		return "no client EKU (x509.IncompatibleUsage: the certificate is not for client authentication)"
	case errors.As(err, &invalid):
		return fmt.Sprintf("bad certificate (x509.CertificateInvalidError %d)", invalid.Reason)
	case strings.Contains(err.Error(), "didn't provide a certificate"):
		return "no certificate (tls: client didn't provide a certificate)"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "handshake timeout"
	case errors.As(err, &alert):
		return fmt.Sprintf("the peer sent alert %q (it may have refused this server's certificate)", alert.Error())
	case errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET), errors.Is(err, net.ErrClosed):
		return "the peer closed the connection during the handshake"
	}
	return "protocol error (tls)"
}

// RefusalListener serves TLS with config on ln's connections and logs each refused handshake
// (RefusalLog of app): net/http does not see a *tls.Conn behind the rescue listener, so the handshake
// runs at the first Read or Write, and its error would otherwise go nowhere.
func RefusalListener(ln net.Listener, config *tls.Config, app string) net.Listener {
	return &refusalListener{Listener: ln, config: config, log: refusalLogOf(app)}
}

type refusalListener struct {
	net.Listener
	config *tls.Config
	log    *RefusalLog
}

func (l *refusalListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	counted := &countingConn{Conn: conn}
	return &refusalConn{Conn: tls.Server(counted, l.config), counted: counted, log: l.log}, nil
}

type refusalConn struct {
	*tls.Conn
	counted *countingConn
	log     *RefusalLog
	once    sync.Once
}

// handshake runs the handshake once, under the deadline the server set for the first read or write.
func (c *refusalConn) handshake() {
	c.once.Do(func() {
		if err := c.Conn.Handshake(); err != nil && c.counted.read > 0 {
			c.log.Refused(c.RemoteAddr().String(), err)
		}
	})
}

func (c *refusalConn) Read(p []byte) (int, error) {
	c.handshake()
	return c.Conn.Read(p)
}

func (c *refusalConn) Write(p []byte) (int, error) {
	c.handshake()
	return c.Conn.Write(p)
}

// countingConn counts the bytes a connection read: one that ended before its first byte is a TCP
// health check or a port scan, not a refused handshake (the Node servers skip them alike).
type countingConn struct {
	net.Conn
	read int
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read += n
	return n, err
}

// refusalCredentials are grpc-go transport credentials that log each refused server handshake.
type refusalCredentials struct {
	credentials.TransportCredentials
	log *RefusalLog
}

// RefusalCredentials wraps creds so that a failed ServerHandshake is logged (RefusalLog of app):
// grpc-go logs it only at its warning level, which is off by default.
func RefusalCredentials(creds credentials.TransportCredentials, app string) credentials.TransportCredentials {
	return refusalCredentials{TransportCredentials: creds, log: refusalLogOf(app)}
}

func (c refusalCredentials) ServerHandshake(raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	counted := &countingConn{Conn: raw}
	conn, info, err := c.TransportCredentials.ServerHandshake(counted)
	if err != nil && counted.read > 0 {
		c.log.Refused(raw.RemoteAddr().String(), err)
	}
	return conn, info, err
}

func (c refusalCredentials) Clone() credentials.TransportCredentials {
	return refusalCredentials{TransportCredentials: c.TransportCredentials.Clone(), log: c.log}
}

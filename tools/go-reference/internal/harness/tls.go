package harness

import (
	"crypto/tls"
	"sync"
	"time"
)

// TLSHandshakes are the handshakes of a stretch of calls, in the shape of libs/harness TlsHandshakes:
// how many, how many resumed a cached session, how long they took, what the last one negotiated.
type TLSHandshakes struct {
	Count    int     `json:"count"`
	Resumed  int     `json:"resumed"`
	MeanMs   float64 `json:"meanMs"`
	MaxMs    float64 `json:"maxMs"`
	Protocol *string `json:"protocol"`
	ALPN     *string `json:"alpn"`
}

// TLSCell is a cell's handshakes: its cold call's (the fresh connection's) and its timed calls'.
type TLSCell struct {
	Cold  *TLSHandshakes `json:"cold"`
	Timed *TLSHandshakes `json:"timed"`
}

type handshake struct {
	ms      float64
	resumed bool
	state   tls.ConnectionState
}

var handshakes struct {
	sync.Mutex
	watching bool
	finished []handshake
}

// WatchTLSHandshakes makes this process's cells carry their handshakes (a client under TLS).
func WatchTLSHandshakes() {
	handshakes.Lock()
	defer handshakes.Unlock()
	handshakes.watching = true
}

func watchingTLSHandshakes() bool {
	handshakes.Lock()
	defer handshakes.Unlock()
	return handshakes.watching
}

// RecordTLSHandshake notes one client handshake that took `took` (from TCP connected to handshake done,
// as the Node clients time theirs) and ended in `state`.
func RecordTLSHandshake(took time.Duration, state tls.ConnectionState) {
	handshakes.Lock()
	defer handshakes.Unlock()
	if handshakes.watching {
		handshakes.finished = append(handshakes.finished, handshake{ms: Ms(took), resumed: state.DidResume, state: state})
	}
}

// takeTLSHandshakes is the handshakes finished since the last take (nil when there were none), forgotten.
func takeTLSHandshakes() *TLSHandshakes {
	handshakes.Lock()
	taken := handshakes.finished
	handshakes.finished = nil
	handshakes.Unlock()
	if len(taken) == 0 {
		return nil
	}
	out := &TLSHandshakes{Count: len(taken)}
	sum := 0.0
	for _, h := range taken {
		sum += h.ms
		out.MaxMs = max(out.MaxMs, h.ms)
		if h.resumed {
			out.Resumed++
		}
	}
	out.MeanMs = sum / float64(len(taken))
	last := taken[len(taken)-1].state
	protocol := map[uint16]string{tls.VersionTLS13: "TLSv1.3", tls.VersionTLS12: "TLSv1.2"}[last.Version] // as Node's getProtocol() names them
	out.Protocol = &protocol
	if last.NegotiatedProtocol != "" {
		alpn := last.NegotiatedProtocol
		out.ALPN = &alpn
	}
	return out
}

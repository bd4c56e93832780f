package httpx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// BodyRefused is the 413 / 415 body (the shape of the client's other body errors, as the bare client's).
type BodyRefused struct {
	StatusCode int    `json:"statusCode"`
	Field      string `json:"field"`
	Rule       string `json:"rule"`
	Message    string `json:"message"`
}

// LimitBodies reads each request's body before next runs: a Content-Encoding other than identity is
// 415 before the body is read (no caller of ours compresses a request, so inflating would only be
// attack surface), a body over limit is 413 after reading at most limit+1 bytes. The body next sees
// is the bytes read (at most limit, as the Node apps buffer theirs). Once the request has arrived its
// read deadline (the server's ReadTimeout) is lifted: net/http would otherwise cancel the request's
// context at that deadline while a long reply is still being written.
func LimitBodies(next http.Handler, limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		encoding := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding")))
		if encoding != "" && encoding != "identity" {
			w.Header().Set("Accept-Encoding", "identity")
			refuse(w, http.StatusUnsupportedMediaType, fmt.Sprintf("content encoding %q is not accepted: send the body uncompressed", encoding))
			return
		}
		tooLarge := fmt.Sprintf("body larger than %d bytes", limit)
		if r.ContentLength > limit {
			refuse(w, http.StatusRequestEntityTooLarge, tooLarge)
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
			var over *http.MaxBytesError
			switch {
			case errors.As(err, &over):
				refuse(w, http.StatusRequestEntityTooLarge, tooLarge)
				return
			case isTimeout(err):
				refuse(w, http.StatusRequestTimeout, "the request body did not arrive within the request timeout")
				return
			case err != nil:
				refuse(w, http.StatusBadRequest, "the request body could not be read: "+err.Error())
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(data))
		}
		// The Rescue path's recorder has no connection: nothing to lift there.
		_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
		next.ServeHTTP(w, r)
	})
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func refuse(w http.ResponseWriter, status int, message string) {
	SendJSON(w, status, BodyRefused{StatusCode: status, Field: "body", Rule: "type", Message: message})
}

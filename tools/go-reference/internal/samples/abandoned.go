package samples

import (
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"time"
)

// DeadlineHeader is the header a JSON caller sends its deadline in (DEADLINE_HEADER in libs/samples):
// the milliseconds it will still wait for the whole reply, counted from when it sent the request.
const DeadlineHeader = "x-deadline-ms"

// ParseDeadlineHeader is the deadline a request carries in ms, or 0 when it sends none (or not a
// positive whole number of at most ten digits), as parseDeadlineHeader reads it.
func ParseDeadlineHeader(value string) int {
	if len(value) == 0 || len(value) > 10 {
		return 0
	}
	for _, c := range value {
		if c < '0' || c > '9' {
			return 0
		}
	}
	ms, err := strconv.Atoi(value)
	if err != nil || ms <= 0 {
		return 0
	}
	return ms
}

var abandoned atomic.Int64

// AbandonedReplies is the replies this process stopped producing because their caller could no
// longer use them.
func AbandonedReplies() int64 {
	return abandoned.Load()
}

// AwaitAbandoned reports whether AbandonedReplies passes before within `within` (a test's or a
// probe's question: did the server stop the reply it was asked to stop?).
func AwaitAbandoned(before int64, within time.Duration) bool {
	for limit := time.Now().Add(within); AbandonedReplies() <= before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(limit) {
			return false
		}
	}
	return true
}

// NoteAbandoned counts and logs on stderr (as console.warn), once per reply, a reply stopped part-way ("<what> abandoned: <why>",
// as noteAbandoned), so a log shows the work a deadline or a disconnect saved.
func NoteAbandoned(what string, why string) {
	abandoned.Add(1)
	fmt.Fprintf(os.Stderr, "%s abandoned: %s\n", what, why)
}

package samples

import (
	"encoding/json"
	"fmt"
)

// Reply is one decoded reply body, whichever codec produced it.
type Reply interface {
	// Count is the number of rows, or -1 when the reply has no samples array.
	Count() int
	// RowAt returns row i of the reply as a plain Row (0 <= i < Count()).
	RowAt(i int) Row
}

// JSONReply is server-a's body, {"samples": [...]}, as decoded by encoding/json.
type JSONReply struct {
	Samples *[]Row `json:"samples"`
}

func (r *JSONReply) Count() int {
	if r.Samples == nil {
		return -1
	}
	return len(*r.Samples)
}

func (r *JSONReply) RowAt(i int) Row { return (*r.Samples)[i] }

// Verify checks one reply so a wrong answer fails its case loudly instead of being timed as if it
// were right: the row count, and the first and last rows against the generator. It returns "" when
// the reply is right, else the reason (the same sentences as libs/samples verifyReply).
func Verify(reply Reply, expectedRows int) string {
	if reply == nil || reply.Count() < 0 {
		return "reply has no samples array"
	}
	if got := reply.Count(); got != expectedRows {
		return fmt.Sprintf("expected %d rows, got %d", expectedRows, got)
	}
	if expectedRows == 0 {
		return ""
	}
	last := expectedRows - 1
	if row := reply.RowAt(0); row != BuildRow(0) {
		return fmt.Sprintf("row 0 differs: %s", describe(row))
	}
	if row := reply.RowAt(last); row != BuildRow(last) {
		return fmt.Sprintf("row %d differs: %s", last, describe(row))
	}
	return ""
}

func describe(row Row) string {
	text, err := json.Marshal(row)
	if err != nil {
		return fmt.Sprintf("%+v", row)
	}
	return string(text)
}

package samples

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBuildRowIsTheBlogsRow(t *testing.T) {
	want := Row{RowNum: 42, ColumnA: "columnA42", ColumnB: "columnB42", ColumnC: "columnC42", ColumnD: "columnD42",
		ColumnE: "columnE42", ColumnF: "columnF42", ColumnG: "columnG42", ColumnH: "columnH42", ColumnI: "columnI42", ColumnJ: "columnJ42"}
	if got := BuildRow(42); got != want {
		t.Fatalf("BuildRow(42) = %+v", got)
	}
	if got := BuildRow(0); got.RowNum != 0 || got.ColumnA != "columnA0" || got.ColumnJ != "columnJ0" {
		t.Fatalf("BuildRow(0) = %+v", got)
	}
	if got := BuildRow(999_999); got.ColumnE != "columnE999999" || got.ColumnJ != "columnJ999999" {
		t.Fatalf("BuildRow(999999) = %+v", got)
	}
}

func TestBuildRows(t *testing.T) {
	rows := BuildRows(3)
	if len(rows) != 3 || rows[0] != BuildRow(0) || rows[2] != BuildRow(2) {
		t.Fatalf("BuildRows(3) = %+v", rows)
	}
	if len(BuildRows(0)) != 0 {
		t.Fatal("BuildRows(0) is not empty")
	}
}

// The JSON text has the blog's key order and values: what JSON.stringify gives for { samples: buildRows(1) }.
func TestJSONMatchesNode(t *testing.T) {
	text, err := json.Marshal(map[string][]Row{"samples": BuildRows(1)})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"samples":[{"rowNum":0,"columnA":"columnA0","columnB":"columnB0","columnC":"columnC0","columnD":"columnD0",` +
		`"columnE":"columnE0","columnF":"columnF0","columnG":"columnG0","columnH":"columnH0","columnI":"columnI0","columnJ":"columnJ0"}]}`
	if string(text) != want {
		t.Fatalf("got %s", text)
	}
}

func decode(t *testing.T, text string) *JSONReply {
	t.Helper()
	var reply JSONReply
	if err := json.Unmarshal([]byte(text), &reply); err != nil {
		t.Fatal(err)
	}
	return &reply
}

func encode(t *testing.T, rows []Row) string {
	t.Helper()
	text, err := json.Marshal(map[string][]Row{"samples": rows})
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

func TestVerifyAcceptsTheRightReply(t *testing.T) {
	for _, n := range []int{1, 2, 10} {
		if reason := Verify(decode(t, encode(t, BuildRows(n))), n); reason != "" {
			t.Errorf("%d rows: %s", n, reason)
		}
	}
}

func TestVerifyRefusesWrongReplies(t *testing.T) {
	shifted := BuildRows(3)
	shifted[2] = BuildRow(3)
	changed := BuildRows(3)
	changed[0].ColumnC = "columnC1"
	cases := []struct {
		name, body string
		rows       int
		reason     string
	}{
		{"no samples", `{}`, 1, "reply has no samples array"},
		{"null samples", `{"samples":null}`, 1, "reply has no samples array"},
		{"too few", encode(t, BuildRows(2)), 3, "expected 3 rows, got 2"},
		{"too many", encode(t, BuildRows(4)), 3, "expected 3 rows, got 4"},
		{"last row wrong", encode(t, shifted), 3, "row 2 differs: "},
		{"first row wrong", encode(t, changed), 3, "row 0 differs: "},
		{"missing column", `{"samples":[{"rowNum":0,"columnA":"columnA0"}]}`, 1, "row 0 differs: "},
	}
	for _, c := range cases {
		reason := Verify(decode(t, c.body), c.rows)
		if reason == "" || !strings.HasPrefix(reason, c.reason) {
			t.Errorf("%s: reason %q; want prefix %q", c.name, reason, c.reason)
		}
	}
	if reason := Verify(nil, 1); reason != "reply has no samples array" {
		t.Errorf("nil reply: %q", reason)
	}
}

func TestSamplesJSONLengthIsTheEncodedLength(t *testing.T) {
	for _, count := range []int{0, 1, 9, 10, 11, 99, 100, 101, 1000, 10_001, 25_007} {
		text, _ := json.Marshal(map[string][]Row{"samples": BuildRows(count)})
		if count == 0 {
			text = []byte(`{"samples":[]}`)
		}
		if got := SamplesJSONLength(count); got != len(text) {
			t.Errorf("SamplesJSONLength(%d) = %d; want %d", count, got, len(text))
		}
	}
}

func TestParseDeadlineHeader(t *testing.T) {
	for value, want := range map[string]int{"200": 200, "1": 1, "0": 0, "": 0, "-5": 0, "1.5": 0, "12345678901": 0, "abc": 0} {
		if got := ParseDeadlineHeader(value); got != want {
			t.Errorf("ParseDeadlineHeader(%q) = %d; want %d", value, got, want)
		}
	}
}

package main

import (
	"testing"
	"time"
)

func TestParseOptionsReadsTheFlagsTheStagePasses(t *testing.T) {
	o, err := parseOptions([]string{"--queue", "3", "--delay", "950us", "--jitter", "100us", "--exit-with-parent"})
	if err != nil {
		t.Fatal(err)
	}
	if o.queue != 3 || o.delay != 950*time.Microsecond || o.jitter != 100*time.Microsecond || !o.exitWithParent {
		t.Fatalf("parsed %+v", o)
	}
}

func TestParseOptionsRejectsStrayArgumentsAndBadQueues(t *testing.T) {
	for _, args := range [][]string{{"extra"}, {"--queue", "70000"}, {"--delay", "soon"}} {
		if _, err := parseOptions(args); err == nil {
			t.Fatalf("%v accepted", args)
		}
	}
}

package access

import (
	"strings"
	"testing"
)

func env(values map[string]string) func(string) string {
	return func(k string) string { return values[k] }
}

func TestLoopbackWithoutTokenIsOpen(t *testing.T) {
	for _, host := range []string{"127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"} {
		a, err := Load(host, env(nil))
		if err != nil || a.Token != "" || !a.Allows("/bench/run", "") {
			t.Errorf("%s: %+v %v", host, a, err)
		}
	}
}

func TestElsewhereWithoutTokenRefusesToStart(t *testing.T) {
	for _, host := range []string{"0.0.0.0", "::", "10.0.0.5"} {
		_, err := Load(host, env(nil))
		if err == nil || !strings.Contains(err.Error(), "set BENCH_TOKEN") {
			t.Errorf("%s: %v", host, err)
		}
	}
}

func TestShortTokenIsRefused(t *testing.T) {
	_, err := Load("127.0.0.1", env(map[string]string{TokenEnv: "short"}))
	if err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Fatal(err)
	}
}

func TestTokenIsRequiredExceptOnHealth(t *testing.T) {
	token := strings.Repeat("ab", 16)
	a, err := Load("0.0.0.0", env(map[string]string{TokenEnv: token}))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path, header string
		want         bool
	}{
		{"/bench/run", "", false},
		{"/bench/path", "Bearer wrong-token-wrong-token", false},
		{"/bench/info", token, false},
		{"/bench/run", "Bearer " + token, true},
		{"/client/call-a/1", "bearer " + token, true},
		{"/health", "", true},
		{"/health/ready", "", true},
	}
	for _, c := range cases {
		if got := a.Allows(c.path, c.header); got != c.want {
			t.Errorf("%s with %q: %v, want %v", c.path, c.header, got, c.want)
		}
	}
}

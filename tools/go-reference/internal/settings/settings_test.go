package settings

import (
	"goreference/internal/security"
	"reflect"
	"strings"
	"testing"
)

func env(values map[string]string) func(string) string {
	return func(name string) string { return values[name] }
}

func TestDefaults(t *testing.T) {
	s, err := Load(env(nil))
	if err != nil || !reflect.DeepEqual(s, Defaults) {
		t.Fatalf("Load() = %+v, %v", s, err)
	}
	s, err = Load(env(map[string]string{"CLIENT_PORT": "  ", "HOST": ""}))
	if err != nil || !reflect.DeepEqual(s, Defaults) {
		t.Fatalf("blank values should mean defaults: %+v, %v", s, err)
	}
}

func TestReadsEveryVariable(t *testing.T) {
	s, err := Load(env(map[string]string{
		"HOST": "0.0.0.0", "CLIENT_PORT": "4000", "SERVER_A_PORT": "4001", "SERVER_B_PORT": " 4002 ",
		"SERVER_A_URL": "http://localhost:4001/", "SERVER_B_URL": "[::1]:4002", "MAX_ROWS": "50", "MAX_PARALLEL": "7",
		"HANDSHAKE_TIMEOUT_MS": "500",
	}))
	want := Settings{Host: "0.0.0.0", ClientPort: 4000, ServerAPort: 4001, ServerBPort: 4002,
		ServerAURL: "http://localhost:4001", ServerBURL: "[::1]:4002", MaxRows: 50, MaxParallel: 7, HandshakeTimeoutMs: 500, Security: security.Plain}
	if err != nil || !reflect.DeepEqual(s, want) {
		t.Fatalf("Load() = %+v, %v; want %+v", s, err, want)
	}
}

func TestRefusesBadValuesNamingTheVariable(t *testing.T) {
	cases := map[string]string{
		"CLIENT_PORT":          "abc",
		"SERVER_A_PORT":        "70000",
		"SERVER_B_PORT":        "0",
		"MAX_ROWS":             "1e3",
		"MAX_PARALLEL":         "-1",
		"HANDSHAKE_TIMEOUT_MS": "50",
		"SERVER_A_URL":         "127.0.0.1:3001",
		"SERVER_B_URL":         "http://127.0.0.1:3002",
	}
	for name, value := range cases {
		_, err := Load(env(map[string]string{name: value}))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: error %v does not name the variable", name, value, err)
		}
	}
}

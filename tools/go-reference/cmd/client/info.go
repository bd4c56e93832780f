package main

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	"goreference/internal/security"
	"goreference/internal/settings"
)

// keyPackages are the modules whose versions decide what is measured; recorded in /bench/info.
var keyPackages = []string{"google.golang.org/grpc", "google.golang.org/protobuf"}

// benchInfo is GET /bench/info: the runtimeInfo() shape, with Go in the "node" slot (so every
// reader of the client's runtime finds one) and under its own name, so provenance says Go, not Node.
type benchInfo struct {
	Node             string             `json:"node"`
	Go               string             `json:"go"`
	V8               string             `json:"v8"`
	Platform         string             `json:"platform"`
	Arch             string             `json:"arch"`
	CPUModel         string             `json:"cpuModel"`
	CPUCount         int                `json:"cpuCount"`
	TotalMemoryBytes uint64             `json:"totalMemoryBytes"`
	Packages         map[string]*string `json:"packages"`
	PID              int                `json:"pid"`
	Settings         settings.Settings  `json:"settings"`
	Framework        string             `json:"framework"`
	// Variant is the bench variant this client is (the bench keys results by what the client says).
	Variant string `json:"variant"`
}

func runtimeInfo(s settings.Settings) benchInfo {
	model, count := cpuInfo()
	var sys syscall.Sysinfo_t
	var total uint64
	if syscall.Sysinfo(&sys) == nil {
		total = uint64(sys.Totalram) * uint64(sys.Unit)
	}
	return benchInfo{
		Node:             runtime.Version(),
		Go:               runtime.Version(),
		V8:               "",
		Platform:         nodePlatform(runtime.GOOS),
		Arch:             nodeArch(runtime.GOARCH),
		CPUModel:         model,
		CPUCount:         count,
		TotalMemoryBytes: total,
		Packages:         packageVersions(),
		PID:              os.Getpid(),
		Settings:         s,
		Framework:        "go",
		Variant:          variantName(s.Security),
	}
}

// variantName is the bench variant this client is: go, or go-session-reuse with TLS_SESSION_REUSE=on.
func variantName(s security.Security) string {
	if s.SessionReuse {
		return "go-session-reuse"
	}
	return "go"
}

// cpuInfo reads the first CPU's model and the number of CPUs from /proc/cpuinfo (like os.cpus(),
// which counts every CPU even when this process is pinned to some of them).
func cpuInfo() (string, int) {
	model, count := "", 0
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		scanner := bufio.NewScanner(f)
		for scanner.Scan() {
			key, value, ok := strings.Cut(scanner.Text(), ":")
			if !ok {
				continue
			}
			switch strings.TrimSpace(key) {
			case "processor":
				count++
			case "model name":
				if model == "" {
					model = strings.TrimSpace(value)
				}
			}
		}
	}
	if count == 0 {
		count = runtime.NumCPU()
	}
	if model == "" {
		model = "unknown"
	}
	return model, count
}

func packageVersions() map[string]*string {
	out := map[string]*string{}
	for _, name := range keyPackages {
		out[name] = nil
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if _, wanted := out[dep.Path]; !wanted {
				continue
			}
			version := dep.Version
			if dep.Replace != nil && dep.Replace.Version != "" {
				version = dep.Replace.Version
			}
			version = strings.TrimPrefix(version, "v") // "1.85.0", as package.json versions read
			out[dep.Path] = &version
		}
	}
	return out
}

func nodePlatform(goos string) string {
	if goos == "windows" {
		return "win32"
	}
	return goos
}

func nodeArch(goarch string) string {
	switch goarch {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	case "ppc64le":
		return "ppc64"
	}
	return goarch
}

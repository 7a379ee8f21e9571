package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// machine is what a reader needs to compare a table with their own.
type machine struct {
	Date      string `json:"date"`
	OS        string `json:"os"`
	Kernel    string `json:"kernel"`
	CPUs      int    `json:"cpus"`
	CPUModel  string `json:"cpu_model"`
	GoVersion string `json:"go_version"`
	Polyproxy string `json:"polyproxy"`
	PolyGlot  string `json:"polyglot"`
	Engine    string `json:"engine"`
	Book      string `json:"book"`
	Command   string `json:"command"`
	Duration  string `json:"duration"`
}

func describeMachine(r *runner) machine {
	m := machine{
		Date:      time.Now().UTC().Format("2006-01-02 15:04 MST"),
		OS:        runtime.GOOS + "/" + runtime.GOARCH,
		Kernel:    "unknown",
		CPUs:      runtime.NumCPU(),
		CPUModel:  cpuModel(),
		GoVersion: runtime.Version(),
		Polyproxy: "not available",
		PolyGlot:  "not available",
		Engine:    "not available",
		Book:      r.cfg.book,
		Command:   "go run ./bench " + strings.Join(os.Args[1:], " "),
	}
	m.Command = strings.TrimSpace(m.Command)
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	} else if out, err := exec.Command("uname", "-r").Output(); err == nil {
		m.Kernel = strings.TrimSpace(string(out))
	}
	switch {
	case r.ppErr != "":
	case r.cfg.polyproxy != "":
		m.Polyproxy = r.ppBin + " (given with -polyproxy)"
	default:
		m.Polyproxy = "commit " + gitDescribe() + ", " + releaseBuild.summary
	}
	if r.pgErr == "" {
		m.PolyGlot = firstLineOf(r.pgBin, nil) + " (" + r.pgBin + ")"
	}
	if r.engineErr == "" {
		m.Engine = engineName(r.engine) + " (" + r.engine[0] + ")"
	}
	if fi, err := os.Stat(r.cfg.book); err == nil {
		m.Book = filepath.Base(r.cfg.book) + " (" + commaInt(fi.Size()/16) + " entries)"
	}
	return m
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "CPU model unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "CPU model unknown"
}

func gitDescribe() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	// Only changes that reach the binary count (not, say, the README
	// this table is being written into).
	if st, err := exec.Command("git", "status", "--porcelain").Output(); err == nil {
		for _, l := range strings.Split(string(st), "\n") {
			if strings.HasSuffix(l, ".go") || strings.HasSuffix(l, "go.mod") || strings.HasSuffix(l, "go.sum") {
				return c + " with uncommitted changes to Go files"
			}
		}
	}
	return c
}

// firstLineOf runs a program with input and returns its first output line
// (PolyGlot prints its name and version first), waiting at most a second.
func firstLineOf(bin string, input []string) string {
	p, err := startProc(filepath.Base(bin), []string{bin}, "")
	if err != nil {
		return "unknown version"
	}
	defer p.kill()
	p.send(input...)
	l, err := p.readLine(time.Now().Add(time.Second))
	if err != nil {
		return "unknown version"
	}
	return strings.TrimSpace(l)
}

// engineName asks an engine for its id name.
func engineName(argv []string) string {
	p, err := startProc("engine", argv, "")
	if err != nil {
		return "unknown"
	}
	defer p.kill()
	if p.send("uci") != nil {
		return "unknown"
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		l, err := p.readLine(deadline)
		if err != nil || l == "uciok" {
			return "unknown"
		}
		if name, ok := strings.CutPrefix(l, "id name "); ok {
			return strings.TrimSpace(name)
		}
	}
}

func commaInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	var out []byte
	for i := range len(s) {
		if i > 0 && s[i-1] != '-' && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

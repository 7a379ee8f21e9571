package logfile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/version"
	"github.com/polyproxy/polyproxy/proxy/logfile"
)

// The log is off unless Log is set; on, it appends to LogFile, starts
// with the version, and writes one line per event, PolyGlot's way:
// "15:04:05.000 message", protocol lines with their direction.
func TestLogFile(t *testing.T) {
	cfg := config.Default(t.TempDir())
	cfg.LogFile = filepath.Join(t.TempDir(), "polyproxy.log")
	off, err := logfile.Open(cfg)
	if err != nil || off.On() || off.File() != nil {
		t.Fatalf("Log off: on %v, file %v, err %v", off.On(), off.File(), err)
	}
	off.Printf("nothing %d", 1) // no log: nothing written, nothing breaks
	if _, err := os.Stat(cfg.LogFile); !os.IsNotExist(err) {
		t.Fatalf("a log file with Log off: %v", err)
	}
	cfg.Log = true
	for run := range 2 {
		l, err := logfile.Open(cfg)
		if err != nil || !l.On() || l.File() == nil {
			t.Fatalf("Log on: on %v, file %v, err %v", l.On(), l.File(), err)
		}
		l.Printf("run %d", run)
		l.Traffic(">engine", "isready")
		l.Close()
		if l.On() {
			t.Fatal("still on once closed")
		}
	}
	data, err := os.ReadFile(cfg.LogFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	want := []string{version.Get().String() + ": log started ", "run 0", ">engine isready", version.Get().String() + ": log started ", "run 1", ">engine isready"}
	if len(lines) != len(want) {
		t.Fatalf("log %q, want %d lines (appended run after run)", lines, len(want))
	}
	for i, l := range lines {
		if _, err := time.Parse("15:04:05.000", l[:12]); err != nil || l[12] != ' ' || !strings.HasPrefix(l[13:], want[i]) {
			t.Errorf("line %d: %q, want a time stamp and %q", i, l, want[i])
		}
	}
	cfg.LogFile = filepath.Join(t.TempDir(), "no", "such", "dir", "x.log")
	if _, err := logfile.Open(cfg); err == nil {
		t.Error("a log file that cannot be opened: no error")
	}
}

// A log given by the caller is on at its info level, and stays the
// caller's to close.
func TestWith(t *testing.T) {
	if l := logfile.With(nil); l.On() {
		t.Error("no logger: on")
	}
	quiet := logrus.New()
	quiet.SetLevel(logrus.WarnLevel)
	if l := logfile.With(quiet); l.On() {
		t.Error("a logger above info: on")
	}
	var buf bytes.Buffer
	lr := logrus.New()
	lr.SetOutput(&buf)
	l := logfile.With(lr)
	l.Printf("said %s", "this")
	if !l.On() || !strings.Contains(buf.String(), "said this") {
		t.Errorf("on %v, wrote %q", l.On(), buf.String())
	}
	l.Close() // not its to close: only off
	lr.Info("still writes")
	if !strings.Contains(buf.String(), "still writes") {
		t.Error("Close closed the caller's logger")
	}
}

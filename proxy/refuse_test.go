package proxy_test

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/proxy"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// A GUI is refused in the protocol of its first line that says anything,
// as the chooser reads it: UCI gets an id, the notices and why as info
// strings, and no uciok; CECP gets the notices as comments and why as
// tellusererror, with no feature done=1 before it (XBoard unloads an
// engine that ends before it is done loading, and shows the error it
// told). An input that ends first gets nothing.
func TestRefuse(t *testing.T) {
	notices := []string{"warning: a.ini:3: BookFlie: unknown key, ignored; did you mean BookFile?"}
	why := "a.ini:2: no EngineCommand"
	for _, tc := range []struct {
		input string
		want  []string
	}{
		{"\n  \nuci\n", []string{"id name polyproxy", "info string " + notices[0], "info string error: " + why}},
		{"isready\n", []string{"id name polyproxy", "info string " + notices[0], "info string error: " + why}},
		{"xboard\nprotover 2\n", []string{"# " + notices[0], "tellusererror polyproxy: " + why}},
		{" protover 2\n", []string{"# " + notices[0], "tellusererror polyproxy: " + why}},
		{"", nil},
		{"\n\n", nil},
	} {
		var out strings.Builder
		if err := proxy.Refuse(strings.NewReader(tc.input), &out, notices, why, time.Minute); err != nil {
			t.Fatal(err)
		}
		if got := lines(out.String()); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q\nwant %q", tc.input, got, tc.want)
		}
	}
}

// No wait (stdin is a terminal), or no input: nothing is read or told.
func TestRefuseWithoutWait(t *testing.T) {
	var out strings.Builder
	r := strings.NewReader("uci\n")
	proxy.Refuse(r, &out, nil, "why", 0)
	proxy.Refuse(nil, &out, nil, "why", time.Minute)
	if out.Len() != 0 || r.Len() == 0 {
		t.Errorf("told %q, read %d bytes", out.String(), 4-r.Len())
	}
}

// A GUI that never speaks is given up on after the wait.
func TestRefuseSilentGUI(t *testing.T) {
	silent, w := io.Pipe()
	defer w.Close()
	var out strings.Builder
	proxy.Refuse(silent, &out, nil, "why", time.Millisecond)
	if out.Len() != 0 {
		t.Errorf("told %q", out.String())
	}
}

// An engine that cannot be started ends the run before the GUI has
// spoken: Run's error says what the GUI is to be told (Refuse), with the
// notices held for it.
func TestRunNotTold(t *testing.T) {
	cfg := proxytest.Config(t, "")
	cfg.Warnings = []string{"a.ini:3: BookFlie: unknown key, ignored; did you mean BookFile?"}
	var stderr strings.Builder
	opts := core.Options{Stderr: &stderr, StartEngine: func() (core.Engine, error) { return nil, errors.New("no such file") }}
	var out strings.Builder
	err := proxy.Run(cfg, opts, strings.NewReader("uci\n"), &out)
	var nt *proxy.NotTold
	if !errors.As(err, &nt) || !slices.Equal(nt.Notices, []string{"warning: " + cfg.Warnings[0]}) ||
		nt.Why != "cannot start the engine: no such file; check EngineCommand" || out.Len() != 0 {
		t.Fatalf("err %v (%#v), stdout %q", err, nt, out.String())
	}
}

// An engine that ends in its handshake, after the GUI's first line,
// is told by the front chosen: a UCI GUI's uci gets an id, the notices
// it had not heard, and why; a CECP GUI the error it pops up.
func TestFatalInHandshakeTold(t *testing.T) {
	for first, want := range map[string][]string{
		"uci":    {"id name polyproxy", "info string warning: w", "info string error: the engine"},
		"xboard": {"# warning: w", "tellusererror polyproxy: the engine"},
	} {
		cfg := proxytest.Config(t, "")
		cfg.Warnings = []string{"w"}
		// A mute engine never finishes its handshake (and is not said to
		// be slow at it before it ends).
		h := proxytest.Start(t, cfg, proxy.NewFront, func(_ int, s *ucitest.Settings) { s.Mute = true }, nil,
			func(o *core.Options) { o.SlowHandshake = time.Hour })
		h.Send(first)
		h.Do(func() {}) // the first line is read
		h.Engine(0).Kill()
		var got []string
		for l := range h.Out {
			got = append(got, l)
		}
		if err := <-h.Done; !errors.Is(err, core.ErrEngineDied) {
			t.Errorf("%s: %v", first, err)
		}
		h.Done <- nil
		if len(got) != len(want) {
			t.Errorf("%s: got %q", first, got)
			continue
		}
		for i := range want {
			if !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("%s: got %q, want %q", first, got, want)
			}
		}
	}
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

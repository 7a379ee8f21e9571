package core_test

// The option table (config) says what a change of each of our options
// makes anew; the test walks the table. (The views of the options, through
// each front, are the proxy's tests.)

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

func TestOptionTableMakesAnew(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.Log, cfg.LogFile = true, filepath.Join(t.TempDir(), "polyproxy.log")
	rec := &recorder{}
	h := start(t, cfg, nil, rec)
	h.Handshake()
	for _, s := range config.Settings() {
		if !s.Offered(config.UCI) && !s.Offered(config.CECP) {
			continue
		}
		var was string
		h.Do(func() { was = s.Value(h.Core.Settings()) })
		checkSet(t, h, rec, s, proxytest.SampleValue(t, s, was))
		set(h, s, was) // back, so the next effects show (books and log on)
	}
}

// checkSet sets s to value, then checks the setting took it and what the
// table says the change invalidates was made anew, and nothing else.
func checkSet(t *testing.T, h *proxytest.Harness, rec *recorder, s config.Setting, value string) {
	t.Helper()
	learning := learned(rec)
	var chooser, log any
	var books []uintptr
	h.Do(func() { chooser, books, log = h.Core.Made() })
	set(h, s, value)
	var got string
	h.Do(func() { got = s.Value(h.Core.Settings()) })
	if got != value {
		t.Errorf("%s: set to %q, the setting is %q", s.Name, value, got)
	}
	var chooser2, log2 any
	var books2 []uintptr
	h.Do(func() { chooser2, books2, log2 = h.Core.Made() })
	made := map[config.Invalidates]bool{
		config.RebuildChooser: chooser2 != chooser,
		config.ReopenBooks:    !slices.Equal(books2, books),
		config.ResendLearning: learned(rec) > learning,
		config.ReopenLog:      log2 != log,
	}
	for bit, anew := range made {
		if want := s.Invalidates&bit != 0; anew != want {
			t.Errorf("%s: %s made anew %v, the table says %v", s.Name, bit, anew, want)
		}
	}
}

// set sets s to value, and waits until it is handled.
func set(h *proxytest.Harness, s config.Setting, value string) {
	h.Send("setoption name "+config.OptionPrefix+s.Name+" value "+value, "isready")
	h.Until("readyok")
}

// learned is how many times learning was given its settings, once the
// calls made beside the loop have settled (none for 30 ms).
func learned(rec *recorder) int {
	n := len(rec.gotSettings())
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		time.Sleep(30 * time.Millisecond)
		m := len(rec.gotSettings())
		if m == n {
			break
		}
		n = m
	}
	return n
}

package ucifront_test

// Our options as a UCI GUI is shown them: announced with the settings as
// their defaults, each once, and taken back through setoption.

import (
	"strconv"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci"
)

// Our options as the GUI sees them, and "<empty>", UCI's empty string,
// echoed back by a GUI.
func TestOurOptions(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.LogFile = ""
	h := start(t, cfg, nil, nil)
	lines := h.Handshake()
	for _, name := range []string{"Book", "BookFile", "BookDepth", "BookTreshold", "BookRandom", "BookMode",
		"BookAvoidRepetition", "BookLearn", "BookLearnWeight", "BookSeed", "LearnResignScore", "LearnResignMoves", "Log", "LogFile"} {
		if !proxytest.HasPrefix(lines, "option name Polyglot "+name+" type ") {
			t.Errorf("option Polyglot %s not announced", name)
		}
	}
	if !proxytest.Contains(lines, "option name Polyglot LogFile type string default <empty>") {
		t.Errorf("empty LogFile not announced as <empty>: %q", lines)
	}
	h.Send("setoption name Polyglot BookFile value <empty>", "isready")
	if got := h.Until("readyok"); len(got) != 1 {
		t.Fatalf("an empty book list is no error: %q", got)
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove a7a6" {
		t.Fatalf("book still on: %q", l)
	}
}

// The policies' options, announced with the configured values as defaults.
func TestPolicyOptionsAnnounced(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.BookFilesBlack = []string{"/b/one.bin", "/b/two.bin"}
	cfg.BookWidth = 3
	h := start(t, cfg, nil, nil)
	lines := h.Handshake()
	for _, want := range []string{
		"option name Polyglot BookFileWhite type string default <empty>",
		"option name Polyglot BookFileBlack type string default /b/one.bin;/b/two.bin",
		"option name Polyglot BookWidth type spin default 3 min 0 max 1000",
		"option name Polyglot BookMaxMoves type spin default 0 min 0 max 10000",
		"option name Polyglot BookMinWeight type spin default 0 min 0 max 1073741824",
		"option name Polyglot BookMinLine type spin default 0 min 0 max 100",
	} {
		if !proxytest.Contains(lines, want) {
			t.Errorf("not announced: %q", want)
		}
	}
	// Each option once: a GUI shows a second one as another setting.
	seen := map[string]bool{}
	for _, l := range lines {
		if o, err := uci.ParseOption(l); err == nil {
			if seen[o.Name] {
				t.Errorf("option %q announced twice", o.Name)
			}
			seen[o.Name] = true
		}
	}
}

// FuzzOurNumericOptions sets one of polyproxy's numeric options through
// setoption to any value: it is either taken, and announced back as the
// value (a second uci lists our options with the current settings as
// defaults), or refused with one info string naming it and left as it
// was; every announced spin default stays within its announced range.
func FuzzOurNumericOptions(f *testing.F) {
	names := []string{"BookDepth", "BookTreshold", "BookWidth", "BookMaxMoves", "BookMinWeight", "BookMinLine",
		"LearnResignScore", "LearnResignMoves", "BookSeed"}
	for i, v := range []string{"-3", "99999999999", "1e3", "nan", "+5", " 7 ", "0x10", "", "<empty>", "18446744073709551616", "1000", "0", "-0", "\"12\""} {
		f.Add(uint8(i), v)
	}
	f.Fuzz(func(t *testing.T, which uint8, value string) {
		if strings.ContainsAny(value, "\r\n\x00") {
			t.Skip("one line")
		}
		name := names[int(which)%len(names)]
		h := start(t, proxytest.Config(t, ""), nil, nil)
		announced := func(lines []string) map[string][3]string { // name: default, min, max
			out := map[string][3]string{}
			for _, l := range lines {
				o, err := uci.ParseOption(l)
				if err != nil || !strings.HasPrefix(o.Name, config.OptionPrefix) {
					continue
				}
				out[strings.TrimPrefix(o.Name, config.OptionPrefix)] = [3]string{o.Default, o.Min, o.Max}
			}
			return out
		}
		before := announced(h.Handshake())
		h.Send("setoption name Polyglot "+name+" value "+value, "uci")
		lines := h.Until("uciok")
		var said []string
		for _, l := range lines {
			if strings.HasPrefix(l, "info string") {
				said = append(said, l)
			}
		}
		after := announced(lines)
		switch {
		case len(said) == 0:
			// Taken: announced back as the value.
			if v, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64); err == nil && after[name][0] != strconv.FormatInt(v, 10) {
				t.Errorf("%s = %q taken, announced as %q", name, value, after[name][0])
			}
		case len(said) == 1 && strings.HasPrefix(said[0], "info string setoption Polyglot "+name+": "):
			if after[name] != before[name] {
				t.Errorf("%s = %q refused but changed: %q -> %q", name, value, before[name], after[name])
			}
		default:
			t.Errorf("%s = %q: %q", name, value, said)
		}
		for n, o := range after {
			if o[1] == "" {
				continue // not a spin
			}
			d, _ := strconv.ParseInt(o[0], 10, 64)
			lo, _ := strconv.ParseInt(o[1], 10, 64)
			hi, _ := strconv.ParseInt(o[2], 10, 64)
			if d < lo || d > hi {
				t.Errorf("after %s = %q: %s announced as %s, outside %s..%s", name, value, n, o[0], o[1], o[2])
			}
		}
	})
}

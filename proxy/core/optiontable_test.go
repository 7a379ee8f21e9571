package core_test

// The option table (config) drives every view of our options in a running
// proxy: the UCI option lines, the CECP features, setoption through each
// front, and what a change makes anew. The test walks the table.

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/uci"
)

// tableSample is a value setting s may take other than cur; ok false when
// the test has none for it (a new String setting: add one here).
func tableSample(t *testing.T, s config.Setting, cur string) string {
	switch s.Kind {
	case config.Check:
		return strconv.FormatBool(cur != "true")
	case config.Spin:
		if cur != strconv.Itoa(s.Min) {
			return strconv.Itoa(s.Min)
		}
		return strconv.Itoa(s.Max)
	case config.Combo:
		for _, v := range s.Vars {
			if v != cur {
				return v
			}
		}
	case config.String:
		switch s.Name {
		case "BookFile", "BookFileWhite", "BookFileBlack":
			return writeBook(t, []bookEntry{{"", "d2d4", 1}})
		case "BookSeed":
			return "7"
		case "LogFile":
			return filepath.Join(t.TempDir(), "other.log")
		case "BookLearnPGN":
			return filepath.Join(t.TempDir(), "games.pgn")
		}
	}
	t.Fatalf("no sample value for %s: add one to tableSample", s.Name)
	return ""
}

func TestOptionTableViews(t *testing.T) {
	for _, front := range []config.Front{config.UCI, config.CECP} {
		cfg := testConfig(t, smallBook(t))
		cfg.Log, cfg.LogFile = true, filepath.Join(t.TempDir(), "polyproxy.log")
		rec := &recorder{}
		var h *harness
		var announced []string
		if front == config.UCI {
			h = startHarness(t, cfg, nil, rec)
			announced = h.Handshake()
		} else {
			h, announced = startXboard(t, cfg, rec)
		}
		for _, s := range config.Settings() {
			checkAnnounced(t, front, s, s.Value(cfg), announced)
			if !s.Offered(front) {
				continue
			}
			var was string
			h.Do(func() { was = h.Core.Setting(s) })
			checkSet(t, h, rec, front, s, tableSample(t, s, was))
			set(h, front, s, was) // back, so the next effects show (books and log on)
		}
	}
}

// checkAnnounced checks the option s, worth value, is offered to front as
// the table says: its name, kind, default and range, or not at all.
func checkAnnounced(t *testing.T, front config.Front, s config.Setting, value string, announced []string) {
	t.Helper()
	name := config.OptionPrefix + s.Name
	var line string
	for _, l := range announced {
		if strings.HasPrefix(l, "option name "+name+" type ") || strings.HasPrefix(l, `feature option="`+name+" -") {
			line = l
		}
	}
	switch {
	case !s.Offered(front) && line != "":
		t.Errorf("%s offers %s, which the table does not give it: %q", frontName(front), name, line)
	case !s.Offered(front):
	case line == "":
		t.Errorf("%s does not offer %s", frontName(front), name)
	case front == config.UCI:
		o, err := uci.ParseOption(line)
		def := value
		if def == "" {
			def = "<empty>"
		}
		if err != nil || o.Type != s.Kind.String() || o.Default != def ||
			s.Kind == config.Spin && (o.Min != strconv.Itoa(s.Min) || o.Max < strconv.Itoa(s.Min)) ||
			s.Kind == config.Combo && !slices.Equal(o.Vars, s.Vars) {
			t.Errorf("UCI offers %q for %s (%s, default %q)", line, s.Name, s.Kind, value)
		}
	default:
		kind := map[config.Kind]string{config.Check: "-check", config.Spin: "-spin", config.Combo: "-combo", config.String: "-"}[s.Kind]
		if !strings.Contains(line, " "+kind) {
			t.Errorf("CECP offers %q for %s (%s)", line, s.Name, s.Kind)
		}
	}
}

// checkSet sets s to value through front's own command, then checks the
// setting took it and what the table says the change invalidates was made
// anew, and nothing else.
func checkSet(t *testing.T, h *harness, rec *recorder, front config.Front, s config.Setting, value string) {
	t.Helper()
	learning := learned(rec)
	var chooser, log any
	var books []uintptr
	h.Do(func() { chooser, books, log = h.Core.Made() })
	set(h, front, s, value)
	var got string
	h.Do(func() { got = h.Core.Setting(s) })
	if got != value {
		t.Errorf("%s: set to %q through %s, the setting is %q", s.Name, value, frontName(front), got)
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
			t.Errorf("%s through %s: %s made anew %v, the table says %v", s.Name, frontName(front), bit, anew, want)
		}
	}
}

// set sets s to value through front's own command, and waits until it is
// handled.
func set(h *harness, front config.Front, s config.Setting, value string) {
	if front == config.UCI {
		h.Send("setoption name "+config.OptionPrefix+s.Name+" value "+value, "isready")
		h.Until("readyok")
		return
	}
	h.Send("option "+config.OptionPrefix+s.Name+"="+value, "ping 1")
	h.WaitFor("pong 1")
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

func frontName(f config.Front) string {
	return map[config.Front]string{config.UCI: "UCI", config.CECP: "CECP"}[f]
}

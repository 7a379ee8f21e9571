package proxy_test

// The option table (config) drives every view of our options in a running
// proxy: the UCI option lines, the CECP features and setoption through
// each front. The test walks the table. (What a change makes anew is the
// core's test.)

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci"
)

func TestOptionTableViews(t *testing.T) {
	for _, front := range []config.Front{config.UCI, config.CECP} {
		cfg := proxytest.Config(t, proxytest.SmallBook(t))
		h := proxytest.Start(t, cfg, proxy.NewFront, proxytest.LegalEngine(-35), nil)
		var announced []string
		if front == config.UCI {
			announced = h.Handshake()
		} else {
			h.Send("xboard", "protover 2")
			announced = h.Until("feature done=1")
		}
		for _, s := range config.Settings() {
			checkAnnounced(t, front, s, s.Value(cfg), announced)
			if !s.Offered(front) {
				continue
			}
			was := setting(h, s)
			value := proxytest.SampleValue(t, s, was)
			set(h, front, s, value)
			if got := setting(h, s); got != value {
				t.Errorf("%s: set to %q through %s, the setting is %q", s.Name, value, frontName(front), got)
			}
			set(h, front, s, was)
		}
	}
}

// setting is the value of setting s in the proxy, read on its loop.
func setting(h *proxytest.Harness, s config.Setting) (v string) {
	h.Do(func() { v = s.Value(h.Core.Settings()) })
	return v
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

// set sets s to value through front's own command, and waits until it is
// handled.
func set(h *proxytest.Harness, front config.Front, s config.Setting, value string) {
	if front == config.UCI {
		h.Send("setoption name "+config.OptionPrefix+s.Name+" value "+value, "isready")
		h.Until("readyok")
		return
	}
	h.Send("option "+config.OptionPrefix+s.Name+"="+value, "ping 1")
	h.WaitFor("pong 1")
}

func frontName(f config.Front) string {
	return map[config.Front]string{config.UCI: "UCI", config.CECP: "CECP"}[f]
}

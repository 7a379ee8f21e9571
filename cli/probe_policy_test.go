package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// probePolicy is the part of probe -json that shows the book policies.
type probePolicy struct {
	Side           string   `json:"side"`
	Books          []string `json:"books"`
	Book           string   `json:"book"`
	PositionWeight uint64   `json:"position_weight"`
	Rules          []struct {
		Rule     string   `json:"rule"`
		Value    int      `json:"value"`
		Eligible []string `json:"eligible"`
	} `json:"rules"`
	Entries []struct {
		Move      string  `json:"move"`
		Eligible  bool    `json:"eligible"`
		Out       string  `json:"out"`
		Effective *uint64 `json:"effective_weight"`
	} `json:"entries"`
}

func probePolicies(t *testing.T, args ...string) probePolicy {
	t.Helper()
	code, out, errOut := runCmd(t, append([]string{"probe", "-json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var res probePolicy
	decodeOne(t, out, &res)
	return res
}

// What each rule leaves eligible, in order, on the gnuchess book's start:
// threshold (13 entries, 5 above 5 per mille), width, min weight.
func TestProbeRules(t *testing.T) {
	bk := testenv.GnuchessBook(t)
	res := probePolicies(t, "-book", bk, "-width", "3", "-min-weight", "100")
	got := map[string]string{}
	var order []string
	for _, r := range res.Rules {
		got[r.Rule] = strings.Join(r.Eligible, " ")
		order = append(order, r.Rule)
	}
	if !slices.Equal(order, []string{"threshold", "width", "min_weight", "depth", "max_moves", "min_line"}) {
		t.Fatalf("rules %v", order)
	}
	if got["threshold"] != "e2e4 d2d4 g1f3 c2c4 g2g3" || got["width"] != "e2e4 d2d4 g1f3" || got["min_weight"] != "e2e4 d2d4 g1f3" {
		t.Errorf("eligible %v", got)
	}
	if res.PositionWeight != 12135+11257+3745+3294+243 || res.Side != "white" || res.Book != bk {
		t.Errorf("%+v", res)
	}
	outs := map[string]string{}
	for _, e := range res.Entries {
		outs[e.Move] = e.Out
		if e.Effective != nil {
			t.Errorf("effective weight without -learn-weight")
		}
	}
	if outs["e2e4"] != "" || outs["c2c4"] != "width" || outs["b2b3"] != "threshold" {
		t.Errorf("out %v", outs)
	}
	// A thin position: min weight leaves nothing.
	res = probePolicies(t, "-book", bk, "-min-weight", "40000")
	if n := len(res.Rules[2].Eligible); n != 0 || res.Entries[0].Out != "min_weight" {
		t.Errorf("min weight 40000: %+v", res)
	}
	// Off, width and min weight change nothing.
	res = probePolicies(t, "-book", bk)
	if strings.Join(res.Rules[1].Eligible, " ") != got["threshold"] || strings.Join(res.Rules[2].Eligible, " ") != got["threshold"] {
		t.Errorf("off: %+v", res.Rules)
	}
	// Learned weights decide the width: the effective weights are shown.
	res = probePolicies(t, "-book", "testdata/book/oddities.bin", "-width", "1", "-learn-weight")
	if res.Entries[0].Effective == nil || strings.Join(res.Rules[1].Eligible, " ") != "g1f3" {
		t.Errorf("learn weight: %+v", res)
	}
}

// With books per side, the side to move picks the list; the first book of
// it with an eligible move is the one shown.
func TestProbePerSide(t *testing.T) {
	empty := fixture.WriteEntries(t, nil)
	black := fixture.WriteEntries(t, []book.Entry{{Key: fixture.Line(t, "", "e2e4").Pos.Key(), Move: mustMove(t, "c7c5"), Weight: 3}})
	odd := "testdata/book/oddities.bin"
	res := probePolicies(t, "-book", odd, "-book-black", empty+";"+black, "-moves", "e2e4")
	if res.Side != "black" || res.Book != black || !slices.Equal(res.Books, []string{empty, black}) || len(res.Entries) != 1 || res.Entries[0].Move != "c7c5" {
		t.Errorf("black: %+v", res)
	}
	res = probePolicies(t, "-book", empty+";"+odd, "-book-black", black)
	if res.Side != "white" || res.Book != odd || len(res.Entries) != 4 {
		t.Errorf("white: %+v", res)
	}
	code, out, _ := runCmd(t, "probe", "-book", odd, "-book-white", black)
	if code != 0 || !strings.Contains(out, "not in book") {
		t.Errorf("white book without the start: exit %d %q", code, out)
	}
	code, out, _ = runCmd(t, "probe", "-book", testenv.GnuchessBook(t), "-width", "2", "-min-weight", "100")
	for _, want := range []string{"eligible after threshold 5 per mille: e2e4 d2d4 g1f3 c2c4 g2g3", "eligible after width 2: e2e4 d2d4",
		"eligible after min weight 100 (position weight 30674): e2e4 d2d4"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
}

func mustMove(t *testing.T, s string) board.Move {
	t.Helper()
	m, err := board.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

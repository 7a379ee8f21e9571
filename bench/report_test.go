package main

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReplaceBetweenMarkers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	before := "# title\n\n## Benchmarks\n\n" + beginMarker + "\nold table\n" + endMarker + "\n\n## After\nkept\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := replaceBetweenMarkers(path, "| new | table |\n"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "# title\n\n## Benchmarks\n\n" + beginMarker + "\n| new | table |\n" + endMarker + "\n\n## After\nkept\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestReplaceBetweenMarkersNeedsBoth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	text := "no markers here, " + endMarker + " then " + beginMarker + "\n"
	os.WriteFile(path, []byte(text), 0o644)
	if err := replaceBetweenMarkers(path, "x"); err == nil {
		t.Error("markers out of order: want an error")
	}
	if got, _ := os.ReadFile(path); string(got) != text {
		t.Errorf("file changed on error: %q", got)
	}
}

func TestResultRatioAndFormat(t *testing.T) {
	res := &result{Kind: kindRate, Item: "lines",
		Polyproxy: &side{Label: "polyproxy", Samples: []float64{1e-6, 1e-6, 1e-6}}, // 1 M lines/s
		PolyGlot:  &side{Label: "PolyGlot", Samples: []float64{4e-6}},              // 250 k lines/s
		Reference: &side{Label: "cat", Error: "cat not found"}}
	res.finish()
	if res.Ratio != 4 {
		t.Errorf("rate ratio = %v, want 4 (polyproxy's rate over PolyGlot's)", res.Ratio)
	}
	if got := res.format(res.Polyproxy.Summary.Median); got != "1.00 M lines/s" {
		t.Errorf("format = %q", got)
	}
	if res.Reference.Summary != nil {
		t.Error("a side with an error must have no summary")
	}

	timed := &result{Kind: kindTime,
		Polyproxy: &side{Label: "polyproxy", Samples: []float64{30e-6}},
		PolyGlot:  &side{Label: "PolyGlot", Error: "not installed"}}
	timed.finish()
	if timed.Ratio != 0 {
		t.Errorf("ratio with a side n/a = %v, want 0", timed.Ratio)
	}
	if got := timed.format(30e-6); got != "30.0 µs" {
		t.Errorf("format = %q", got)
	}
}

func TestAddedCostsRoundByRound(t *testing.T) {
	res := &result{Polyproxy: newSide("polyproxy", ""), PolyGlot: newSide("PolyGlot", ""), Reference: newSide("engine alone", "")}
	added := &result{Kind: kindTime, Polyproxy: newSide("polyproxy", ""), PolyGlot: newSide("PolyGlot", "")}
	// Two rounds (polyproxy, PolyGlot, engine alone each); in the second
	// the engine alone is slower than PolyGlot, whose added cost is then
	// below zero; a third round without the engine alone adds nothing.
	roundMedians := [][]float64{{10e-3}, {6e-3}, {4e-3}, {15e-3}, {5e-3}, {9e-3}, {9e-3}, {5e-3}, nil}
	addedCosts(roundMedians, res, added, 2)
	added.finish()
	if got, want := added.Polyproxy.Samples, []float64{3e-3, 3e-3}; !near(got, want) {
		t.Errorf("polyproxy added %v, want %v", got, want)
	}
	if got, want := added.PolyGlot.Samples, []float64{1e-3, -2e-3}; !near(got, want) {
		t.Errorf("PolyGlot added %v, want %v", got, want)
	}
	if got := added.format(added.PolyGlot.Summary.Min); got != "-2.00 ms" {
		t.Errorf("a negative added cost shows as %q", got)
	}

	res.PolyGlot.fail(errTest("hung"))
	res.Reference.fail(errTest("not installed"))
	added = &result{Kind: kindTime, Polyproxy: newSide("polyproxy", ""), PolyGlot: newSide("PolyGlot", "")}
	addedCosts(roundMedians, res, added, 1)
	if added.Polyproxy.ok() || added.PolyGlot.ok() {
		t.Errorf("without the engine alone's figure the added row must be n/a: %+v %+v", added.Polyproxy, added.PolyGlot)
	}
	res.Reference.Error = ""
	added = &result{Kind: kindTime, Polyproxy: newSide("polyproxy", ""), PolyGlot: newSide("PolyGlot", "")}
	addedCosts(roundMedians, res, added, 1)
	if !added.Polyproxy.ok() || added.PolyGlot.Error != "hung" {
		t.Errorf("an adapter without figures must leave its added cost n/a, the other's stays: %+v %+v", added.Polyproxy, added.PolyGlot)
	}
}

// near compares costs computed in floating point.
func near(got, want []float64) bool {
	return slices.EqualFunc(got, want, func(a, b float64) bool { return math.Abs(a-b) < 1e-12 })
}

func TestFailedSideDropsPartialSamples(t *testing.T) {
	s := &side{Label: "polyproxy", Samples: []float64{1, 2}}
	s.fail(errTest("hung"))
	s.fail(errTest("second reason"))
	s.finish()
	if s.Summary != nil || s.Samples != nil || s.Error != "hung" {
		t.Errorf("got %+v: want no figure and the first reason", s)
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }

func TestFakeEngine(t *testing.T) {
	var out strings.Builder
	in := strings.NewReader("uci\nisready\nposition startpos\ngo depth 5\nquit\n")
	if code := runFakeEngine([]string{"-flood", "1000"}, in, &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	var info int
	for _, l := range lines {
		if strings.HasPrefix(l, "info ") {
			info++
		}
	}
	if info != 1000 {
		t.Errorf("%d info lines, want 1000", info)
	}
	if lines[2] != "uciok" || lines[3] != "readyok" || lines[len(lines)-1] != "bestmove e2e4" {
		t.Errorf("protocol order wrong: %q ... %q", lines[:4], lines[len(lines)-1])
	}
}

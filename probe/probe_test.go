package probe_test

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/probe"
)

// TestReportChances: the chances of the eligible moves add up to 1 in
// every mode, and a move left out has none.
func TestReportChances(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	start := fixture.Line(t, board.StartFEN, "")
	for _, mode := range book.Modes() {
		settings := config.Default("")
		settings.BookMode = mode
		res := probe.Report(book.Both(b), start, nil, settings)
		sum := 0.0
		for _, e := range res.Entries {
			if !e.Eligible && e.Chance != 0 {
				t.Errorf("%s: %s is out (%s) with chance %g", mode, e.Move, e.Out, e.Chance)
			}
			sum += e.Chance
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: chances add up to %g: %+v", mode, sum, res.Entries)
		}
		if res.Book != b.Path() || len(res.Entries) != 4 || res.Side != "white" || len(res.Rules) != 6 || res.Rules[0].Value != config.DefaultBookThreshold {
			t.Errorf("%s: %+v", mode, res)
		}
	}
}

// A format's facts of the position and its moves are in the report under
// its name, in words for the text, and its JSON reads back the same.
func TestReportFacts(t *testing.T) {
	b := fixture.OpenPath(t, filepath.Join("..", "book", "abk", "testdata", "small.abk"))
	line := fixture.Line(t, board.StartFEN, "")
	res := probe.Report(book.Both(b), line, nil, config.Default(""))
	if len(res.Entries) == 0 || res.Format != "ABK" {
		t.Fatalf("%+v", res)
	}
	for _, e := range res.Entries {
		var f struct {
			Priority *int `json:"priority"`
			Games    *int `json:"games"`
		}
		if err := json.Unmarshal(e.Facts["abk"], &f); err != nil || f.Priority == nil || f.Games == nil || e.Said == "" || len(e.Row) != len(res.Columns) {
			t.Errorf("%s: facts %s (%v), said %q, row %q", e.Move, e.Facts["abk"], err, e.Said, e.Row)
		}
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back probe.Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(data) || string(back.Entries[0].Facts["abk"]) != string(res.Entries[0].Facts["abk"]) {
		t.Errorf("JSON read back differs:\n%s\n%s", data, again)
	}
}

package suggest

import "testing"

func TestNearest(t *testing.T) {
	commands := []string{"probe", "info-book", "dump-book", "make-book", "merge-book", "book-to-pgn", "book-to-openings", "explore", "learn"}
	flags := []string{"min-game", "min-score", "min-share", "max-ply", "bin", "pgn"}
	keys := []string{"EngineCommand", "BookFile", "BookFileWhite", "BookTreshold", "BookThreshold"}
	for _, tc := range []struct {
		word  string
		names []string
		want  string // "" for none
	}{
		{"prob", commands, "probe"},          // a prefix
		{"porbe", commands, "probe"},         // a swap
		{"info-bok", commands, "info-book"},  // a letter left out
		{"infobook", commands, "info-book"},  // the dash left out
		{"mkae-book", commands, "make-book"}, // a swap, before merge-book
		{"explroe", commands, "explore"},
		{"foo", commands, ""},
		{"x", commands, ""},
		{"", commands, ""},
		{"-min-gmae", flags, "min-game"},
		{"--min-game", flags, "min-game"},
		{"min-scor", flags, "min-score"},
		{"bn", flags, "bin"},
		{"depth", flags, ""},
		{"BookFlie", keys, "BookFile"},
		{"bookfile", keys, "BookFile"}, // case
		{"EngineComand", keys, "EngineCommand"},
		{"Polyglott", []string{"PolyGlot", "Engine"}, "PolyGlot"},
		{"Engin", []string{"PolyGlot", "Engine"}, "Engine"},
		{"Zed", []string{"Alpha", "Beta", "Gamma"}, ""},
		{"alpha", []string{"Alpha", "Beta", "Gamma"}, "Alpha"},
	} {
		got, ok := Nearest(tc.word, tc.names)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("Nearest(%q) = %q, %v; want %q", tc.word, got, ok, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"abc", "ab", 1}, {"abc", "xbc", 1},
		{"ca", "abc", 3}, {"kitten", "sitting", 3}, {"ä", "a", 1},
	} {
		if d := distance(tc.a, tc.b); d != tc.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, d, tc.d)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	dash := func(n string) string { return "-" + n }
	if got := DidYouMean("min-gmae", []string{"min-game"}, dash); got != "; did you mean -min-game?" {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("zzz", []string{"min-game"}, dash); got != "" {
		t.Errorf("got %q for no near name", got)
	}
}

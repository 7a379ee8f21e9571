package build

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/internal/fixture"
)

// The move rules say what they left out, each move under the first rule
// that refused it, in a build and from its counts alike: what is kept and
// what is left out are every position-move counted. (Four games under
// -min-game 3 made a book of one move with no word of the 11 left out.)
func TestBuildDropped(t *testing.T) {
	small := filepath.Join(fixture.Testdata, "pgn/small.pgn")
	for _, tc := range []struct {
		name string
		set  func(o *Options)
		want Dropped
	}{
		// Only 1. e4 has 3 games.
		{"defaults", func(o *Options) {}, Dropped{MinGame: 11}},
		// 4...Nc6, 3...Bc5 and 4...Nf6 of the game White won score 0.
		{"min-game 1", func(o *Options) { o.MinGame = 1 }, Dropped{NoPoints: 3}},
		{"min-game 1, only black", func(o *Options) { o.MinGame, o.Colours = 1, BlackOnly }, Dropped{NoPoints: 3, Colour: 5}},
		{"min-game 1, max-ply 1, min-score 60", func(o *Options) { o.MinGame, o.MaxPly, o.MinScore = 1, 1, 60 }, Dropped{MinScore: 2}},
		// 1. d4 is a quarter of the start's games, 1...c5 a third of 1. e4's.
		{"min-game 1, min-share 40", func(o *Options) { o.MinGame, o.MinShare = 1, 40 }, Dropped{NoPoints: 3, MinShare: 2}},
	} {
		opt := DefaultOptions()
		tc.set(&opt)
		b, entries := buildFile(t, small, opt)
		s := b.Stats()
		if s.Dropped != tc.want || int(s.Dropped.Total())+len(entries) != s.Positions {
			t.Errorf("%s: dropped %+v, want %+v; %d kept of %d", tc.name, s.Dropped, tc.want, len(entries), s.Positions)
		}
		var counts bytes.Buffer
		if err := b.WriteCounts(&counts); err != nil {
			t.Fatal(err)
		}
		cr, err := NewCountsReader(&counts)
		if err != nil {
			t.Fatal(err)
		}
		_, st, err := FromCounts([]*CountsReader{cr}, opt)
		if err != nil || st.Dropped != tc.want {
			t.Errorf("%s from counts: dropped %+v, %v; want %+v", tc.name, st.Dropped, err, tc.want)
		}
	}
}

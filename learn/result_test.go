package learn

import (
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

func fenPosition(t *testing.T, fen string) *board.Position {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDecidePosition(t *testing.T) {
	cases := []struct {
		name     string
		fen      string
		repeated int
		want     Outcome
	}{
		{"black mates (fool's mate)", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 1, BlackWins},
		{"white mates on the back rank", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", 1, WhiteWins},
		{"mate on the hundredth quiet ply beats the fifty-move rule", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 90", 1, WhiteWins},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 1, Drawn},
		{"king against king", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", 1, Drawn},
		{"king and knight against king", "8/8/4k3/8/8/3KN3/8/8 b - - 0 1", 1, Drawn},
		{"king and rook is enough", "8/8/4k3/8/8/3K4/8/R7 w - - 0 1", 1, Unknown},
		{"fifty-move rule", "8/8/4k3/8/8/3K4/8/R7 w - - 100 80", 1, Drawn},
		{"one ply short of fifty moves", "8/8/4k3/8/8/3K4/8/R7 w - - 99 80", 1, Unknown},
		{"threefold repetition", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", 3, Drawn},
		{"twice is not a repetition draw", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", 2, Unknown},
		{"start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1, Unknown},
	}
	for _, c := range cases {
		d := DecidePosition(fenPosition(t, c.fen), c.repeated)
		if d.Outcome != c.want {
			t.Errorf("%s: %v (%s), want %v", c.name, d.Outcome, d.Reason, c.want)
		}
		if d.Reason == "" {
			t.Errorf("%s: no reason given", c.name)
		}
	}
	if d := DecidePosition(nil, 0); d.Outcome != Unknown {
		t.Errorf("nil position: %v", d.Outcome)
	}
}

// A mate reached by playing moves (not read from a FEN) is seen.
func TestDecidePositionAfterMoves(t *testing.T) {
	l := fixture.Line(t, "", "f2f3 e7e5 g2g4 d8h4")
	if d := DecidePosition(&l.Pos, 1); d.Outcome != BlackWins {
		t.Fatalf("after Qh4#: %v (%s)", d.Outcome, d.Reason)
	}
}

func TestDecideScores(t *testing.T) {
	w := func(cp int) Score { return Score{White: true, CP: cp} }
	b := func(cp int) Score { return Score{White: false, CP: cp} }
	wm := func(n int) Score { return Score{White: true, Mate: n, IsMate: true} }
	bm := func(n int) Score { return Score{White: false, Mate: n, IsMate: true} }
	cases := []struct {
		name   string
		scores []Score
		want   Outcome
	}{
		{"no scores", nil, Unknown},
		{"white mates in 3", []Score{w(20), wm(3)}, WhiteWins},
		{"white is mated in 2", []Score{wm(-2)}, BlackWins},
		{"black mates in 1", []Score{bm(1)}, BlackWins},
		{"black is mated (mate 0)", []Score{bm(0)}, WhiteWins},
		{"a mate score earlier does not count", []Score{wm(5), w(30)}, Unknown},
		{"white ahead 3 moves", []Score{w(50), w(1000), w(1200), w(1500)}, WhiteWins},
		{"black behind 3 moves", []Score{b(-1000), b(-2000), b(-1100)}, WhiteWins},
		{"black ahead with a mate inside the run", []Score{b(1300), bm(7), b(1100)}, BlackWins},
		{"only 2 moves beyond", []Score{w(100), w(1200), w(1500)}, Unknown},
		{"fewer scores than moves", []Score{w(3000), w(3000)}, Unknown},
		{"sides swap inside the run", []Score{w(1200), w(-1200), w(1200)}, Unknown},
		{"within the threshold", []Score{w(999), w(999), w(999)}, Unknown},
		{"both sides agree (engine played both)", []Score{w(1100), b(-1300), w(1200)}, WhiteWins},
	}
	for _, c := range cases {
		d := DecideScores(c.scores, 1000, 3)
		if d.Outcome != c.want {
			t.Errorf("%s: %v (%s), want %v", c.name, d.Outcome, d.Reason, c.want)
		}
	}
}

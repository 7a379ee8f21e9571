package explore

import (
	"net/url"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
)

// FuzzPositionParams: any fen, moves, ply and chess960 are refused with an
// error or read as a line whose every move is legal, with the ply in it;
// the line's moves, written back as the moves parameter, read as the same
// line.
func FuzzPositionParams(f *testing.F) {
	for _, s := range [][4]string{
		{"", "", "", ""},
		{"", "e2e4,e7e5,g1f3", "1", ""},
		{"", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0", "", ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1 e8c8", "", ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O O-O-O", "2", "0"},
		{"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", "e2e4", "", "1"},
		{"8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "b7b8q,e7d7", "", ""},
		{"startpos", "e2e4,,e7e5 ", "0", "true"},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, fen, moves, ply, chess960 string) {
		p, err := parsePlace(url.Values{"fen": {fen}, "moves": {moves}, "ply": {ply}, "chess960": {chess960}})
		if err != nil {
			return
		}
		if p.ply < 0 || p.ply > len(p.moves) || len(p.moves) > maxPlies {
			t.Fatalf("ply %d of %d moves", p.ply, len(p.moves))
		}
		l := *p.start
		for i, m := range p.moves {
			if _, err := l.Pos.LegalMove(m); err != nil {
				t.Fatalf("move %d %s: %v", i+1, m, err)
			}
			l.Pos.Play(m)
		}
		if got := p.lineTo(len(p.moves)).Pos; got.Key() != l.Pos.Key() {
			t.Fatalf("lineTo differs from the moves played")
		}
		q := url.Values{"fen": {fen}, "moves": {p.movesParam()}}
		if p.chess960 {
			q.Set("chess960", "1")
		}
		again, err := parsePlace(q)
		if err != nil {
			t.Fatalf("the moves written back (%s) are refused: %v", p.movesParam(), err)
		}
		if strings.Join(moveStrings(again.moves), " ") != strings.Join(moveStrings(p.moves), " ") {
			t.Fatalf("written back, %v reads as %v", p.moves, again.moves)
		}
	})
}

func moveStrings(ms []board.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

package abk_test

import (
	"slices"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// twoLines is a book whose 1.Nf3 Nc6 is played on two lines: line A,
// 1.Nf3 Nc6 then 2.e4 or 2.d4 (10 games each, all drawn), and line B, the
// last root move, 1.Nc3 Nf6 2.Nb1 Ng8 3.Nf3 Nc6, then the same 4.e4 or 4.d4
// at ply 6. Records 903 and 910 play e4 on lines A and B.
func twoLines(t *testing.T, maxPly int32) []byte {
	return abkBytes(t, abk.Settings{PriorityImportance: 3, GamesImportance: 3, MaxPly: maxPly}, []abkRec{
		0:  {move: "g1f3", prio: 5, games: 20, next: 2, sibling: 1},
		1:  {move: "b1c3", prio: 5, games: 20, next: 5, sibling: -1},
		2:  {move: "b8c6", prio: 5, games: 20, next: 3, sibling: -1},
		3:  {move: "e2e4", prio: 5, games: 10, next: -1, sibling: 4},
		4:  {move: "d2d4", prio: 5, games: 10, next: -1, sibling: -1},
		5:  {move: "g8f6", prio: 5, games: 20, next: 6, sibling: -1},
		6:  {move: "c3b1", prio: 5, games: 20, next: 7, sibling: -1},
		7:  {move: "f6g8", prio: 5, games: 20, next: 8, sibling: -1},
		8:  {move: "g1f3", prio: 5, games: 20, next: 9, sibling: -1},
		9:  {move: "b8c6", prio: 5, games: 20, next: 10, sibling: -1},
		10: {move: "e2e4", prio: 5, games: 10, next: -1, sibling: 11},
		11: {move: "d2d4", prio: 5, games: 10, next: -1, sibling: -1},
	})
}

// TestLearnOnTheLinePlayed: a game 1.Nf3 Nc6 2.e4 won by White counts
// into line A's e4 (record 903), the line the game played, which every
// reader serves: with the book's max ply 4, line B's e4 at ply 6 is served
// by no reader, and even without a limit a reader that follows the game's
// line (Arena, DroidFish) reads line A's. Learning counted the game into
// record 910 (the walk met line B first), where probe still showed 10
// games and converting the book dropped it.
func TestLearnOnTheLinePlayed(t *testing.T) {
	game := fixture.Line(t, "", "g1f3 b8c6")
	e4, _ := board.ParseMove("e2e4")
	for _, maxPly := range []int32{4, 40} {
		data := twoLines(t, maxPly)
		path := writeRaw(t, "lines.abk", data)
		lf, err := formats.OpenLearnFile(path)
		if err != nil {
			t.Fatal(err)
		}
		changes, err := lf.Apply(t.Context(), []book.LearnUpdate{{Key: game.Pos.Key(), Move: e4, Result: book.Win, Line: game.Keys}})
		lf.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(changes) != 1 || changes[0].Index != 903 || changes[0].Before != book.MakeLearn(10, 10) || changes[0].After != book.MakeLearn(11, 12) {
			t.Errorf("max ply %d: changes %+v, want record 903: 10 games 10 points -> 11 games 12 points", maxPly, changes)
		}
		want := slices.Clone(data)
		rec := abk.DecodeRecord(want[903*abk.RecordSize:])
		rec.Games, rec.Wins = 11, 1
		rec.Encode(want[903*abk.RecordSize:])
		if got := fixture.ReadFile(t, path); !slices.Equal(got, want) {
			t.Errorf("max ply %d: the file is not the old one with record 903 counting the game", maxPly)
		}
		b, err := formats.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		wantE4 := "e2e4 65535 11/12" // line A alone: 11 games, a win and 10 draws
		if maxPly > 6 {
			wantE4 = "e2e4 65535 21/22" // and line B's 10 draws
		}
		if got := movesAt(t, b, "g1f3 b8c6"); len(got) != 2 || got[1] != wantE4 {
			t.Errorf("max ply %d: after 1.Nf3 Nc6 the book reads %q, want %s", maxPly, got, wantE4)
		}
		b.Close()
	}
}

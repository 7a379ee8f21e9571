package abk_test

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// abkRec is a record for abkBytes: the move in UCI form and the indexes
// (into the list, -1 none) of its first reply and next sibling.
type abkRec struct {
	move                string
	prio                int8
	games, wins, losses int32
	next, sibling       int
	deleted             bool
}

// abkBytes lays out recs from record 900 on, after a header with s.
func abkBytes(t testing.TB, s abk.Settings, recs []abkRec) []byte {
	t.Helper()
	data := make([]byte, abk.HeaderSize+len(recs)*abk.RecordSize)
	s.Encode(data)
	ptr := func(i int) int32 {
		if i < 0 {
			return -1
		}
		return int32(abk.FirstRecord + i)
	}
	for i, r := range recs {
		m, err := board.ParseMove(r.move)
		if err != nil {
			t.Fatal(err)
		}
		rec := abk.Record{From: m.From(), To: m.To(), Priority: r.prio, Games: r.games, Wins: r.wins, Losses: r.losses,
			Next: ptr(r.next), Sibling: ptr(r.sibling)}
		if r.deleted {
			rec.Flags = 0x01000000
		}
		rec.Encode(data[abk.HeaderSize+i*abk.RecordSize:])
	}
	return data
}

// openABKBytes writes data under name and opens it.
func openABKBytes(t *testing.T, name string, data []byte) *book.Book {
	t.Helper()
	b, err := formats.Open(writeRaw(t, name, data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

var prioOnly = abk.Settings{PriorityImportance: 3, MaxPly: 100}

// movesAt is "move weight games/points" at the position after moves.
func movesAt(t *testing.T, b *book.Book, moves string) []string {
	t.Helper()
	l := fixture.Line(t, "", moves)
	var out []string
	for _, e := range b.Entries(l.Pos.Key()) {
		out = append(out, e.Move.String()+" "+strconv.Itoa(int(e.Weight))+" "+strconv.Itoa(int(e.Learn.Games()))+"/"+strconv.Itoa(int(e.Learn.Points())))
	}
	slices.Sort(out)
	return out
}

// TestABKTransposition: 1.e4 e5 2.Nf3 and 1.Nf3 e5 2.e4 reach one
// position; its moves are the union of the two branches', a move in both
// with the records' statistics added.
func TestABKTransposition(t *testing.T) {
	recs := []abkRec{
		0: {move: "e2e4", prio: 9, games: 10, wins: 5, losses: 2, next: 2, sibling: 1},
		1: {move: "g1f3", prio: 9, games: 4, wins: 1, losses: 1, next: 5, sibling: -1},
		2: {move: "e7e5", prio: 9, games: 10, wins: 5, losses: 2, next: 3, sibling: -1},
		3: {move: "g1f3", prio: 9, games: 10, wins: 5, losses: 2, next: 4, sibling: -1},
		4: {move: "b8c6", prio: 6, games: 6, wins: 3, losses: 1, next: -1, sibling: -1},
		5: {move: "e7e5", prio: 9, games: 4, wins: 1, losses: 1, next: 6, sibling: -1},
		6: {move: "e2e4", prio: 9, games: 4, wins: 1, losses: 1, next: 7, sibling: -1},
		7: {move: "b8c6", prio: 3, games: 2, wins: 0, losses: 1, next: -1, sibling: 8},
		8: {move: "g8f6", prio: 3, games: 2, wins: 1, losses: 0, next: -1, sibling: -1},
	}
	b := openABKBytes(t, "transposed.bin", abkBytes(t, prioOnly, recs)) // told by content
	if abk.InfoOf(b) == nil {
		t.Fatal("not read as ABK")
	}
	if info := abk.InfoOf(b); info.Merged != 1 || len(info.Problems) != 0 || info.Depth != 4 || info.Reached != 9 {
		t.Errorf("info %+v", *info)
	}
	// b8c6: priority max(6,3)=6, 8 games, Black won 2 (White lost 2),
	// lost 3, 3 draws: 7 points. g8f6: priority 3, 2 games, Black won 0,
	// lost 1, 1 draw: 1 point. Weights 6:3.
	want := []string{"b8c6 65535 8/7", "g8f6 32768 2/1"}
	for _, line := range []string{"e2e4 e7e5 g1f3", "g1f3 e7e5 e2e4"} {
		if got := movesAt(t, b, line); !slices.Equal(got, want) {
			t.Errorf("after %s: %q, want %q", line, got, want)
		}
	}
	if got := movesAt(t, b, ""); !slices.Equal(got, []string{"e2e4 65535 10/13", "g1f3 65535 4/4"}) {
		t.Errorf("start: %q", got)
	}
}

// TestABKCorruptTree: a cycle, a pointer past the end, a move illegal in
// its position and a deleted record are each skipped (a problem reported
// once with the record that holds it), and the rest still serves.
func TestABKCorruptTree(t *testing.T) {
	recs := []abkRec{
		0: {move: "e2e4", prio: 5, games: 1, next: 3, sibling: 1},
		1: {move: "d2d4", prio: 5, games: 1, next: 4, sibling: 2},
		2: {move: "c2c4", prio: 5, games: 1, next: -1, sibling: 0}, // cycle back to the first
		3: {move: "e7e6", prio: 5, games: 1, next: 99, sibling: 5}, // next past the end
		4: {move: "e7e4", prio: 5, games: 1, next: -1, sibling: 6}, // illegal
		5: {move: "c7c5", prio: 5, games: 1, deleted: true, next: 7, sibling: -1},
		6: {move: "d7d5", prio: 5, games: 1, next: -1, sibling: -1},
		7: {move: "g1f3", prio: 5, games: 1, next: -1, sibling: -1}, // under the deleted move only
	}
	b := openABKBytes(t, "corrupt.abk", abkBytes(t, prioOnly, recs))
	info := abk.InfoOf(b)
	var problems []string
	for _, p := range info.Problems {
		problems = append(problems, p.Error())
	}
	want := []string{
		"record 902: next sibling points to record 900, already read (a cycle, or lines sharing records): not followed again",
		"record 904: e7e4 is not legal in its position (ply 2): its replies are skipped",
		"record 903: next move points to record 999, outside the moves (records 900 to 907)",
	}
	slices.Sort(problems)
	slices.Sort(want)
	if !slices.Equal(problems, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	if len(b.Warnings()) != 3 {
		t.Errorf("warnings %q", b.Warnings())
	}
	if info.Deleted != 1 || info.Unreached != 1 || info.Reached != 7 {
		t.Errorf("info %+v", *info)
	}
	if got := movesAt(t, b, ""); len(got) != 3 {
		t.Errorf("start: %q", got)
	}
	if got := movesAt(t, b, "e2e4"); !slices.Equal(got, []string{"e7e6 65535 1/1"}) {
		t.Errorf("after e4: %q", got)
	}
	if got := movesAt(t, b, "d2d4"); !slices.Equal(got, []string{"d7d5 65535 1/1"}) {
		t.Errorf("after d4: %q", got)
	}
}

// TestABKTruncated: a file cut inside a record keeps its whole records,
// says how many bytes it ignores, and a pointer into the lost part is a
// problem like any pointer past the end.
func TestABKTruncated(t *testing.T) {
	data := abkBytes(t, prioOnly, []abkRec{
		{move: "e2e4", prio: 5, games: 1, next: 1, sibling: -1},
		{move: "e7e5", prio: 5, games: 1, next: -1, sibling: -1},
	})
	b := openABKBytes(t, "cut.abk", data[:len(data)-10])
	if info := abk.InfoOf(b); info.TrailingBytes != 18 || len(info.Problems) != 1 || info.Problems[0].Record != 900 {
		t.Errorf("info %+v", *info)
	}
	if got := movesAt(t, b, ""); !slices.Equal(got, []string{"e2e4 65535 1/1"}) {
		t.Errorf("start: %q", got)
	}
	if _, err := formats.Open(writeRaw(t, "short.abk", data[:1000])); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("a 1000-byte ABK book opened: %v", err)
	}
}

// writeRaw writes data as a file named name in a new folder.
func writeRaw(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestABKWeights checks the weight formula on hand-computed cases.
func TestABKWeights(t *testing.T) {
	moves := []abk.MoveStats{
		{Priority: 9, Games: 10, Won: 6, Lost: 2, WhiteToMove: true}, // score 0.7
		{Priority: 3, Games: 30, Won: 9, Lost: 9, WhiteToMove: true}, // score 0.5
		{Priority: 0, Games: 0, WhiteToMove: true},                   // no games: filtered
	}
	s := abk.Settings{PriorityImportance: 3, GamesImportance: 3, ScoreImportance: 3, MaxPly: 99}
	w := abk.FloatWeights(moves, s)
	e3 := math.Exp(0.624 * 3)
	want0 := 9.0/12*e3 + 10.0/40*e3 + 0.7/1.2*e3*1.4
	want1 := 3.0/12*e3 + 30.0/40*e3 + 0.5/1.2*e3*1.4
	if math.Abs(w[0]-want0) > 1e-9 || math.Abs(w[1]-want1) > 1e-9 || !math.IsNaN(w[2]) {
		t.Errorf("weights %v, want %v %v NaN", w, want0, want1)
	}
	// Importance 0 leaves a part out; 1, 2 and 4 raise it to 0.66, 0.86
	// and 7/6.
	s = abk.Settings{PriorityImportance: 1, GamesImportance: 0, ScoreImportance: 0}
	w = abk.FloatWeights(moves[:2], s)
	if r, want := w[0]/w[1], math.Pow(3, 0.66); math.Abs(r-want) > 1e-9 {
		t.Errorf("importance 1: ratio %v, want %v", r, want)
	}
	s.PriorityImportance = 4
	w = abk.FloatWeights(moves[:2], s)
	if r, want := w[0]/w[1], math.Pow(3, 7.0/6); math.Abs(r-want) > 1e-9 {
		t.Errorf("importance 4: ratio %v, want %v", r, want)
	}
	// Filters at their limits: exactly the minimum passes.
	s = abk.Settings{PriorityImportance: 3, MinGames: 10, MinWonGames: 6, MinWinPercentWhite: 70}
	w = abk.FloatWeights(moves[:2], s)
	if math.IsNaN(w[0]) || !math.IsNaN(w[1]) {
		t.Errorf("filters at the limit: %v", w)
	}
	// All importances 0: the filters are off, and every move weighs 1.
	s = abk.Settings{MinGames: 1000}.Effective()
	w = abk.FloatWeights(moves[:2], s)
	if w[0] != 1 || w[1] != 1 {
		t.Errorf("zero importances: %v", w)
	}
	// Black's view: Won is Black's wins, and the black minimum applies.
	black := []abk.MoveStats{{Priority: 5, Games: 4, Won: 1, Lost: 3}}
	if w := abk.FloatWeights(black, abk.Settings{PriorityImportance: 3, MinWinPercentBlack: 26}); !math.IsNaN(w[0]) {
		t.Errorf("black at 25%%: %v", w)
	}
}

// FuzzABKReader reads arbitrary records (after a header whose settings
// come from the input too): nothing may panic or loop, and the counts must
// add up.
func FuzzABKReader(f *testing.F) {
	seed := abkBytes(f, prioOnly, []abkRec{
		{move: "e2e4", prio: 5, games: 3, wins: 1, next: 2, sibling: 1},
		{move: "g1f3", prio: 5, games: 1, next: 3, sibling: -1},
		{move: "e7e5", prio: 5, games: 1, next: 3, sibling: 0},
		{move: "g8f6", prio: 5, games: 1, next: -1, sibling: 1, deleted: true},
	})
	f.Add(append(slices.Clone(seed[0xDE:0xDE+32]), seed[abk.HeaderSize:]...))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, in []byte) {
		data := make([]byte, abk.HeaderSize, abk.HeaderSize+len(in))
		copy(data[0xDE:0xDE+32], in)
		if len(in) > 32 {
			data = append(data, in[32:]...)
		}
		info, entries, err := abk.Read(data)
		if err != nil {
			t.Fatal(err)
		}
		if info.Reached+info.Unreached != info.Records || len(entries) != info.Moves || info.Merged > info.Reached {
			t.Fatalf("counts do not add up: %+v, %d entries", *info, len(entries))
		}
		for _, e := range entries {
			if e.Key == 0 || e.Move.IsNull() {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}

// TestABKLearn counts game results into an ABK book in place: the games,
// wins and losses of one record of the move (White's view), nothing else
// in the file, and the reopened book's statistics follow.
func TestABKLearn(t *testing.T) {
	recs := []abkRec{
		0: {move: "e2e4", prio: 9, games: 10, wins: 5, losses: 2, next: 1, sibling: -1},
		1: {move: "e7e5", prio: 9, games: 10, wins: 5, losses: 2, next: -1, sibling: 2},
		2: {move: "c7c5", prio: 9, games: 3, wins: 1, losses: 1, next: -1, sibling: -1},
	}
	data := abkBytes(t, prioOnly, recs)
	path := writeRaw(t, "learn.abk", data)
	start := fixture.Line(t, "", "")
	afterE4 := fixture.Line(t, "", "e2e4")
	e4, _ := board.ParseMove("e2e4")
	c5, _ := board.ParseMove("c7c5")
	lf, err := formats.OpenLearnFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	updates := []book.LearnUpdate{
		{Key: start.Pos.Key(), Move: e4, Result: book.Win},
		{Key: afterE4.Pos.Key(), Move: c5, Result: book.Win}, // Black won
		{Key: afterE4.Pos.Key(), Move: c5, Result: book.Draw},
		{Key: start.Pos.Key(), Move: c5, Result: book.Win}, // not in the book
	}
	preview, err := lf.Preview(t.Context(), updates)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(readFile(t, path), data) {
		t.Fatal("Preview wrote")
	}
	changes, err := lf.Apply(t.Context(), updates)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(changes, preview) || len(changes) != 3 || changes[2].Found() {
		t.Fatalf("changes %+v, preview %+v", changes, preview)
	}
	if c := changes[0]; c.Index != 900 || c.Before != book.MakeLearn(10, 13) || c.After != book.MakeLearn(11, 15) {
		t.Errorf("e4: %+v", c)
	}
	if c := changes[1]; c.Index != 902 || c.Results != 2 || c.Before != book.MakeLearn(3, 3) || c.After != book.MakeLearn(5, 6) {
		t.Errorf("c5: %+v", c)
	}
	got := readFile(t, path)
	want := slices.Clone(data)
	for _, r := range []struct {
		rec                 int
		games, wins, losses int32
	}{{900, 11, 6, 2}, {902, 5, 1, 2}} {
		rec := abk.DecodeRecord(want[r.rec*abk.RecordSize:])
		rec.Games, rec.Wins, rec.Losses = r.games, r.wins, r.losses
		rec.Encode(want[r.rec*abk.RecordSize:])
	}
	if !slices.Equal(got, want) {
		t.Fatal("the file is not the old one with the two records' statistics counted")
	}
}

// TestABKEmpty: the header alone is a book without moves, and a file
// shorter than the header is no ABK book.
func TestABKEmpty(t *testing.T) {
	b := openABKBytes(t, "empty.abk", abkBytes(t, prioOnly, nil))
	if b.Len() != 0 || len(abk.InfoOf(b).Problems) != 0 || len(b.Warnings()) != 0 {
		t.Errorf("empty book: %d entries, %+v, %q", b.Len(), *abk.InfoOf(b), b.Warnings())
	}
	if _, err := formats.Open(writeRaw(t, "short.abk", make([]byte, abk.HeaderSize-1))); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("a file shorter than the header: %v", err)
	}
}

// TestABKCastlingAsKingTakesRook: a record storing castling as Polyglot
// does, the king taking its own rook (e1h1), is no move in an ABK book:
// Arena's format writes castling as the king's move (e1g1), and Arena's
// readers take e1h1 for the king moving onto its rook (DroidFish never
// matches it to the castling played, and offers no book move where it is
// listed). It is reported, with its replies skipped, and the position's
// other moves served; it was taken for O-O and merged with e1g1.
func TestABKCastlingAsKingTakesRook(t *testing.T) {
	recs := []abkRec{
		0:  {move: "e2e4", prio: 5, games: 10, next: 1, sibling: -1},
		1:  {move: "e7e5", prio: 5, games: 10, next: 2, sibling: -1},
		2:  {move: "g1f3", prio: 5, games: 10, next: 3, sibling: -1},
		3:  {move: "g8f6", prio: 5, games: 10, next: 4, sibling: -1},
		4:  {move: "f1c4", prio: 5, games: 10, next: 5, sibling: -1},
		5:  {move: "f8c5", prio: 5, games: 10, next: 6, sibling: -1},
		6:  {move: "e1h1", prio: 5, games: 10, next: 8, sibling: 7},
		7:  {move: "d2d3", prio: 5, games: 10, next: 9, sibling: -1},
		8:  {move: "d7d6", prio: 5, games: 10, next: -1, sibling: -1},
		9:  {move: "e8h8", prio: 5, games: 10, next: -1, sibling: 10},
		10: {move: "d7d6", prio: 5, games: 10, next: -1, sibling: -1},
	}
	b := openABKBytes(t, "castle.abk", abkBytes(t, prioOnly, recs))
	var problems []string
	for _, p := range abk.InfoOf(b).Problems {
		problems = append(problems, p.Error())
	}
	want := []string{
		"record 906: e1h1 is castling written as the king taking its own rook (Polyglot's form; ABK writes the king's move, e1g1): not a move here (ply 7), its replies are skipped",
		"record 909: e8h8 is castling written as the king taking its own rook (Polyglot's form; ABK writes the king's move, e8g8): not a move here (ply 8), its replies are skipped",
	}
	if !slices.Equal(problems, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	const italian = "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5"
	for moves, want := range map[string][]string{
		italian:           {"d2d3 65535 10/10"},
		italian + " d2d3": {"d7d6 65535 10/10"},
		italian + " e1g1": nil,
	} {
		if got := movesAt(t, b, moves); !slices.Equal(got, want) {
			t.Errorf("after %s: %q, want %q", moves, got, want)
		}
	}
}

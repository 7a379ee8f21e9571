package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
)

// openBook opens a book for a test.
func openBook(t *testing.T, path string) *book.Book {
	t.Helper()
	b, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func entriesIn(b *book.Book) map[[2]uint64]book.Entry {
	m := map[[2]uint64]book.Entry{}
	for i := 0; i < b.Len(); i++ {
		e := b.Entry(i)
		m[[2]uint64{uint64(e.Key), uint64(e.Move)}] = e
	}
	return m
}

// TestConvertBook: bin -> abk -> bin keeps the book's moves reachable
// from the start; the output's name picks the format; an output that is
// the input is refused.
func TestConvertBook(t *testing.T) {
	dir := t.TempDir()
	src, _ := learnFixtureCopy(t)
	abkPath, back := filepath.Join(dir, "learn.abk"), filepath.Join(dir, "back.bin")
	if code, _, errs := runCmd(t, "convert-book", "-in", src, "-out", abkPath); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd(t, "convert-book", "-in", abkPath, "-out", back); code != 0 || !strings.Contains(errs, "Polyglot book "+back) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if abk.InfoOf(openBook(t, abkPath)) == nil || abk.InfoOf(openBook(t, back)) != nil {
		t.Fatal("formats not as the names say")
	}
	was, got := entriesIn(openBook(t, src)), entriesIn(openBook(t, back))
	if len(got) == 0 {
		t.Fatal("nothing came back")
	}
	for id := range got {
		if _, ok := was[id]; !ok {
			t.Errorf("entry %x came back from nowhere", id)
		}
	}
	code, _, errs := runCmd(t, "convert-book", "-in", abkPath, "-out", abkPath)
	if code != 0 || abk.InfoOf(openBook(t, abkPath)) == nil {
		t.Errorf("converting over the input: exit %d: %s", code, errs)
	}
}

// TestABKOutputs: make-book -abk (from PGN and from counts), merge-book
// into a .abk, and info-book's ABK figures.
func TestABKOutputs(t *testing.T) {
	dir := t.TempDir()
	bin, abkPath := filepath.Join(dir, "r.bin"), filepath.Join(dir, "r.abk")
	if code, _, errs := runCmd(t, "make-book", "-pgn", "testdata/pgn/random.pgn", "-bin", bin, "-abk", abkPath, "-max-ply", "8", "-min-game", "1", "-q"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// The ABK book holds the bin book's moves on the tree (not those
	// under a move make-book left out, a move that scored nothing).
	made, fromABK := entriesIn(openBook(t, bin)), entriesIn(openBook(t, abkPath))
	for id := range fromABK {
		if _, ok := made[id]; !ok {
			t.Fatalf("the ABK book has %x, the bin book not", id)
		}
	}
	if len(fromABK) < len(made)/2 {
		t.Errorf("make-book: %d entries, its ABK book only %d", len(made), len(fromABK))
	}
	// -abk says the format: any name will do.
	other := filepath.Join(dir, "r.book")
	if code, _, errs := runCmd(t, "make-book", "-pgn", "testdata/pgn/random.pgn", "-abk", other, "-max-ply", "8", "-min-game", "1", "-q"); code != 0 {
		t.Errorf("-abk r.book: exit %d: %s", code, errs)
	} else if string(readAll(t, other)) != string(readAll(t, abkPath)) {
		t.Error("-abk r.book is not the ABK book -abk r.abk is")
	}
	counts, fromCounts := filepath.Join(dir, "small-v1.abk"), filepath.Join(dir, "c.abk")
	if code, _, errs := runCmd(t, "make-book", "-from-counts", "testdata/counts/small-v1.counts", "-abk", fromCounts); code != 0 {
		t.Fatalf("make-book -from-counts -abk: exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd(t, "convert-book", "-in", "testdata/counts/small-v1.counts", "-out", counts); code != 0 {
		t.Fatalf("convert-book counts: exit %d: %s", code, errs)
	}
	if a, b := readAll(t, counts), readAll(t, fromCounts); string(a) != string(b) {
		t.Error("convert-book and make-book -from-counts made different ABK books of the same counts")
	}
	merged := filepath.Join(dir, "m.abk")
	code, _, errs := runCmd(t, "merge-book", "-in1", abkPath, "-in2", bin, "-out", merged)
	if code != 0 {
		t.Fatalf("merge-book: exit %d: %s", code, errs)
	}
	m := openBook(t, merged)
	if abk.InfoOf(m) == nil || len(entriesIn(m)) != len(fromABK) {
		t.Errorf("merged ABK book: %d entries, want %d", len(entriesIn(m)), len(fromABK))
	}
	// It says what it wrote: the records of the ABK tree, not the merged
	// entries it was made from.
	if records := abk.InfoOf(m).Records; !strings.Contains(errs, fmt.Sprintf(" -> %d ABK records written to %s", records, merged)) {
		t.Errorf("merge-book wrote %d records and says: %s", records, errs)
	}
	code, out, errs := runCmd(t, "info-book", "-bin", merged, "-json")
	if code != 0 {
		t.Fatalf("info-book: exit %d: %s", code, errs)
	}
	var info struct {
		ABK *abk.Info `json:"abk"`
	}
	if err := json.Unmarshal([]byte(out), &info); err != nil || info.ABK == nil || info.ABK.Records == 0 || info.ABK.Settings.MaxPly != abk.MaxPly {
		t.Errorf("info-book -json: %v %s", err, out)
	}
}

func readAll(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestLearnIntoABK: learn -pgn counts the same results into an ABK book as
// into the Polyglot book it was made from, for every move on the tree.
func TestLearnIntoABK(t *testing.T) {
	bin, _ := learnFixtureCopy(t)
	abkPath := filepath.Join(t.TempDir(), "book.abk")
	if code, _, errs := runCmd(t, "convert-book", "-in", bin, "-out", abkPath); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	abkBefore := entriesIn(openBook(t, abkPath))
	binBefore := entriesIn(openBook(t, bin))
	for _, path := range []string{bin, abkPath} {
		if code, _, errs := runLearnCmd(t, "-book", path, "-pgn", "testdata/learn/games.pgn", "-player", "Alpha"); code != 0 {
			t.Fatalf("%s: exit %d: %s", path, code, errs)
		}
	}
	binAfter, abkAfter := entriesIn(openBook(t, bin)), entriesIn(openBook(t, abkPath))
	learned := 0
	for id, was := range abkBefore {
		now := abkAfter[id]
		dg, dp := int(now.Learn.Games())-int(was.Learn.Games()), int(now.Learn.Points())-int(was.Learn.Points())
		bg := int(binAfter[id].Learn.Games()) - int(binBefore[id].Learn.Games())
		bp := int(binAfter[id].Learn.Points()) - int(binBefore[id].Learn.Points())
		if dg != bg || dp != bp {
			t.Errorf("%x: the ABK book learned %d games %d points, the bin book %d games %d points", id, dg, dp, bg, bp)
		}
		learned += dg
	}
	if learned == 0 {
		t.Fatal("nothing learned into the ABK book")
	}
}

// TestLearnPGNOnTheLinePlayed: learn -pgn counts a game into the record on
// the line it played, where probe and every reader see it. The book plays
// 1.Nf3 Nc6 2.e4 (10 games, drawn) on line A and on line B, the last root
// move, 1.Nc3 Nf6 2.Nb1 Ng8 3.Nf3 Nc6 4.e4, beyond the book's max ply of 4;
// learning counted the game into line B's record, where nothing reads it.
func TestLearnPGNOnTheLinePlayed(t *testing.T) {
	lines := [][]string{
		{"g1f3", "b8c6", "e2e4"}, {"g1f3", "b8c6", "d2d4"},
		{"b1c3", "g8f6", "c3b1", "f6g8", "g1f3", "b8c6", "e2e4"}, {"b1c3", "g8f6", "c3b1", "f6g8", "g1f3", "b8c6", "d2d4"},
	}
	data := abkTree(t, abk.Settings{PriorityImportance: 3, GamesImportance: 3, MaxPly: 4}, lines, 10)
	path := filepath.Join(t.TempDir(), "lines.abk")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	pgn := filepath.Join(t.TempDir(), "game.pgn")
	if err := os.WriteFile(pgn, []byte("[White \"Engine\"]\n[Black \"Other\"]\n[Result \"1-0\"]\n\n1. Nf3 Nc6 2. e4 e5 1-0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runLearnCmd(t, "-book", path, "-pgn", pgn, "-player", "Engine", "-v")
	if code != 0 || !strings.Contains(out, "move e2e4: 1 game(s): 10 games 10 points -> 11 games 12 points") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	code, out, errs = runCmd(t, "probe", "-book", path, "-moves", "g1f3 b8c6", "-json")
	var res struct {
		Entries []struct {
			Move          string
			Games, Points int
		}
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("exit %d: %v: %s%s", code, err, out, errs)
	}
	for _, e := range res.Entries {
		if e.Move == "e2e4" && (e.Games != 11 || e.Points != 12) {
			t.Errorf("probe after 1.Nf3 Nc6 reads e2e4 with %d games %d points, want 11 and 12", e.Games, e.Points)
		}
	}
}

// abkTree is an ABK book of lines (UCI moves from the start position):
// lines sharing a first move share its record, as in Arena's books,
// except where a line leaves another. Every record has games draws.
func abkTree(t *testing.T, s abk.Settings, lines [][]string, games int32) []byte {
	t.Helper()
	var recs []abk.Record
	var moves []string
	var chain func(prefix []string) int32
	chain = func(prefix []string) int32 {
		first, prev := int32(-1), -1
		var seen []string
		for _, l := range lines {
			if len(l) <= len(prefix) || !slices.Equal(l[:len(prefix)], prefix) || slices.Contains(seen, l[len(prefix)]) {
				continue
			}
			mv := l[len(prefix)]
			seen = append(seen, mv)
			m, err := board.ParseMove(mv)
			if err != nil {
				t.Fatal(err)
			}
			i := len(recs)
			recs = append(recs, abk.Record{From: m.From(), To: m.To(), Priority: 5, Games: games, Next: -1, Sibling: -1})
			moves = append(moves, mv)
			if prev >= 0 {
				recs[prev].Sibling = int32(abk.FirstRecord + i)
			} else {
				first = int32(abk.FirstRecord + i)
			}
			prev = i
			recs[i].Next = chain(append(slices.Clone(prefix), mv))
		}
		return first
	}
	chain(nil)
	data := make([]byte, abk.HeaderSize+len(recs)*abk.RecordSize)
	s.Encode(data)
	for i, r := range recs {
		r.Encode(data[abk.HeaderSize+i*abk.RecordSize:])
	}
	return data
}

// TestInfoBookCastlingAsKingTakesRook: info-book reports a record storing
// castling as the king taking its own rook (e1h1), which no ABK reader
// plays.
func TestInfoBookCastlingAsKingTakesRook(t *testing.T) {
	italian := []string{"e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5"}
	data := abkTree(t, abk.Settings{PriorityImportance: 3, MaxPly: 40},
		[][]string{append(slices.Clone(italian), "e1h1"), append(slices.Clone(italian), "d2d3")}, 10)
	path := filepath.Join(t.TempDir(), "castle.abk")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, "info-book", "-bin", path)
	if code != 0 || !strings.Contains(out, "warning: ABK tree: record 906: e1h1 is castling written as the king taking its own rook (Polyglot's form; ABK writes the king's move, e1g1)") {
		t.Errorf("exit %d: %s%s", code, out, errs)
	}
}

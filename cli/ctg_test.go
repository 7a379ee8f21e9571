package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
)

// ctgBook is a CTG test book of book/ctg's testdata, named by its file
// with extension ext.
func ctgBook(name, ext string) string {
	return filepath.Join("book", "ctg", "testdata", name+ext)
}

// judged is a position's candidates as the book decision judges them,
// in the order of their moves.
type judged struct {
	move          board.Move
	weight        uint16
	learn         book.Learn
	share         float64
	legal, choose bool
}

func judge(c *book.Chooser, b *book.Book, pos *board.Position) []judged {
	var out []judged
	for _, cd := range c.Candidates(b, pos, nil) {
		out = append(out, judged{cd.Move, cd.Entry.Weight, cd.Entry.Learn, cd.Share, cd.Legal, cd.Eligible})
	}
	slices.SortFunc(out, func(x, y judged) int { return int(x.move) - int(y.move) })
	return out
}

// TestCTGConvertRoundTrip: a CTG book converted to Polyglot and probed
// position by position, through every position its walk from the start
// position reaches, offers what the CTG book offers: the same moves with
// the same weights, learn fields, shares and eligibility. To a max ply,
// the positions past it are left out and counted in a warning. Converted
// to ABK, it plays the moves the CTG book plays under the threshold, up to
// the max ply (the others listed, never played).
func TestCTGConvertRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src := ctgBook("games", ".cto")
	bin, short, abkPath := filepath.Join(dir, "games.bin"), filepath.Join(dir, "short.bin"), filepath.Join(dir, "games.abk")
	code, _, errs := runCmd(t, "convert-book", "-in", src, "-out", bin)
	if code != 0 || !strings.Contains(errs, "Polyglot book "+bin+": 2326 entries") || strings.Contains(errs, "warning") {
		t.Fatalf("convert-book: exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd(t, "convert-book", "-in", src, "-out", short, "-max-ply", "4"); code != 0 ||
		!strings.Contains(errs, "positions are not reached by a line of book moves from the start position within 4 plies") {
		t.Fatalf("convert-book -max-ply 4: exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd(t, "convert-book", "-in", src, "-out", abkPath, "-max-ply", "6"); code != 0 {
		t.Fatalf("convert-book to ABK: exit %d: %s", code, errs)
	}
	fromCTG, fromBin, fromShort, fromABK := openBook(t, src), openBook(t, bin), openBook(t, short), openBook(t, abkPath)
	if !fromCTG.FoundByPosition() || abk.InfoOf(fromABK) == nil {
		t.Fatal("not opened as CTG and ABK")
	}
	c := book.NewChooser(book.Options{ThresholdPerMille: 5}, 1)
	r, _ := ctg.ReaderOf(fromCTG)
	positions, moves, castlings := 0, 0, 0
	_, err := r.Walk(board.StartPosition(), 99, ctg.Options{}, func(pos *board.Position, ply int, _ *ctg.Position) error {
		positions++
		want := judge(c, fromCTG, pos)
		if got := judge(c, fromBin, pos); !slices.Equal(got, want) {
			t.Errorf("%s: the converted book offers %+v, the CTG book %+v", pos.FEN(), got, want)
		}
		gotShort := judge(c, fromShort, pos)
		if ply < 4 && !slices.Equal(gotShort, want) || ply >= 4 && len(gotShort) != 0 {
			t.Errorf("%s (ply %d): converted to 4 plies %+v, the CTG book %+v", pos.FEN(), ply, gotShort, want)
		}
		var offered, inABK []board.Move
		for _, j := range want {
			if j.choose { // the ABK book plays what the CTG book plays under the threshold
				offered = append(offered, j.move)
			}
			if pos.ToBook(j.move) != j.move {
				castlings++
			}
		}
		for _, j := range judge(c, fromABK, pos) {
			if j.weight > 0 {
				inABK = append(inABK, j.move)
			}
		}
		if ply < 6 && !slices.Equal(inABK, offered) {
			t.Errorf("%s (ply %d): converted to ABK %v, the CTG book %v", pos.FEN(), ply, inABK, offered)
		}
		moves += len(want)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if positions != 2273 || moves != fromBin.Len() {
		t.Errorf("%d positions, %d moves walked; the converted book has %d entries", positions, moves, fromBin.Len())
	}
	t.Logf("%d positions, %d moves agree (%d castlings)", positions, moves, castlings)
}

// ctgProbe is probe -json of a CTG book: what the book holds of the
// position and of each move under "ctg", beside probe's own fields.
type ctgProbe struct {
	Book    string             `json:"book"`
	CTG     *ctg.PositionFacts `json:"ctg"`
	Entries []struct {
		Move   string         `json:"move"`
		Weight uint16         `json:"weight"`
		Games  uint16         `json:"games"`
		CTG    *ctg.MoveFacts `json:"ctg"`
	} `json:"entries"`
}

// TestCTGTools: every book tool reads a CTG book named by any of its
// files: info-book shows its files and walk, probe its annotations and
// statistics (text and JSON) and the read options' weights, the whole-book
// tools its walk; learning into it is refused.
func TestCTGTools(t *testing.T) {
	code, out, errs := runCmd(t, "info-book", "-bin", ctgBook("games", ".ctb"))
	if code != 0 || !strings.Contains(out, "CTG files:                   60 pages, a table of 511 entries, page bounds 3-255; made from 292 games") ||
		!strings.Contains(out, "2273 in its pages: 2273 reached") || !strings.Contains(out, "entries:                     2326") {
		t.Errorf("info-book: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCmd(t, "info-book", "-bin", ctgBook("overrun", ".ctg"), "-json")
	var info struct {
		Format   string    `json:"format"`
		CTG      *ctg.Info `json:"ctg"`
		Warnings []string  `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &info); code != 0 || err != nil || info.Format != "CTG" || info.CTG == nil || info.CTG.Walk.Unreached != 10 ||
		len(info.CTG.Walk.Problems) != 2 || len(info.Warnings) < 3 {
		t.Errorf("info-book -json of overrun.ctg: exit %d, %v: %s", code, err, out)
	}

	// After 1.d4 the annotations book has every annotation against
	// recommendations 100 to 200 of the positions the moves lead to.
	code, out, errs = runCmd(t, "probe", "-book", ctgBook("annotations", ".ctg"), "-moves", "d2d4", "-json")
	var res ctgProbe
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || res.CTG == nil || len(res.Entries) == 0 {
		t.Fatalf("probe -json: exit %d, %v\n%s%s", code, err, out, errs)
	}
	var avoid, main, annotated int
	for _, e := range res.Entries {
		m := e.CTG
		if m == nil {
			t.Fatalf("%s: no CTG details", e.Move)
		}
		switch {
		case m.Mark == "avoid" && (m.Recommendation < 64 || m.Recommendation > 127):
			t.Errorf("%s: recommendation %d marked %s", e.Move, m.Recommendation, m.Mark)
		case m.Mark == "avoid":
			avoid++
		case m.Mark == "main line":
			main++
		}
		if m.Annotation != "" {
			annotated++
		}
		if m.InBook && e.Games != uint16(m.Games) || (m.Weight == 0) != (e.Weight == 0) {
			t.Errorf("%s: learn games %d, CTG %+v; weight %d", e.Move, e.Games, m, e.Weight)
		}
	}
	if avoid == 0 || main == 0 || annotated == 0 || res.CTG.Games == 0 || res.CTG.TournamentMode {
		t.Errorf("%d avoid, %d main lines, %d annotated; position %+v", avoid, main, annotated, res.CTG)
	}
	code, out, _ = runCmd(t, "probe", "-book", ctgBook("annotations", ".ctg"), "-moves", "d2d4", "-json", "-ctg-tournament-mode")
	var tournament ctgProbe
	if err := json.Unmarshal([]byte(out), &tournament); code != 0 || err != nil || !tournament.CTG.TournamentMode {
		t.Fatalf("probe -ctg-tournament-mode: exit %d, %v", code, err)
	}
	for i, e := range tournament.Entries {
		if e.CTG.Mark == "avoid" && e.Weight != 0 || e.CTG.Mark != "avoid" && (e.Weight == 0) != (res.Entries[i].Weight == 0) {
			t.Errorf("tournament mode: %s (%s) weighs %d, %d without", e.Move, e.CTG.Mark, e.Weight, res.Entries[i].Weight)
		}
	}
	code, out, _ = runCmd(t, "probe", "-book", ctgBook("annotations", ".cto"), "-moves", "d2d4")
	if code != 0 || !strings.Contains(out, "CTG position: ") || !strings.Contains(out, "only move") || !strings.Contains(out, "main line") {
		t.Errorf("probe: exit %d\n%s", code, out)
	}
	// A per-side book: Black's moves from the CTG book, White's not.
	for moves, want := range map[string]string{"e2e4": ctgBook("games", ".ctb"), "": "testdata/book/empty.bin"} {
		code, out, errs = runCmd(t, "probe", "-book", "testdata/book/empty.bin", "-book-black", ctgBook("games", ".ctb"), "-moves", moves, "-json")
		var side ctgProbe
		if err := json.Unmarshal([]byte(out), &side); code != 0 || err != nil || side.Book != want || (side.CTG != nil) != (want != "testdata/book/empty.bin") {
			t.Errorf("probe -book-black CTG -moves %q: exit %d, %v, book %s\n%s", moves, code, err, side.Book, errs)
		}
	}
	code, _, errs = runCmd(t, "probe", "-book", ctgBook("illegal-moves", ".ctg"))
	if code != 0 || strings.Count(errs, "which is not legal there; the move is left out") != 4 {
		t.Errorf("probe of illegal moves: exit %d\n%s", code, errs)
	}

	dir := t.TempDir()
	for _, args := range [][]string{
		{"dump-book", "-bin", ctgBook("games", ".ctb")},
		{"book-to-pgn", "-bin", ctgBook("games", ".cto"), "-depth", "4"},
		{"book-to-openings", "-bin", ctgBook("games", ".ctg"), "-ply", "2"},
		{"merge-book", "-in1", ctgBook("games", ".ctg"), "-in2", ctgBook("small", ".ctg"), "-out", filepath.Join(dir, "m.bin")},
	} {
		if code, out, errs := runCmd(t, args...); code != 0 || len(out)+len(errs) < 50 {
			t.Errorf("%s: exit %d\n%s%s", args[0], code, out, errs)
		}
	}
	merged := openBook(t, filepath.Join(dir, "m.bin"))
	if n := len(entriesIn(merged)); n < 2326 {
		t.Errorf("merge-book: %d entries", n)
	}
	code, _, errs = runCmd(t, "learn", "-book", ctgBook("games", ".ctg"), "-pgn", "testdata/pgn/random.pgn", "-player", "x")
	if code == 0 || !strings.Contains(errs, "the CTG format is read only") {
		t.Errorf("learn into a CTG book: exit %d: %s", code, errs)
	}
}

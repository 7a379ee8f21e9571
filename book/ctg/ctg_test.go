package ctg_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
	"github.com/polyproxy/polyproxy/book/ctg/testdata/ctgwrite"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

func TestPaths(t *testing.T) {
	for _, c := range []struct{ name, ctg, cto, ctb string }{
		{"books/Perfect.ctg", "books/Perfect.ctg", "books/Perfect.cto", "books/Perfect.ctb"},
		{"books/Perfect.cto", "books/Perfect.ctg", "books/Perfect.cto", "books/Perfect.ctb"},
		{`C:\Books\BIG.CTB`, `C:\Books\BIG.ctg`, `C:\Books\BIG.cto`, `C:\Books\BIG.ctb`},
		{"a.b/book.Ctg", "a.b/book.ctg", "a.b/book.cto", "a.b/book.ctb"},
	} {
		g, o, b := ctg.Paths(c.name)
		if c.name == `C:\Books\BIG.CTB` {
			c.ctg, c.cto, c.ctb = `C:\Books\BIG.CTG`, `C:\Books\BIG.CTO`, `C:\Books\BIG.CTB`
		}
		if g != c.ctg || o != c.cto || b != c.ctb {
			t.Errorf("Paths(%q) = %q %q %q", c.name, g, o, b)
		}
	}
	for name, want := range map[string]bool{"x.ctg": true, "x.CTO": true, "x.ctb": true, "x.bin": false, "x.abk": false, "ctg": false, "x.ctgx": false} {
		if ctg.IsPath(name) != want {
			t.Errorf("IsPath(%q) = %v", name, !want)
		}
	}
}

// copyBook copies a test book's three files into dir under name.
func copyBook(t *testing.T, book, dir, name string) string {
	t.Helper()
	for _, ext := range []string{".ctg", ".cto", ".ctb"} {
		data, err := os.ReadFile(filepath.Join("testdata", book+ext))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+ext), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, name)
}

// TestOpenByAnyFile: any of the three names opens the book; a missing
// file is an error naming every file missing.
func TestOpenByAnyFile(t *testing.T) {
	dir := t.TempDir()
	base := copyBook(t, "mirror", dir, "book")
	start, err := board.ParseFEN("r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 8")
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".ctg", ".cto", ".ctb"} {
		b, err := ctg.Open(base + ext)
		if err != nil {
			t.Fatal(err)
		}
		e, err := b.Probe(start, ctg.Options{})
		if err != nil || e == nil || len(e.Moves) != 10 {
			t.Errorf("%s: %v %v", ext, e, err)
		}
		b.Close()
	}
	os.Remove(base + ".cto")
	os.Remove(base + ".ctb")
	_, err = ctg.Open(base + ".ctg")
	if err == nil || !strings.Contains(err.Error(), "book.cto and book.ctb missing") {
		t.Errorf("two files missing: %v", err)
	}
	if _, err := ctg.Open(filepath.Join(dir, "none.ctb")); err == nil || !strings.Contains(err.Error(), "none.ctg and none.cto and none.ctb missing") {
		t.Errorf("no book: %v", err)
	}
}

// TestBooksUpToDate: the committed test books are what the writer makes
// of their specs (go generate ./book/ctg remakes them, and their oracle
// tables when DROIDFISH is set).
func TestBooksUpToDate(t *testing.T) {
	books, err := ctgwrite.TestBooks("../../testdata/pgn/random.pgn")
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range books {
		for _, f := range []struct {
			ext  string
			data []byte
		}{{".ctg", tb.Files.CTG}, {".cto", tb.Files.CTO}, {".ctb", tb.Files.CTB}} {
			got, err := os.ReadFile(filepath.Join("testdata", tb.Name+f.ext))
			if f.data == nil {
				if err == nil {
					t.Errorf("%s%s exists; the book has not got it", tb.Name, f.ext)
				}
				continue
			}
			if err != nil || !bytes.Equal(got, f.data) {
				t.Errorf("%s%s is not what the writer makes (%v): run go generate ./book/ctg", tb.Name, f.ext, err)
			}
		}
		if _, err := os.Stat(filepath.Join("testdata", tb.Name+".oracle.txt")); err != nil {
			t.Errorf("%s has no oracle table: run go generate ./book/ctg with DROIDFISH set", tb.Name)
		}
	}
	tables, _ := filepath.Glob("testdata/*.oracle.txt")
	if len(tables) != len(books) {
		t.Errorf("%d oracle tables for %d books", len(tables), len(books))
	}
}

// TestProbeDetails: what a probe gives beside the moves DroidFish plays:
// the annotation, the statistics of both positions, the moves that lead
// out of the book, a move listed twice, the underpromotion.
func TestProbeDetails(t *testing.T) {
	open := func(name string) *ctg.Book {
		b, err := ctg.Open(filepath.Join("testdata", name+".ctg"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}
	probe := func(b *ctg.Book, fen string) *ctg.Position {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		e, err := b.Probe(p, ctg.Options{})
		if err != nil || e == nil {
			t.Fatalf("%s: %v %v", fen, e, err)
		}
		return e
	}
	find := func(e *ctg.Position, move string) ctg.Move {
		i := slices.IndexFunc(e.Moves, func(m ctg.Move) bool { return m.Move.String() == move })
		if i < 0 {
			t.Fatalf("no %s in %v", move, e.Moves)
		}
		return e.Moves[i]
	}

	e := probe(open("mirror"), "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 8")
	if e.Stats.Games != 30 || e.Stats.Wins != 10 || e.Stats.Losses != 12 || e.Stats.Draws != 8 {
		t.Errorf("position's statistics %+v", e.Stats)
	}
	castle := find(e, "e1g1")
	if castle.Next == nil || castle.Next.Games != 16 || castle.Next.Losses != 9 || castle.Weight != 2*9+4+1e-4 {
		t.Errorf("e1g1: %+v %+v", castle, castle.Next)
	}
	if out := find(e, "a2a3"); out.Next != nil || out.Weight != 0 {
		t.Errorf("a2a3 leads out of the book: %+v", out)
	}

	// Black to move, the same entry read turned over.
	e = probe(open("mirror"), "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R b KQkq - 0 8")
	if m := find(e, "e8g8"); m.Weight != castle.Weight {
		t.Errorf("e8g8 %v, e1g1 %v", m.Weight, castle.Weight)
	}

	// The second queen's six ranks up, stored as 0x1a and 0xf9: one move
	// of twice the weight.
	e = probe(open("promotions"), "4k3/8/8/8/8/8/8/Q3K2Q w - - 0 1")
	if m := find(e, "h1h7"); m.Weight != 2*(2*3+1e-4) || m.Code != 0x1a {
		t.Errorf("h1h7: %+v", m)
	}
	if n := len(e.Moves); n != 7 {
		t.Errorf("%d moves, want 7 (h1h7 once)", n)
	}
	// b7a8: only the knight's position is in the book; b7b8: the queen's.
	e = probe(open("promotions"), "r1b1k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	if m := find(e, "b7a8n"); m.Next == nil || m.Next.Losses != 3 {
		t.Errorf("b7a8n: %+v", m)
	}
	find(e, "b7c8b")
	find(e, "b7b8q")
	// g7g8 in a mirrored position leads out of the book as the queen's.
	e = probe(open("promotions"), "4k3/1P6/8/8/8/8/8/1K6 w - - 0 1")
	if m := find(e, "b7b8q"); m.Next != nil {
		t.Errorf("b7b8q: %+v", m)
	}

	e = probe(open("annotations"), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	anns := map[ctg.Annotation]bool{}
	for _, m := range e.Moves {
		anns[m.Annotation] = true
		if m.Annotation == ctg.Mistake && m.Weight != 0 {
			t.Errorf("%s?: weight %v", m.Move, m.Weight)
		}
	}
	if len(anns) != 11 {
		t.Errorf("annotations %v", anns)
	}
}

// TestWriterNotShipped: the CTG writer is for tests only; the program
// never links it.
func TestWriterNotShipped(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", testenv.Module).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "ctgwrite") {
		t.Error("polyproxy links the test-only CTG writer")
	}
	if !strings.Contains(string(out), testenv.Module+"/book/board") {
		t.Errorf("go list -deps names no book/board: %s", out)
	}
}

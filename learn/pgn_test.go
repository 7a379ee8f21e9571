package learn

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/hostilepgn"
)

var updateFixtures = flag.Bool("update", false, "rewrite testdata/learn/book.bin")

const (
	fixturePGN  = "../testdata/learn/games.pgn"
	fixtureBook = "../testdata/learn/book.bin"
)

// fixtureEntry is a book entry named by the game leading to it.
type fixtureEntry struct {
	fen   string     // "" = start position
	line  string     // SAN moves from there
	move  string     // the book move, as stored
	learn book.Learn // before learning
	want  book.Learn // after learning games.pgn for Alpha (counted by hand)
}

const fixtureFEN = "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq c3 0 2"

var fixtureEntries = []fixtureEntry{
	{"", "", "e2e4", 0, book.MakeLearn(3, 5)},                                                // games 1 (win), 3 (draw), 8 (win)
	{"", "", "d2d4", book.MakeLearn(2, 2), book.MakeLearn(2, 2)},                             // never played
	{"", "e4", "e7e5", book.MakeLearn(1, 0), book.MakeLearn(2, 2)},                           // game 2 (win); games 1, 8: Beta's move
	{"", "e4", "c7c5", 0, 0},                                                                 // Beta's move
	{"", "e4 e5", "g1f3", 0, book.MakeLearn(2, 4)},                                           // games 1, 8 (wins); game 2: Beta's
	{"", "e4 e5 Nf3", "b8c6", 0, book.MakeLearn(1, 2)},                                       // game 2 (win)
	{"", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6", "e1h1", book.MakeLearn(3, 4), book.MakeLearn(4, 6)}, // game 8 (win)
	{fixtureFEN, "", "e7e6", 0, book.MakeLearn(1, 0)},                                        // game 7 (loss)
	{fixtureFEN, "e6", "b1c3", book.MakeLearn(7, 7), book.MakeLearn(7, 7)},                   // Beta's move
}

func (fe fixtureEntry) position(t testing.TB) *board.Position {
	t.Helper()
	pos := board.StartPosition()
	if fe.fen != "" {
		p, err := board.ParseFEN(fe.fen)
		if err != nil {
			t.Fatal(err)
		}
		pos = p
	}
	for _, san := range strings.Fields(fe.line) {
		m, err := board.ParseSAN(pos, san)
		if err != nil {
			t.Fatal(err)
		}
		pos.Play(m)
	}
	return pos
}

func (fe fixtureEntry) entry(t testing.TB) book.Entry {
	m, err := board.ParseMove(fe.move)
	if err != nil {
		t.Fatal(err)
	}
	return book.Entry{Key: fe.position(t).Key(), Move: m, Weight: 100, Learn: fe.learn}
}

func fixtureBytes(t testing.TB) []byte {
	var entries []book.Entry
	for _, fe := range fixtureEntries {
		entries = append(entries, fe.entry(t))
	}
	return fixture.ReadFile(t, fixture.WriteEntries(t, entries))
}

// The committed book is exactly the entries named above (go generate
// ./learn rewrites it).
func TestFixtureBook(t *testing.T) {
	want := fixtureBytes(t)
	if *updateFixtures {
		if err := os.WriteFile(fixtureBook, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := fixture.ReadFile(t, fixtureBook); !bytes.Equal(got, want) {
		t.Fatal("testdata/learn/book.bin differs from fixtureEntries; run go generate ./learn")
	}
}

func learnFixture(t *testing.T, path string) ([]book.LearnUpdate, PGNStats, []SkippedGame) {
	t.Helper()
	b, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pf, err := os.Open(fixturePGN)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	var skipped []SkippedGame
	updates, st, err := FromPGN(pf, b, "Alpha", func(s SkippedGame) { skipped = append(skipped, s) })
	if err != nil {
		t.Fatal(err)
	}
	return updates, st, skipped
}

func TestLearnFromPGN(t *testing.T) {
	for _, castle := range []string{"e1h1", "e1g1"} { // both ways books store castling
		t.Run("castling stored "+castle, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "book.bin")
			data := fixtureBytes(t)
			if castle == "e1g1" {
				for i := 0; i < len(data); i += polyglot.EntrySize {
					if e := polyglot.DecodeEntry(data[i:]); e.Move.String() == "e1h1" {
						e.Move, _ = board.ParseMove("e1g1")
						polyglot.PutEntry(data[i:], e)
					}
				}
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			updates, st, skipped := learnFixture(t, path)
			if st.Games != 8 || st.Skipped != 3 || st.Learned != 5 || len(updates) != 9 {
				t.Errorf("stats %+v, %d updates; want 8 games, 3 skipped, 5 learned, 9 updates", st, len(updates))
			}
			// The players, for a name that plays in no game.
			if want := map[string]int{"Alpha": 7, "Beta": 8, "Gamma": 1}; !reflect.DeepEqual(st.Players, want) {
				t.Errorf("players %v, want %v", st.Players, want)
			}
			reasons := []string{"game 4 (line 26): no result", "game 5 (line 34): Alpha does not play", "game 6 (line 42): ply 3 (2.): illegal move: \"Ke3\""}
			for i, want := range reasons {
				if i >= len(skipped) || !strings.Contains(skipped[i].String(), want) {
					t.Errorf("skipped %d: %v, want %q", i, skipped, want)
				}
			}
			f, err := formats.OpenLearnFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.Apply(t.Context(), updates); err != nil {
				t.Fatal(err)
			}
			after := fixture.ReadFile(t, path)
			for _, fe := range fixtureEntries {
				e := fe.entry(t)
				if castle == "e1g1" && fe.move == "e1h1" {
					e.Move, _ = board.ParseMove("e1g1")
				}
				i, ok := fixture.FirstMatch(after, e.Key, e.Move)
				if !ok {
					t.Fatalf("entry %s %s missing", fe.line, fe.move)
				}
				if got := fixture.LearnAt(after, i); got != fe.want {
					t.Errorf("after %q%q: %s: %v, want %v", fe.fen, fe.line, fe.move, got, fe.want)
				}
			}
			changed := map[int]bool{}
			for i := 0; i < len(data)/polyglot.EntrySize; i++ {
				changed[i] = true
			}
			fixture.AssertOnlyLearnChanged(t, data, after, changed)
		})
	}
}

func TestLearnFromPGNUnreadableGame(t *testing.T) {
	b, err := formats.Open(fixtureBook)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pgn := "[White \"Alpha\"]\n[Black \"Beta\"]\n[Result \"1-0\"]\n\n1. e4 {unclosed comment 1-0\n"
	var skipped []SkippedGame
	updates, st, err := FromPGN(strings.NewReader(pgn), b, "Alpha", func(s SkippedGame) { skipped = append(skipped, s) })
	if err != nil {
		t.Fatal(err)
	}
	if len(updates) != 0 || st.Games != 1 || st.Skipped != 1 || len(skipped) != 1 {
		t.Fatalf("updates %v stats %+v skipped %v", updates, st, skipped)
	}
}

// FuzzFromPGN: any input gives updates only for entries the book has,
// never a panic.
func FuzzFromPGN(f *testing.F) {
	games, err := os.ReadFile(fixturePGN)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(games))
	for _, g := range strings.Split(string(games), "\n\n[Event") {
		f.Add(g)
	}
	f.Add("[White \"Alpha\"]\n[Result \"1-0\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 1-0\n")
	f.Add("[White \"Alpha\"]\n[Black \"Alpha\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n")
	b, err := formats.Open(fixtureBook)
	if err != nil {
		f.Fatal(err)
	}
	defer b.Close()
	f.Fuzz(func(t *testing.T, pgn string) {
		updates, st, err := FromPGN(strings.NewReader(pgn), b, "Alpha", nil)
		if err != nil {
			return
		}
		if st.Skipped > st.Games || st.Learned > st.Games-st.Skipped {
			t.Fatalf("stats %+v", st)
		}
		for _, u := range updates {
			found := false
			for _, e := range b.Entries(u.Key) {
				found = found || e.Move == u.Move
			}
			if !found || u.Result > book.Win {
				t.Fatalf("update %+v is not an entry of the book", u)
			}
		}
	})
}

// A Chess960 game without a Variant tag (as cutechess-cli writes them) is
// learned as Chess960: its FEN's castling rights say so, and its castling
// finds the book's entry instead of making the game illegal.
func TestLearnFromPGNChess960WithoutVariant(t *testing.T) {
	const fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"
	pos, err := board.ParseFENVariant(fen, true)
	if err != nil {
		t.Fatal(err)
	}
	var entries []book.Entry
	for _, san := range []string{"O-O", "O-O-O", "Kh1"} {
		m, err := board.ParseSAN(pos, san)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, book.Entry{Key: pos.Key(), Move: pos.ToBook(m), Weight: 10})
		pos.Play(m)
	}
	b := fixture.OpenPath(t, fixture.WriteEntries(t, entries))
	text := "[White \"Alpha\"]\n[Black \"Beta\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n1. O-O O-O-O 2. Kh1 1-0\n"
	var skipped []SkippedGame
	updates, st, err := FromPGN(strings.NewReader(text), b, "Alpha", func(s SkippedGame) { skipped = append(skipped, s) })
	if err != nil {
		t.Fatal(err)
	}
	if st.Learned != 1 || len(skipped) != 0 || len(updates) != 2 {
		t.Fatalf("stats %+v, skipped %v, updates %v", st, skipped, updates)
	}
	for i, want := range []book.Entry{entries[0], entries[2]} {
		if u := updates[i]; u.Key != want.Key || u.Move != want.Move || u.Result != book.Win {
			t.Errorf("update %d: %+v, want %v %v win", i, u, want.Key, want.Move)
		}
	}
}

// hostilePGN streams a hostile input (internal/hostilepgn) as it is drawn.
func hostilePGN(shape hostilepgn.Shape, size int64) io.Reader {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(hostilepgn.Write(pw, hostilepgn.Options{Shape: shape, Size: size, Seed: 1})) }()
	return pr
}

// TestLearnFromPGNLineOfAnyLength: a game whose comment is a 17 MiB line,
// longer than any line the reader once held, is learned as with a short
// comment, and so are the games after it.
func TestLearnFromPGNLineOfAnyLength(t *testing.T) {
	start := board.StartPosition()
	var entries []book.Entry
	for _, line := range [][]string{{"e4"}, {"d4"}, {"e4", "e5", "Nf3"}, {"e4", "c5", "Nf3"}} {
		pos := *start
		for i, san := range line {
			m, err := board.ParseSAN(&pos, san)
			if err != nil {
				t.Fatal(err)
			}
			if i == len(line)-1 {
				entries = append(entries, book.Entry{Key: pos.Key(), Move: pos.ToBook(m), Weight: 10})
			}
			pos.Play(m)
		}
	}
	b := fixture.OpenPath(t, fixture.WriteEntries(t, entries))
	learn := func(size int64) ([]book.LearnUpdate, PGNStats) {
		updates, st, err := FromPGN(hostilePGN(hostilepgn.CommentOneLine, size), b, "Alpha", nil)
		if err != nil {
			t.Fatalf("a %d-byte comment: %v", size, err)
		}
		return updates, st
	}
	want, wantStats := learn(100)
	if wantStats.Games != 4 || wantStats.Learned != 4 || len(want) != 7 {
		t.Fatalf("the short input: %+v, %v", wantStats, want)
	}
	if got, st := learn(17 << 20); !reflect.DeepEqual(got, want) || !reflect.DeepEqual(st, wantStats) {
		t.Fatalf("with a 17 MiB comment: %+v %v, want %+v %v", st, got, wantStats, want)
	}
}

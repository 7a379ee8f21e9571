package formats_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
)

// sortedBook is a valid Polyglot book of n entries with random keys and
// moves, sorted, whose entry at (when at >= 0) has key k.
func sortedBook(r *rand.Rand, n, at int, k board.Key) []book.Entry {
	es := make([]book.Entry, n)
	for i := range es {
		key := board.Key(r.Uint64() | 1)
		switch {
		case at < 0:
		case i < at:
			key = board.Key(1 + r.Uint64N(uint64(k)-1))
		case i > at:
			key = k + 1 + board.Key(r.Uint64N(^uint64(0)-uint64(k)-1))
		default:
			key = k
		}
		es[i] = book.Entry{Key: key, Move: board.Move(r.Uint32N(1 << 12)), Weight: uint16(r.Uint32N(65536)), Learn: book.Learn(r.Uint32())}
	}
	slices.SortStableFunc(es, book.CompareEntries)
	return es
}

// writeEntries writes es as a book file named name (without the sync of
// polyglot.WriteFile, which hundreds of books would wait for).
func writeEntries(t *testing.T, name string, es []book.Entry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, entryBytes(es), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func entryBytes(es []book.Entry) []byte {
	data := make([]byte, len(es)*polyglot.EntrySize)
	for i, e := range es {
		polyglot.PutEntry(data[i*polyglot.EntrySize:], e)
	}
	return data
}

// TestSortedBookIsPolyglot: a sorted Polyglot book whose 1576th entry's
// key starts with the bytes of a start position's move (e2e3), where an
// ABK book's first record lies, is a Polyglot book: its size is no whole
// number of ABK records. Told by those 3 bytes alone it was read as an ABK
// book, with warnings, and no key found.
func TestSortedBookIsPolyglot(t *testing.T) {
	const n, at, key = 173_301, 1575, board.Key(0x0c14000000123456)
	es := sortedBook(rand.New(rand.NewPCG(1, 2)), n, at, key)
	if es[at].Key != key {
		t.Fatalf("entry %d has key %s", at, es[at].Key)
	}
	path := writeEntries(t, "sniff.bin", es)
	b, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Format() != polyglot.Format || len(b.Warnings()) != 0 {
		t.Fatalf("opened as %s, warnings %q", b.Format().Name(), b.Warnings())
	}
	if got := b.Entries(key); len(got) != 1 || got[0] != es[at] {
		t.Errorf("entries of %s: %+v, want %+v", key, got, es[at])
	}
	lf, err := formats.OpenLearnFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	changes, err := lf.Preview(t.Context(), []book.LearnUpdate{{Key: key, Move: es[at].Move, Result: book.Win}})
	if err != nil || len(changes) != 1 || changes[0].Index != at {
		t.Errorf("learning finds %+v, %v; want entry %d", changes, err, at)
	}
}

// abkLike sets the first 3 bytes of an entry's key to those of a record
// playing a start position's move: what an ABK book's first record
// holds.
func abkLike(r *rand.Rand) board.Key {
	starts := [][2]byte{{1, 16}, {1, 18}, {6, 21}, {6, 23}}
	for f := byte(8); f < 16; f++ {
		starts = append(starts, [2]byte{f, f + 8}, [2]byte{f, f + 16})
	}
	s := starts[r.IntN(len(starts))]
	return board.Key(uint64(s[0])<<56 | uint64(s[1])<<48 | r.Uint64N(1<<40))
}

// randomABK writes an ABK book: random games from the start position
// made into a book and written as a tree (abk.Write), then given random
// settings (all zero at times, as many writers leave the header) and
// some records deleted.
func randomABK(t *testing.T, r *rand.Rand, name string) string {
	t.Helper()
	var es []book.Entry
	for range 1 + r.IntN(40) {
		pos := board.StartPosition()
		for range 1 + r.IntN(16) {
			moves := pos.LegalMoves()
			if len(moves) == 0 {
				break
			}
			m := moves[r.IntN(len(moves))]
			es = append(es, book.Entry{Key: pos.Key(), Move: pos.ToBook(m), Weight: uint16(1 + r.IntN(100)), Learn: book.Learn(r.IntN(10)<<16 | r.IntN(20))})
			pos.Play(m)
		}
	}
	path := filepath.Join(t.TempDir(), name)
	if _, err := abk.Write(path, book.FromEntries(name, es), 1+r.IntN(20)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := abk.Settings{}
	if r.IntN(3) > 0 {
		s = abk.Settings{MinGames: r.Int32N(3), PriorityImportance: r.Int32N(16), GamesImportance: r.Int32N(16),
			ScoreImportance: r.Int32N(16), MaxPly: r.Int32N(100)}
	}
	s.Encode(data)
	for i := abk.HeaderSize; i+abk.RecordSize <= len(data); i += abk.RecordSize {
		if r.IntN(10) == 0 {
			rec := abk.DecodeRecord(data[i:])
			rec.Flags = 0x01000000
			rec.Encode(data[i:])
		}
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNoBookTakenForTheOther: no valid Polyglot book is taken for an ABK
// book, and no ABK book for a Polyglot book, whatever their names; only
// a file both formats' facts fit follows its name (a Polyglot book named
// .abk whose size is a whole number of records and whose first record
// would be a start position's move), and the test makes such files on
// purpose.
func TestNoBookTakenForTheOther(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 30))
	names := []string{"book.bin", "book", "book.dat", "book.abk", "BOOK.ABK"}
	polyglotBooks, ties, abkBooks := 0, 0, 0
	for i := range 400 {
		// Sizes about an ABK header's, and a whole number of 28-byte
		// records half of the time; the entry where an ABK book's first
		// record lies looks like one half of the time.
		n := 1576 + r.IntN(3000)
		if i%2 == 0 {
			n -= n % 7
		}
		at, key := -1, board.Key(0)
		if i%4 < 2 {
			at, key = 1575, abkLike(r)
		}
		es := sortedBook(r, n, at, key)
		name := names[i%len(names)]
		path := writeEntries(t, name, es)
		got, err := formats.Recognise(path)
		if err != nil {
			t.Fatal(err)
		}
		polyglotBooks++
		tie := abk.Format.Fits(openFile(t, path), int64(n*polyglot.EntrySize)) == nil
		if tie {
			ties++
		}
		if want := formats.Claimed(name); tie && got != want || !tie && got != polyglot.Format {
			t.Errorf("a Polyglot book of %d entries named %s (fits ABK too: %v) was taken for %s", n, name, tie, got.Name())
		}
	}
	for i := range 120 { // each written with a sync (abk.Write)
		name := names[i%len(names)]
		path := randomABK(t, r, name)
		got, err := formats.Recognise(path)
		if err != nil {
			t.Fatal(err)
		}
		abkBooks++
		if got != abk.Format {
			st, _ := os.Stat(path)
			t.Errorf("an ABK book of %d bytes named %s was taken for %s", st.Size(), name, got.Name())
		}
	}
	if ties == 0 {
		t.Error("no Polyglot book fit the ABK format too: the tie is not tested")
	}
	t.Logf("%d Polyglot books (%d fitting ABK too), %d ABK books", polyglotBooks, ties, abkBooks)
}

func openFile(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestFitsNeither: a file that fits no format is read as the format its
// name claims, whose reader says what is wrong: a Polyglot book with a
// stray byte, a cut ABK book, a file too short to be an ABK book.
func TestFitsNeither(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	bin := entryBytes(sortedBook(r, 3000, -1, 0))
	abkData, err := os.ReadFile(randomABK(t, r, "x.abk"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		data   []byte
		format book.Format
		says   string // in the error, or a warning
	}{
		{"stray.bin", append(slices.Clone(bin), 0), polyglot.Format, "not a multiple of 16"},
		{"stray", append(slices.Clone(bin), 0), polyglot.Format, "not a multiple of 16"},
		{"cut.abk", abkData[:len(abkData)-3], abk.Format, "not a whole number of 28-byte records"},
		{"short.abk", abkData[:1000], abk.Format, "ABK book of 1000 bytes: too short"},
	} {
		path := write(c.name, c.data)
		f, err := formats.Recognise(path)
		if err != nil || f != c.format {
			t.Errorf("%s: recognised as %v, %v; want %s", c.name, f, err, c.format.Name())
			continue
		}
		b, err := formats.Open(path)
		said := fmt.Sprint(err)
		if err == nil {
			said = strings.Join(b.Warnings(), "; ")
			b.Close()
		}
		if !strings.Contains(said, c.says) {
			t.Errorf("%s: %q does not say %q", c.name, said, c.says)
		}
	}
}

// copyCTG copies the CTG test book name into dir as base, with the
// extensions exts (their case as given).
func copyCTG(t *testing.T, name, dir, base string, exts [3]string) {
	t.Helper()
	for i, ext := range []string{".ctg", ".cto", ".ctb"} {
		data, err := os.ReadFile(filepath.Join("..", "ctg", "testdata", name+ext))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, base+exts[i]), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCTGByName: a CTG book is named by any of its three files, in any
// case, and recognised by that name alone (its files have no signature):
// opened for the book decision it is found a position at a time, with the
// read options' weights; opened whole it is the walk's entries; it is read
// only. A missing file is named.
func TestCTGByName(t *testing.T) {
	dir := t.TempDir()
	copyCTG(t, "annotations", dir, "book", [3]string{".ctg", ".cto", ".ctb"})
	copyCTG(t, "annotations", dir, "UPPER", [3]string{".CTG", ".CTO", ".CTB"})
	start := board.StartPosition()
	for _, name := range []string{"book.ctg", "book.cto", "book.ctb", "UPPER.CTG", "UPPER.cto"} {
		path := filepath.Join(dir, name)
		if f := formats.Claimed(path); f.Name() != "CTG" {
			t.Errorf("%s claimed by %s", name, f.Name())
		}
		f, err := formats.Recognise(path)
		if err != nil || f.Name() != "CTG" {
			t.Fatalf("%s: %v, %v", name, f, err)
		}
		if name == "UPPER.cto" {
			// The extension's case names the others: on a file system that
			// tells case apart, they are missing.
			if _, err := formats.Open(path); err == nil || !strings.Contains(err.Error(), "UPPER.ctg and UPPER.cto and UPPER.ctb missing") {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		b, err := formats.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if !b.FoundByPosition() || len(b.Warnings()) != 0 {
			t.Errorf("%s: found by position %v, warnings %q", name, b.FoundByPosition(), b.Warnings())
		}
		b.Close()
		if _, err := formats.OpenLearnFile(path); err == nil || !strings.Contains(err.Error(), "the CTG format is read only") {
			t.Errorf("%s learned into: %v", name, err)
		}
	}

	// The read options reach the weights: tournament mode leaves the
	// moves into positions to avoid at 0 (after 1.e4, most of them).
	e4 := start.Next(board.NewMove(board.NewSquare(4, 1), board.NewSquare(4, 3), board.NoPromo))
	weights := func(o formats.Options) (map[board.Move]uint16, int) {
		b, err := formats.OpenWith(filepath.Join(dir, "book.ctg"), o)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		w, zero := map[board.Move]uint16{}, 0
		for _, f := range b.At(e4, nil) {
			w[f.Entry.Move] = f.Entry.Weight
			if f.Entry.Weight == 0 {
				zero++
			}
		}
		return w, zero
	}
	plain, zeroPlain := weights(formats.Options{})
	tournament, zeroTournament := weights(formats.Options{CTGTournamentMode: true})
	if len(plain) == 0 || len(plain) != len(tournament) || zeroTournament <= zeroPlain {
		t.Errorf("after 1.e4: %d moves, %d of weight 0; in tournament mode %d, %d of weight 0", len(plain), zeroPlain, len(tournament), zeroTournament)
	}

	whole, err := formats.OpenWhole(filepath.Join(dir, "book.ctb"), formats.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	if whole.FoundByPosition() || len(whole.Entries(e4.Key())) != len(plain) || ctg.InfoOf(whole).Walk == nil {
		t.Errorf("read whole: found by position %v, %d entries after 1.e4", whole.FoundByPosition(), len(whole.Entries(e4.Key())))
	}
	// A Polyglot book is read whole as it is.
	bin := writeEntries(t, "p.bin", sortedBook(rand.New(rand.NewPCG(3, 4)), 100, -1, 0))
	p, err := formats.OpenWhole(bin, formats.Options{}, 0)
	if err != nil || p.Format() != polyglot.Format || p.Len() != 100 {
		t.Fatalf("a Polyglot book read whole: %v", err)
	}
	p.Close()
}

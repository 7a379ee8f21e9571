package book

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var updateFixtures = flag.Bool("update-fixtures", false, "rewrite testdata/book from the specs in fixtures_test.go")

const fixtureDir = "../testdata/book"

// stored is one entry of a fixture position: the move as a book stores it.
type stored struct {
	move   string // UCI form as stored; "" with code set for raw codes
	code   Move   // raw move code when move is ""
	weight uint16
	learn  uint32
}

type fixturePos struct {
	name, fen string
	entries   []stored
}

// oddities are the positions of oddities.bin: each one a thing real books
// do that a reader must get right.
var oddities = []fixturePos{
	{"start: a weight-0 move and a null move", StartFEN, []stored{
		{move: "e2e4", weight: 10}, {move: "d2d4", weight: 0}, {code: 0, weight: 5}, {move: "g1f3", weight: 30, learn: 3<<16 | 4},
	}},
	{"all weights zero", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", []stored{
		{move: "e7e5", weight: 0}, {move: "c7c5", weight: 0},
	}},
	{"castling stored king-to-rook", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", []stored{
		{move: "e1h1", weight: 159}, {move: "e1a1", weight: 18}, {move: "h2h3", weight: 16},
	}},
	{"castling stored king-to-destination", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", []stored{
		{move: "e8g8", weight: 7}, {move: "e8c8", weight: 3},
	}},
	{"a rook on e1 moving to h1", "k7/8/8/8/8/8/8/3KR3 w - - 0 1", []stored{
		{move: "e1h1", weight: 5}, {move: "e1e7", weight: 5},
	}},
	{"underpromotions and a bad promotion code", "8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", []stored{
		{move: "b7b8q", weight: 10}, {move: "b7b8n", weight: 10}, {move: "b7b8r", weight: 10}, {move: "b7b8b", weight: 10},
		{code: NewMove(49, 57, 5), weight: 50},
	}},
	{"en passant with an adjacent pawn", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", []stored{
		{move: "e5d6", weight: 4}, {move: "e5e6", weight: 1},
	}},
	{"a double push without an adjacent pawn", "4k3/8/8/3p4/8/4P3/8/4K3 w - d6 0 1", []stored{
		{move: "e3e4", weight: 1},
	}},
	{"en passant by a pinned pawn", "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", []stored{
		{move: "e5d6", weight: 9}, {move: "a5b6", weight: 1},
	}},
	{"below the threshold and an illegal entry", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", []stored{
		{move: "e2e4", weight: 1000}, {move: "e2e3", weight: 4}, {move: "e1e3", weight: 60000},
	}},
}

func (s stored) entry(t testing.TB, key Key) Entry {
	m := s.code
	if s.move != "" {
		var err error
		if m, err = ParseMove(s.move); err != nil {
			t.Fatal(err)
		}
	}
	return Entry{Key: key, Move: m, Weight: s.weight, Learn: s.learn}
}

func fixtureKey(t testing.TB, fen string) Key {
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p.Key()
}

// bookBytes lays out the positions' entries sorted by key (file order
// within a key kept), as a book writer must.
func bookBytes(t testing.TB, poss []fixturePos) []byte {
	var es []Entry
	for _, p := range poss {
		k := fixtureKey(t, p.fen)
		for _, s := range p.entries {
			es = append(es, s.entry(t, k))
		}
	}
	slices.SortStableFunc(es, func(a, b Entry) int {
		if a.Key < b.Key {
			return -1
		}
		if a.Key > b.Key {
			return 1
		}
		return 0
	})
	var out []byte
	for _, e := range es {
		out = AppendEntry(out, e)
	}
	return out
}

// headerBytes encodes an @PG@ header as key-0 entries.
func headerBytes(text string) []byte {
	raw := []byte(text)
	for len(raw)%8 != 0 {
		raw = append(raw, 0)
	}
	var out []byte
	for i := 0; i < len(raw); i += 8 {
		out = append(out, make([]byte, 8)...)
		out = append(out, raw[i:i+8]...)
	}
	return out
}

const fixtureHeader = "@PG@\n1.0\n2\n1\nnormal\nSynthetic test book for polyproxy"

// fixtures are the files of testdata/book, built from the specs above.
func fixtures(t testing.TB) map[string][]byte {
	odd := bookBytes(t, oddities)
	start := bookBytes(t, oddities[:1])
	unsorted := slices.Clone(odd)
	// Swap the first and last entries: keys out of order at entry 1.
	first := slices.Clone(unsorted[:EntrySize])
	copy(unsorted[:EntrySize], unsorted[len(unsorted)-EntrySize:])
	copy(unsorted[len(unsorted)-EntrySize:], first)
	return map[string][]byte{
		"oddities.bin": odd,
		"header.bin":   append(headerBytes(fixtureHeader), odd...),
		"trailing.bin": append(slices.Clone(start), 0x0a),
		"unsorted.bin": unsorted,
		"empty.bin":    {},
	}
}

func TestFixturesUpToDate(t *testing.T) {
	for name, want := range fixtures(t) {
		path := filepath.Join(fixtureDir, name)
		if *updateFixtures {
			if err := os.MkdirAll(fixtureDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (regenerate with go test ./book -run Fixtures -update-fixtures)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: regenerate with go test ./book -run Fixtures -update-fixtures", path)
		}
	}
}

// openFixture opens a fixture of testdata/book (read-only use).
func openFixture(t testing.TB, name string) *Book {
	t.Helper()
	b, err := Open(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// writeBook writes raw bytes as a book in a temp dir and opens it.
func writeBook(t testing.TB, data []byte) *Book {
	t.Helper()
	path := filepath.Join(t.TempDir(), "book.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

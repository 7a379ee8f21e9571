package abk_test

import (
	"bufio"
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
)

// oracleLine is one position of an oracle table: the moves that reach it
// and what DroidFish's reader offers there.
type oracleLine struct {
	moves  string
	offers []oracleOffer
}

type oracleOffer struct {
	move   string
	weight float64
}

// readOracle reads a table of testdata/abk (its README gives the format).
func readOracle(t *testing.T, path string) []oracleLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []oracleLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		moves, offers, ok := strings.Cut(text, "|")
		if !ok {
			t.Fatalf("%s: no '|' in %q", path, text)
		}
		l := oracleLine{moves: strings.TrimSpace(moves)}
		if l.moves == "start" {
			l.moves = ""
		}
		for _, o := range strings.Fields(offers) {
			i := strings.LastIndexByte(o, ':')
			w, err := strconv.ParseFloat(o[i+1:], 64)
			if i < 0 || err != nil {
				t.Fatalf("%s: bad offer %q", path, o)
			}
			l.offers = append(l.offers, oracleOffer{o[:i], w})
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// playable is the position after moves, or nil when one of them is not
// legal (a table walks what DroidFish lists, corrupt moves included).
func playable(moves string) *board.Position {
	l, err := board.NewLine("")
	if err != nil {
		panic(err)
	}
	if moves != "" && l.PlayMoves(strings.Fields(moves), 0) != nil {
		return nil
	}
	return &l.Pos
}

// droidFishPlays is what DroidFish's chooser plays from a line's offers:
// the moves of weight above 0 and their shares, or nothing at all when an
// offered move is illegal there (its chooser then gives no book move).
func droidFishPlays(pos *board.Position, offers []oracleOffer) map[string]float64 {
	var sum float64
	for _, o := range offers {
		m, err := board.ParseMove(o.move)
		if err != nil {
			return nil
		}
		if _, err := pos.LegalMove(m); err != nil {
			return nil
		}
		sum += o.weight
	}
	plays := map[string]float64{}
	for _, o := range offers {
		if o.weight > 0 {
			plays[o.move] = o.weight / sum
		}
	}
	return plays
}

// polyproxyPlays is the moves of weight above 0 that b has at pos and
// their shares.
func polyproxyPlays(b *book.Book, pos *board.Position) map[string]float64 {
	var sum float64
	entries := b.Entries(pos.Key())
	for _, e := range entries {
		sum += float64(e.Weight)
	}
	plays := map[string]float64{}
	for _, e := range entries {
		if e.Weight > 0 {
			plays[pos.ToPlayed(e.Move).String()] = float64(e.Weight) / sum
		}
	}
	return plays
}

// Where a book is corrupt, DroidFish loses more than the fault: polyproxy
// reports the fault and serves the rest of the position. These are the
// positions where polyproxy's answer is that target, not DroidFish's.
var abkBeyondDroidFish = map[string]map[string]string{
	// DroidFish lists the illegal ...Qh4 and its chooser then gives
	// nothing; polyproxy skips the move alone.
	"illegal-move.abk": {"e2e4": "e7e5"},
	// DroidFish gives up on the looping chain: polyproxy offers each
	// record once. (On the loop of deleted records, which DroidFish never
	// leaves, both offer nothing.)
	"cycle-siblings.abk": {"e2e4": "c7c5 e7e5"},
	// DroidFish cannot read the far sibling of ...Nf6 and loses the whole
	// position; polyproxy keeps ...Nf6 and ...d5 before the bad pointer.
	"pointer-past-end.abk": {"d2d4": "d7d5 g8f6"},
	// The cut last record is the sibling of ...e6: DroidFish's read of it
	// fails and loses the position, polyproxy keeps ...e6.
	"truncated.abk": {"d2d4 d7d5 c2c4": "e7e6"},
	// DroidFish lists castling written e1h1 (e8h8) and its chooser then
	// gives nothing; polyproxy skips those records alone.
	"castle-rook.abk": {"e2e4 e7e5 g1f3 g8f6 f1c4 f8c5": "d2d3", "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 d2d3": "d7d6"},
}

// abkCorrupt are the books with faults in their trees, each of which
// must be reported (and no problem in the others).
var abkCorrupt = map[string]bool{"cycle-siblings.abk": true, "cycle-deleted.abk": true, "cycle-line.abk": true,
	"illegal-move.abk": true, "pointer-past-end.abk": true, "truncated.abk": true, "castle-rook.abk": true}

// TestABKAgainstDroidFish: on every position of every book in
// testdata/abk, polyproxy plays the moves DroidFish's reader plays, with
// the same shares; where two move orders reach one position polyproxy
// plays the union of their branches (the one difference allowed), and on
// corrupt books the positions in abkBeyondDroidFish.
func TestABKAgainstDroidFish(t *testing.T) {
	tables, err := filepath.Glob("testdata/*.oracle.txt")
	if err != nil || len(tables) == 0 {
		t.Fatalf("no oracle tables in testdata/abk: %v", err)
	}
	shares, unions, beyond := 0, 0, 0
	for _, table := range tables {
		name := strings.TrimSuffix(filepath.Base(table), ".oracle.txt") + ".abk"
		t.Run(name, func(t *testing.T) {
			lines := readOracle(t, table)
			b, err := formats.Open(filepath.Join("testdata", name))
			if err != nil {
				// Only a file too short for any move may fail to open, and
				// DroidFish must offer nothing in it either.
				if len(lines) != 1 || len(lines[0].offers) != 0 || !strings.Contains(err.Error(), "too short") {
					t.Fatal(err)
				}
				return
			}
			defer b.Close()
			if problems := abk.InfoOf(b).Problems; (len(problems) > 0) != abkCorrupt[name] {
				t.Errorf("problems reported: %v; corrupt book: %v", problems, abkCorrupt[name])
			}
			// Lines by position: a transposition (or a cycle) gives one
			// position several lines.
			byKey := map[board.Key][]oracleLine{}
			var order []board.Key
			for _, l := range lines {
				pos := playable(l.moves)
				if pos == nil {
					t.Fatalf("the table walks an illegal line %q", l.moves)
				}
				if byKey[pos.Key()] == nil {
					order = append(order, pos.Key())
				}
				byKey[pos.Key()] = append(byKey[pos.Key()], l)
			}
			for _, key := range order {
				ls := byKey[key]
				pos := playable(ls[0].moves)
				got := polyproxyPlays(b, pos)
				if want, ok := abkBeyondDroidFish[name][ls[0].moves]; ok {
					beyond++
					if moves := sortedKeys(got); strings.Join(moves, " ") != want {
						t.Errorf("after %q: polyproxy plays %v, want %s (serving what the fault leaves)", ls[0].moves, moves, want)
					}
					continue
				}
				union := map[string]bool{}
				same := true
				var first map[string]float64
				for i, l := range ls {
					plays := droidFishPlays(pos, l.offers)
					for m := range plays {
						union[m] = true
					}
					if i == 0 {
						first = plays
					} else if !sameShares(plays, first) {
						same = false
					}
				}
				if !slices.Equal(sortedKeys(got), sortedKeys(union)) {
					t.Errorf("after %q: polyproxy plays %v, DroidFish %v", ls[0].moves, sortedKeys(got), sortedKeys(union))
					continue
				}
				if same && !sameShares(got, first) {
					t.Errorf("after %q: polyproxy's shares %v, DroidFish's %v", ls[0].moves, got, first)
				}
				if same {
					shares++
				} else {
					unions++
				}
			}
		})
	}
	t.Logf("%d positions: %d with DroidFish's moves and shares, %d reached by lines DroidFish reads apart (the moves of all), %d served beyond what a fault leaves DroidFish",
		shares+unions+beyond, shares, unions, beyond)
}

// sameShares reports two sets of moves with shares equal within what a
// 16-bit Polyglot weight and a Java float keep.
func sameShares(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for m, s := range a {
		o, ok := b[m]
		if !ok || math.Abs(s-o) > 1e-4 {
			return false
		}
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

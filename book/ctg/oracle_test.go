package ctg_test

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
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
)

// settings are the oracle tables' four columns: tournament mode and
// prefer-main-lines off/off, on/off, off/on, on/on.
var settings = [4]ctg.Options{{}, {TournamentMode: true}, {PreferMainLines: true}, {TournamentMode: true, PreferMainLines: true}}

// oracleLine is one position of an oracle table and what DroidFish's
// reader offers there under each setting.
type oracleLine struct {
	fen     string
	columns [4][]oracleOffer
}

type oracleOffer struct {
	move   string
	weight float64
}

// readOracle reads a table of testdata (README.md there gives the format).
func readOracle(t *testing.T, path string) []oracleLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []oracleLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		parts := strings.Split(text, "|")
		if len(parts) != 5 {
			t.Fatalf("%s: %d columns in %q", path, len(parts), text)
		}
		l := oracleLine{fen: strings.TrimSpace(parts[0])}
		for k, col := range parts[1:] {
			if strings.TrimSpace(col) == "=" {
				l.columns[k] = l.columns[k-1]
				continue
			}
			for _, o := range strings.Fields(col) {
				i := strings.LastIndexByte(o, ':')
				w, err := strconv.ParseFloat(o[i+1:], 64)
				if i < 0 || err != nil {
					t.Fatalf("%s: bad offer %q", path, o)
				}
				l.columns[k] = append(l.columns[k], oracleOffer{o[:i], w})
			}
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// droidFishPlays is what DroidFish plays from offers at pos: the moves of
// weight above 0 with their shares; illegal reports that an offered move
// is not legal there, whereupon DroidFish's chooser plays no book move at
// all (the shares are then those of the legal moves, which polyproxy
// plays instead).
func droidFishPlays(t *testing.T, pos *board.Position, offers []oracleOffer) (plays map[string]float64, illegal bool) {
	var sum float64
	var legal []oracleOffer
	for _, o := range offers {
		m, err := board.ParseMove(o.move)
		if err != nil {
			t.Fatalf("bad move %q in the table", o.move)
		}
		if _, err := pos.LegalMove(m); err != nil {
			illegal = true
			continue
		}
		legal = append(legal, o)
		sum += o.weight
	}
	plays = map[string]float64{}
	for _, o := range legal {
		if o.weight > 0 {
			plays[o.move] += o.weight / sum
		}
	}
	return plays, illegal
}

// polyproxyPlays is the moves of weight above 0 the book has at pos and
// their shares.
func polyproxyPlays(t *testing.T, b *ctg.Book, pos *board.Position, opt ctg.Options) map[string]float64 {
	e, err := b.Probe(pos, opt)
	if err != nil {
		t.Fatal(err)
	}
	plays := map[string]float64{}
	if e == nil {
		return plays
	}
	var sum float64
	for _, m := range e.Moves {
		sum += m.Weight
	}
	for _, m := range e.Moves {
		if m.Weight > 0 {
			plays[m.Move.String()] = m.Weight / sum
		}
	}
	return plays
}

// chooserPlays is what the book decision plays at pos from a CTG book
// opened as a book.Book: the legal moves of weight above 0 and their
// shares, as the Chooser sees them (Polyglot weights, the heaviest 65535).
func chooserPlays(c *book.Chooser, b *book.Book, pos *board.Position) map[string]float64 {
	plays := map[string]float64{}
	for _, cd := range c.Candidates(b, pos, nil) {
		if cd.Legal && cd.Weight > 0 {
			plays[cd.Move.String()] = cd.Share
		}
	}
	return plays
}

// withoutUnderpromotions takes out of got the underpromotions polyproxy
// plays where DroidFish offers the queen's promotion of the same pawn
// move with weight 0 (DroidFish reads every promotion as the queen's,
// whose position the book has not got there), and shares the rest out
// anew; it returns how many it took out.
func withoutUnderpromotions(got map[string]float64, offers []oracleOffer) int {
	n := 0
	for _, o := range offers {
		if o.weight != 0 || len(o.move) != 5 || o.move[4] != 'q' {
			continue
		}
		for _, p := range "nrb" {
			if _, ok := got[o.move[:4]+string(p)]; ok {
				delete(got, o.move[:4]+string(p))
				n++
			}
		}
	}
	if n > 0 {
		renormalize(got)
	}
	return n
}

func renormalize(plays map[string]float64) {
	var sum float64
	for _, s := range plays {
		sum += s
	}
	for m, s := range plays {
		plays[m] = s / sum
	}
}

// sameShares reports two sets of moves with shares within 1e-4.
func sameShares(a, b map[string]float64) bool { return sharesWithin(a, b, 1e-4) }

func sharesWithin(a, b map[string]float64, tolerance float64) bool {
	if len(a) != len(b) {
		return false
	}
	for m, s := range a {
		o, ok := b[m]
		if !ok || math.Abs(s-o) > tolerance {
			return false
		}
	}
	return true
}

// corruptBooks are the books with faults, what a problem of each must
// say, and the book they were damaged from.
var corruptBooks = map[string]struct {
	problems []string
	source   string
	// openError: the book cannot be opened at all, with this error.
	openError string
}{
	"page-out-of-range.ctg": {problems: []string{"names page 9999, out of range"}, source: "small"},
	"overrun.ctg":           {problems: []string{"page 2: its counts overrun it", "page 3: its counts overrun it"}, source: "small"},
	"truncated-ctg.ctg":     {problems: []string{"the file is cut short in page"}, source: "small"},
	"truncated-cto.ctg":     {problems: []string{"the table has 20 entries", "the file is cut short"}, source: "small"},
	"illegal-moves.ctg": {problems: []string{"move byte 0x81", "move byte 0x2e", "move byte 0x6b", "move byte 0x8b",
		"move byte 0x03 (queen 1", "which has 1", "move byte 0x02 (no move has it)", "move byte 0x34", "which is not legal there"}, source: "small"},
	"missing-cto.ctg": {openError: "missing-cto.cto missing", source: "small"},
	"short-ctb.ctg":   {openError: "too short for its page bounds", source: "small"},
}

// TestAgainstDroidFish: on every position of every oracle table, under
// each of the four settings, polyproxy plays the moves DroidFish's reader
// plays with the same shares (within 1e-4). The differences allowed, each
// counted:
//   - an underpromotion: DroidFish reads every pawn move to the last rank
//     as the queen's promotion; where the book has not got the position
//     after it but has another piece's, polyproxy plays that one
//     (withoutUnderpromotions);
//   - a move not legal where it stands: DroidFish's chooser then plays no
//     book move in the position; polyproxy leaves the move out and plays
//     the others, by DroidFish's weights;
//   - a corrupt book's fault that ends DroidFish's whole query (an I/O
//     error: a page past the end, a file cut short): DroidFish offers
//     nothing, polyproxy passes the fault over and plays the moves
//     DroidFish plays in the sound book (those whose next position the
//     fault has lost weigh 0).
func TestAgainstDroidFish(t *testing.T) {
	tables, err := filepath.Glob("testdata/*.oracle.txt")
	if err != nil || len(tables) == 0 {
		t.Fatalf("no oracle tables in testdata: %v", err)
	}
	var positions, compared, underpromotions, illegalPositions, faultsPassed, chosen, resolution int
	chooser := book.NewChooser(book.Options{}, 1)
	for _, table := range tables {
		name := strings.TrimSuffix(filepath.Base(table), ".oracle.txt") + ".ctg"
		t.Run(name, func(t *testing.T) {
			lines := readOracle(t, table)
			corrupt, isCorrupt := corruptBooks[name]
			b, err := ctg.Open(filepath.Join("testdata", name))
			if err != nil {
				if !isCorrupt || corrupt.openError == "" || !strings.Contains(err.Error(), corrupt.openError) {
					t.Fatal(err)
				}
				for _, l := range lines {
					for _, col := range l.columns {
						if len(col) > 0 {
							t.Fatalf("DroidFish reads the book polyproxy cannot open (%v)", err)
						}
					}
				}
				return
			}
			defer b.Close()
			if isCorrupt && corrupt.openError != "" {
				t.Fatalf("opened a book that should fail with %q", corrupt.openError)
			}
			// The book as the book decision reads it, under each setting.
			var views [len(settings)]*book.Book
			for k, opt := range settings {
				if views[k], err = ctg.WithOptions(opt).Open(filepath.Join("testdata", name)); err != nil {
					t.Fatal(err)
				}
				defer views[k].Close()
			}
			var source map[board.Key]oracleLine
			if isCorrupt {
				source = map[board.Key]oracleLine{}
				for _, l := range readOracle(t, filepath.Join("testdata", corrupt.source+".oracle.txt")) {
					source[mustFEN(t, l.fen).Key()] = l
				}
			}
			for _, l := range lines {
				pos := mustFEN(t, l.fen)
				positions++
				for k, opt := range settings {
					compared++
					want, illegal := droidFishPlays(t, pos, l.columns[k])
					if illegal {
						illegalPositions++
					}
					got := polyproxyPlays(t, b, pos, opt)
					viewed := chooserPlays(chooser, views[k], pos)
					switch {
					case sameShares(viewed, got):
						if len(got) > 0 {
							chosen++
						}
					case sharesWithin(viewed, got, float64(len(got))/65535):
						// A Polyglot weight is a 65535th of the heaviest
						// move's, and a move above 0 weighs at least 1 (it
						// is still played, as DroidFish plays it): with
						// main lines preferred the other moves weigh a
						// millionth, so each share is off by up to
						// 1/65535.
						resolution++
					default:
						t.Errorf("%s (setting %d): the book decision plays %v, the reader %v", l.fen, k, viewed, got)
					}
					underpromotions += withoutUnderpromotions(got, l.columns[k])
					if len(l.columns[k]) == 0 && len(got) > 0 && isCorrupt {
						// DroidFish's query ended in an I/O error.
						sound, _ := droidFishPlays(t, pos, source[pos.Key()].columns[k])
						for m := range sound {
							if _, ok := got[m]; !ok {
								delete(sound, m)
							}
						}
						renormalize(sound)
						if !sameShares(got, sound) {
							t.Errorf("%s (setting %d): polyproxy plays %v past the fault, DroidFish in the sound book %v", l.fen, k, got, sound)
						}
						faultsPassed++
						continue
					}
					if !sameShares(got, want) {
						t.Errorf("%s (setting %d): polyproxy plays %v, DroidFish %v", l.fen, k, got, want)
					}
				}
			}
			problems := b.Problems()
			if !isCorrupt && len(problems) > 0 {
				t.Errorf("problems in a sound book: %v", problems)
			}
			seen := map[string]bool{}
			for _, p := range problems {
				if seen[p.Error()] {
					t.Errorf("problem reported twice: %v", p)
				}
				seen[p.Error()] = true
			}
			for _, want := range corrupt.problems {
				if !slices.ContainsFunc(problems, func(p ctg.Problem) bool { return strings.Contains(p.Error(), want) }) {
					t.Errorf("no problem says %q; problems: %v", want, problems)
				}
			}
		})
	}
	t.Logf("%d books, %d positions, %d (position, setting) pairs compared; allowed differences: %d underpromotions, %d with a move DroidFish lists illegally, %d past a fault DroidFish's query stops at. The book decision (book.Book, Chooser) plays the reader's moves with its shares within 1e-4 in %d pairs with moves, within the Polyglot weight's resolution (moves/65535) in %d",
		len(tables), positions, compared, underpromotions, illegalPositions, faultsPassed, chosen, resolution)
}

func mustFEN(t *testing.T, fen string) *board.Position {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

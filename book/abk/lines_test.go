package abk_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
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

// A model of how a reader that follows the game's moves, as Arena's and
// DroidFish's do, reads an ABK book (testdata/README.md gives the facts,
// TestLineModelAgainstDroidFish holds it to DroidFish's reader on every
// table): from record 900, each move of the game is matched to the first
// live record of the chain that plays it, and the chain it leads to is
// listed, every live record in chain order, weighed by the book's
// settings. No line is read at the book's max ply or deeper.

// abkFile is an ABK book's bytes, read as the model reads them.
type abkFile []byte

func (f abkFile) records() int32 { return int32(len(f) / abk.RecordSize) }

func (f abkFile) record(i int32) (abk.Record, bool) {
	if i < abk.FirstRecord || i >= f.records() {
		return abk.Record{}, false
	}
	return abk.DecodeRecord(f[int(i)*abk.RecordSize:]), true
}

// chainAt is the first record of the chain a reader lists after moves
// (played form), or false when it lists none there.
func (f abkFile) chainAt(moves []board.Move) (int32, bool) {
	if len(f) < abk.HeaderSize || len(moves) >= int(abk.DecodeSettings(f).Effective().MaxPly) {
		return 0, false
	}
	chain := int32(abk.FirstRecord)
	for _, m := range moves {
		rec, ok := f.firstPlaying(chain, m)
		if !ok {
			return 0, false
		}
		r, _ := f.record(rec)
		chain = r.Next
	}
	return chain, chain > 0
}

// firstPlaying is the first live record of the chain from first that
// plays m, the promotion in its side's sign (within the 256 records a
// reader looks at).
func (f abkFile) firstPlaying(first int32, m board.Move) (int32, bool) {
	for i, rec := 0, first; i < 256 && rec > 0; i++ {
		r, ok := f.record(rec)
		if !ok {
			return 0, false
		}
		if rm, ok := r.Move(); ok && rm == m && !r.Deleted() && (r.Promo == 0 || (r.Promo < 0) == whiteOf(m)) {
			return rec, true
		}
		rec = r.Sibling
	}
	return 0, false
}

// whiteOf reports a promotion move of White's (to the eighth row).
func whiteOf(m board.Move) bool { return m.To().Row() == 7 }

// lineOffer is a move a reader lists at a position, with its weight (NaN:
// the settings filter it out, so it is not listed at all).
type lineOffer struct {
	rec    int32
	move   board.Move
	weight float64
}

// offersAt is what a reader lists after moves: the live records of the
// chain with their weights, from their own statistics (the other side's
// wins are the side to move's losses).
func (f abkFile) offersAt(moves []board.Move) []lineOffer {
	chain, ok := f.chainAt(moves)
	if !ok {
		return nil
	}
	white := len(moves)%2 == 0
	var offers []lineOffer
	var stats []abk.MoveStats
	kept := 0
	for i, rec := 0, chain; rec > 0; i++ {
		r, ok := f.record(rec)
		if !ok || i == 1<<16 {
			return nil // the read fails, or never ends: nothing is listed
		}
		if m, ok := r.Move(); ok && !r.Deleted() {
			won, lost := int64(r.Wins), int64(r.Losses)
			if !white {
				won, lost = lost, won
			}
			offers = append(offers, lineOffer{rec: rec, move: m})
			stats = append(stats, abk.MoveStats{Priority: r.Priority, Games: int64(r.Games), Won: won, Lost: lost, WhiteToMove: white})
			if w := abk.FloatWeights(stats[len(stats)-1:], abk.DecodeSettings(f).Effective()); !math.IsNaN(w[0]) {
				kept++
			}
			if kept > 255 {
				return nil // a corrupt book, for a reader
			}
		}
		rec = r.Sibling
	}
	w := abk.FloatWeights(stats, abk.DecodeSettings(f).Effective())
	listed := offers[:0]
	for i, o := range offers {
		if !math.IsNaN(w[i]) {
			o.weight = w[i]
			listed = append(listed, o)
		}
	}
	return listed
}

// treeGen makes random ABK trees: lines from the start position whose
// moves come mostly from a small pool, so that move orders transpose
// (each a branch of its own, as in Arena's books), with records deleted,
// a move recorded twice in a chain now and then, statistics for both
// colours, and records laid out in a random order.
type treeGen struct {
	r    *rand.Rand
	dups bool // a chain may record a move twice
	recs []abk.Record
}

// pool are the moves most lines are made of: a few pieces going back and
// forth and pawns moving, which transpose in many orders.
var pool = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range []string{"g1f3", "b1c3", "f3g1", "c3b1", "e2e4", "d2d4", "c2c4", "e2e3", "d2d3",
		"g8f6", "b8c6", "f6g8", "c6b8", "e7e5", "d7d5", "c7c5", "e7e6", "d7d6", "f1c4", "f8c5", "e1g1", "e8g8"} {
		m[s] = true
	}
	return m
}()

func (g *treeGen) pick(pos *board.Position) (board.Move, bool) {
	legal := pos.LegalMoves()
	if len(legal) == 0 {
		return 0, false
	}
	if g.r.IntN(10) < 8 {
		var fromPool []board.Move
		for _, m := range legal {
			if pool[m.String()] {
				fromPool = append(fromPool, m)
			}
		}
		if len(fromPool) > 0 {
			return fromPool[g.r.IntN(len(fromPool))], true
		}
	}
	return legal[g.r.IntN(len(legal))], true
}

// chain makes the chain of moves at pos, ply plies deep, and the subtrees
// under them; it returns its first record's index in recs, or -1.
func (g *treeGen) chain(pos *board.Position, ply, depth int) int {
	n := g.r.IntN(4)
	if ply < 2 {
		n++
	}
	if ply >= depth {
		n = 0
	}
	first, prev := -1, -1
	var moves []board.Move
	for range n {
		m, ok := g.pick(pos)
		if !ok {
			break
		}
		if slices.Contains(moves, m) && (!g.dups || g.r.IntN(4) > 0) {
			continue // a move twice in a chain, sometimes
		}
		moves = append(moves, m)
		games := g.r.Int32N(12)
		wins := g.r.Int32N(games + 1)
		r := abk.Record{From: m.From(), To: m.To(), Promo: promoCode(m.Promo(), pos.WhiteToMove()), Priority: int8(g.r.IntN(10)),
			Games: games, Wins: wins, Losses: g.r.Int32N(games - wins + 1), Next: -1, Sibling: -1}
		if g.r.IntN(10) == 0 {
			r.Flags = 0x01000000
		}
		i := len(g.recs)
		g.recs = append(g.recs, r)
		if prev >= 0 {
			g.recs[prev].Sibling = int32(i)
		} else {
			first = i
		}
		prev = i
		if next := g.chain(pos.Next(m), ply+1, depth); next >= 0 {
			g.recs[i].Next = int32(next)
		}
	}
	return first
}

// promoCode is a record's promotion code: Arena writes White's negative.
func promoCode(p board.Promo, white bool) int8 {
	c := map[board.Promo]int8{board.PromoRook: 1, board.PromoKnight: 2, board.PromoBishop: 3, board.PromoQueen: 4}[p]
	if white {
		c = -c
	}
	return c
}

// randomTreeBook is a random ABK book's bytes: a tree up to depth plies
// deep (with moves recorded twice in a chain when dups) and settings whose
// games importance is never 0, so that a counted game shows in the
// weights.
func randomTreeBook(r *rand.Rand, depth int, dups bool) abkFile {
	g := &treeGen{r: r, dups: dups}
	if g.chain(board.StartPosition(), 0, depth) < 0 {
		return randomTreeBook(r, depth, dups)
	}
	// Lay the records out in a random order, the first (the root) kept
	// at record 900.
	order := append([]int{0}, r.Perm(len(g.recs))...)
	order = slices.DeleteFunc(order[1:], func(i int) bool { return i == 0 })
	order = append([]int{0}, order...)
	at := make([]int32, len(g.recs))
	for pos, i := range order {
		at[i] = int32(abk.FirstRecord + pos)
	}
	s := abk.Settings{PriorityImportance: r.Int32N(16), GamesImportance: 1 + r.Int32N(15), ScoreImportance: r.Int32N(16),
		MinGames: r.Int32N(2), MaxPly: int32(depth)/2 + r.Int32N(int32(depth)+2)}
	data := make([]byte, abk.HeaderSize+len(g.recs)*abk.RecordSize)
	s.Encode(data)
	for i, rec := range g.recs {
		for _, p := range []*int32{&rec.Next, &rec.Sibling} {
			if *p >= 0 {
				*p = at[*p]
			}
		}
		rec.Encode(data[int(at[i])*abk.RecordSize:])
	}
	return data
}

// randomGame is a game from the start position that mostly follows the
// tree's records (deleted ones too, which a reader does not follow), and
// now and then leaves it for a pool move, which may transpose back into
// it.
func randomGame(r *rand.Rand, f abkFile, plies int) []board.Move {
	pos := board.StartPosition()
	g := &treeGen{r: r}
	var moves []board.Move
	for range plies {
		var m board.Move
		if chain := chainOr(f, moves); chain > 0 && r.IntN(6) > 0 {
			var recorded []board.Move
			for i, rec := 0, chain; i < 256 && rec > 0; i++ {
				rr, ok := f.record(rec)
				if !ok {
					break
				}
				if rm, ok := rr.Move(); ok {
					recorded = append(recorded, rm)
				}
				rec = rr.Sibling
			}
			if len(recorded) > 0 {
				m = recorded[r.IntN(len(recorded))]
			}
		}
		if m == 0 {
			var ok bool
			if m, ok = g.pick(pos); !ok {
				break
			}
		}
		if _, err := pos.LegalMove(m); err != nil {
			break
		}
		moves = append(moves, m)
		pos.Play(m)
	}
	return moves
}

// transposedGame is a game along the tree's records whose moves j and
// j+2 are played the other way round: from ply j+3 on it is in positions
// the tree has under another line, and it goes on along that line's
// records. It is nil when the tree has no such line.
func transposedGame(r *rand.Rand, f abkFile, plies int) []board.Move {
	var moves []board.Move
	for len(moves) < plies {
		chain := chainOr(f, moves)
		var recorded []board.Move
		for i, rec := 0, chain; i < 256 && rec > 0; i++ {
			rr, ok := f.record(rec)
			if !ok {
				break
			}
			if rm, ok := rr.Move(); ok && !rr.Deleted() {
				recorded = append(recorded, rm)
			}
			rec = rr.Sibling
		}
		if len(recorded) == 0 {
			break
		}
		moves = append(moves, recorded[r.IntN(len(recorded))])
	}
	if len(moves) < 4 {
		return nil
	}
	j := r.IntN(len(moves) - 3)
	swapped := slices.Clone(moves)
	swapped[j], swapped[j+2] = swapped[j+2], swapped[j]
	pos := board.StartPosition()
	for _, m := range swapped {
		if _, err := pos.LegalMove(m); err != nil {
			return nil
		}
		pos.Play(m)
	}
	return swapped
}

// chainOr is the chain the tree has after moves, whatever the max ply,
// or -1.
func chainOr(f abkFile, moves []board.Move) int32 {
	chain := int32(abk.FirstRecord)
	for _, m := range moves {
		rec, ok := f.firstPlaying(chain, m)
		if !ok {
			return -1
		}
		r, _ := f.record(rec)
		chain = r.Next
	}
	return chain
}

// gameUpdates are the updates learning a game makes for the side that
// learns (White when white) with result res (that side's), as learn -pgn
// makes them: one for each of the side's moves that b serves, on the line
// of the game's positions.
func gameUpdates(b *book.Book, moves []board.Move, white bool, res book.Result) []book.LearnUpdate {
	pos := board.StartPosition()
	var line []board.Key
	var updates []book.LearnUpdate
	for _, m := range moves {
		line = append(line, pos.Key())
		if pos.WhiteToMove() == white {
			for _, e := range b.Entries(pos.Key()) {
				if pos.ToPlayed(e.Move) == m {
					updates = append(updates, book.LearnUpdate{Key: pos.Key(), Move: e.Move, Result: res, Line: slices.Clip(line)})
					break
				}
			}
		}
		pos.Play(m)
	}
	return updates
}

// TestLearnWhereTheReadersRead: after every game learned into a random
// ABK tree (transpositions, duplicate and deleted records, a max ply,
// results for either colour), the book as probe reads it (every line of a
// position added up) counts each of the game's book moves once more, with
// the game's points; a reader following the line played (the model,
// DroidFish's reading) finds each update's record there, when the tree has
// the line within the max ply, and learning counted into that very
// record; and nothing else of the file changed than the statistics of the
// records learning reported.
func TestLearnWhereTheReadersRead(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 30))
	dir := t.TempDir()
	trees, games, updates, onLine, elsewhere := 300, 0, 0, 0, 0
	for tree := range trees {
		data := randomTreeBook(r, 3+r.IntN(8), true)
		path := filepath.Join(dir, "tree.abk")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		lf, err := formats.OpenLearnFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for range 1 + r.IntN(10) {
			before := abkFile(readFile(t, path))
			b, err := formats.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			moves := transposedGame(r, before, 4+r.IntN(8))
			if moves == nil || r.IntN(2) == 0 {
				moves = randomGame(r, before, 14)
			}
			white := r.IntN(2) == 0
			res := book.Result(r.IntN(3))
			ups := gameUpdates(b, moves, white, res)
			probeBefore := learnFields(b, ups)
			b.Close()
			// Where each update goes alone, then the game's updates at once.
			alone := make([]int, len(ups))
			for i, u := range ups {
				c, err := lf.Preview(t.Context(), []book.LearnUpdate{u})
				if err != nil || len(c) != 1 || !c[0].Found() {
					t.Fatalf("tree %d: %s %s is served, and learning finds %+v, %v", tree, u.Key, u.Move, c, err)
				}
				alone[i] = c[0].Index
			}
			changes, err := lf.Apply(t.Context(), ups)
			if err != nil {
				t.Fatal(err)
			}
			games++
			updates += len(ups)
			after := abkFile(readFile(t, path))
			changed := map[int32]bool{}
			for _, c := range changes {
				changed[int32(c.Index)] = true
			}
			for i, u := range ups {
				if !changed[int32(alone[i])] {
					t.Errorf("tree %d: %s %s goes to record %d alone, not among the game's changes %+v", tree, u.Key, u.Move, alone[i], changes)
				}
				// On the line played when a reader finds its record there.
				ply := len(u.Line) - 1
				if chain, ok := before.chainAt(moves[:ply]); ok {
					if rec, ok := before.firstPlaying(chain, moves[ply]); ok {
						onLine++
						if int32(alone[i]) != rec {
							t.Errorf("tree %d: %s after %v counted into record %d; the line played has it in record %d", tree, moves[ply], moves[:ply], alone[i], rec)
						}
						continue
					}
				}
				elsewhere++
			}
			b, err = formats.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			probeAfter := learnFields(b, ups)
			b.Close()
			for id, was := range probeBefore {
				n, points := 0, 0
				for _, u := range ups {
					if (learnID{u.Key, u.Move}) == id {
						n++
						points += int(u.Result)
					}
				}
				now := probeAfter[id]
				if int(now.Games())-int(was.Games()) != n || int(now.Points())-int(was.Points()) != points {
					t.Errorf("tree %d: %s %s read %s, now %s after %d games of %d points", tree, id.key, id.move, was, now, n, points)
				}
			}
			for rec := int32(abk.FirstRecord); rec < before.records(); rec++ {
				b, a := before[int(rec)*abk.RecordSize:][:abk.RecordSize], after[int(rec)*abk.RecordSize:][:abk.RecordSize]
				if changed[rec] && slices.Equal(b[:4], a[:4]) && slices.Equal(b[16:], a[16:]) || slices.Equal(b, a) {
					continue
				}
				t.Fatalf("tree %d: record %d changed (%+v -> %+v), not as learning reported", tree, rec, abk.DecodeRecord(b), abk.DecodeRecord(a))
			}
			if !slices.Equal(before[:abk.HeaderSize], after[:abk.HeaderSize]) {
				t.Fatalf("tree %d: the header changed", tree)
			}
		}
		lf.Close()
	}
	if onLine == 0 || elsewhere == 0 {
		t.Errorf("updates on the line played %d, found by another line %d: both must be tested", onLine, elsewhere)
	}
	t.Logf("%d trees, %d games, %d updates: %d on the line played, %d by another line", trees, games, updates, onLine, elsewhere)
}

type learnID struct {
	key  board.Key
	move board.Move
}

// learnFields are the learn fields b reads for the updates' moves.
func learnFields(b *book.Book, ups []book.LearnUpdate) map[learnID]book.Learn {
	out := map[learnID]book.Learn{}
	for _, u := range ups {
		for _, e := range b.Entries(u.Key) {
			if e.Move == u.Move {
				out[learnID{u.Key, u.Move}] = e.Learn
			}
		}
	}
	return out
}

var updateTrees = flag.Bool("update-trees", false, "rewrite testdata/lines-*.abk: random ABK trees, and each after learning random games")

// learnedTrees is how many random trees testdata holds, each before
// (lines-N.abk) and after (lines-N-learned.abk) learning random games
// through formats.OpenLearnFile, for DroidFish's reader to read
// (TestLineModelAgainstDroidFish).
const learnedTrees = 4

// TestLearnedTreesUpToDate: the lines-*.abk books are what the generator
// and learning make today, so that DroidFish's tables of them speak of
// learning as it is. -update-trees rewrites them (then remake their
// tables with oracle.sh).
func TestLearnedTreesUpToDate(t *testing.T) {
	for n := 1; n <= learnedTrees; n++ {
		r := rand.New(rand.NewPCG(uint64(n), 1729))
		data := randomTreeBook(r, 5+n, false)
		for records := len(data)/abk.RecordSize - abk.FirstRecord; records < 80 || records > 600; records = len(data)/abk.RecordSize - abk.FirstRecord {
			data = randomTreeBook(r, 5+n, false) // a tree a reader has much to read in, and a table not too long
		}
		path := filepath.Join(t.TempDir(), "tree.abk")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		lf, err := formats.OpenLearnFile(path)
		if err != nil {
			t.Fatal(err)
		}
		learned := 0
		for range 40 {
			b, err := formats.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			moves := transposedGame(r, abkFile(readFile(t, path)), 4+r.IntN(6))
			if moves == nil || r.IntN(2) == 0 {
				moves = randomGame(r, abkFile(readFile(t, path)), 12)
			}
			ups := gameUpdates(b, moves, r.IntN(2) == 0, book.Result(r.IntN(3)))
			b.Close()
			changes, err := lf.Apply(t.Context(), ups)
			if err != nil {
				t.Fatal(err)
			}
			learned += len(changes)
		}
		lf.Close()
		if learned == 0 {
			t.Fatalf("tree %d: nothing learned", n)
		}
		for name, want := range map[string][]byte{fmt.Sprintf("lines-%d.abk", n): data, fmt.Sprintf("lines-%d-learned.abk", n): readFile(t, path)} {
			dst := filepath.Join("testdata", name)
			if *updateTrees {
				if err := os.WriteFile(dst, want, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if !slices.Equal(readFile(t, dst), want) {
				t.Errorf("%s is not what the generator and learning make today: go test ./book/abk -run TestLearnedTreesUpToDate -update-trees, then remake its oracle table (testdata/README.md)", dst)
			}
		}
	}
}

// TestLineModelAgainstDroidFish: on every line of every oracle table, the
// model lists what DroidFish's reader lists, in its order, with the same
// shares: the model is DroidFish's reading (and Arena's, which it
// implements), so what the model shows on a line, DroidFish shows.
func TestLineModelAgainstDroidFish(t *testing.T) {
	tables, err := filepath.Glob("testdata/*.oracle.txt")
	if err != nil || len(tables) == 0 {
		t.Fatalf("no oracle tables in testdata: %v", err)
	}
	positions := 0
	for _, table := range tables {
		name := strings.TrimSuffix(filepath.Base(table), ".oracle.txt") + ".abk"
		f := abkFile(readFile(t, filepath.Join("testdata", name)))
		for _, l := range readOracle(t, table) {
			var moves []board.Move
			for _, s := range strings.Fields(l.moves) {
				m, err := board.ParseMove(s)
				if err != nil {
					t.Fatalf("%s: %q: %v", name, l.moves, err)
				}
				moves = append(moves, m)
			}
			var got []oracleOffer
			var sum, want float64
			for _, o := range f.offersAt(moves) {
				got = append(got, oracleOffer{o.move.String(), o.weight})
				sum += o.weight
			}
			for _, o := range l.offers {
				want += o.weight
			}
			same := len(got) == len(l.offers)
			for i := 0; same && i < len(got); i++ {
				same = got[i].move == l.offers[i].move && (sum == 0 && want == 0 || math.Abs(got[i].weight/sum-l.offers[i].weight/want) < 1e-4)
			}
			if !same {
				t.Errorf("%s after %q: the model lists %v, DroidFish %v", name, l.moves, got, l.offers)
			}
			positions++
		}
	}
	t.Logf("%d positions of %d tables", positions, len(tables))
}

// TestLearnedGamesShowInDroidFish: in DroidFish's tables of the
// lines-N-learned.abk books, every record learning counted into lists its
// move on the line to it, with other weights there than in the table of
// the book before learning: a reader following the line the game played
// sees the game counted. (Lines the tables do not walk, under a move
// DroidFish does not offer, are skipped and counted.)
func TestLearnedGamesShowInDroidFish(t *testing.T) {
	shown, unwalked := 0, 0
	for n := 1; n <= learnedTrees; n++ {
		before := abkFile(readFile(t, filepath.Join("testdata", fmt.Sprintf("lines-%d.abk", n))))
		after := abkFile(readFile(t, filepath.Join("testdata", fmt.Sprintf("lines-%d-learned.abk", n))))
		tables := [2]map[string][]oracleOffer{}
		for i, name := range []string{fmt.Sprintf("lines-%d", n), fmt.Sprintf("lines-%d-learned", n)} {
			tables[i] = map[string][]oracleOffer{}
			for _, l := range readOracle(t, filepath.Join("testdata", name+".oracle.txt")) {
				tables[i][l.moves] = l.offers
			}
		}
		paths := linesTo(after)
		for rec := int32(abk.FirstRecord); rec < after.records(); rec++ {
			was, _ := before.record(rec)
			now, _ := after.record(rec)
			if was == now {
				continue
			}
			path, ok := paths[rec]
			if !ok {
				t.Fatalf("lines-%d: record %d learned, but no line reaches it", n, rec)
			}
			line := moveText(path)
			offers, walked := tables[1][line]
			if !walked {
				unwalked++
				continue
			}
			m, _ := now.Move()
			if !slices.ContainsFunc(offers, func(o oracleOffer) bool { return o.move == m.String() }) {
				t.Errorf("lines-%d: record %d (%s) learned, DroidFish does not list it after %q: %v", n, rec, m, line, offers)
			}
			if wasOffers := tables[0][line]; len(offers) > 1 && slices.Equal(wasOffers, offers) {
				t.Errorf("lines-%d: record %d (%s) learned, DroidFish lists the same after %q as before: %v", n, rec, m, line, offers)
			}
			shown++
		}
	}
	if shown == 0 {
		t.Fatal("no learned record is on a line the tables walk")
	}
	t.Logf("%d learned records shown by DroidFish on their lines, %d on lines its tables do not walk", shown, unwalked)
}

// linesTo maps each record a reader following a game can reach to the
// moves that reach its chain: each move's first live record followed.
func linesTo(f abkFile) map[int32][]board.Move {
	out := map[int32][]board.Move{}
	var walk func(chain int32, moves []board.Move)
	walk = func(chain int32, moves []board.Move) {
		var seen []board.Move
		for i, rec := 0, chain; i < 256 && rec > 0; i++ {
			r, ok := f.record(rec)
			if !ok {
				return
			}
			m, ok := r.Move()
			if ok && !r.Deleted() && !slices.Contains(seen, m) {
				seen = append(seen, m)
				out[rec] = moves
				if r.Next > 0 {
					walk(r.Next, append(slices.Clip(moves), m))
				}
			}
			rec = r.Sibling
		}
	}
	walk(abk.FirstRecord, nil)
	return out
}

// moveText is moves as an oracle table writes a line ("" for the start).
func moveText(moves []board.Move) string {
	s := make([]string, len(moves))
	for i, m := range moves {
		s[i] = m.String()
	}
	return strings.Join(s, " ")
}

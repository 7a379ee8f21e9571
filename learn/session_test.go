package learn

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// gameLine is a game played move by move: positions[i] is the game before
// move i (positions[len(moves)] the final one), as the adapter passes it.
type gameLine struct {
	positions []*board.Line
	keys      []board.Key
	moves     []board.Move
}

func playLine(t *testing.T, fen string, uciMoves ...string) gameLine {
	t.Helper()
	cur, err := board.NewLine(fen)
	if err != nil {
		t.Fatal(err)
	}
	snap := func() *board.Line { c := *cur; c.Keys = slices.Clip(c.Keys); return &c }
	l := gameLine{positions: []*board.Line{snap()}, keys: []board.Key{cur.Pos.Key()}}
	for _, s := range uciMoves {
		m, err := board.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cur.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		l.positions = append(l.positions, snap())
		l.keys = append(l.keys, cur.Pos.Key())
		l.moves = append(l.moves, m)
	}
	return l
}

// bookFor writes a book with one entry (initial learn value) for each of
// the plies given, and returns it opened.
func bookFor(t *testing.T, l gameLine, plies ...int) (*book.Book, []book.Entry) {
	t.Helper()
	var entries []book.Entry
	for n, p := range plies {
		entries = append(entries, book.Entry{Key: l.keys[p], Move: l.moves[p], Weight: 10, Learn: book.MakeLearn(int64(n+1), int64(n))})
		// A second move of the same position, never played.
		entries = append(entries, book.Entry{Key: l.keys[p], Move: board.NewMove(0, 63, 0), Weight: 1, Learn: 0x00050005})
	}
	path := fixture.WriteEntries(t, append([]book.Entry(nil), entries...))
	b, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, entries
}

// learned returns the learn field of the entry (key, move) in b's file now.
func learned(t *testing.T, b *book.Book, key board.Key, move board.Move) book.Learn {
	t.Helper()
	data := fixture.ReadFile(t, b.Path())
	for i := 0; i < len(data)/polyglot.EntrySize; i++ {
		if e := polyglot.DecodeEntry(data[i*polyglot.EntrySize:]); e.Key == key && e.Move == move {
			return book.Learn(e.Learn)
		}
	}
	t.Fatalf("no entry %v %v", key, move)
	return 0
}

type logs struct{ info, warn []string }

// learning is the settings with PolyGlot's resignation defaults.
func learning(on bool, books ...string) Settings {
	return Settings{On: on, Books: books, ResignScore: config.DefaultLearnResignScore, ResignMoves: config.DefaultLearnResignMoves}
}

func newTestSession() (*Session, *logs) {
	s := NewSession(learning(true), nil)
	l := &logs{}
	s.UseLog(func(f string, a ...any) { l.info = append(l.info, fmt.Sprintf(f, a...)) },
		func(f string, a ...any) { l.warn = append(l.warn, fmt.Sprintf(f, a...)) })
	return s, l
}

func (l *logs) has(s string) bool {
	for _, v := range append(append([]string(nil), l.info...), l.warn...) {
		if strings.Contains(v, s) {
			return true
		}
	}
	return false
}

// driver plays a line through a Session as the adapter would: the GUI's
// position before each of our moves, then our move (from the book when
// bookPly says so, else the engine's, with a score).
type driver struct {
	s     *Session
	b     *book.Book
	l     gameLine
	white bool // we play White
}

// play makes plies from..to-1 of the line; scores[ply] is the engine's
// score for our engine moves (missing: no score line).
func (d *driver) play(from, to int, bookPlies map[int]bool, scores map[int]Score) {
	for p := from; p < to; p++ {
		ours := d.l.positions[p].Pos.WhiteToMove() == d.white
		if !ours {
			continue
		}
		d.s.Position(d.l.positions[p].Pos, p > 0)
		if bookPlies[p] {
			d.s.BookMove(d.b, d.l.keys[:p+1], d.l.moves[p], d.white)
		} else if sc, ok := scores[p]; ok {
			d.s.EngineScore(sc.White, sc.CP, sc.Mate, sc.IsMate)
		}
		d.s.AfterBestmove(d.l.positions[p+1].Pos)
	}
}

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

func TestSessionLearnsMateWeDeliver(t *testing.T) {
	l := playLine(t, startFEN, "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
	b, entries := bookFor(t, l, 0, 1, 2)
	before := fixture.ReadFile(t, b.Path())
	s, log := newTestSession()
	s.NewGame()
	d := &driver{s: s, b: b, l: l, white: true}
	d.play(0, 7, map[int]bool{0: true, 2: true}, map[int]Score{4: {White: true, CP: 250}, 6: {White: true, Mate: 1, IsMate: true}})
	s.NewGame()

	if got, want := learned(t, b, l.keys[0], l.moves[0]), book.Learn(entries[0].Learn).Add(book.Win); got != want {
		t.Errorf("e2e4: %v, want %v", got, want)
	}
	if got, want := learned(t, b, l.keys[2], l.moves[2]), book.Learn(entries[4].Learn).Add(book.Win); got != want {
		t.Errorf("Bc4: %v, want %v", got, want)
	}
	// The opponent's move (e7e5 is in the book) and every other byte stay.
	fixture.AssertOnlyLearnChanged(t, before, fixture.ReadFile(t, b.Path()), map[int]bool{indexOf(t, before, l.keys[0], l.moves[0]): true, indexOf(t, before, l.keys[2], l.moves[2]): true})
	if !log.has("checkmate") {
		t.Errorf("decision not logged: %q", log.info)
	}
}

func indexOf(t *testing.T, data []byte, k board.Key, m board.Move) int {
	i, ok := fixture.FirstMatch(data, k, m)
	if !ok {
		t.Fatalf("no entry %v %v", k, m)
	}
	return i
}

func TestSessionLearnsLossFromMateScore(t *testing.T) {
	// We are Black; our engine sees itself mated, the GUI ends the game
	// after White's mating move (we never see the final position).
	l := playLine(t, startFEN, "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6")
	b, entries := bookFor(t, l, 1)
	s, _ := newTestSession()
	d := &driver{s: s, b: b, l: l, white: false}
	d.play(0, 6, map[int]bool{1: true}, map[int]Score{3: {White: false, CP: -30}, 5: {White: false, Mate: -1, IsMate: true}})
	s.Close()
	if got, want := learned(t, b, l.keys[1], l.moves[1]), book.Learn(entries[0].Learn).Add(book.Loss); got != want {
		t.Errorf("e7e5: %v, want %v", got, want)
	}
}

func TestSessionMateScoreWithoutBestmovePosition(t *testing.T) {
	// The engine's last search ends without a bestmove position (e.g.
	// "bestmove (none)", or the GUI ends the game first): its score still
	// counts. The final position itself is never seen.
	l := playLine(t, startFEN, "f2f3", "e7e5", "g2g4", "d8h4")
	b, entries := bookFor(t, l, 0)
	s, _ := newTestSession()
	d := &driver{s: s, b: b, l: l, white: true}
	d.play(0, 4, map[int]bool{0: true}, map[int]Score{2: {White: true, CP: -200}})
	s.EngineScore(true, 0, -1, true)
	s.Close()
	if got, want := learned(t, b, l.keys[0], l.moves[0]), book.Learn(entries[0].Learn).Add(book.Loss); got != want {
		t.Errorf("f3: %v, want %v", got, want)
	}
}

func TestSessionResignThreshold(t *testing.T) {
	l := playLine(t, startFEN, "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6")
	for _, c := range []struct {
		name   string
		scores map[int]Score
		want   book.Learn
	}{
		{"3 engine moves ahead", map[int]Score{2: {White: true, CP: 1100}, 4: {White: true, CP: 1200}, 6: {White: true, CP: 1300}}, book.Learn(1 << 16).Add(book.Win)},
		{"3 engine moves behind", map[int]Score{2: {White: true, CP: -1100}, 4: {White: true, CP: -1200}, 6: {White: true, CP: -1300}}, book.Learn(1 << 16).Add(book.Loss)},
		{"one move within the threshold", map[int]Score{2: {White: true, CP: 1100}, 4: {White: true, CP: 900}, 6: {White: true, CP: 1300}}, book.Learn(1 << 16)},
		{"a move without a score", map[int]Score{2: {White: true, CP: 1100}, 6: {White: true, CP: 1300}}, book.Learn(1 << 16)},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, _ := bookFor(t, l, 0)
			before := fixture.ReadFile(t, b.Path())
			s, log := newTestSession()
			d := &driver{s: s, b: b, l: l, white: true}
			d.play(0, 8, map[int]bool{0: true}, c.scores)
			s.Position(l.positions[8].Pos, true)
			s.NewGame()
			if got := learned(t, b, l.keys[0], l.moves[0]); got != c.want {
				t.Errorf("e2e4: %v, want %v", got, c.want)
			}
			if c.want == book.Learn(1<<16) {
				if string(before) != string(fixture.ReadFile(t, b.Path())) {
					t.Error("an undecided game changed the book")
				}
				if !log.has("result unknown") {
					t.Errorf("undecided game not logged: %q", log.info)
				}
			}
		})
	}
}

func TestSessionRepetition(t *testing.T) {
	l := playLine(t, startFEN, "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8")
	b, entries := bookFor(t, l, 0)
	s, _ := newTestSession()
	d := &driver{s: s, b: b, l: l, white: true}
	d.play(0, 8, map[int]bool{0: true}, map[int]Score{2: {White: true, CP: 10}, 4: {White: true, CP: 0}, 6: {White: true, CP: 0}})
	s.Position(l.positions[8].Pos, true) // the start position, a third time
	s.NewGame()
	if got, want := learned(t, b, l.keys[0], l.moves[0]), book.Learn(entries[0].Learn).Add(book.Draw); got != want {
		t.Errorf("Nf3: %v, want %v", got, want)
	}
}

func TestSessionResentPositionIsNoRepetition(t *testing.T) {
	l := playLine(t, startFEN, "e2e4", "e7e5")
	b, _ := bookFor(t, l, 0)
	before := fixture.ReadFile(t, b.Path())
	s, _ := newTestSession()
	s.Position(l.positions[0].Pos, false)
	s.BookMove(b, l.keys[:1], l.moves[0], true)
	s.AfterBestmove(l.positions[1].Pos)
	for i := 0; i < 3; i++ { // the GUI sends the same position again and again
		s.Position(l.positions[2].Pos, true)
	}
	s.Close()
	if string(before) != string(fixture.ReadFile(t, b.Path())) {
		t.Error("a position sent three times was taken for a threefold repetition")
	}
}

func TestSessionNewPositionEndsTheGame(t *testing.T) {
	l := playLine(t, startFEN, "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
	b, entries := bookFor(t, l, 0)
	s, _ := newTestSession()
	d := &driver{s: s, b: b, l: l, white: true}
	d.play(0, 7, map[int]bool{0: true}, nil)
	s.Position(l.positions[0].Pos, false) // the next game, without ucinewgame
	want := book.Learn(entries[0].Learn).Add(book.Win)
	if got := learned(t, b, l.keys[0], l.moves[0]); got != want {
		t.Fatalf("e2e4 after the game: %v, want %v", got, want)
	}
	s.Close() // the new game has no book move: nothing more
	if got := learned(t, b, l.keys[0], l.moves[0]); got != want {
		t.Fatalf("e2e4 after close: %v, want %v", got, want)
	}
}

func TestSessionLearningSwitchedOff(t *testing.T) {
	l := playLine(t, startFEN, "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
	b, entries := bookFor(t, l, 0)
	s, log := newTestSession()
	s.SetLearning(learning(false))
	d := &driver{s: s, b: b, l: l, white: true}
	d.play(0, 7, map[int]bool{0: true}, nil)
	s.NewGame()
	if got := learned(t, b, l.keys[0], l.moves[0]); got != book.Learn(entries[0].Learn) {
		t.Fatalf("learned with BookLearn off: %v", got)
	}
	if !log.has("BookLearn is off") {
		t.Errorf("not logged: %q", log.info)
	}
	d.play(0, 5, map[int]bool{0: true}, nil)
	s.SetLearning(learning(true)) // switched on during the game
	d.play(5, 7, nil, nil)
	s.Close()
	if got, want := learned(t, b, l.keys[0], l.moves[0]), book.Learn(entries[0].Learn).Add(book.Win); got != want {
		t.Fatalf("e2e4: %v, want %v", got, want)
	}
}

// A book deleted during the game: its entries are not learned, and the
// warning says so and why, rather than logging an update of a file that no
// longer exists.
func TestSessionDeletedBookIsNotLearned(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows may refuse to delete an open file")
	}
	l := playLine(t, startFEN, "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
	b, _ := bookFor(t, l, 0, 2)
	s, log := newTestSession()
	s.SetLearning(learning(true, b.Path()))
	s.NewGame() // the book is opened for learning here
	d := &driver{s: s, b: b, l: l, white: true}
	d.play(0, 7, map[int]bool{0: true, 2: true}, nil)
	if err := os.Remove(b.Path()); err != nil {
		t.Fatal(err)
	}
	s.NewGame()
	for _, m := range []board.Move{l.moves[0], l.moves[2]} {
		want := fmt.Sprintf("move %s: not learned (the book was deleted since it was opened)", m)
		if !slices.ContainsFunc(log.warn, func(w string) bool { return strings.Contains(w, want) }) {
			t.Errorf("warnings lack %q: %q", want, log.warn)
		}
	}
	if slices.ContainsFunc(log.info, func(i string) bool { return strings.Contains(i, "->") }) {
		t.Errorf("an update logged as made: %q", log.info)
	}
}

func TestSessionUnwritableBookWarnsAndGoesOn(t *testing.T) {
	l := playLine(t, startFEN, "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
	b, _ := bookFor(t, l, 0)
	dir := t.TempDir() // not a book file
	s, log := newTestSession()
	s.SetLearning(learning(true, dir))
	s.NewGame()
	if len(log.warn) != 1 || !strings.Contains(log.warn[0], dir) || !strings.Contains(log.warn[0], "without learning") {
		t.Fatalf("warnings before the first game: %q", log.warn)
	}
	d := &driver{s: s, b: b, l: l, white: true}
	d.play(0, 7, map[int]bool{0: true}, nil)
	s.NewGame()
	s.Close()
	if len(log.warn) != 1 {
		t.Errorf("warned again: %q", log.warn)
	}
}

func TestNilSession(t *testing.T) {
	var s *Session
	l := playLine(t, startFEN, "e2e4")
	s.NewGame()
	s.Position(l.positions[0].Pos, false)
	s.BookMove(nil, l.keys[:1], l.moves[0], true)
	s.EngineScore(true, 1, 0, false)
	s.AfterBestmove(l.positions[1].Pos)
	s.UseLog(nil, nil)
	s.SetLearning(learning(true))
	s.Close()
}

func TestSessionTakeBackForgetsBookMove(t *testing.T) {
	l := playLine(t, startFEN, "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
	alt := playLine(t, startFEN, "e2e4", "e7e5", "g1f3")
	b, _ := bookFor(t, l, 0, 2)
	s, _ := newTestSession()
	d := &driver{s: s, b: b, l: l, white: true}
	d.play(0, 3, map[int]bool{0: true, 2: true}, nil) // e4 and Bc4 from the book
	// The GUI takes Bc4 back; the game goes on with Nf3 (engine) and is
	// then won: only e4 was played in it.
	s.Position(l.positions[2].Pos, true)
	s.EngineScore(true, 30, 0, false)
	s.AfterBestmove(alt.positions[3].Pos)
	s.Position(l.positions[6].Pos, false) // (ends the game undecided)
	if got := learned(t, b, l.keys[2], l.moves[2]); got != book.Learn(book.MakeLearn(2, 1)) {
		t.Fatalf("taken-back Bc4: %v", got)
	}
	s.NewGame()
	d.play(0, 3, map[int]bool{0: true, 2: true}, nil)
	s.Position(l.positions[2].Pos, true) // take back Bc4 again
	d.play(2, 7, nil, map[int]Score{2: {White: true, CP: 40}, 4: {White: true, CP: 500}, 6: {White: true, Mate: 1, IsMate: true}})
	s.Close()
	// This time Bc4 was played again by the engine (not from the book) and
	// won: e4 learns a win, the taken-back book Bc4 nothing.
	if got := learned(t, b, l.keys[0], l.moves[0]); got != book.MakeLearn(1, 0).Add(book.Win) {
		t.Errorf("e4: %v", got)
	}
	if got := learned(t, b, l.keys[2], l.moves[2]); got != book.MakeLearn(2, 1) {
		t.Errorf("Bc4 (taken back): %v", got)
	}
}

func TestSessionPonderMissDropsItsScore(t *testing.T) {
	l := playLine(t, startFEN, "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6")
	guess := playLine(t, startFEN, "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "g8f6", "e1g1")
	b, _ := bookFor(t, l, 0)
	s, log := newTestSession()
	d := &driver{s: s, b: b, l: l, white: true}
	d.play(0, 5, map[int]bool{0: true}, map[int]Score{2: {White: true, CP: 1500}, 4: {White: true, CP: 1500}})
	// Pondering on 3...Nf6 (a miss): its search scores 1500 too, but the
	// GUI then sends the real 3...a6 and the game ends.
	s.Position(guess.positions[6].Pos, true)
	s.EngineScore(true, 1500, 0, false)
	s.AfterBestmove(guess.positions[7].Pos)
	s.Position(l.positions[6].Pos, true)
	s.NewGame()
	if got := learned(t, b, l.keys[0], l.moves[0]); got != book.MakeLearn(1, 0) {
		t.Errorf("e4 learned %v from a ponder search's score", got)
	}
	if !log.has("fewer than 3 scores") {
		t.Errorf("log: %q", log.info)
	}
}

// BenchmarkSessionMove is what following one move of ours costs the proxy
// loop: the GUI's position, the engine's score, the position after our
// move.
func BenchmarkSessionMove(b *testing.B) {
	t := &testing.T{}
	l := playLine(t, startFEN, "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7")
	s := NewSession(learning(true), nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := (i % 5) * 2
		s.Position(l.positions[p].Pos, p != 0)
		s.EngineScore(true, 20, 0, false)
		s.AfterBestmove(l.positions[p+1].Pos)
	}
}

// plyOf numbers plies as the FEN's counters do.
func TestPlyOfAgreesWithFEN(t *testing.T) {
	l := playLine(t, "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 4 37", "e1c1", "d5e4", "d2d3", "e8g8", "f3g5", "h7h5")
	for i, line := range l.positions {
		f := strings.Fields(line.Pos.FEN())
		var full int
		fmt.Sscan(f[5], &full)
		want := 2*(full-1) + map[string]int{"w": 0, "b": 1}[f[1]]
		if got := plyOf(&line.Pos); got != want || got != 72+i {
			t.Errorf("%s: ply %d, want %d", f, got, want)
		}
	}
}

// A position whose move number is far ahead of the game's (a FEN's
// counters) holds no place for every ply between: the keys start again
// there, and a repetition after it still counts.
func TestSessionFarAheadPosition(t *testing.T) {
	l := playLine(t, startFEN, "e2e4")
	s, _ := newTestSession()
	s.Position(l.positions[0].Pos, false)
	s.AfterBestmove(l.positions[1].Pos)
	far := playLine(t, "4k3/8/8/8/8/8/8/4K2R w - - 0 1000000", "e1f1", "e8f8", "f1e1", "f8e8", "e1f1", "e8f8", "f1e1", "f8e8")
	for _, p := range far.positions {
		s.Position(p.Pos, true)
	}
	if n := len(s.game.keys); n > maxPlyGap+1 {
		t.Fatalf("%d keys held", n)
	}
	if got := s.game.repeated(); got != 3 {
		t.Fatalf("the position after the jump repeated %d times, want 3", got)
	}
}

// A book move the GUI took back is in no position the GUI sent afterwards
// and not on the game's final line: it is not counted, however the GUI
// goes on. Here we play 1.d4 from the book as White; the GUI then plays
// 1.f3 for White itself (a take-back, or a colour switch: we play Black
// from then on), or sends 1.f3 e5 at once for White to move again, or
// 1.f3 e5 2.g4 at once for Black, and the game ends in mate.
func TestSessionBookMoveTakenBackByAnotherMoveIsNotCounted(t *testing.T) {
	book1 := playLine(t, startFEN, "d2d4")
	game := playLine(t, startFEN, "f2f3", "e7e5", "g2g4", "d8h4")
	for _, c := range []struct {
		name  string
		from  int  // the ply of the GUI's first position after our move
		white bool // the side we play after the take-back
	}{{"we play Black after it", 1, false}, {"the GUI sends two plies at once", 2, true}, {"the GUI sends three plies at once", 3, false}} {
		t.Run(c.name, func(t *testing.T) {
			b, entries := bookFor(t, book1, 0)
			before := fixture.ReadFile(t, b.Path())
			s, log := newTestSession()
			s.NewGame()
			s.Position(book1.positions[0].Pos, false)
			s.BookMove(b, book1.keys[:1], book1.moves[0], true)
			s.AfterBestmove(book1.positions[1].Pos)
			d := &driver{s: s, b: b, l: game, white: c.white}
			d.play(c.from, 4, nil, map[int]Score{1: {White: false, CP: 50}, 2: {White: true, CP: -300}, 3: {White: false, Mate: 1, IsMate: true}})
			if c.white {
				s.Position(game.positions[4].Pos, true) // we are mated
			}
			s.NewGame()
			if got := learned(t, b, book1.keys[0], book1.moves[0]); got != book.Learn(entries[0].Learn) {
				t.Errorf("d2d4, taken back, learned %v; log:\n%s", got, strings.Join(log.info, "\n"))
			}
			if string(before) != string(fixture.ReadFile(t, b.Path())) {
				t.Error("the book changed")
			}
		})
	}
}

// A book move brings the game's line as the proxy follows it: where the
// GUI reached a position by other moves than the ones held (here it took
// back to 1.e4 and went 1...Nc6 2.Nf3 e5, the position after 1.e4 e5
// 2.Nf3 Nc6), a move of ours held on the way (2.Nf3 from 1.e4 e5) is not
// in the game; the moves on the line are counted.
func TestSessionBookLineDropsMovesOffIt(t *testing.T) {
	held := playLine(t, startFEN, "e2e4", "e7e5", "g1f3", "b8c6", "f1b5")
	real := playLine(t, startFEN, "e2e4", "b8c6", "g1f3", "e7e5", "f1b5")
	b, entries := bookFor(t, held, 0, 2, 4)
	s, log := newTestSession()
	s.NewGame()
	d := &driver{s: s, b: b, l: held, white: true}
	d.play(0, 3, map[int]bool{0: true, 2: true}, nil)
	s.Position(real.positions[4].Pos, true) // the same position as held's
	s.BookMove(b, slices.Clone(real.keys[:5]), held.moves[4], true)
	s.AfterBestmove(real.positions[5].Pos)
	s.GameResult(WhiteWins, "result")
	for _, c := range []struct {
		name string
		ply  int
		want book.Learn
	}{{"e2e4", 0, book.Learn(entries[0].Learn).Add(book.Win)}, {"g1f3 from 1.e4 e5", 2, book.Learn(entries[2].Learn)}, {"f1b5", 4, book.Learn(entries[4].Learn).Add(book.Win)}} {
		if got := learned(t, b, held.keys[c.ply], held.moves[c.ply]); got != c.want {
			t.Errorf("%s: %v, want %v; log:\n%s", c.name, got, c.want, strings.Join(log.info, "\n"))
		}
	}
}

// A GUI that jumps past positions (to the end of the game, say) goes on
// from our book move when its position may follow from it: the move is
// counted. (Pawns that only go forward tell the jump past a move the GUI
// replaced, above.)
func TestSessionJumpPastOurBookMoveKeepsIt(t *testing.T) {
	l := playLine(t, startFEN, "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7")
	b, entries := bookFor(t, l, 0)
	s, log := newTestSession()
	s.NewGame()
	s.Position(l.positions[0].Pos, false)
	s.BookMove(b, l.keys[:1], l.moves[0], true)
	s.AfterBestmove(l.positions[1].Pos)
	s.Position(l.positions[7].Pos, true) // mate, six plies on
	s.NewGame()
	if got, want := learned(t, b, l.keys[0], l.moves[0]), book.Learn(entries[0].Learn).Add(book.Win); got != want {
		t.Errorf("e2e4: %v, want %v; log:\n%s", got, want, strings.Join(log.info, "\n"))
	}
}

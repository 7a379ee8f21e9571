package ucifront_test

// A property test of the UCI front against a model of what a UCI GUI is
// owed, written from the protocol: random sequences of the commands GUIs
// send, in the orders they send them, with the fake engine.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/notnil/chess"

	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// answer is one answer the GUI is owed: a bestmove (checked by check,
// which says what is wrong), a readyok or a uciok. An engine answers
// isready at once, even while it searches: a readyok (and our uciok) may
// overtake the engine's bestmove, never ours (a book's, or no move).
type answer struct {
	kind   string // "bestmove", "readyok", "uciok"
	engine bool   // a bestmove the engine gives
	check  func(line string, book bool) string
}

// uciModel is a UCI session as the protocol defines it: the game the GUI
// sent last, the search that waits for stop or ponderhit, and the answers
// owed, in the order asked.
type uciModel struct {
	base  string          // "startpos" or a FEN
	moves []string        // the game's moves after base
	pos   *chess.Position // nil: the game cannot be played (a bad move, or no position)
	bad   bool            // the last position line was not read at all: no move for it
	// running is the bestmove of a search that ends only when the GUI
	// says so (go infinite, go ponder): it is owed from stop, ponderhit,
	// another go or quit on, before what is asked later.
	running *answer
	owed    []answer
	bookOn  bool
}

// bookMoves is the test book (proxytest.SmallBook): its move for a position, heaviest
// first, by the position's pieces, side, castling and a capturable
// en-passant square.
var bookMoves = map[string][]string{}

func init() {
	for _, e := range []struct {
		moves string
		book  []string
	}{{"", []string{"e2e4", "d2d4"}}, {"e2e4", []string{"c7c5"}}, {"e2e4 e7e5", []string{"g1f3"}}, {"e2e4 e7e5 g1f3 b8c6", []string{"f1b5"}}} {
		pos := chess.StartingPosition()
		for _, m := range strings.Fields(e.moves) {
			pos = pos.Update(findMove(pos, m))
		}
		bookMoves[bookKey(pos)] = e.book
	}
}

func bookKey(pos *chess.Position) string {
	f := strings.Fields(pos.String())
	ep := "-"
	for _, mv := range pos.ValidMoves() {
		if mv.HasTag(chess.EnPassant) {
			ep = f[3]
		}
	}
	return strings.Join(f[:3], " ") + " " + ep
}

func findMove(pos *chess.Position, s string) *chess.Move {
	for _, mv := range pos.ValidMoves() {
		if mv.String() == s {
			return mv
		}
	}
	return nil
}

// firstMove is the legal move that sorts first, as the fake engine plays
// ("0000": none).
func firstMove(pos *chess.Position) string {
	var names []string
	for _, mv := range pos.ValidMoves() {
		names = append(names, mv.String())
	}
	if len(names) == 0 {
		return "0000"
	}
	sort.Strings(names)
	return names[0]
}

// setGame takes a position line's game; false: a move does not play.
func (m *uciModel) setGame(base string, moves []string) {
	m.base, m.moves, m.bad = base, moves, false
	pos := chess.StartingPosition()
	if base != "startpos" {
		pos = &chess.Position{}
		if pos.UnmarshalText([]byte(base)) != nil {
			m.pos = nil
			return
		}
	}
	for _, s := range moves {
		mv := findMove(pos, s)
		if mv == nil {
			m.pos = nil
			return
		}
		pos = pos.Update(mv)
	}
	m.pos = pos
}

// search is a go on the game: its bestmove, owed now (ends: it has a limit
// of its own) or held as running. The book answers (the heaviest move
// searchmoves allows) unless the search analyses (infinite) or looks for
// a mate; else the engine plays its first legal move, pondering on the
// first reply.
func (m *uciModel) search(ends, bookMay bool, only []string) {
	pos, bad := m.pos, m.bad
	var allowed []string
	if pos != nil && bookMay && m.bookOn {
		for _, b := range bookMoves[bookKey(pos)] {
			if only == nil || slices.Contains(only, b) {
				allowed = append(allowed, b)
			}
		}
	}
	a := answer{kind: "bestmove", engine: !bad && len(allowed) == 0, check: func(line string, fromBook bool) string {
		f := strings.Fields(line)
		switch {
		case bad:
			if line != "bestmove 0000" {
				return "want bestmove 0000 for a position not read"
			}
		case pos == nil:
			// A bad move: the engine decides what it plays.
		case len(allowed) > 0:
			if !fromBook || f[1] != allowed[0] {
				return fmt.Sprintf("want the book's %s", allowed[0])
			}
			if len(f) == 4 && findMove(pos.Update(findMove(pos, f[1])), f[3]) == nil {
				return "the ponder move does not play"
			}
		default:
			want := "bestmove " + firstMove(pos)
			if mv := findMove(pos, firstMove(pos)); mv != nil {
				if reply := firstMove(pos.Update(mv)); reply != "0000" {
					want += " ponder " + reply
				}
			}
			if fromBook || line != want {
				return "want the engine's " + want
			}
		}
		return ""
	}}
	if ends || bad {
		m.owed = append(m.owed, a) // a position not read: no move, at once
	} else {
		m.running = &a
	}
}

// release makes the running search's bestmove owed (stop, ponderhit,
// another go, quit).
func (m *uciModel) release() {
	if m.running != nil {
		m.owed = append(m.owed, *m.running)
		m.running = nil
	}
}

// uciRun is one sequence against the model.
type uciRun struct {
	t       *testing.T
	h       *proxytest.Harness
	m       *uciModel
	pick    func(int) int
	readies int // isreadys sent
	readyok int // readyoks read
	script  []string
	book    bool // an info string announced a book move for the next bestmove
	misuse  *[]string
	mu      *sync.Mutex
}

func (r *uciRun) fail(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("%s\nsession:\n%s", fmt.Sprintf(format, args...), strings.Join(r.script, "\n"))
}

// send sends lines, then an isready, and reads up to its readyok: every
// answer must be the next owed, in order.
func (r *uciRun) send(lines ...string) {
	r.t.Helper()
	r.script = append(r.script, lines...)
	r.h.Send(append(lines, "isready")...)
	r.readies++
	r.m.owed = append(r.m.owed, answer{kind: "readyok"})
	for r.readyok < r.readies {
		r.answer(r.h.Next())
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(*r.misuse) > 0 {
		r.fail("the engine was sent what it chokes on: %q", *r.misuse)
	}
}

// answer checks one line against what is owed.
func (r *uciRun) answer(l string) {
	r.t.Helper()
	kind, _, _ := strings.Cut(l, " ")
	switch kind {
	case "bestmove", "readyok", "uciok":
	case "info":
		r.book = r.book || strings.HasPrefix(l, "info string book move ")
		return
	case "id", "option", "", "Fen:", "Unknown":
		return
	default:
		r.fail("%q is no answer a UCI GUI expects", l)
	}
	i := 0
	for kind != "bestmove" && i < len(r.m.owed) && r.m.owed[i].engine {
		i++ // the engine still searches
	}
	if i == len(r.m.owed) {
		r.fail("%q when nothing is owed", l)
	}
	want := r.m.owed[i]
	r.m.owed = slices.Delete(r.m.owed, i, i+1)
	if want.kind != kind {
		r.fail("%q, want a %s", l, want.kind)
	}
	if kind == "readyok" {
		r.readyok++
	}
	if want.check != nil {
		if why := want.check(l, r.book); why != "" {
			r.fail("%q: %s", l, why)
		}
	}
	if kind == "bestmove" {
		r.book = false
	}
}

// line draws a game's moves: the book's line, or random legal moves.
func (r *uciRun) line() []string {
	pos := chess.StartingPosition()
	var moves []string
	for range r.pick(7) {
		var s string
		if b := bookMoves[bookKey(pos)]; len(b) > 0 && r.pick(2) == 0 {
			s = b[0]
		} else {
			valid := pos.ValidMoves()
			if len(valid) == 0 {
				break
			}
			s = valid[r.pick(len(valid))].String()
		}
		moves = append(moves, s)
		pos = pos.Update(findMove(pos, s))
	}
	return moves
}

func positionLine(base string, moves []string) string {
	l := "position " + base
	if base != "startpos" {
		l = "position fen " + base
	}
	if len(moves) > 0 {
		l += " moves " + strings.Join(moves, " ")
	}
	return l
}

// legalAfter is a legal move after the game's, "" without one.
func (r *uciRun) legalAfter() string {
	if r.m.pos == nil {
		return ""
	}
	valid := r.m.pos.ValidMoves()
	if len(valid) == 0 {
		return ""
	}
	return valid[r.pick(len(valid))].String()
}

// step draws one command, or a GUI's pair, sends it and checks the
// answers. false: the session ended (quit).
func (r *uciRun) step() bool {
	m := r.m
	if m.running != nil {
		// While a search runs a GUI sends isready, stop, ponderhit, go or
		// quit, nothing else.
		switch r.pick(5) {
		case 0:
			r.send()
		case 1:
			m.release()
			r.send("stop")
		case 2:
			m.release()
			r.send("ponderhit")
		case 3:
			m.release()
			m.search(true, true, nil)
			r.send("go wtime 1000 btime 1000")
		default:
			return r.quit()
		}
		return true
	}
	switch r.pick(19) {
	case 0, 1:
		moves := r.line()
		m.setGame("startpos", moves)
		r.send(positionLine("startpos", moves))
	case 2, 3:
		if s := r.legalAfter(); s != "" {
			moves := append(slices.Clone(m.moves), s)
			m.setGame(m.base, moves)
			r.send(positionLine(m.base, moves))
		}
	case 4:
		if n := len(m.moves); n > 0 && !m.bad {
			moves := slices.Clone(m.moves[:n-1-r.pick(n)])
			m.setGame(m.base, moves)
			r.send(positionLine(m.base, moves))
		}
	case 5:
		// A ponder miss: the last move replaced, perhaps with one more.
		if n := len(m.moves); n > 0 && !m.bad {
			m.setGame(m.base, m.moves[:n-1])
			if s := r.legalAfter(); s != "" {
				moves := append(slices.Clone(m.moves), s)
				m.setGame(m.base, moves)
				if t := r.legalAfter(); t != "" && r.pick(2) == 0 {
					moves = append(moves, t)
					m.setGame(m.base, moves)
				}
			}
			r.send(positionLine(m.base, m.moves))
		}
	case 6:
		if m.pos != nil {
			fen := m.pos.String()
			m.setGame(fen, nil)
			r.send(positionLine(fen, nil))
		}
	case 7:
		if !m.bad {
			moves := append(slices.Clone(m.moves), "e1e8")
			m.setGame(m.base, moves)
			r.send(positionLine(m.base, moves))
		}
	case 8:
		m.pos, m.bad = nil, true
		r.send([]string{"position fen xx", "position"}[r.pick(2)])
	case 9, 10, 11:
		limits := []string{"wtime 1000 btime 1000", "wtime 900 btime 1100 winc 10 binc 10", "depth 3", "movetime 20", "nodes 1000"}
		m.search(true, true, nil)
		r.send("go " + limits[r.pick(len(limits))])
	case 12:
		m.search(false, false, nil)
		r.send("go infinite")
	case 13:
		m.search(false, true, nil)
		r.send("go ponder wtime 1000 btime 1000")
	case 14:
		m.search(true, false, nil)
		r.send("go mate 3")
	case 15:
		if m.pos != nil && len(m.pos.ValidMoves()) > 0 {
			var only []string
			for _, mv := range m.pos.ValidMoves() {
				if r.pick(3) == 0 {
					only = append(only, mv.String())
				}
			}
			if len(only) > 0 {
				m.search(true, true, only)
				r.send("go wtime 1000 btime 1000 searchmoves " + strings.Join(only, " "))
			}
		}
	case 16:
		bad := m.bad
		m.setGame("startpos", nil)
		m.pos, m.bad = nil, bad // no game until the next position; one not read still gets no move
		r.send("ucinewgame")
	case 17:
		on := r.pick(2) == 0
		m.bookOn = on
		r.send("setoption name Polyglot Book value " + strconv.FormatBool(on))
	case 18:
		m.owed = append(m.owed, answer{kind: "uciok"})
		r.send("uci")
	}
	return true
}

// quit ends the session: every answer owed comes first, the running
// search's bestmove too, and then the run ends.
func (r *uciRun) quit() bool {
	r.m.release()
	r.script = append(r.script, "quit")
	r.h.Send("quit")
	for l := range r.h.Out {
		r.answer(l)
	}
	if len(r.m.owed) > 0 {
		r.fail("the run ended owing %d answers", len(r.m.owed))
	}
	r.h.Done <- <-r.h.Done
	return false
}

// playUCIRun plays the sequence pick draws.
func playUCIRun(t *testing.T, bookPath string, pick func(int) int, steps int) {
	var mu sync.Mutex
	var misuse []string
	h := start(t, proxytest.Config(t, bookPath), func(_ int, s *ucitest.Settings) {
		s.BestMove, s.Ponder = "", true
		s.OnMisuse = func(l string) { mu.Lock(); misuse = append(misuse, l); mu.Unlock() }
	}, nil)
	h.Send("uci")
	h.Until("uciok")
	r := &uciRun{t: t, h: h, m: &uciModel{base: "startpos", bookOn: true}, pick: pick, misuse: &misuse, mu: &mu}
	for range steps {
		if !r.step() {
			return
		}
	}
	r.quit()
}

// TestUCIAgainstModel plays random sequences of the commands UCI GUIs send
// (position lines that extend, take back, replace the last move, start
// from a FEN, hold a bad move or cannot be read; go with limits, infinite,
// ponder, mate, searchmoves; stop, ponderhit, isready, ucinewgame,
// setoption, uci, quit) against uciModel. Invariants: every go gets one
// bestmove, every isready one readyok, every uci one uciok, in the order
// asked, but for the bestmove of a search that waits for stop or ponderhit,
// which the readyoks may overtake; a bestmove is the book's heaviest move
// when the book may answer, else the engine's, legal in the position; a
// position not read gets bestmove 0000; nothing else reaches the GUI; the
// engine is sent nothing it would choke on; at quit everything owed comes.
// POLYPROXY_UCI_SEQUENCES sets the number of sequences (200; with -short
// 40), POLYPROXY_UCI_SEED the first seed.
func TestUCIAgainstModel(t *testing.T) {
	n, seed := 200, uint64(1)
	if testing.Short() {
		n = 40
	}
	if v, err := strconv.Atoi(os.Getenv("POLYPROXY_UCI_SEQUENCES")); err == nil {
		n = v
	}
	if v, err := strconv.ParseUint(os.Getenv("POLYPROXY_UCI_SEED"), 10, 64); err == nil {
		seed = v
	}
	bookPath := proxytest.SmallBook(t)
	for i := range n {
		s := seed + uint64(i)
		t.Run(strconv.FormatUint(s, 10), func(t *testing.T) {
			playUCIRun(t, bookPath, rand.New(rand.NewPCG(s, 0)).IntN, 10+int(s%50))
		})
	}
}

// FuzzUCIAgainstModel is TestUCIAgainstModel with the fuzzer's bytes
// drawing the sequence, for go test -fuzz.
func FuzzUCIAgainstModel(f *testing.F) {
	for _, s := range []string{
		"\x00\x03\x09\x02\x00\x09\x05\x0c\x01",     // a line, go, a move more, go, a miss, infinite, stop
		"\x00\x00\x0d\x02\x04\x06\x0e\x0f\x01\x01", // book, go ponder, ponderhit, a FEN, mate, searchmoves
		"\x07\x09\x08\x09\x10\x11\x12\x0c\x04",     // a bad move, go, unreadable, go, ucinewgame, setoption, uci
	} {
		f.Add([]byte(s))
	}
	bookPath := proxytest.SmallBook(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 200 {
			t.Skip("at most 200 draws")
		}
		i := 0
		pick := func(n int) int {
			if i >= len(data) {
				return 0
			}
			i++
			return int(data[i-1]) % n
		}
		playUCIRun(t, bookPath, pick, len(data)/2+1)
	})
}

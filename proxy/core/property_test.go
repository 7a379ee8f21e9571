package core_test

// Property tests of the rules that count over a game, under every way a
// GUI changes the game line (take-backs, jumps, the same line again, a
// ponder miss, ucinewgame), against a model written from the manual's
// rules; and of the warm engine under option changes made at any moment.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// gameModel is a game as the manual defines it, with the book moves of
// ours it holds (BookMaxMoves) and the calls learning gets.
type gameModel struct {
	max     int
	tracked bool     // a position was followed since the last ucinewgame
	base    string   // the start of the line last sent: startpos or a FEN
	moves   []string // the line last sent
	lost    bool     // a line with an illegal move came since: the next good one is followed afresh
	// ours[ply] is the line (moves up to ply) from which we played a book
	// move at ply, for our latest answer at that ply.
	ours map[int]string
}

func (m *gameModel) newGame() { m.ours = map[int]string{}; m.tracked = false }

// position takes a position line: whether learning hears of it (a line
// sent again changes nothing), and whether it continues the game.
func (m *gameModel) position(base string, line []string) (heard, continues bool) {
	same := m.tracked && base == m.base
	if same && !m.lost && len(line) >= len(m.moves) && slices.Equal(line[:len(m.moves)], m.moves) {
		heard = len(line) > len(m.moves)
		m.moves = line
		return heard, true
	}
	// A take-back of any length, a jump back (then other moves), or a
	// ponder miss continue the game; another start or a changed first
	// move does not, nor a line of at most one move unless it is one ply
	// from the game.
	n := 0
	for n < len(line) && n < len(m.moves) && line[n] == m.moves[n] {
		n++
	}
	continues = same && (n >= len(m.moves)-1 || n >= 1 && len(line) >= 2)
	if !continues {
		m.newGame()
	}
	m.base, m.moves, m.tracked, m.lost = base, line, true, false
	return true, continues
}

// asked is a go on the current line: whether the book answers, given
// that it has a move there. Our answers at this ply and after are
// replaced by this one.
func (m *gameModel) asked(inBook bool) bool {
	ply := len(m.moves)
	for p := range m.ours {
		if p >= ply {
			delete(m.ours, p)
		}
	}
	count := 0
	for p, before := range m.ours {
		if p < ply && strings.Join(m.moves[:p+1], " ") == before {
			count++
		}
	}
	return inBook && count < m.max
}

// badLine takes a line with an illegal move: it is not followed and
// learning hears nothing; when it continues the game, the game's last
// followed line stays, for the next good line to continue.
func (m *gameModel) badLine(base string, line []string) {
	moves, tracked := m.moves, m.tracked
	if _, continues := m.position(base, line); continues {
		m.moves, m.tracked, m.lost = moves, tracked, true
		return
	}
	m.moves, m.tracked, m.lost = nil, false, false
}

// played records our book move at the current ply.
func (m *gameModel) played(move string) {
	ply := len(m.moves)
	m.ours[ply] = strings.TrimSpace(strings.Join(m.moves, " ") + " " + move)
}

// FuzzGameLineRules drives a game through random position lines along a
// 10-ply book line (take-backs and jumps of any length, lines sent again,
// a move off the book, an illegal move, from startpos or a FEN,
// ucinewgame, go ponder then ponderhit or stop) and
// checks each answer (book or engine, under BookMaxMoves) and each
// position learning hears of (continuing the game or not) against
// gameModel. One bestmove per go, one readyok per isready, nothing else.
func FuzzGameLineRules(f *testing.F) {
	for _, s := range []string{
		"\x01\x01\x00\x01\x02\x01\x04\x01\x02\x01\x04",         // the take-back of two plies
		"\x02\x01\x01\x01\x03\x01\x05\x01\x03\x01\x05\x01\x07", // as Black
		"\x03\x01\x06\x01\x02\x01\x08\x01\x00\x01\x04\x00\x01\x02",
		"\x01\x0e\x04\x01\x04\x0f\x02\x01\x02\x09\x03\x01\x04",
		"\x02\x01\x00\x01\x00\x01\x02\x01\x02\x01\x04\x01\x01\x01\x00\x01\x01",
		"\x01\x06\x00\x07\x02\x06\x04\x01\x06\x01\x08\x00\x06\x00",
		"\x03\x01\x09\x01\x08\x01\x03\x01\x0a\x01\x01\x01\x00\x01\x05",
		"\x02\x09\x00\x09\x02\x09\x04\x01\x04\x09\x02\x0f\x06\x0e\x02",         // from a FEN, and startpos again
		"\x01\x01\x00\x11\x02\x01\x02\x17\x03\x01\x04\x11\x00\x01\x00\x01\x02", // illegal moves in the line
		"0A710A7", // the last followed line again after an illegal one
	} {
		f.Add([]byte(s))
	}
	bookPath := lineBook(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 || len(data) > 81 {
			t.Skip("a game of at most 40 steps")
		}
		cfg := proxytest.Config(t, bookPath)
		cfg.BookMaxMoves = 1 + int(data[0])%3
		rec := &recorder{}
		h := start(t, cfg, nil, rec)
		h.Handshake()
		m := &gameModel{max: cfg.BookMaxMoves}
		m.newGame()
		var want []string // learning's position calls: "ply continues"
		var script []string
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("%s\nsession:\n%s", fmt.Sprintf(format, args...), strings.Join(script, "\n"))
		}
		send := func(lines ...string) {
			script = append(script, lines...)
			h.Send(lines...)
		}
		// source reads up to the next bestmove: "book" or "engine".
		source := func() string {
			lines := h.Until("bestmove")
			if proxytest.HasPrefix(lines, "book move") {
				return "book"
			}
			return "engine"
		}
		for i := 1; i+1 < len(data); i += 2 {
			op, arg := data[i]%8, data[i+1]
			if op == 0 {
				send("ucinewgame")
				m.newGame()
				continue
			}
			ply := int(arg) % (len(longLine) + 1)
			line := slices.Clone(longLine[:ply])
			if arg&0x80 != 0 {
				line = append(line, [2]string{"h2h3", "h7h6"}[ply%2]) // off the book
			}
			bad := data[i]&0x10 != 0
			if bad {
				line = append(line, "e1e8") // illegal: not followed
			}
			// The start position, sometimes as a FEN: another start.
			base := "startpos"
			if data[i]&0x08 != 0 {
				base = "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
			}
			pos := "position " + base
			if len(line) > 0 {
				pos += " moves " + strings.Join(line, " ")
			}
			if bad {
				m.badLine(base, line)
			} else if heard, continues := m.position(base, line); heard {
				want = append(want, fmt.Sprintf("%d %v", len(line), continues))
			}
			inBook := !bad && arg&0x80 == 0 && ply < len(longLine)
			asked := func() bool {
				if bad {
					return false // not followed: the engine, and no answer of ours replaced
				}
				return m.asked(inBook)
			}
			switch op {
			case 1, 2, 3, 4:
				send(pos, "go wtime 1000 btime 1000")
				wantBook := asked()
				if got := source(); got != map[bool]string{true: "book", false: "engine"}[wantBook] {
					fail("step %d: %s answered, want the other (BookMaxMoves %d)", i/2+1, got, m.max)
				}
				if wantBook {
					m.played(longLine[ply])
				}
			case 5, 6:
				send(pos, "go ponder wtime 1000 btime 1000")
				wantBook := asked()
				hit := op == 5
				send(map[bool]string{true: "ponderhit", false: "stop"}[hit])
				if got := source(); got != map[bool]string{true: "book", false: "engine"}[wantBook] {
					fail("step %d: %s answered a go ponder, want the other", i/2+1, got)
				}
				if wantBook && hit {
					m.played(longLine[ply])
				}
			case 7:
				send(pos, "isready")
				for l := h.Next(); l != "readyok"; l = h.Next() {
					if !bad || !strings.HasPrefix(l, "notice: position not followed") {
						fail("step %d: %q before readyok", i/2+1, l)
					}
				}
			}
		}
		send("isready")
		if l := h.Next(); l != "readyok" {
			fail("%q, want readyok (a bestmove too many?)", l)
		}
		send("quit")
		<-h.Done
		h.Done <- nil
		var got []string
		for _, c := range rec.got() {
			if f := strings.Fields(c); f[0] == "position" {
				// The FEN's counters give the ply.
				full, black := 0, f[2] == "b"
				fmt.Sscan(f[len(f)-2], &full)
				ply := 2 * (full - 1)
				if black {
					ply++
				}
				got = append(got, fmt.Sprintf("%d %s", ply, f[len(f)-1]))
			}
		}
		if !slices.Equal(got, want) {
			fail("learning heard (ply, continues)\n%q\nwant\n%q", got, want)
		}
	})
}

// FuzzWarmSearchUnderOptionChanges drives the warm engine (BookPonder,
// BookPonderAlways) with random option changes at any moment, also during
// a warm search and while the GUI ponders, between book and engine
// answers, ucinewgame and isready. Invariants: exactly one bestmove per
// go, a readyok for each isready with no bestmove before it that was not
// owed, and, at every isready, no warm search running that the settings
// do not allow (Book and BookPonder on, and BookPonderAlways on unless the
// GUI ponders); the engine is never sent a command it would choke on. The
// engine dies in the warm search after the book's last move (f1b5), a
// position the GUI never sends: that never costs the GUI an answer.
func FuzzWarmSearchUnderOptionChanges(f *testing.F) {
	for _, s := range []string{
		"\x03\x00\x06\x00\x06\x01", // a book move, its warm search, BookPonder off
		"\x03\x00\x00\x01\x06\x00\x03\x02\x06\x00",
		"\x04\x00\x00\x01\x06\x00\x05\x00\x06\x00",         // BookPonder off while the GUI ponders
		"\x04\x01\x01\x01\x06\x00\x01\x00\x06\x00\x05\x01", // BookPonderAlways off then on while the GUI ponders
		"\x03\x00\x02\x01\x06\x00\x02\x00\x03\x02\x06\x00\x07\x00\x03\x03",
		"\x03\x04\x03\x00\x04\x02\x02\x01\x05\x00\x00\x00\x00\x01\x03\x01\x06\x00",
		// Book off while a book answer is held for ponderhit: the answer
		// goes out, but no warm search after it.
		"\x04\x03\x02\x01\x05\x00",
		// The warm search after f1b5 kills the engine; the GUI goes on.
		"\x03\x03\x06\x00\x03\x04\x03\x03\x06\x00\x04\x00\x05\x00\x06\x00",
	} {
		f.Add([]byte(s))
	}
	positions := []string{
		"position startpos", // book: e2e4
		"position startpos moves e2e4",
		"position startpos moves e2e4 e7e5",
		"position startpos moves e2e4 e7e5 g1f3 b8c6",
		"position startpos moves d2d4 d7d5", // out of book
	}
	options := []string{"BookPonder", "BookPonderAlways", "Book"}
	bookPath := proxytest.SmallBook(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 81 {
			t.Skip("at most 40 steps")
		}
		cfg := proxytest.Config(t, bookPath)
		cfg.BookPonder, cfg.BookPonderAlways = true, true
		on := map[string]bool{"BookPonder": true, "BookPonderAlways": true, "Book": true}
		h := start(t, cfg, func(_ int, s *ucitest.Settings) { s.CrashIn = "b8c6 f1b5" }, nil)
		h.Handshake()
		engines := h.Started
		var script []string
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("%s\nsession:\n%s\nengine got:\n%s", fmt.Sprintf(format, args...), strings.Join(script, "\n"), strings.Join(searchesSent(h, engines()-1), "\n"))
		}
		send := func(lines ...string) {
			script = append(script, lines...)
			h.Send(lines...)
		}
		gos, bestmoves := 0, 0
		pondering := false // a go ponder waits for ponderhit or stop
		// answer reads up to the next bestmove.
		answer := func() {
			t.Helper()
			for {
				l := h.Next()
				if l == "readyok" {
					fail("readyok while a bestmove was awaited")
				}
				if strings.HasPrefix(l, "bestmove") {
					bestmoves++
					return
				}
			}
		}
		endPonder := func(how string) {
			if pondering {
				send(how)
				answer()
				pondering = false
			}
		}
		sync := func() {
			t.Helper()
			send("isready")
			for {
				l := h.Next()
				if strings.HasPrefix(l, "bestmove") {
					fail("a bestmove nobody was owed: %q", l)
				}
				if l == "readyok" {
					break
				}
			}
			// The engine that answered got everything sent before the
			// isready.
			sent := searchesSent(h, engines()-1)
			last := -1
			for i, l := range sent {
				if strings.HasPrefix(l, "go") {
					last = i
				}
			}
			warm := last >= 0 && sent[last] == "go infinite" && !slices.Contains(sent[last+1:], "stop")
			allowed := on["Book"] && on["BookPonder"] && (on["BookPonderAlways"] || pondering)
			if warm && !allowed {
				fail("a warm search runs with %v (GUI pondering: %v)", on, pondering)
			}
		}
		for i := 0; i+1 < len(data); i += 2 {
			op, arg := data[i]%8, int(data[i+1])
			switch op {
			case 0, 1, 2:
				name := options[op]
				on[name] = arg%2 == 0
				send(fmt.Sprintf("setoption name Polyglot %s value %v", name, on[name]))
			case 3:
				endPonder("stop")
				send(positions[arg%len(positions)], "go wtime 1000 btime 1000")
				gos++
				answer()
			case 4:
				endPonder("stop")
				send(positions[arg%len(positions)], "go ponder wtime 1000 btime 1000")
				gos++
				pondering = true
			case 5:
				endPonder([]string{"ponderhit", "stop"}[arg%2])
			case 6:
				sync()
			case 7:
				endPonder("stop")
				send("ucinewgame")
			}
		}
		endPonder("stop")
		sync()
		if bestmoves != gos {
			fail("%d bestmoves for %d go", bestmoves, gos)
		}
		for i := range engines() {
			if m := h.Engine(i).Misused(); len(m) != 0 {
				fail("engine %d misused: %q", i, m)
			}
		}
	})
}

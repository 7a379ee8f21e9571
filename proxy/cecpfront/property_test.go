package cecpfront_test

// A property test of the CECP front against a model of CECP written from
// the protocol's rules: random sequences of the commands GUIs send, with
// the fake engine, each played twice, pondering on and off.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// cecpModel is a CECP engine's state as the protocol defines it: the
// board, the modes and the clock setting in effect.
type cecpModel struct {
	startFEN string // "": the start position
	pos      *chess.Position
	moves    []string // UCI, from startFEN
	keys     []string // the positions of the game, for repetitions

	force, engineWhite, over, analyzing bool
	drawClaimed                         bool // over by our claim of a repetition or fifty-move draw: go plays on

	// The clock: level's moves per session, base and increment (ms), st's
	// time per move, sd's depth, time and otim's clocks.
	mps            int
	base, inc      int64
	st             int64
	sd             int
	time_, otim    int64
	clocksReceived bool
}

func newCECPModel() *cecpModel {
	m := &cecpModel{mps: 40, base: 300000} // XBoard's default: 40 moves in 5 minutes
	m.setup("")
	return m
}

// setup starts the board at fen ("": the start position); false when the
// FEN is not a position.
func (m *cecpModel) setup(fen string) bool {
	pos := chess.StartingPosition()
	if fen != "" {
		pos = &chess.Position{}
		if err := pos.UnmarshalText([]byte(fen)); err != nil {
			return false
		}
	}
	m.startFEN, m.pos, m.moves, m.over, m.drawClaimed = fen, pos, nil, false, false
	m.keys = []string{positionKey(pos)}
	return true
}

// positionKey is what makes positions the same for the repetition rule:
// the pieces, the side to move, the castling rights, and the en-passant
// square only when a pawn can take there.
func positionKey(pos *chess.Position) string {
	f := strings.Fields(pos.String())
	ep := "-"
	if pos.EnPassantSquare() != chess.NoSquare {
		for _, mv := range pos.ValidMoves() {
			if mv.HasTag(chess.EnPassant) {
				ep = f[3]
			}
		}
	}
	return f[0] + " " + f[1] + " " + f[2] + " " + ep
}

// find is the legal move written s (UCI), or nil.
func findMove(pos *chess.Position, s string) *chess.Move {
	for _, mv := range pos.ValidMoves() {
		if mv.String() == s {
			return mv
		}
	}
	return nil
}

func (m *cecpModel) play(mv *chess.Move) {
	m.pos = m.pos.Update(mv)
	m.moves = append(m.moves, mv.String())
	m.keys = append(m.keys, positionKey(m.pos))
}

// takeBack takes back n moves: false when the game has fewer.
func (m *cecpModel) takeBack(n int) bool {
	if n > len(m.moves) {
		return false
	}
	moves := slices.Clone(m.moves[:len(m.moves)-n])
	m.setup(m.startFEN)
	for _, s := range moves {
		m.play(findMove(m.pos, s))
	}
	return true
}

// end is the claim the game's end calls for on the board ("": it goes
// on): mate, stalemate, material that cannot mate, then the fifty-move
// rule and the third repetition.
func (m *cecpModel) end() string {
	switch m.pos.Status() {
	case chess.Checkmate:
		if m.pos.Turn() == chess.White {
			return "0-1 {Black mates}"
		}
		return "1-0 {White mates}"
	case chess.Stalemate:
		return "1/2-1/2 {Stalemate}"
	}
	if deadPosition(m.pos) {
		return "1/2-1/2 {Insufficient material}"
	}
	if m.pos.HalfMoveClock() >= 100 {
		return "1/2-1/2 {Fifty move rule}"
	}
	k, n := m.keys[len(m.keys)-1], 0
	for _, seen := range m.keys {
		if seen == k {
			n++
		}
	}
	if n >= 3 {
		return "1/2-1/2 {Draw by repetition}"
	}
	return ""
}

// claimed records our claim of the game's end: a draw that a player
// claims (repetition, fifty moves) leaves the game to go on if the GUI
// asks for a move.
func (m *cecpModel) claimed(claim string) {
	m.over = true
	m.drawClaimed = strings.Contains(claim, "{Draw by repetition}") || strings.Contains(claim, "{Fifty move rule}")
}

// playOnPastDrawClaim is go after our claim of a draw: the game goes on.
func (m *cecpModel) playOnPastDrawClaim() {
	if m.drawClaimed {
		m.over, m.drawClaimed = false, false
	}
}

// deadPosition: no pawn, rook or queen, and at most one minor piece, or
// bishops only, all on squares of one colour.
func deadPosition(pos *chess.Position) bool {
	minors, knights := 0, 0
	colours := map[int]bool{}
	for sq, p := range pos.Board().SquareMap() {
		switch p.Type() {
		case chess.Pawn, chess.Rook, chess.Queen:
			return false
		case chess.Knight:
			knights++
			minors++
		case chess.Bishop:
			minors++
			colours[(int(sq.File())+int(sq.Rank()))%2] = true
		}
	}
	return minors <= 1 || knights == 0 && len(colours) == 1
}

// enginesTurn: the engine is to move in a game (not force mode, the
// game not over).
func (m *cecpModel) enginesTurn() bool {
	return !m.force && !m.over && (m.pos.Turn() == chess.White) == m.engineWhite
}

// goLimits is the UCI search limits for the engine's move by CECP's
// clock rules: sd's depth; st's time per move (less STFudge's 20 ms)
// while st is in effect (level ends it); else the clocks, the level's base until time and otim
// come, the moves to go in the session (the side to move has made half
// the game's moves, rounded down).
func (m *cecpModel) goLimits() string {
	s := ""
	if m.sd > 0 {
		s += " depth " + strconv.Itoa(m.sd)
	}
	if m.st > 0 {
		return s + " movetime " + strconv.FormatInt(m.st-20, 10)
	}
	own, opp := m.base, m.base
	if m.clocksReceived {
		own, opp = m.time_, m.otim
	}
	w, b := own, opp
	if !m.engineWhite {
		w, b = opp, own
	}
	s += " wtime " + strconv.FormatInt(max(w, 1), 10) + " btime " + strconv.FormatInt(max(b, 1), 10)
	if m.inc > 0 {
		s += " winc " + strconv.FormatInt(m.inc, 10) + " binc " + strconv.FormatInt(m.inc, 10)
	}
	if m.mps > 0 {
		s += " movestogo " + strconv.Itoa(m.mps-(len(m.moves)/2)%m.mps)
	}
	return s
}

// positionLine is the UCI position of the board.
func (m *cecpModel) positionLine() string {
	l := "position startpos"
	if m.startFEN != "" {
		l = "position fen " + m.startFEN
	}
	if len(m.moves) > 0 {
		l += " moves " + strings.Join(m.moves, " ")
	}
	return l
}

// The positions setboard sends: the start, mates and stalemates a move
// away, a fifty-move count about to run out, material that cannot mate
// after a capture, and a FEN that is no position.
var modelFENs = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
	"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
	"4k3/8/8/8/8/8/8/R3K3 w Q - 97 80",
	"4k3/8/8/8/8/8/3r4/3NK3 w - - 0 60",
	"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30",
	"8/8/8/8/8/8/8/8 w - - 0 1",
}

// danceMoves bring the knights out and back, so games repeat.
var danceMoves = []string{"g1f3", "f3g1", "g8f6", "f6g8", "b1c3", "c3b1", "b8c6", "c6b8"}

// thinking is a line of the engine's thinking, as CECP shows it.
var thinking = regexp.MustCompile(`^-?\d+ -?\d+ \d+ \d+ `)

// modelRun plays one sequence of commands, drawn by pick, against the
// model, pondering on or off throughout (hard or easy first, and wherever
// the sequence sets pondering). out is the transcript of the engine's
// moves and the claims.
type modelRun struct {
	t       *testing.T
	h       *proxytest.Harness
	m       *cecpModel
	pick    func(n int) int
	ponder  bool
	pings   int
	pending []string // pings sent, not answered yet
	script  []string
	book    bool // the step's lines said "# book move"
	// ponderLimits are the search limits when the engine began pondering
	// after our last move, for a ponder hit.
	ponderLimits string
	out          []string
}

func (r *modelRun) fail(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("pondering %t: %s\nsession:\n%s", r.ponder, fmt.Sprintf(format, args...), strings.Join(r.script, "\n"))
}

// exchange sends lines and a ping and reads up to its pong: the lines
// that are not thinking, comments or pongs. Every pong answers the oldest
// ping unanswered.
func (r *modelRun) exchange(lines ...string) []string {
	r.t.Helper()
	r.pings++
	lines = append(lines, "ping "+strconv.Itoa(r.pings))
	for _, l := range lines {
		if n, ok := strings.CutPrefix(l, "ping "); ok {
			r.pending = append(r.pending, n)
		}
	}
	r.script = append(r.script, lines...)
	r.h.Send(lines...)
	r.book = false
	var got []string
	for {
		l := r.h.Next()
		switch {
		case strings.HasPrefix(l, "pong "):
			if len(r.pending) == 0 || l != "pong "+r.pending[0] {
				r.fail("got %q, want the pong of %q", l, r.pending)
			}
			r.pending = r.pending[1:]
			if len(r.pending) == 0 {
				return got
			}
		case strings.HasPrefix(l, "# book move "):
			r.book = true
		case strings.HasPrefix(l, "# "), thinking.MatchString(l):
		default:
			got = append(got, l)
		}
	}
}

// expect compares what a step said with what the model wants: a "move"
// in want stands for the engine's move, which must be legal on the
// model's board on the engine's turn, and is played there; the claim the
// model sees after it must come next.
func (r *modelRun) expect(got, want []string, searched bool) {
	r.t.Helper()
	i := 0
	for _, w := range want {
		if i >= len(got) {
			r.fail("got %q, want %q", got, want)
		}
		if w != "move" {
			if got[i] != w {
				r.fail("got %q, want %q", got, want)
			}
			i++
			continue
		}
		s, ok := strings.CutPrefix(got[i], "move ")
		if !ok {
			r.fail("got %q, want a move", got)
		}
		i++
		mv := findMove(r.m.pos, s)
		if mv == nil || !r.m.enginesTurn() {
			r.fail("move %s: not legal, or not the engine's turn, on %s", s, r.m.pos)
		}
		r.checkSearch(searched)
		r.m.play(mv)
		r.out = append(r.out, got[i-1])
		if claim := r.m.end(); claim != "" {
			if i >= len(got) || got[i] != claim {
				r.fail("after move %s got %q, want the claim %q", s, got, claim)
			}
			i++
			r.m.claimed(claim)
			r.out = append(r.out, claim)
			continue
		}
		// The engine ponders from here on the opponent's time.
		r.m.moves = append(r.m.moves, "")
		r.ponderLimits = r.m.goLimits()
		r.m.moves = r.m.moves[:len(r.m.moves)-1]
	}
	if i != len(got) {
		r.fail("got %q, want %q", got, want)
	}
}

// clockValues are the clocks of a go line, which move between a ponder
// search's start and its hit.
var clockValues = regexp.MustCompile(`(wtime|btime) -?\d+`)

// checkSearch checks the engine searched our move with the limits CECP's
// clock rules give: its last go on the board's position (a go ponder that
// was hit counts, with the limits when it began).
func (r *modelRun) checkSearch(searched bool) {
	r.t.Helper()
	if !searched || r.book {
		return // the book answered
	}
	got := r.h.Engine(0).Received()
	want := r.m.positionLine()
	goLine := ""
	for i := len(got) - 2; i >= 0; i-- {
		if samePositionLine(got[i], want) && strings.HasPrefix(got[i+1], "go ") {
			goLine = got[i+1]
			break
		}
	}
	limits := r.m.goLimits()
	if rest, ok := strings.CutPrefix(goLine, "go ponder"); ok {
		goLine, limits = clockValues.ReplaceAllString(rest, "$1 N"), clockValues.ReplaceAllString(r.ponderLimits, "$1 N")
	} else {
		goLine = strings.TrimPrefix(goLine, "go")
	}
	if goLine != limits {
		r.fail("the engine searched %q with %q, want %q", want, goLine, limits)
	}
}

// samePositionLine: two position lines of the same game, their FENs
// alike but for the en-passant square, which a FEN may give or not when
// no pawn can take there.
func samePositionLine(a, b string) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) != len(fb) {
		return false
	}
	for i := range fa {
		if fa[i] != fb[i] && !(i == 5 && fa[1] == "fen") {
			return false
		}
	}
	return true
}

// userMove is a legal move for the GUI to send: a mate when there is one
// (a quarter of the time), a knight's dance move (a quarter), the move
// that sorts first, which the fake engine expects (a ponder hit; a
// quarter), else any.
func (r *modelRun) userMove() (string, bool) {
	moves := r.m.pos.ValidMoves()
	if len(moves) == 0 {
		return "", false
	}
	switch r.pick(4) {
	case 2:
		first := moves[0].String()
		for _, mv := range moves {
			first = min(first, mv.String())
		}
		return first, true
	case 0:
		for _, mv := range moves {
			if r.m.pos.Update(mv).Status() == chess.Checkmate {
				return mv.String(), true
			}
		}
	case 1:
		for _, mv := range moves {
			if slices.Contains(danceMoves, mv.String()) {
				return mv.String(), true
			}
		}
	}
	return moves[r.pick(len(moves))].String(), true
}

// afterSearch reads the end of a search for our move, got being what the
// command that started it said: a book move or a ponder hit's may have
// come already; else ? asks for it. With no legal move the front claims
// the end instead.
func (r *modelRun) afterSearch(got []string) {
	r.t.Helper()
	book := r.book
	if len(r.m.pos.ValidMoves()) == 0 {
		got = append(got, r.exchange("?")...)
		claim := r.m.end()
		r.expect(got, []string{claim}, false)
		r.m.claimed(claim)
		r.out = append(r.out, claim)
		return
	}
	if !slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "move ") }) {
		got = append(got, r.exchange("?")...)
		book = book || r.book
	}
	r.book = book
	r.expect(got, []string{"move"}, true)
}

// newGame is new in the model.
func (m *cecpModel) newGame() {
	m.setup("")
	m.force, m.engineWhite = false, false
	m.sd, m.clocksReceived = 0, false
}

// step draws one command (or a GUI's pair of them), sends it and checks
// every answer against the model. false: the session ended (quit).
func (r *modelRun) step() bool {
	m := r.m
	switch r.pick(26) {
	case 0:
		r.expect(r.exchange("new"), nil, false)
		m.newGame()
	case 1:
		r.expect(r.exchange("force"), nil, false)
		m.force = true
	case 2, 3:
		got := r.exchange("go")
		m.force, m.engineWhite = false, m.pos.Turn() == chess.White
		m.playOnPastDrawClaim()
		if m.over || m.analyzing {
			r.expect(got, nil, false)
			return true
		}
		r.afterSearch(got)
	case 4:
		r.expect(r.exchange("playother"), nil, false)
		m.force, m.engineWhite = false, m.pos.Turn() != chess.White
	case 5, 6, 7, 8, 9:
		s, ok := r.userMove()
		if !ok || m.enginesTurn() {
			return true // a GUI sends no move then
		}
		got := r.exchange("usermove " + s)
		if m.over && !m.force {
			r.expect(got, []string{"Illegal move: " + s}, false)
			return true
		}
		m.play(findMove(m.pos, s))
		if !m.force {
			if claim := m.end(); claim != "" {
				r.expect(got, []string{claim}, false)
				m.claimed(claim)
				r.out = append(r.out, claim)
				return true
			}
		}
		if !m.enginesTurn() || m.analyzing {
			r.expect(got, nil, false)
			return true
		}
		r.afterSearch(got)
	case 10:
		r.expect(r.exchange("usermove e2e5"), []string{"Illegal move: e2e5"}, false)
	case 11, 12:
		cmd, n := "undo", 1
		if r.pick(2) == 0 {
			cmd, n = "remove", 2
		}
		got := r.exchange(cmd)
		if !m.takeBack(n) {
			r.expect(got, []string{"Error (no moves to take back): " + cmd}, false)
			return true
		}
		r.expect(got, nil, false)
	case 13:
		fen := modelFENs[r.pick(len(modelFENs))]
		got := r.exchange("setboard " + fen)
		board, _, _ := strings.Cut(fen, " ")
		if !strings.Contains(board, "K") || !strings.Contains(board, "k") || !m.setup(fen) {
			if len(got) != 1 || !strings.HasPrefix(got[0], "tellusererror Illegal position") {
				r.fail("setboard %s: got %q, want it refused", fen, got)
			}
			return true
		}
		r.expect(got, nil, false)
	case 14:
		r.expect(r.exchange(r.ponderCommand()), nil, false)
	case 15:
		if m.analyzing {
			r.expect(r.exchange("exit"), nil, false)
			m.analyzing = false
		} else {
			r.expect(r.exchange("analyze"), nil, false)
			m.analyzing = true
		}
	case 16:
		secs := []string{"1", "2.5", "30"}[r.pick(3)]
		r.expect(r.exchange("st "+secs), nil, false)
		f, _ := strconv.ParseFloat(secs, 64)
		m.st = int64(f * 1000)
	case 17:
		d := 1 + r.pick(9)
		r.expect(r.exchange("sd "+strconv.Itoa(d)), nil, false)
		m.sd = d
	case 18:
		levels := []struct {
			cmd       string
			mps       int
			base, inc int64
		}{{"level 40 5 0", 40, 300000, 0}, {"level 0 2 12", 0, 120000, 12000}, {"level 30 0:30 0", 30, 30000, 0}, {"level 0 1 0.5", 0, 60000, 500}}
		l := levels[r.pick(len(levels))]
		r.expect(r.exchange(l.cmd), nil, false)
		m.mps, m.base, m.inc, m.st = l.mps, l.base, l.inc, 0
	case 19:
		cs := int64(r.pick(30000)) - 100
		if r.pick(2) == 0 {
			r.expect(r.exchange("time "+strconv.FormatInt(cs, 10)), nil, false)
			m.time_ = cs * 10
		} else {
			r.expect(r.exchange("otim "+strconv.FormatInt(cs, 10)), nil, false)
			m.otim = cs * 10
		}
		m.clocksReceived = true
	case 20:
		// Pings in a row: one pong each, in order.
		r.pings++
		r.expect(r.exchange("ping "+strconv.Itoa(r.pings)), nil, false)
	case 21:
		r.expect(r.exchange("result 1/2-1/2 {Game drawn by agreement}"), nil, false)
		m.over, m.drawClaimed = true, false
	case 22:
		// A GUI's pair sent at once: a search asked for, then stopped for
		// good by force, result or new before it could end: no move but
		// the book's, which answers at once.
		then := []string{"force", "result 0-1 {Black resigns}", "new"}[r.pick(3)]
		got := r.exchange("go", then)
		m.force, m.engineWhite = false, m.pos.Turn() == chess.White
		m.playOnPastDrawClaim()
		var want []string
		if !m.over && !m.analyzing && r.book {
			want = []string{"move"}
		}
		r.expect(got, want, true)
		switch then {
		case "force":
			m.force = true
		case "new":
			m.newGame()
		default:
			m.over, m.drawClaimed = true, false
		}
	case 23:
		// bk: lines starting with a space, an empty line at the end.
		got := r.exchange("bk")
		if len(got) < 2 || got[len(got)-1] != "" {
			r.fail("bk answered %q", got)
		}
		for _, l := range got[:len(got)-1] {
			if !strings.HasPrefix(l, " ") {
				r.fail("bk answered %q", got)
			}
		}
	case 24:
		// hint: a legal move for the side to move, or nothing.
		got := r.exchange("hint")
		if len(got) > 1 || len(got) == 1 && (!strings.HasPrefix(got[0], "Hint: ") || findMove(m.pos, got[0][6:]) == nil) {
			r.fail("hint answered %q on %s", got, m.pos)
		}
	case 25:
		// quit, alone or right after a go: no move of a search follows.
		lines := []string{"quit"}
		if r.pick(2) == 0 {
			lines = []string{"go", "quit"}
		}
		r.script = append(r.script, lines...)
		r.h.Send(lines...)
		book := false
		for l := range r.h.Out {
			if strings.HasPrefix(l, "move ") && !book {
				r.fail("%q after quit", l)
			}
			book = strings.HasPrefix(l, "# book move ")
		}
		r.h.Done <- <-r.h.Done
		return false
	}
	return true
}

// ponderCommand turns pondering on or off, as the run wants.
func (r *modelRun) ponderCommand() string {
	if r.ponder {
		return "hard"
	}
	return "easy"
}

// modelBook is the knights' dance for both sides and 1.e4 c5: games
// from it repeat, and the engine ponders on book replies.
func modelBook(t testing.TB) string {
	return proxytest.WriteBook(t, []proxytest.BookEntry{
		{Moves: "", Move: "g1f3", Weight: 10}, {Moves: "g1f3", Move: "g8f6", Weight: 10},
		{Moves: "g1f3 g8f6", Move: "f3g1", Weight: 10}, {Moves: "g1f3 g8f6 f3g1", Move: "f6g8", Weight: 10},
		{Moves: "e2e4", Move: "c7c5", Weight: 10},
	})
}

// playModelRun plays the sequence pick draws, pondering or not, and
// returns its transcript and the number of ponder hits.
func playModelRun(t *testing.T, bookPath string, pick func(int) int, steps int, ponder bool) ([]string, int) {
	h := start(t, proxytest.Config(t, bookPath), func(_ int, s *ucitest.Settings) {
		s.BestMove, s.Ponder, s.SearchTime = "", true, time.Hour // a search ends when asked: ?
	}, nil)
	h.Send("xboard", "protover 2")
	h.Until("feature done=1")
	r := &modelRun{t: t, h: h, m: newCECPModel(), pick: pick, ponder: ponder}
	r.expect(r.exchange("new", r.ponderCommand()), nil, false)
	for range steps {
		if !r.step() {
			break
		}
	}
	hits := 0
	for _, l := range h.Engine(0).Received() {
		if l == "ponderhit" {
			hits++
		}
	}
	return r.out, hits
}

// TestXboardAgainstModel plays random sequences of the commands CECP GUIs
// send (new, force, go, playother, usermove, undo, remove, setboard,
// hard/easy, analyze/exit, st/sd/level/time/otim, ping, result, quit, bk,
// hint, and pairs a GUI sends at once) against cecpModel, each twice:
// pondering on and off. Invariants: every move is legal on the GUI's board
// and comes on the engine's turn only (never after force, result or quit);
// one pong per ping, in order; the engine searches with the limits CECP's
// clock rules give; the game's end is claimed when the model sees it, and
// the same moves and claims come with pondering on and off.
// POLYPROXY_CECP_SEQUENCES sets the number of sequences (200; with
// -short 40), POLYPROXY_CECP_SEED the first seed.
func TestXboardAgainstModel(t *testing.T) {
	n, seed := 200, uint64(1)
	if testing.Short() {
		n = 40
	}
	if v, err := strconv.Atoi(os.Getenv("POLYPROXY_CECP_SEQUENCES")); err == nil {
		n = v
	}
	if v, err := strconv.ParseUint(os.Getenv("POLYPROXY_CECP_SEED"), 10, 64); err == nil {
		seed = v
	}
	bookPath := modelBook(t)
	moves, claims, hits := 0, 0, 0
	for i := range n {
		s := seed + uint64(i)
		t.Run(strconv.FormatUint(s, 10), func(t *testing.T) {
			steps := 10 + int(s%50)
			off, _ := playModelRun(t, bookPath, rand.New(rand.NewPCG(s, 0)).IntN, steps, false)
			on, h := playModelRun(t, bookPath, rand.New(rand.NewPCG(s, 0)).IntN, steps, true)
			hits += h
			if !slices.Equal(off, on) {
				t.Errorf("seed %d: pondering off: %q\npondering on: %q", s, off, on)
			}
			for _, l := range on {
				if strings.HasPrefix(l, "move ") {
					moves++
				} else {
					claims++
				}
			}
		})
	}
	t.Logf("%d sequences from seed %d, each pondering on and off: %d moves of the engine and %d claims each way, %d ponder hits", n, seed, moves, claims, hits)
}

// FuzzXboardAgainstModel is TestXboardAgainstModel with the fuzzer's
// bytes drawing the sequence, for go test -fuzz.
func FuzzXboardAgainstModel(f *testing.F) {
	for _, s := range []string{
		"\x02\x05\x01\x05\x02\x05\x00\x05\x03", // go, then the knights' dance
		"\x0e\x02\x05\x02\x05\x02\x17",         // hard, go, ponder hits, bk
		"\x0d\x01\x05\x00\x02\x16\x00\x19",     // setboard a mate, force/go pairs, quit
		"\x10\x00\x00\x02\x12\x01\x13\x05\x02", // st, new, go, level, time
	} {
		f.Add([]byte(s))
	}
	bookPath := modelBook(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 200 {
			t.Skip("at most 200 draws")
		}
		from := func() func(int) int {
			i := 0
			return func(n int) int {
				if i >= len(data) {
					return 20 % n // a ping: the sequence ends quietly
				}
				i++
				return int(data[i-1]) % n
			}
		}
		steps := len(data)/2 + 1
		off, _ := playModelRun(t, bookPath, from(), steps, false)
		on, _ := playModelRun(t, bookPath, from(), steps, true)
		if !slices.Equal(off, on) {
			t.Errorf("pondering off: %q\npondering on: %q", off, on)
		}
	})
}

package adapter

import (
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/uci"
)

// xboardFront is the CECP (xboard protocol, version 2) front: what a
// CECP GUI (XBoard, WinBoard, Arena, Cute Chess) expects of a
// PolyGlot-run engine. It keeps CECP's state and its own board of the
// game, for legality and the game's end, and drives the core (front.go)
// with UCI positions and searches; the core's lines come back through
// its guiOutput methods (front_xboard_out.go) and leave as CECP.
type xboardFront struct {
	a   *Adapter
	out *uci.Writer // the GUI's

	// held are the GUI's lines before the engine's first handshake: the
	// features need the engine's name and options.
	held         []string
	featuresOwed bool // protover read, its features wait for the handshake

	startFEN string         // the game's start ("": the start position)
	starts   [2]*board.Line // the start position, standard and Chess960, built once
	board    *board.Line    // the game as played so far
	moves    []string       // its moves from startFEN, in UCI form
	line     positionText   // startFEN and moves as a UCI position line

	force       bool // the engine plays neither side
	engineWhite bool // the side it plays when not in force mode
	post        bool // thinking output on
	hard        bool // pondering on
	analyzing   bool
	chess960    bool // variant fischerandom: UCI_Chess960 on, castling as O-O and O-O-O
	over        bool // the game has ended: no search until new, undo or setboard
	// drawClaimed marks an end that is only our claim of a draw the rules
	// let a player claim (repetition, fifty moves): a GUI that sends go
	// after it plays on (python-chess's clients do), and gets a move.
	drawClaimed bool

	clock            cecpClock
	ponderMove       string // the reply to ponder on, after our last move ("": none)
	expected         string // the reply our last move's search expected, for hint ("": none)
	expectedAt       int    // the number of moves played when it was expected
	searches         []*xbSearch
	pings            []string   // ping numbers waiting for their readyok, in order
	redrive          bool       // a bestmove came: drive once the core has settled
	resignRun        int        // our moves in a row with a score at or below -ResignScore
	lastScore        *uci.Score // the engine's score for our last move (nil: none, a book move)
	lastInfo         uci.Info   // the last thinking of the running search, for "."
	lastInfoSearchOK bool
}

// xbSearchKind is what a search the core runs for the front is for.
type xbSearchKind int

const (
	xbPlay    xbSearchKind = iota // our move: its bestmove is played
	xbPonder                      // on the opponent's time, on ponderMove
	xbAnalyze                     // analyze mode: its bestmove goes nowhere
)

// xbSearch is a search the core owes a bestmove for. The core gives one
// bestmove per go, in order, so the front keeps them in a queue.
type xbSearch struct {
	kind       xbSearchKind
	discarded  bool        // stopped for good (force, undo, new, a ponder miss): its bestmove is dropped
	pos        *board.Line // the position searched, for the thinking's moves
	ponderMove string      // xbPonder: the opponent's move it assumes
	ponderSAN  string      // xbPonder: that move in SAN, for ShowPonder
	bestScore  *uci.Score  // its last score, for resignation
}

func newXboardFront(a *Adapter, out guiOutput) *xboardFront {
	w, ok := out.(*uci.Writer)
	if !ok {
		panic("adapter: the CECP front needs the GUI's writer")
	}
	// Until the GUI sends level: XBoard's default, 40 moves in 5 minutes.
	x := &xboardFront{a: a, out: w, clock: cecpClock{mps: 40, baseMS: 5 * 60 * 1000}}
	x.resetGame("")
	a.gui.talked = true // notices go out as CECP comments from now on
	return x
}

// send writes one CECP line to the GUI.
func (x *xboardFront) send(line string) {
	if x.a.log.on {
		x.a.log.traffic(">gui", line)
	}
	x.out.WriteLine(line)
}

// cecpMark starts a line of the front's that waited in the core's reply
// queue: it leaves as it is, not translated.
const cecpMark = "\x01"

// reply answers a command of the GUI: after a pong still owed for an
// earlier ping (it waits for the engine's readyok), so the GUI reads them
// in the order it asked; at once otherwise, even while the engine thinks.
func (x *xboardFront) reply(line string) {
	if len(x.pings) == 0 || len(x.a.replies.entries) == 0 {
		x.send(line)
		return
	}
	x.a.replies.emit([]string{cecpMark + line}, nil)
}

// onLine handles one line of the GUI.
func (x *xboardFront) onLine(line string) {
	line = strings.TrimSpace(line)
	if line == "" {
		return
	}
	cmd, arg := cutWord(line)
	if cmd == "quit" && len(x.held) == 0 {
		// The GUI leaves: no search of ours is played or shown any more.
		x.discardSearches()
		x.a.onQuitInOrder(uci.Command{Kind: uci.CmdQuit, Line: "quit"})
		return
	}
	if cmd == "quit" {
		// After the commands that wait for the handshake, in order; if
		// it never completes, the quit's wait ends the run.
		x.held = append(x.held, line)
		x.a.startTimer(&x.a.end.wait, evQuitWait, x.a.opts.QuitWait)
		return
	}
	if !x.a.engine.everReady {
		// The features need the engine's name and options: everything
		// waits for its handshake, in order. A GUI gives an engine that
		// says done=0 as long as it needs.
		if cmd == "protover" && !x.featuresOwed {
			x.featuresOwed = true
			x.send("feature done=0")
		}
		x.held = append(x.held, line)
		return
	}
	x.command(cmd, arg, line)
}

// cutWord splits a line into its first word and the rest, at a space or
// a tab.
func cutWord(line string) (word, rest string) {
	i := strings.IndexAny(line, " \t")
	if i < 0 {
		return line, ""
	}
	return line[:i], strings.TrimSpace(line[i+1:])
}

// afterEvent runs once the core has handled an event: the lines that
// waited for the handshake, and the searches a bestmove calls for.
func (x *xboardFront) afterEvent() {
	if len(x.held) > 0 && x.a.engine.everReady {
		held := x.held
		x.held = nil
		for _, l := range held {
			if x.a.end.quitSeen() {
				return
			}
			x.onLine(l)
		}
	}
	for x.redrive && !x.a.end.quitSeen() {
		x.redrive = false
		x.drive()
	}
}

// command handles one CECP command in its turn.
func (x *xboardFront) command(cmd, arg, line string) {
	switch cmd {
	case "xboard", "accepted", "rejected", "random", "computer", "name", "rating", "ics",
		"nps", "pause", "resume":
		// Nothing to do: informative, or features we do not offer.
	case "protover":
		x.sendFeatures()
	case "bk":
		x.showBook()
	case "hint":
		x.hint()
	case "new":
		x.discardSearches()
		// At once, not with the first search as PolyGlot does: the engine
		// clears its hash for ucinewgame (Stockfish with a big Hash takes
		// a good part of a second), better while the GUI sets the game up
		// than on the first move's clock.
		x.a.coreNewGame()
		x.setChess960(false) // new is standard chess until a variant command
		x.resetGame("")
		x.force, x.engineWhite = false, false
		x.clock.newGame()
		x.resignRun, x.lastScore = 0, nil
		x.analyseFromHere()
	case "variant":
		switch {
		case arg == "normal":
			x.discardSearches()
			x.setChess960(false)
			x.resetGame("")
			x.analyseFromHere()
		case arg == "fischerandom" && x.engineOptionNamed("UCI_Chess960") != "":
			x.discardSearches()
			x.setChess960(true)
			x.resetGame("")
			x.analyseFromHere()
		default:
			x.reply("Error (unsupported variant): " + arg)
		}
	case "force":
		x.discardSearches()
		x.force = true
	case "go":
		x.discardPonder()
		if x.drawClaimed {
			x.over, x.drawClaimed = false, false
		}
		x.force = false
		x.engineWhite = x.board.Pos.WhiteToMove()
		x.drive()
	case "playother":
		x.discardSearches()
		x.force = false
		x.engineWhite = !x.board.Pos.WhiteToMove()
		x.drive()
	case "white", "black":
		// Protocol 1: the side to move; the engine plays the other.
		x.discardSearches()
		x.force = false
		x.engineWhite = cmd == "black"
	case "usermove":
		x.userMove(arg)
	case "level":
		x.level(line, arg)
	case "st":
		if ms, ok := secondsToMS(arg); ok && ms > 0 {
			x.clock.st(ms)
		} else {
			x.reply("Error (bad time): " + line)
		}
	case "sd":
		if d, err := strconv.Atoi(arg); err == nil && d > 0 {
			x.clock.depth = d
		} else {
			x.reply("Error (bad depth): " + line)
		}
	case "time", "otim":
		cs, err := strconv.ParseInt(arg, 10, 64)
		if err != nil || cs > maxClockCS || cs < -maxClockCS {
			x.reply("Error (bad time): " + line)
			return
		}
		if cmd == "time" {
			x.clock.timeMS = cs * 10
		} else {
			x.clock.otimMS = cs * 10
		}
		x.clock.known = true
	case "post":
		x.post = true
	case "nopost":
		x.post = false
	case "hard":
		x.hard = true
		if x.force || x.over || x.board.Pos.WhiteToMove() != x.engineWhite {
			x.drive() // pondering, if a reply is expected: never our move, which waits for go
		}
	case "easy":
		x.hard = false
		x.discardPonder()
	case "ping":
		x.ping(arg)
	case "?":
		if s := x.active(); s != nil && s.kind == xbPlay {
			x.a.coreStop() // its bestmove comes, and is played
		}
	case "analyze":
		x.discardSearches()
		x.analyzing = true
		x.drive()
	case "exit":
		if x.analyzing {
			x.discardSearches()
			x.analyzing = false
		}
	case ".":
		x.analysisStatus()
	case "undo", "remove":
		n := 1
		if cmd == "remove" {
			n = 2
		}
		x.takeBack(n)
	case "setboard":
		x.setBoard(arg)
	case "result":
		x.result(arg)
	case "draw":
		x.answerDraw()
	case "memory", "cores":
		if n, err := strconv.Atoi(arg); err != nil || n < 1 {
			x.reply("Error (bad number): " + line)
			return
		}
		if cmd == "memory" {
			x.engineOption("Hash", arg, line)
		} else {
			x.engineOption("Threads", arg, line)
		}
	case "egtpath":
		kind, path := cutWord(arg)
		if kind != "syzygy" || x.engineOptionNamed("SyzygyPath") == "" {
			x.reply("Error (unsupported tablebases): " + line)
			return
		}
		x.engineOption("SyzygyPath", strings.TrimSpace(path), line)
	case "option":
		x.setOption(arg, line)
	default:
		if m, ok := x.parseMove(cmd); ok && arg == "" {
			x.playUserMove(cmd, m) // a move without usermove: protocol 1
			return
		}
		x.reply("Error (unknown command): " + line)
	}
}

// resetGame starts the board again from fen ("": the start position,
// which always parses).
func (x *xboardFront) resetGame(fen string) error {
	if fen == "" {
		x.useLine(x.startLine(), false)
		return nil
	}
	l, err := board.NewLineVariant(fen, x.chess960)
	if err != nil {
		return err
	}
	x.useLine(l, true)
	return nil
}

// startLine is a fresh copy of the start position, built once per
// variant: every new game begins there.
func (x *xboardFront) startLine() *board.Line {
	i := 0
	if x.chess960 {
		i = 1
	}
	if x.starts[i] == nil {
		l, err := board.NewLineVariant("", x.chess960)
		if err != nil {
			panic(err) // the start position always parses
		}
		x.starts[i] = l
	}
	l := *x.starts[i]
	l.Keys = append(make([]board.Key, 0, 64), x.starts[i].Keys...)
	return &l
}

// useLine starts the game at l: a position of the GUI's (setboard), or
// the start position.
func (x *xboardFront) useLine(l *board.Line, fromFEN bool) {
	x.board = l
	x.startFEN = ""
	if fromFEN {
		x.startFEN = l.Pos.FEN()
	}
	x.moves = x.moves[:0]
	x.line.reset(x.startFEN)
	x.over, x.drawClaimed = false, false
	x.ponderMove, x.expected = "", ""
}

// level reads "level MPS BASE INC": BASE in minutes or minutes:seconds,
// INC in seconds.
func (x *xboardFront) level(line, arg string) {
	f := strings.Fields(arg)
	bad := func() { x.reply("Error (bad level): " + line) }
	if len(f) != 3 {
		bad()
		return
	}
	mps, err := strconv.Atoi(f[0])
	min, secs, hasSecs := strings.Cut(f[1], ":")
	baseMin, ok1 := secondsToMS(min) // minutes, read as seconds: scaled below
	baseSec, ok2 := int64(0), true
	if hasSecs {
		baseSec, ok2 = secondsToMS(secs)
	}
	inc, ok3 := secondsToMS(f[2])
	if err != nil || mps < 0 || !ok1 || !ok2 || !ok3 || baseMin > maxSeconds*1000/60 {
		bad()
		return
	}
	x.clock.level(mps, baseMin*60+baseSec, inc)
}

// Bounds of the clock values the front takes: a year, far beyond any
// game, and far from overflowing milliseconds.
const (
	maxSeconds = 365 * 24 * 3600
	maxClockCS = maxSeconds * 100
)

// secondsToMS reads a number of seconds (a fraction allowed) as
// milliseconds: ok only for 0 to maxSeconds.
func secondsToMS(s string) (int64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 0 && f <= maxSeconds) {
		return 0, false
	}
	return int64(f * 1000), true
}

// parseMove reads a move in coordinate form (e2e4, e7e8q) or, from GUIs
// that send it anyway, SAN; ok when it is legal here.
func (x *xboardFront) parseMove(s string) (board.Move, bool) {
	pos := &x.board.Pos
	if m, err := board.ParseMove(strings.ToLower(s)); err == nil {
		if played, err := pos.LegalMove(pos.ToPlayed(m)); err == nil {
			return played, true
		}
		return 0, false
	}
	if m, err := board.ParseSAN(pos, s); err == nil {
		return m, true
	}
	return 0, false
}

// userMove handles usermove MOVE.
func (x *xboardFront) userMove(s string) {
	m, ok := x.parseMove(s)
	if !ok {
		x.reply("Illegal move: " + s)
		return
	}
	x.playUserMove(s, m)
}

// playUserMove plays the opponent's legal move m (as the GUI wrote it:
// s). Every move of the GUI's goes through here and its one end check,
// pondered on or not: a ponder hit goes on as our search unless the move
// ended the game; anything else running stops.
func (x *xboardFront) playUserMove(s string, m board.Move) {
	if x.over && !x.force {
		x.reply("Illegal move: " + s)
		return
	}
	move := m.String()
	running := x.active()
	hit := running != nil && running.kind == xbPonder && running.ponderMove == move && !x.force
	if running != nil && !hit {
		running.discarded = true
		x.a.coreStop()
	}
	x.ponderMove = ""
	x.play(m)
	if !x.force && x.claimEnd() {
		if hit {
			running.discarded = true
			x.a.coreStop()
		}
		return
	}
	if hit {
		running.kind = xbPlay
		x.a.log.printf("ponder hit on %s", move)
		x.a.corePonderHit()
		return
	}
	x.drive()
}

// play plays a legal move on the front's board.
func (x *xboardFront) play(m board.Move) {
	x.board.Pos.Play(m)
	x.board.Keys = append(x.board.Keys, x.board.Pos.Key())
	x.moves = append(x.moves, m.String())
	x.line.add(x.moves[len(x.moves)-1])
}

// active is the search the front waits for (not discarded), or nil.
func (x *xboardFront) active() *xbSearch {
	for _, s := range x.searches {
		if !s.discarded {
			return s
		}
	}
	return nil
}

// discardSearches stops what the engine searches for us: its bestmove
// will be dropped.
func (x *xboardFront) discardSearches() {
	x.ponderMove = ""
	x.lastInfoSearchOK = false
	if s := x.active(); s != nil {
		s.discarded = true
		x.a.coreStop()
	}
}

// analyseFromHere goes on analysing after a command that set up another
// board (new, variant, setboard, a take-back): analysis follows the
// board; a game waits for go.
func (x *xboardFront) analyseFromHere() {
	if x.analyzing {
		x.drive()
	}
}

// discardPonder stops a ponder search.
func (x *xboardFront) discardPonder() {
	x.ponderMove = ""
	if s := x.active(); s != nil && s.kind == xbPonder {
		s.discarded = true
		x.a.coreStop()
	}
}

// drive starts the search the state calls for, if none runs: analysis,
// our move, or pondering on the reply the last bestmove expected.
func (x *xboardFront) drive() {
	if x.active() != nil {
		return
	}
	switch {
	case x.analyzing:
		x.startSearch(xbAnalyze, "go infinite", x.board, "")
	case x.force || x.over:
	case x.board.Pos.WhiteToMove() == x.engineWhite:
		x.startSearch(xbPlay, x.goLine(false), x.board, "")
	case x.hard && x.ponderMove != "":
		move := x.ponderMove
		x.ponderMove = ""
		m, err := board.ParseMove(move)
		if err != nil {
			return
		}
		// The searched position only (for its thinking's moves): a copy
		// of the game's keys would cost the game's length.
		after := &board.Line{Pos: x.board.Pos}
		if _, err := after.Play(m); err != nil {
			return
		}
		x.startSearch(xbPonder, x.goLine(true), after, move)
		if played, ok := x.parseMove(move); ok {
			x.searches[len(x.searches)-1].ponderSAN = x.board.Pos.SAN(played)
		}
	}
}

// startSearch has the core search pos (the board, or the board and the
// ponder move) with goLine.
func (x *xboardFront) startSearch(kind xbSearchKind, goLine string, pos *board.Line, ponderMove string) {
	x.a.corePosition(x.line.line(ponderMove))
	x.searches = append(x.searches, &xbSearch{kind: kind, pos: pos, ponderMove: ponderMove})
	x.lastInfoSearchOK = false
	// A book answer comes back at once, through onBestmove.
	x.a.coreGo(goLine)
}

// goLine is the UCI go for our next move (ponder: on the opponent's
// time).
func (x *xboardFront) goLine(ponder bool) string {
	done := len(x.moves) / 2 // our moves since the game's start
	if ponder {
		done = (len(x.moves) + 1) / 2
	}
	return x.clock.goLine(ponder, x.engineWhite, done, int64(x.a.settings.STFudge))
}

// onBestmove takes the bestmove of the oldest search owed.
func (x *xboardFront) onBestmove(line string) {
	if len(x.searches) == 0 {
		x.a.log.printf("bestmove with no search of the front's: dropped")
		return
	}
	s := x.searches[0]
	x.searches = x.searches[1:]
	if s.discarded || s.kind != xbPlay {
		return
	}
	x.redrive = true
	bm, err := uci.ParseBestMove(line)
	m, merr := board.ParseMove(bm.Move)
	if err != nil || merr != nil || bm.Move == "0000" {
		// No move: the engine is mated or stalemated, or could not
		// search (the position killed it twice): a resignation, rather
		// than a game left to lose on time.
		if !x.claimEnd() {
			x.a.notify("the engine gave no move in a game that goes on (%s): resigning", line)
			x.send("resign")
			x.over = true
		}
		return
	}
	played, lerr := x.board.Pos.LegalMove(x.board.Pos.ToPlayed(m))
	if lerr != nil {
		x.a.notify("the engine's move %s is illegal here: resigning", bm.Move)
		x.send("resign")
		x.over = true
		return
	}
	x.lastScore = s.bestScore
	if x.resigns(s) {
		x.send("resign")
		x.over = true
		return
	}
	text := x.moveText(played)
	x.play(played)
	x.send("move " + text)
	if x.claimEnd() {
		return
	}
	x.expected, x.expectedAt = bm.Ponder, len(x.moves)
	if x.hard && bm.Ponder != "" {
		x.ponderMove = bm.Ponder
	}
}

// setChess960 switches the engine's UCI_Chess960 (the core follows it:
// the game and the book in Chess960) when the variant changes.
func (x *xboardFront) setChess960(on bool) {
	if on == x.chess960 {
		return
	}
	x.chess960 = on
	x.a.coreSetOption(x.engineOptionNamed("UCI_Chess960"), strconv.FormatBool(on), true)
}

// moveText is our move m as CECP writes it: in coordinates, but castling
// in Chess960 as O-O or O-O-O (the king takes its rook in UCI, which a
// CECP GUI would read as a capture).
func (x *xboardFront) moveText(m board.Move) string {
	if x.chess960 {
		if san := x.board.Pos.SAN(m); strings.HasPrefix(san, "O-O") {
			return strings.TrimRight(san, "+#")
		}
	}
	return m.String()
}

// resigns applies Resign, ResignMoves and ResignScore to the score of
// our move's search.
// A move with no other legal move is not counted, either way, and with
// QueenNeverResigns an engine that has a queen plays on.
func (x *xboardFront) resigns(s *xbSearch) bool {
	c := x.a.settings
	if !c.Resign || s.bestScore == nil {
		x.resignRun = 0
		return false
	}
	pos := &x.board.Pos
	if len(pos.LegalMoves()) == 1 {
		return false
	}
	if !lostBy(s.bestScore, c.ResignScore) {
		x.resignRun = 0
		return false
	}
	x.resignRun++
	if c.QueenNeverResigns && hasQueen(pos, pos.WhiteToMove()) {
		return false
	}
	return x.resignRun >= max(c.ResignMoves, 1)
}

// lostBy reports whether a score says the side that searched is mated or
// at least margin centipawns down.
func lostBy(sc *uci.Score, margin int) bool {
	return (sc.IsMate && sc.Mate <= 0) || (!sc.IsMate && sc.CP <= -margin)
}

// hasQueen reports whether white (or black) has a queen on pos.
func hasQueen(pos *board.Position, white bool) bool {
	q := board.MakePiece(board.Queen, white)
	for sq := range 64 {
		if pos.Piece(board.Square(sq)) == q {
			return true
		}
	}
	return false
}

// answerDraw accepts a draw offer, with HandleDraws, when the engine's
// last score is at or below -ContemptScore; otherwise says nothing, which
// declines it.
func (x *xboardFront) answerDraw() {
	c := x.a.settings
	if c.HandleDraws && x.lastScore != nil && !x.over && lostBy(x.lastScore, c.ContemptScore) {
		x.a.log.printf("draw offer accepted (HandleDraws: the engine's last score is at or below -%d)", c.ContemptScore)
		x.send("offer draw")
		return
	}
	x.a.log.printf("draw offer declined (HandleDraws off, or the engine's last score above -ContemptScore)")
}

// claimEnd claims the game's end when the board shows one, as PolyGlot
// claims it.
func (x *xboardFront) claimEnd() bool {
	p := &x.board.Pos
	claim := ""
	switch p.Status() {
	case board.Checkmate:
		claim = "1-0 {White mates}"
		if p.WhiteToMove() {
			claim = "0-1 {Black mates}"
		}
	case board.Stalemate:
		claim = "1/2-1/2 {Stalemate}"
	case board.InsufficientMaterial:
		claim = "1/2-1/2 {Insufficient material}"
	default:
		switch {
		case p.HalfmoveClock() >= 100:
			claim = "1/2-1/2 {Fifty move rule}"
		case x.repeated() >= 3:
			claim = "1/2-1/2 {Draw by repetition}"
		}
		x.drawClaimed = claim != ""
	}
	if claim == "" {
		return false
	}
	x.over = true
	x.ponderMove = ""
	x.send(claim)
	return true
}

// repeated is how often the current position occurred in the game.
func (x *xboardFront) repeated() int { return x.board.Repetitions() }

// takeBack takes back n moves (undo 1, remove 2).
func (x *xboardFront) takeBack(n int) {
	if n > len(x.moves) {
		x.reply("Error (no moves to take back): " + map[int]string{1: "undo", 2: "remove"}[n])
		return
	}
	x.discardSearches()
	moves := append([]string(nil), x.moves[:len(x.moves)-n]...)
	fen := x.startFEN
	x.resetGame(fen) // parsed before: it parses again
	for _, s := range moves {
		m, _ := board.ParseMove(s)
		x.play(m)
	}
	x.analyseFromHere()
}

// setBoard starts the game from a FEN.
func (x *xboardFront) setBoard(fen string) {
	l, err := board.NewLineVariant(fen, x.chess960)
	if err != nil {
		x.reply("tellusererror Illegal position: " + err.Error())
		return
	}
	x.discardSearches()
	x.useLine(l, true)
	x.analyseFromHere()
}

// result ends the game as the GUI says: learning gets its result.
func (x *xboardFront) result(arg string) {
	res, comment := cutWord(arg)
	x.discardSearches()
	x.over, x.drawClaimed = true, false
	// The learning sees the game as it ended, then its result.
	x.a.corePosition(x.line.line(""))
	why := "result " + res
	if c := strings.Trim(strings.TrimSpace(comment), "{}"); c != "" {
		why += " (" + c + ")"
	}
	x.a.coreGameResult(learn.ParseOutcome(res), why)
}

// engineOptionNamed is the engine's spelling of option name ("": it has
// none).
func (x *xboardFront) engineOptionNamed(name string) string {
	for _, o := range x.a.engine.options {
		if strings.EqualFold(o.Name, name) {
			return o.Name
		}
	}
	return ""
}

// engineOption sets an engine option for memory, cores and egtpath.
func (x *xboardFront) engineOption(name, value, line string) {
	spelled := x.engineOptionNamed(name)
	if spelled == "" || value == "" {
		x.reply("Error (the engine has no " + name + "): " + line)
		return
	}
	x.a.coreSetOption(spelled, value, true)
}

// setOption handles "option NAME[=VALUE]": ours ("Polyglot ...") or
// the engine's; a check's 0 and 1 become false and true.
func (x *xboardFront) setOption(arg, line string) {
	name, value, hasValue := strings.Cut(arg, "=")
	name = strings.TrimSpace(name)
	ours := len(name) > len(ourOptionPrefix) && strings.EqualFold(name[:len(ourOptionPrefix)], ourOptionPrefix)
	typ := ""
	if !ours {
		spelled := x.engineOptionNamed(name)
		if spelled == "" {
			x.reply("Error (unknown option): " + line)
			return
		}
		name = spelled
		for _, o := range x.a.engine.options {
			if o.Name == spelled {
				typ = o.Type
			}
		}
	} else {
		for _, l := range xboardOurOptionLines(x.a) {
			if o, err := uci.ParseOption(l); err == nil && strings.EqualFold(o.Name, name) {
				typ = o.Type
			}
		}
	}
	if typ == "check" {
		switch value {
		case "1":
			value = "true"
		case "0":
			value = "false"
		}
	}
	x.a.coreSetOption(name, value, hasValue)
}

// ping answers "ping N" once every command before it is handled: at
// once when nothing is owed to the GUI (the front handled them all, and
// drops what a stale search still says), else through the engine, whose
// readyok comes after the replies it owes, so the pong keeps its place
// among the answers.
func (x *xboardFront) ping(n string) {
	a := x.a
	if len(a.replies.entries) == 0 && len(a.gui.queued) == 0 && !a.engine.handshaking && len(x.pings) == 0 {
		x.send("pong " + n)
		a.answeredGUI()
		return
	}
	x.pings = append(x.pings, n)
	a.coreIsReady()
}

// analysisStatus answers "." in analyze mode: the search's time, nodes
// and depth so far.
func (x *xboardFront) analysisStatus() {
	if !x.analyzing || !x.lastInfoSearchOK {
		return
	}
	in := x.lastInfo
	x.reply("stat01: " + strconv.FormatInt(in.Time/10, 10) + " " + strconv.FormatInt(in.Nodes, 10) + " " +
		strconv.Itoa(in.Depth) + " 0 0")
}

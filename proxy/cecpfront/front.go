// Package cecpfront is the CECP (xboard protocol, version 2) front:
// what a CECP GUI (XBoard, WinBoard, Arena, Cute Chess) expects of a
// PolyGlot-run engine, over the core's typed API. It keeps CECP's state
// and plays the game on the core's board.
package cecpfront

import (
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/lazy"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/uci"
)

// Front is the CECP front of one run of the core. It keeps CECP's state
// (force mode, clocks, sides, pondering, analysis) and plays the game on
// the core's (Game): every move goes to the core as it is played, and the
// front reads the position there. The core's events leave as CECP
// (out.go).
type Front struct {
	c   *core.Core
	out *core.Out

	featuresOwed bool // protover read, its features wait for the handshake

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
	ponderMove       board.Move // the reply to ponder on, after our last move (null: none)
	expected         board.Move // the reply our last move's search expected, for hint (null: none)
	expectedAt       int        // the number of moves played when it was expected
	searches         []*xbSearch
	pings            []string   // ping numbers waiting for their readyok, in order
	redrive          bool       // a bestmove came: drive once the core has settled
	resignRun        int        // our moves in a row with a score at or below -ResignScore
	lastScore        *uci.Score // the engine's score for our last move (nil: none)
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
	discarded  bool           // stopped for good (force, undo, new, a ponder miss): its bestmove is dropped
	pos        board.Position // the position searched, for the thinking's moves
	ponderMove board.Move     // xbPonder: the opponent's move it assumes
	ponderSAN  string         // xbPonder: that move in SAN, for ShowPonder
	bestScore  *uci.Score     // its last score, for resignation
}

// New is the CECP front over c, once c runs (its Out is set).
func New(c *core.Core) *Front {
	// Until the GUI sends level: XBoard's default, 40 moves in 5 minutes.
	x := &Front{c: c, out: c.Out(), clock: cecpClock{mps: 40, baseMS: 5 * 60 * 1000}}
	x.resetGame("") // a CECP engine starts at the start position
	return x
}

// pos is the position on the board: the core's game as played.
func (x *Front) pos() *board.Position { return x.c.Game().Position() }

// plies is the number of moves played since the game's start.
func (x *Front) plies() int { return len(x.c.Game().Moves()) }

// send writes one CECP line to the GUI.
func (x *Front) send(line string) { x.out.Line(line) }

// reply answers a command of the GUI: after a pong still owed for an
// earlier ping (it waits for the engine's readyok), so the GUI reads them
// in the order it asked; at once otherwise, even while the engine thinks.
func (x *Front) reply(line string) {
	if len(x.pings) == 0 || !x.c.Owes() {
		x.send(line)
		return
	}
	x.c.AfterAnswers(func() { x.send(line) })
}

// GUILine handles one line of the GUI: in its turn (core.InOrder), since
// every command needs the position the commands before it leave, and the
// features the engine's name and options, known once its handshake is
// done.
func (x *Front) GUILine(line string) {
	x.c.Listening() // a CECP GUI takes comments at any time
	line = strings.TrimSpace(line)
	if line == "" {
		return
	}
	cmd, arg := cutWord(line)
	if cmd == "quit" {
		// The GUI leaves: no search of ours is played or shown any more,
		// once the commands before it are handled.
		core.InOrder(x.c, discard{x})
		x.c.Quit()
		return
	}
	if cmd == "protover" && x.c.Waiting() && !x.featuresOwed {
		// A GUI gives an engine that says done=0 as long as it needs.
		x.featuresOwed = true
		x.send("feature done=0")
	}
	core.InOrder(x.c, xbCommand{x: x, name: cmd, arg: arg, line: line})
}

// discard is the front's part of the GUI's quit: the searches running
// are dropped.
type discard struct{ x *Front }

func (d discard) Step() { d.x.discardSearches() }

// GUIGone: the end of the GUI's input is a quit, after its commands that
// wait.
func (x *Front) GUIGone() { x.GUILine("quit") }

// cutWord splits a line into its first word and the rest, at a space or
// a tab.
func cutWord(line string) (word, rest string) {
	i := strings.IndexAny(line, " \t")
	if i < 0 {
		return line, ""
	}
	return line[:i], strings.TrimSpace(line[i+1:])
}

// Settled runs once the core has handled an event: the searches a
// bestmove calls for.
func (x *Front) Settled() {
	for x.redrive && !x.c.Ending() {
		x.redrive = false
		x.drive()
	}
}

// xbCommand is one CECP command: its word, the rest, the whole line.
type xbCommand struct {
	x               *Front
	name, arg, line string
}

// Step handles the command in its turn.
func (c xbCommand) Step() { c.x.command(c) }

// xboardCommands handle the GUI's commands, each in its turn; made on
// first use, so that a UCI run does not build them at start-up.
var xboardCommands = lazy.Value[map[string]func(*Front, xbCommand)]{New: func() map[string]func(*Front, xbCommand) {
	return map[string]func(*Front, xbCommand){
		"protover":  func(x *Front, _ xbCommand) { x.sendFeatures() },
		"bk":        func(x *Front, _ xbCommand) { x.showBook() },
		"hint":      func(x *Front, _ xbCommand) { x.hint() },
		"new":       (*Front).newGame,
		"variant":   (*Front).variant,
		"force":     (*Front).forceMode,
		"go":        (*Front).goCommand,
		"playother": (*Front).playOther,
		"white":     (*Front).sideToMove,
		"black":     (*Front).sideToMove,
		"usermove":  func(x *Front, c xbCommand) { x.userMove(c.arg) },
		"level":     (*Front).level,
		"st":        (*Front).st,
		"sd":        (*Front).sd,
		"time":      (*Front).clockTime,
		"otim":      (*Front).clockTime,
		"post":      func(x *Front, _ xbCommand) { x.post = true },
		"nopost":    func(x *Front, _ xbCommand) { x.post = false },
		"hard":      (*Front).hardMode,
		"easy":      func(x *Front, _ xbCommand) { x.hard = false; x.discardPonder() },
		"ping":      func(x *Front, c xbCommand) { x.ping(c.arg) },
		"?":         (*Front).moveNow,
		"analyze":   (*Front).analyze,
		"exit":      (*Front).exitAnalysis,
		".":         func(x *Front, _ xbCommand) { x.analysisStatus() },
		"undo":      func(x *Front, _ xbCommand) { x.takeBack(1, "undo") },
		"remove":    func(x *Front, _ xbCommand) { x.takeBack(2, "remove") },
		"setboard":  func(x *Front, c xbCommand) { x.setBoard(c.arg) },
		"result":    func(x *Front, c xbCommand) { x.result(c.arg) },
		"draw":      func(x *Front, _ xbCommand) { x.answerDraw() },
		"memory":    (*Front).resources,
		"cores":     (*Front).resources,
		"egtpath":   (*Front).egtPath,
		"option":    func(x *Front, c xbCommand) { x.setOption(c.arg, c.line) },
		// Nothing to do: informative, or features we do not offer.
		"xboard": nothing, "accepted": nothing, "rejected": nothing, "random": nothing, "computer": nothing,
		"name": nothing, "rating": nothing, "ics": nothing, "nps": nothing, "pause": nothing, "resume": nothing,
	}
}}

func nothing(*Front, xbCommand) {}

// command handles one CECP command in its turn: a move without usermove
// (protocol 1) when it is no command.
func (x *Front) command(c xbCommand) {
	if handle, ok := xboardCommands.Get()[c.name]; ok {
		handle(x, c)
		return
	}
	if m, ok := x.parseMove(c.name); ok && c.arg == "" {
		x.playUserMove(c.name, m)
		return
	}
	x.reply("Error (unknown command): " + c.line)
}

// newGame: the start position, standard chess, the engine Black, the
// clocks started again.
func (x *Front) newGame(xbCommand) {
	x.discardSearches()
	// At once, not with the first search as PolyGlot does: the engine
	// clears its hash for ucinewgame (Stockfish with a big Hash takes a
	// good part of a second), better while the GUI sets the game up than
	// on the first move's clock.
	x.c.NewGame()
	x.setChess960(false) // new is standard chess until a variant command
	x.resetGame("")
	x.force, x.engineWhite = false, false
	x.clock.newGame()
	x.resignRun, x.lastScore = 0, nil
	x.analyseFromHere()
}

func (x *Front) variant(c xbCommand) {
	switch {
	case c.arg == "normal":
		x.discardSearches()
		x.setChess960(false)
	case c.arg == "fischerandom" && x.engineOptionNamed("UCI_Chess960") != "":
		x.discardSearches()
		x.setChess960(true)
	default:
		x.reply("Error (unsupported variant): " + c.arg)
		return
	}
	x.resetGame("")
	x.analyseFromHere()
}

func (x *Front) forceMode(xbCommand) {
	x.discardSearches()
	x.force = true
}

func (x *Front) goCommand(xbCommand) {
	x.discardPonder()
	if x.drawClaimed {
		x.over, x.drawClaimed = false, false
	}
	x.force = false
	x.engineWhite = x.pos().WhiteToMove()
	x.drive()
}

func (x *Front) playOther(xbCommand) {
	x.discardSearches()
	x.force = false
	x.engineWhite = !x.pos().WhiteToMove()
	x.drive()
}

// sideToMove is protocol 1's white and black: the side to move; the
// engine plays the other.
func (x *Front) sideToMove(c xbCommand) {
	x.discardSearches()
	x.force = false
	x.engineWhite = c.name == "black"
}

func (x *Front) st(c xbCommand) {
	if ms, ok := secondsToMS(c.arg); ok && ms > 0 {
		x.clock.st(ms)
	} else {
		x.reply("Error (bad time): " + c.line)
	}
}

func (x *Front) sd(c xbCommand) {
	if d, err := strconv.Atoi(c.arg); err == nil && d > 0 {
		x.clock.depth = d
	} else {
		x.reply("Error (bad depth): " + c.line)
	}
}

// clockTime reads time and otim: our clock and the opponent's, in
// centiseconds.
func (x *Front) clockTime(c xbCommand) {
	cs, err := strconv.ParseInt(c.arg, 10, 64)
	if err != nil || cs > maxClockCS || cs < -maxClockCS {
		x.reply("Error (bad time): " + c.line)
		return
	}
	if c.name == "time" {
		x.clock.timeMS = cs * 10
	} else {
		x.clock.otimMS = cs * 10
	}
	x.clock.known = true
}

func (x *Front) hardMode(xbCommand) {
	x.hard = true
	if x.force || x.over || x.pos().WhiteToMove() != x.engineWhite {
		x.drive() // pondering, if a reply is expected: never our move, which waits for go
	}
}

// moveNow is ?: the search for our move ends, and its bestmove is played.
func (x *Front) moveNow(xbCommand) {
	if s := x.active(); s != nil && s.kind == xbPlay {
		x.c.Stop()
	}
}

func (x *Front) analyze(xbCommand) {
	x.discardSearches()
	x.analyzing = true
	x.drive()
}

func (x *Front) exitAnalysis(xbCommand) {
	if x.analyzing {
		x.discardSearches()
		x.analyzing = false
	}
}

// resources reads memory and cores: the engine's Hash and Threads.
func (x *Front) resources(c xbCommand) {
	if n, err := strconv.Atoi(c.arg); err != nil || n < 1 {
		x.reply("Error (bad number): " + c.line)
		return
	}
	if c.name == "memory" {
		x.engineOption("Hash", c.arg, c.line)
	} else {
		x.engineOption("Threads", c.arg, c.line)
	}
}

func (x *Front) egtPath(c xbCommand) {
	kind, path := cutWord(c.arg)
	if kind != "syzygy" || x.engineOptionNamed("SyzygyPath") == "" {
		x.reply("Error (unsupported tablebases): " + c.line)
		return
	}
	x.engineOption("SyzygyPath", strings.TrimSpace(path), c.line)
}

// resetGame starts the game again from fen ("": the start position, which
// always parses).
func (x *Front) resetGame(fen string) {
	x.c.SetGame(core.Game{FEN: fen})
	x.over, x.drawClaimed = false, false
	x.ponderMove, x.expected = 0, 0
}

// level reads "level MPS BASE INC": BASE in minutes or minutes:seconds,
// INC in seconds.
func (x *Front) level(c xbCommand) {
	f := strings.Fields(c.arg)
	bad := func() { x.reply("Error (bad level): " + c.line) }
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
func (x *Front) parseMove(s string) (board.Move, bool) {
	pos := x.pos()
	if m, err := board.ParseMove(strings.ToLower(s)); err == nil {
		return legalHere(pos, m)
	}
	if m, err := board.ParseSAN(pos, s); err == nil {
		return m, true
	}
	return 0, false
}

// legalHere is m as played on pos, when it is legal there.
func legalHere(pos *board.Position, m board.Move) (board.Move, bool) {
	played, err := pos.LegalMove(pos.ToPlayed(m))
	return played, err == nil
}

// userMove handles usermove MOVE.
func (x *Front) userMove(s string) {
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
func (x *Front) playUserMove(s string, m board.Move) {
	if x.over && !x.force {
		x.reply("Illegal move: " + s)
		return
	}
	running := x.active()
	hit := running != nil && running.kind == xbPonder && running.ponderMove == m && !x.force
	if running != nil && !hit {
		running.discarded = true
		x.c.Stop()
	}
	x.ponderMove = 0
	x.c.Play("", m) // on a ponder miss, in place of the move pondered on
	if !x.force && x.claimEnd() {
		if hit {
			running.discarded = true
			x.c.Stop()
		}
		return
	}
	if hit {
		running.kind = xbPlay
		x.c.Logf("ponder hit on %s", m)
		x.c.PonderHit()
		return
	}
	x.drive()
}

// active is the search the front waits for (not discarded), or nil.
func (x *Front) active() *xbSearch {
	for _, s := range x.searches {
		if !s.discarded {
			return s
		}
	}
	return nil
}

// discardSearches stops what the engine searches for us: its bestmove
// will be dropped.
func (x *Front) discardSearches() {
	x.ponderMove = 0
	x.lastInfoSearchOK = false
	if s := x.active(); s != nil {
		s.discarded = true
		x.c.Stop()
	}
}

// analyseFromHere goes on analysing after a command that set up another
// board (new, variant, setboard, a take-back): analysis follows the
// board; a game waits for go.
func (x *Front) analyseFromHere() {
	if x.analyzing {
		x.drive()
	}
}

// discardPonder stops a ponder search.
func (x *Front) discardPonder() {
	x.ponderMove = 0
	if s := x.active(); s != nil && s.kind == xbPonder {
		s.discarded = true
		x.c.Stop()
	}
}

// drive starts the search the state calls for, if none runs: analysis,
// our move, or pondering on the reply the last bestmove expected.
func (x *Front) drive() {
	if x.active() != nil {
		return
	}
	switch {
	case x.analyzing:
		x.startSearch(xbAnalyze, uci.Go{Infinite: true}, 0)
	case x.force || x.over:
	case x.pos().WhiteToMove() == x.engineWhite:
		x.startSearch(xbPlay, x.limits(false), 0)
	case x.hard && !x.ponderMove.IsNull():
		move := x.ponderMove
		x.ponderMove = 0
		if _, ok := legalHere(x.pos(), move); ok {
			x.startSearch(xbPonder, x.limits(true), move)
		}
	}
}

// startSearch has the core search the game (a ponder search: after
// ponderMove) with limits.
func (x *Front) startSearch(kind xbSearchKind, limits uci.Go, ponderMove board.Move) {
	s := &xbSearch{kind: kind, pos: *x.pos(), ponderMove: ponderMove}
	x.searches = append(x.searches, s)
	x.lastInfoSearchOK = false
	if kind != xbPonder {
		// A book answer comes back at once, through BestMove.
		x.c.Go(limits, "")
		return
	}
	played, _ := legalHere(&s.pos, ponderMove)
	s.ponderSAN = s.pos.SAN(played)
	x.c.PonderOn(ponderMove, limits)
	s.pos = *x.c.Game().Searched()
}

// limits are the search limits for our next move (ponder: on the
// opponent's time).
func (x *Front) limits(ponder bool) uci.Go {
	done := x.plies() / 2 // our moves since the game's start
	if ponder {
		done = (x.plies() + 1) / 2
	}
	return x.clock.limits(ponder, x.engineWhite, done, int64(x.c.Settings().STFudge))
}

// onBestmove takes the bestmove of the oldest search owed.
func (x *Front) onBestmove(bm core.BestMove) {
	if len(x.searches) == 0 {
		x.c.Logf("bestmove with no search of the front's: dropped")
		return
	}
	s := x.searches[0]
	x.searches = x.searches[1:]
	if s.discarded || s.kind != xbPlay {
		return
	}
	x.redrive = true
	if bm.Move.IsNull() {
		// No move: the engine is mated or stalemated, or could not
		// search (the position killed it twice): a resignation, rather
		// than a game left to lose on time.
		if !x.claimEnd() {
			x.c.Notify("the engine gave no move in a game that goes on (%s): resigning", bm.AppendUCI(nil))
			x.resign()
		}
		return
	}
	played, ok := legalHere(x.pos(), bm.Move)
	if !ok {
		x.c.Notify("the engine's move %s is illegal here: resigning", bm.Move)
		x.resign()
		return
	}
	x.lastScore = s.bestScore
	if x.resigns(s) {
		x.resign()
		return
	}
	text := x.moveText(played)
	x.c.Play("", played)
	x.send("move " + text)
	if x.claimEnd() {
		return
	}
	x.expected, x.expectedAt = bm.Ponder, x.plies()
	if x.hard && !bm.Ponder.IsNull() {
		x.ponderMove = bm.Ponder
	}
}

func (x *Front) resign() {
	x.send("resign")
	x.over = true
}

// setChess960 switches the engine's UCI_Chess960 (the core follows it:
// the game and the book in Chess960) when the variant changes.
func (x *Front) setChess960(on bool) {
	if on == x.chess960 {
		return
	}
	x.chess960 = on
	x.c.SetOption(x.engineOptionNamed("UCI_Chess960"), strconv.FormatBool(on), true)
}

// moveText is our move m as CECP writes it: in coordinates, but castling
// in Chess960 as O-O or O-O-O (the king takes its rook in UCI, which a
// CECP GUI would read as a capture).
func (x *Front) moveText(m board.Move) string {
	if x.chess960 {
		if san := x.pos().SAN(m); strings.HasPrefix(san, "O-O") {
			return strings.TrimRight(san, "+#")
		}
	}
	return m.String()
}

// resigns applies Resign, ResignMoves and ResignScore to the score of
// our move's search.
// A move with no other legal move is not counted, either way, and with
// QueenNeverResigns an engine that has a queen plays on.
func (x *Front) resigns(s *xbSearch) bool {
	c := x.c.Settings()
	if !c.Resign || s.bestScore == nil {
		x.resignRun = 0
		return false
	}
	pos := x.pos()
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
func (x *Front) answerDraw() {
	c := x.c.Settings()
	if c.HandleDraws && x.lastScore != nil && !x.over && lostBy(x.lastScore, c.ContemptScore) {
		x.c.Logf("draw offer accepted (HandleDraws: the engine's last score is at or below -%d)", c.ContemptScore)
		x.send("offer draw")
		return
	}
	x.c.Logf("draw offer declined (HandleDraws off, or the engine's last score above -ContemptScore)")
}

// claimEnd claims the game's end when the board shows one, as PolyGlot
// claims it.
func (x *Front) claimEnd() bool {
	p := x.pos()
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
		case x.c.Game().Repetitions() >= 3:
			claim = "1/2-1/2 {Draw by repetition}"
		}
		x.drawClaimed = claim != ""
	}
	if claim == "" {
		return false
	}
	x.over = true
	x.ponderMove = 0
	x.send(claim)
	return true
}

// takeBack takes back n moves (undo 1, remove 2).
func (x *Front) takeBack(n int, name string) {
	g := x.c.Game()
	moves := g.Moves()
	if n > len(moves) {
		x.reply("Error (no moves to take back): " + name)
		return
	}
	x.discardSearches()
	x.c.SetGame(core.Game{FEN: g.FEN(), Moves: moves[:len(moves)-n]})
	x.over, x.drawClaimed = false, false
	x.ponderMove, x.expected = 0, 0
	x.analyseFromHere()
}

// setBoard starts the game from a FEN.
func (x *Front) setBoard(fen string) {
	l, err := board.NewLineVariant(fen, x.chess960)
	if err != nil {
		x.reply("tellusererror Illegal position: " + err.Error())
		return
	}
	x.discardSearches()
	x.resetGame(l.Pos.FEN())
	x.analyseFromHere()
}

// result ends the game as the GUI says: learning gets its result.
func (x *Front) result(arg string) {
	res, comment := cutWord(arg)
	x.discardSearches()
	x.over, x.drawClaimed = true, false
	why := "result " + res
	if c := strings.Trim(strings.TrimSpace(comment), "{}"); c != "" {
		why += " (" + c + ")"
	}
	x.c.GameResult(learn.ParseOutcome(res), why)
}

// engineOptionNamed is the engine's spelling of option name ("": it has
// none).
func (x *Front) engineOptionNamed(name string) string {
	o, _ := x.c.EngineOption(name)
	return o.Name
}

// engineOption sets an engine option for memory, cores and egtpath.
func (x *Front) engineOption(name, value, line string) {
	spelled := x.engineOptionNamed(name)
	if spelled == "" || value == "" {
		x.reply("Error (the engine has no " + name + "): " + line)
		return
	}
	x.c.SetOption(spelled, value, true)
}

// setOption handles "option NAME[=VALUE]": ours ("Polyglot ...") or
// the engine's; an engine's check's 0 and 1 become false and true (ours
// take them as they are).
func (x *Front) setOption(arg, line string) {
	name, value, hasValue := strings.Cut(arg, "=")
	name = strings.TrimSpace(name)
	if _, ours := config.OurOption(name); !ours {
		o, ok := x.c.EngineOption(name)
		if !ok {
			x.reply("Error (unknown option): " + line)
			return
		}
		name = o.Name
		if o.Type == "check" {
			switch value {
			case "1":
				value = "true"
			case "0":
				value = "false"
			}
		}
	}
	x.c.SetOption(name, value, hasValue)
}

// ping answers "ping N" once every command before it is handled: at
// once when nothing is owed to the GUI (the front handled them all, and
// drops what a stale search still says), else through the engine, whose
// readyok comes after the replies it owes, so the pong keeps its place
// among the answers.
func (x *Front) ping(n string) {
	if !x.c.Owes() && !x.c.Waiting() && len(x.pings) == 0 {
		x.send("pong " + n)
		x.c.Answered()
		return
	}
	x.pings = append(x.pings, n)
	x.c.IsReady()
}

// analysisStatus answers "." in analyze mode: the search's time, nodes
// and depth so far.
func (x *Front) analysisStatus() {
	if !x.analyzing || !x.lastInfoSearchOK {
		return
	}
	in := x.lastInfo
	x.reply("stat01: " + strconv.FormatInt(in.Time/10, 10) + " " + strconv.FormatInt(in.Nodes, 10) + " " +
		strconv.Itoa(in.Depth) + " 0 0")
}

// Package track is the game the proxy follows, as a front gives it: set
// whole, played on, its last move replaced (a ponder miss), or replayed
// from its start, each at the cost of its new moves; the position line
// the engine gets for it, kept move by move; and, for the book, where the
// game stands (its position, the keys seen, which game it is). Each
// command returns what changed (Change): the game goes on, starts anew,
// is lost (not followed) or refused (not sent to the engine); the proxy's
// core tells the GUI and the log.
package track

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/polyproxy/polyproxy/book/board"
)

// Game is a game to follow, as a front gives it: where it starts and the
// moves played since.
type Game struct {
	FEN string // its start ("": the standard start position)
	// Moves are its moves as the GUI gave them, in UCI form (castling as
	// the GUI writes it).
	Moves []board.Move
	// Unread are the GUI's words after Moves from the first that is no
	// move at all, as it wrote them: the game is not followed past them,
	// and the engine gets them as they are.
	Unread []string
	// Line is the game as the GUI wrote it, for a GUI that writes the
	// engine's own position lines (UCI): a game from the start position
	// reaches the engine as written. "": the core writes the line.
	Line string
}

// Tracker is the game the front gave, and how far it is followed. One
// goroutine uses it: the proxy's loop.
type Tracker struct {
	// The game given, as the engine gets it: its position line ("" when
	// it is not sent: refused), kept move by move in text and made a
	// string once asked for (line, lineKept); or the GUI's own (guiLine),
	// text then being stale.
	text     positionText
	line     string
	lineKept bool
	guiLine  bool
	// gui is the GUI's own line for a game the core writes (from a FEN):
	// the engine gets it when it says the same, without a copy.
	gui string
	// lost is the game given while it is not followed (ok false); when it
	// is, the game given is base and moves.
	lost *givenGame
	// seq changes whenever the game given changes: an answer chosen for
	// one game is not played into another.
	seq int
	// pondering: the game's last move is only the one a ponder search
	// assumes (PonderOn), until a ponderhit plays it.
	pondering bool

	base     string       // "startpos" or the FEN; "": no game to continue (forget)
	moves    []board.Move // the moves of the game followed: the game given when ok, else the last game followed
	ok       bool         // cur is the position of the game given
	cur      *board.Line  // the game so far: rules position, book key, keys seen
	err      string       // why the position is not tracked (reported once)
	refused  string       // why the GUI's last position cannot be played ("": it can)
	start    *board.Line  // the start position, built once: most games begin there
	start960 *board.Line  // the same with Chess960's castling
	baseFEN  string       // the FEN of base, normalised
	// predicted is the game after our last book move (predictedMove),
	// already computed for the ponder reply: when the GUI's next game
	// plays that move, the game continues from it instead of working it
	// out again; when the GUI asks the same position again and the book
	// picks the same move, the answer is reused.
	predicted       *board.Line
	predictedMove   board.Move
	predictedPonder string // the ponder move announced with it
	// beforeLast is the position before the last of moves (when
	// beforeLastOK): a game that replaces that move (a ponder miss: the
	// GUI's real move instead of the one pondered on) goes on from it
	// instead of replaying the game from its start.
	beforeLast   board.Position
	beforeLastOK bool
	// poisoned is the engine line of a position that killed the engine
	// twice: it is not sent to an engine again.
	poisoned string
	// chess960 is UCI_Chess960 as the engine was set: positions are then
	// Chess960 ones (FEN castling fields in any style, castling as king
	// takes own rook, in the GUI's moves and in book answers alike).
	chess960 bool
	// number counts the games: it changes at a position that does not
	// continue the game (after ucinewgame, none does).
	number int
}

// Change is what a command did to the game followed.
type Change struct {
	Kind Kind
	// Continues (Followed, Lost): the game given continues the game
	// followed, for every rule that counts over a game (BookMaxMoves,
	// BookMinLine, learning); else a new game begins.
	Continues bool
	// Again (Followed): the position before was not followed.
	Again bool
	// Message (Lost, Refused) says what is wrong, for the log; Tell: it
	// is new, and the GUI is told it too. Detail (Refused) is the game as
	// the GUI wrote it, for the log.
	Message, Detail string
	Tell            bool
}

// Kind is what became of the game followed.
type Kind int

const (
	Same     Kind = iota // nothing changed: the same game again
	Followed             // the game given is followed
	Lost                 // the game given is not followed: no book until the next good one; the engine still gets it
	Refused              // the game given is not sent to the engine: a search on it gets no move
)

// givenGame is a game given that is not followed.
type givenGame struct {
	base   string
	moves  []board.Move
	unread []string
}

const startBase = "startpos"

// New is a tracker with no game given yet.
func New() *Tracker {
	l, err := board.NewLine(startBase)
	l960, err960 := board.NewLineVariant(startBase, true)
	if err != nil || err960 != nil {
		panic(err) // the start position always parses
	}
	return &Tracker{start: l, start960: l960}
}

// EngineLine is the position line the engine gets for the game given
// ("": none), made a string once per change.
func (g *Tracker) EngineLine() string {
	if !g.lineKept {
		if g.gui != "" && string(g.text.b) == g.gui {
			g.line = g.gui
		} else {
			g.line = string(g.text.b)
		}
		g.lineKept = true
	}
	return g.line
}

// changed notes a change of the game given.
func (g *Tracker) changed() { g.seq++ }

// setLine sets the engine's line for the game given gv: the GUI's own
// (guiLine) for a game from the start position, else written from gv.
func (g *Tracker) setLine(gv givenGame, guiLine string) {
	if guiLine != "" && gv.base == startBase {
		g.line, g.lineKept, g.guiLine = guiLine, true, true
		return
	}
	g.writeText(gv)
	g.gui = guiLine
}

// extendLine adds moves to the engine's line (guiLine: the GUI's own
// after them), before they are added to the game.
func (g *Tracker) extendLine(moves []board.Move, guiLine string) {
	if guiLine != "" && g.base == startBase {
		g.line, g.lineKept, g.guiLine = guiLine, true, true
		return
	}
	if g.guiLine {
		g.writeText(g.given())
	}
	g.lineKept, g.gui = false, guiLine
	for _, m := range moves {
		g.text.add(m)
	}
}

// clearLine leaves the engine no line.
func (g *Tracker) clearLine() {
	g.text.clear()
	g.guiLine, g.lineKept, g.gui = false, false, ""
}

// given is the game given: base, moves, and the words that are no move.
func (g *Tracker) given() givenGame {
	if g.lost != nil {
		return *g.lost
	}
	return givenGame{base: g.base, moves: g.moves}
}

// After is the game after one more move (in UCI form), leaving g as it is.
func (g *Tracker) After(move string) (*board.Line, bool) {
	m, err := board.ParseMove(move)
	if err != nil {
		return nil, false
	}
	l, err := g.cur.After(m)
	return l, err == nil
}

// Set follows a game given whole: at the cost of its new moves when it
// extends the game followed or replaces its last move (a ponder miss),
// else from its start. The same game again changes nothing.
func (g *Tracker) Set(gv Game) Change {
	g.pondering = false
	base := gv.FEN
	if base == "" {
		base = startBase
	}
	if g.ok && len(gv.Unread) == 0 && base == g.base {
		if isPrefix(g.moves, gv.Moves) {
			return g.extendGame(gv.Moves[len(g.moves):], gv.Line)
		}
		if n := len(g.moves); n > 0 && len(gv.Moves) >= n && isPrefix(g.moves[:n-1], gv.Moves) {
			if ch, ok := g.replaceLastMove(gv.Moves[n-1:], gv.Line); ok {
				return ch
			}
		}
	}
	return g.replayGame(givenGame{base: base, moves: slices.Clone(gv.Moves), unread: gv.Unread}, gv.Line)
}

// Play follows the game given going on by moves, at their cost (line:
// the GUI's own line after them, or ""). After PonderOn, moves start with
// the move the GUI played in place of the one pondered on.
func (g *Tracker) Play(moves []board.Move, line string) Change {
	if g.pondering {
		g.pondering = false
		if len(moves) == 0 || len(g.moves) == 0 || moves[0] != g.moves[len(g.moves)-1] {
			return g.ReplaceLast(moves, line) // a ponder miss
		}
		moves = moves[1:] // the move pondered on, played
	}
	if g.ok {
		return g.extendGame(moves, line)
	}
	gv := g.given()
	if len(gv.unread) > 0 {
		for _, m := range moves {
			gv.unread = append(slices.Clip(gv.unread), m.String())
		}
	} else {
		gv.moves = append(slices.Clip(gv.moves), moves...)
	}
	return g.replayGame(gv, line)
}

// ReplaceLast follows the game given with its last move replaced by moves
// (a ponder miss; none: the last move taken back), at their cost (line:
// the GUI's own line after them, or "").
func (g *Tracker) ReplaceLast(moves []board.Move, line string) Change {
	g.pondering = false
	if n := len(g.moves); g.ok && n > 0 && len(moves) > 0 && moves[0] == g.moves[n-1] {
		return g.extendGame(moves[1:], line) // the same last move: the game goes on
	}
	if g.ok {
		if ch, ok := g.replaceLastMove(moves, line); ok {
			return ch
		}
	}
	gv := g.given()
	switch {
	case len(gv.unread) > 0:
		gv.unread = slices.Clip(gv.unread[:len(gv.unread)-1])
		for _, m := range moves {
			gv.unread = append(gv.unread, m.String())
		}
	case len(gv.moves) > 0:
		gv.moves = append(slices.Clip(gv.moves[:len(gv.moves)-1]), moves...)
	default:
		gv.moves = slices.Clone(moves)
	}
	return g.replayGame(gv, line)
}

// replayGame follows a game given from its start: a new game, a take-back,
// a jump, a game that did not play before (line: the GUI's own, or "").
func (g *Tracker) replayGame(gv givenGame, line string) Change {
	if gv.base == "" { // a game refused before: nothing to go on from
		return g.refusePosition(cmp.Or(g.refused, "no position"), "")
	}
	g.changed()
	g.refused = ""
	g.predicted = nil
	g.pondering = false
	continues := gv.base == g.base && continuesGame(g.moves, gv.moves)
	if !continues {
		g.number++
	}
	g.lost = &gv // until it is followed
	if err := g.reset(gv.base); err != nil {
		return g.refusePosition(err.Error(), gv.base)
	}
	g.base = gv.base
	g.baseFEN = g.cur.Pos.FEN()
	g.setLine(gv, line)
	if g.EngineLine() == g.poisoned {
		return g.refusePosition("the engine died twice in a search of this position", g.poisoned)
	}
	if err := g.playMoves(gv.moves, 0); err != nil {
		return g.lostTrack(err, continues)
	}
	if len(gv.unread) > 0 {
		_, err := board.ParseMove(gv.unread[0])
		return g.lostTrack(fmt.Errorf("move %d (%s): %v", len(gv.moves)+1, gv.unread[0], err), continues)
	}
	g.moves, g.lost = gv.moves, nil
	return g.tracked(continues)
}

// writeText writes the engine's position line for the game given: the
// start position, or the FEN normalised (castling rights without their
// king and rook, and an en-passant square no pawn can take, removed;
// missing fields filled in), so a position an engine would crash on never
// reaches it; then the moves.
func (g *Tracker) writeText(gv givenGame) {
	fen := ""
	if gv.base != startBase {
		fen = g.baseFEN
	}
	g.text.reset(fen)
	for _, m := range gv.moves {
		g.text.add(m)
	}
	for _, w := range gv.unread {
		g.text.addWord(w)
	}
	g.guiLine, g.lineKept, g.gui = false, false, ""
}

// extendGame follows moves played since the game given (none: the same
// game again), line being the GUI's own after them, or "".
func (g *Tracker) extendGame(moves []board.Move, line string) Change {
	if len(moves) == 0 {
		switch {
		case line == "":
		case g.guiLine:
			g.line = line // as the GUI writes it now
		default:
			g.gui, g.lineKept = line, false
		}
		return Change{}
	}
	g.changed()
	g.extendLine(moves, line)
	followed := len(g.moves)
	if g.predicted != nil && moves[0] == g.predictedMove {
		g.beforeLast, g.beforeLastOK = g.cur.Pos, true
		g.cur = g.predicted
		g.moves = append(g.moves, moves[0])
		moves = moves[1:]
	}
	g.predicted = nil
	if err := g.playMoves(moves, len(g.moves)); err != nil {
		g.lost = &givenGame{base: g.base, moves: append(slices.Clone(g.moves), moves...)}
		g.moves = g.moves[:followed] // the last game followed
		return g.lostTrack(err, true)
	}
	g.moves = append(g.moves, moves...)
	return g.tracked(true)
}

// replaceLastMove follows the game with its last move replaced by moves
// (a ponder miss; none: the move taken back), from the position before
// that move: at the cost of its new moves, as a game that extends the game
// followed (line: the GUI's own after them, or ""). false: moves[0] is
// the game's last move, or one of them does not play, or the engine must
// not get the game; nothing was done.
func (g *Tracker) replaceLastMove(moves []board.Move, line string) (Change, bool) {
	n := len(g.moves)
	if !g.beforeLastOK || n == 0 || len(moves) > 0 && moves[0] == g.moves[n-1] {
		return Change{}, false
	}
	pos := g.beforeLast // the new moves are checked before anything changes
	for _, m := range moves {
		m = pos.ToPlayed(m)
		if _, err := pos.LegalMove(m); err != nil {
			return Change{}, false
		}
		pos.Play(m)
	}
	if g.poisoned != "" && g.lineAfterReplace(moves, line) == g.poisoned {
		return Change{}, false
	}
	// Cut in place: the game alone holds its moves and keys (a line made
	// with After copies the keys before it grows them).
	g.changed()
	switch {
	case line != "" && g.base == startBase:
		g.line, g.lineKept, g.guiLine = line, true, true // the GUI's own line replaces the engine's
	case g.guiLine:
		g.writeText(g.given()) // the core writes the line from now on
		fallthrough
	default:
		g.text.undoLast()
		g.lineKept, g.gui = false, line
	}
	g.cur.Pos = g.beforeLast
	g.cur.Keys = g.cur.Keys[:len(g.cur.Keys)-1]
	g.moves = g.moves[:n-1]
	g.beforeLastOK, g.predicted, g.refused = false, nil, ""
	if len(moves) == 0 {
		return g.tracked(true), true
	}
	return g.extendGame(moves, line), true
}

// lineAfterReplace is the engine's line for the game with its last move
// replaced by moves (line: the GUI's own, or "").
func (g *Tracker) lineAfterReplace(moves []board.Move, line string) string {
	if line != "" && g.base == startBase {
		return line
	}
	text := g.text
	if g.guiLine {
		text = positionText{}
		fen := ""
		if g.base != startBase {
			fen = g.baseFEN
		}
		text.reset(fen)
		for _, m := range g.moves {
			text.add(m)
		}
	}
	text.b = slices.Clone(text.b)
	text.undoLast()
	for _, m := range moves {
		text.add(m)
	}
	return string(text.b)
}

// playMoves plays moves (the first is move number first+1) on the game,
// keeping the position before the last of them (beforeLast).
func (g *Tracker) playMoves(moves []board.Move, first int) error {
	if len(moves) == 0 {
		return nil
	}
	g.beforeLastOK = false
	for i, m := range moves {
		if i == len(moves)-1 {
			g.beforeLast = g.cur.Pos
		}
		if _, err := g.cur.Play(m); err != nil {
			return fmt.Errorf("move %d (%s): %v", first+i+1, m, err)
		}
	}
	g.beforeLastOK = true
	return nil
}

// tracked notes a position followed.
func (g *Tracker) tracked(continues bool) Change {
	ch := Change{Kind: Followed, Continues: continues, Again: g.err != ""}
	g.ok, g.err = true, ""
	return ch
}

// reset sets the game to its base position.
func (g *Tracker) reset(base string) error {
	g.beforeLastOK = false
	if base == startBase {
		start := g.start
		if g.chess960 {
			start = g.start960
		}
		l := *start
		l.Keys = append(make([]board.Key, 0, 64), start.Keys...)
		g.cur = &l
		return nil
	}
	l, err := board.NewLineVariant(base, g.chess960)
	if err != nil {
		return err // it names the FEN
	}
	g.cur = l
	return nil
}

// forget ends the game followed: the next position begins a new one. The
// game given is kept (a front may go on from it), and so are base and
// moves while a bad game leaves the game unfollowed (lostTrack): the
// GUI's next good game may continue it.
func (g *Tracker) forget() {
	if g.lost == nil {
		g.lost = &givenGame{base: g.base, moves: g.moves}
	}
	g.ok, g.base, g.moves, g.predicted, g.beforeLastOK, g.pondering = false, "", nil, nil, false, false
}

// lostTrack stops using the book until a position can be followed again;
// the engine still gets the game given and decides. continues tells
// whether the bad game continued the game: a good game may then continue
// it still (its book moves, its learning), else a new game begins with the
// next good one.
func (g *Tracker) lostTrack(err error, continues bool) Change {
	g.ok, g.predicted = false, nil
	if !continues {
		g.forget()
	}
	return g.problem(Change{Kind: Lost, Continues: continues, Message: "position not followed, no book until the next good position: " + err.Error()})
}

// refusePosition keeps from the engine a position that cannot be played
// (why says what is wrong; text shows it in the log): engines such as
// Stockfish crash on a bad FEN, and a restart would replay it into a
// second crash. A search on it gets no move.
func (g *Tracker) refusePosition(why, text string) Change {
	g.refuse(why)
	return g.problem(Change{Kind: Refused, Message: "position not sent to the engine: " + why, Detail: text})
}

// refuse keeps the game given from the engine: why says what is wrong.
func (g *Tracker) refuse(why string) {
	g.changed()
	g.clearLine()
	g.refused = why
	g.forget()
}

// problem notes what is wrong with the game given: the GUI is told once,
// until it changes.
func (g *Tracker) problem(ch Change) Change {
	if ch.Message != g.err {
		g.err = ch.Message
		ch.Tell = true
	}
	return ch
}

// positionText is a position line, kept up to date move by move: writing
// it again from the moves for every search cost a move the game's length.
type positionText struct {
	b        []byte
	hasMoves bool // the "moves" word is written
	// undo is the length of b before its last move, and undoMoves
	// hasMoves then (undoLast).
	undo      int
	undoMoves bool
}

// reset starts the line at fen ("": the start position).
func (t *positionText) reset(fen string) {
	t.b = append(t.b[:0], "position "...)
	if fen == "" {
		t.b = append(t.b, startBase...)
	} else {
		t.b = append(append(t.b, "fen "...), fen...)
	}
	t.hasMoves = false
	t.undo = -1
}

// clear leaves no line.
func (t *positionText) clear() { t.b, t.hasMoves, t.undo = t.b[:0], false, -1 }

// add appends a move.
func (t *positionText) add(m board.Move) {
	t.startWord()
	t.b = m.AppendTo(t.b)
}

// addWord appends a word the GUI wrote in place of a move.
func (t *positionText) addWord(w string) {
	t.startWord()
	t.b = append(t.b, w...)
}

func (t *positionText) startWord() {
	t.undo, t.undoMoves = len(t.b), t.hasMoves
	if !t.hasMoves {
		t.b = append(t.b, " moves"...)
		t.hasMoves = true
	}
	t.b = append(t.b, ' ')
}

// undoLast takes the last move off the line (once).
func (t *positionText) undoLast() {
	if t.undo >= 0 {
		t.b, t.hasMoves, t.undo = t.b[:t.undo], t.undoMoves, -1
	}
}

func isPrefix(prefix, s []board.Move) bool {
	return len(prefix) <= len(s) && slices.Equal(prefix, s[:len(prefix)])
}

// continuesGame reports whether a game's moves from its start continue
// the game whose moves were played, for every rule that counts over a game
// (BookMaxMoves, BookMinLine, learning). A take-back, a jump back to any
// earlier move (then perhaps other moves), a ponder miss and the same game
// again do. A game that changes the first move does not, nor does a game
// of at most one move that is not one ply from the game: that is the first
// position a new game shows an engine of either colour, which is what a
// GUI that does not send ucinewgame sends next (python-chess).
func continuesGame(played, moves []board.Move) bool {
	n := commonPrefix(played, moves)
	return n >= len(played)-1 || n >= 1 && len(moves) >= 2
}

func commonPrefix(a, b []board.Move) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// Refuse takes a game the front could not read (text, as the GUI wrote
// it; why: what is wrong): none reaches the engine, and nothing follows
// from it.
func (g *Tracker) Refuse(why, text string) Change {
	g.lost = &givenGame{} // nothing to go on from
	return g.refusePosition(why, text)
}

// Poison keeps the position of engine line line from any engine: it
// killed the engine twice (why). The game given is refused, and the
// GUI's next game is followed from its start.
func (g *Tracker) Poison(line, why string) {
	g.poisoned = line
	g.refuse(why)
}

// PonderOn plays m on the game for a ponder search: m is not the game's
// move until PonderHit, and a game given next with another move replaces
// it (Play).
func (g *Tracker) PonderOn(m board.Move) Change {
	ch := g.Play([]board.Move{m}, "")
	g.pondering = g.ok
	return ch
}

// PonderHit plays the move pondered on.
func (g *Tracker) PonderHit() { g.pondering = false }

// Pondering reports that the game's last move is only the one a ponder
// search assumes.
func (g *Tracker) Pondering() bool { return g.pondering }

// NewGame ends the game followed: the next game given starts a game even
// if it extends the last one.
func (g *Tracker) NewGame() {
	g.forget()
	g.err = ""
}

// SetChess960 reads the games given from now on as Chess960 ones (FEN
// castling fields in any style, castling as king takes own rook, in the
// GUI's moves and in book answers alike), or as standard chess: the next
// game given is read in the new rules, from its start.
func (g *Tracker) SetChess960(on bool) {
	g.chess960 = on
	g.forget()
}

// Chess960 reports that games are read as Chess960 ones.
func (g *Tracker) Chess960() bool { return g.chess960 }

// OK reports that the game given is followed: Current is its position.
func (g *Tracker) OK() bool { return g.ok }

// Current is the game followed so far (its position, book key and keys
// seen), with the move a ponder search assumes; only meaningful when OK.
// It is the tracker's: the caller reads it, and copies what it keeps.
func (g *Tracker) Current() *board.Line { return g.cur }

// Played is the game as played, without a move only pondered on (a
// line that shares Current's keys).
func (g *Tracker) Played() board.Line {
	if g.pondering {
		return board.Line{Pos: g.beforeLast, Keys: g.cur.Keys[:len(g.cur.Keys)-1]}
	}
	return *g.cur
}

// PlayedPosition is the position of the game as played.
func (g *Tracker) PlayedPosition() *board.Position {
	if g.pondering {
		return &g.beforeLast
	}
	return &g.cur.Pos
}

// Given is the game given, as played: its start ("": the standard start
// position) and its moves, without a move only pondered on.
func (g *Tracker) Given() (fen string, moves []board.Move) {
	gv := g.given()
	if gv.base != startBase {
		fen = gv.base
	}
	moves = gv.moves
	if g.pondering {
		moves = moves[:len(moves)-1]
	}
	return fen, moves
}

// Seq changes whenever the game given changes: an answer chosen for one
// game is not played into another.
func (g *Tracker) Seq() int { return g.seq }

// Number counts the games: it changes at a game given that does not
// continue the game followed.
func (g *Tracker) Number() int { return g.number }

// Refused is why the game given cannot be played ("": it can).
func (g *Tracker) Refused() string { return g.refused }

// Problem is what is wrong with the game given, as last told ("":
// nothing).
func (g *Tracker) Problem() string { return g.err }

// Predict keeps the game after the book move played (after, move, with
// ponder, the reply announced with it): when the next game given plays
// that move, the game goes on from it, and when the same position is
// asked again and the book picks the same move, the answer is reused.
func (g *Tracker) Predict(after *board.Line, move board.Move, ponder string) {
	g.predicted, g.predictedMove, g.predictedPonder = after, move, ponder
}

// Predicted is what Predict kept, if the game has not changed since
// (after nil: nothing).
func (g *Tracker) Predicted() (after *board.Line, move board.Move, ponder string) {
	return g.predicted, g.predictedMove, g.predictedPonder
}

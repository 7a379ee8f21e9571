package adapter

import (
	"slices"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/uci"
)

// game is the position the GUI last sent, as far as we could follow it.
type game struct {
	line string // the GUI's position line as received
	// engineLine is what the engine gets for line before it searches: the
	// GUI's line with its FEN normalised (castling rights without their
	// king and rook, and an en-passant square no pawn can take, removed;
	// missing fields filled in), so a position an engine would crash on
	// never reaches it. "": nothing to send.
	engineLine   string
	base         string      // "startpos" or the FEN; "": no game to continue (forget)
	moves        []string    // the moves of line, all applied when ok; else the last line followed
	ok           bool        // cur is the position of line
	cur          *board.Line // the game so far: rules position, book key, keys seen
	err          string      // why the position is not tracked (reported once)
	refused      string      // why the GUI's last position cannot be played ("": it can)
	start        *board.Line // the start position, built once: most games begin there
	start960     *board.Line // the same with Chess960's castling
	hasMovesWord bool        // line has the "moves" keyword
	baseFEN      string      // the FEN of base, normalised
	// predicted is the game after our last book move (predictedMove),
	// already computed for the ponder reply: when the GUI's next line plays
	// that move, the game continues from it instead of working it out
	// again; when the GUI asks the same position again and the book picks
	// the same move, the answer is reused.
	predicted       *board.Line
	predictedMove   string
	predictedPonder string // the ponder move announced with it
	// beforeLast is the position before the last move of moves (when
	// beforeLastOK): a line that replaces that move (a ponder miss: the
	// GUI's real move instead of the one pondered on) goes on from it
	// instead of replaying the game from its start.
	beforeLast   board.Position
	beforeLastOK bool
	// poisoned is the engine line of a position that killed the engine
	// twice: it is not sent to an engine again.
	poisoned string
	// analyse is UCI_AnalyseMode as the engine was set: the GUI analyses
	// (python-chess sets it for analyse()), and the book is off.
	analyse bool
	// chess960 is UCI_Chess960 as the engine was set: positions are then
	// Chess960 ones (FEN castling fields in any style, castling as king
	// takes own rook, in the GUI's moves and in book answers alike).
	chess960 bool
	// number counts the games: it changes at a position that does not
	// continue the game (after ucinewgame, none does).
	number int
}

const startBase = "startpos"

// init builds the start position once.
func (g *game) init() {
	l, err := board.NewLine(startBase)
	l960, err960 := board.NewLineVariant(startBase, true)
	if err != nil || err960 != nil {
		panic(err) // the start position always parses
	}
	g.start, g.start960 = l, l960
}

// pos is the current book position; only meaningful when ok.
func (g *game) pos() *board.Position { return &g.cur.Pos }

// after is the game after one more move (in UCI form), leaving g as it is.
func (g *game) after(move string) (*board.Line, bool) {
	m, err := board.ParseMove(move)
	if err != nil {
		return nil, false
	}
	l, err := g.cur.After(m)
	return l, err == nil
}

// onPosition tracks a "position" line parsed in full. When it extends the
// game we follow only the new moves are applied; the same line again
// changes nothing.
func (a *Adapter) onPosition(c uci.Command) {
	g := &a.game
	p := c.Position
	base := startBase
	if !p.StartPos {
		base = p.FEN
	}
	if g.ok && base == g.base && isPrefix(g.moves, p.Moves) {
		a.extendGame(c.Line, g.engineLineFor(c), p.Moves[len(g.moves):])
		g.hasMovesWord = p.Moves != nil
		return
	}
	if n := len(g.moves); g.ok && base == g.base && n > 0 && len(p.Moves) >= n && isPrefix(g.moves[:n-1], p.Moves) &&
		a.replaceLastMove(c.Line, g.engineLineFor(c), p.Moves[n-1:]) {
		return
	}
	g.line, g.engineLine = c.Line, c.Line
	g.refused = ""
	g.hasMovesWord = p.Moves != nil
	g.predicted = nil
	// A new game, a take-back, a jump or a ponder miss: start again from
	// the base.
	continues := base == g.base && continuesGame(g.moves, p.Moves)
	if !continues {
		g.number++
	}
	if err := g.reset(base); err != nil {
		a.refusePosition(c.Line, err.Error())
		return
	}
	g.base = base
	g.baseFEN = g.cur.Pos.FEN()
	g.engineLine = g.engineLineFor(c)
	if g.engineLine == g.poisoned {
		a.refusePosition(c.Line, "the engine died twice in a search of this position")
		return
	}
	if err := g.playMoves(p.Moves, 0); err != nil {
		a.lostTrack(err, continues)
		return
	}
	g.moves = p.Moves
	a.tracked(continues)
}

// extendGame applies moves played since the last position line (none:
// the GUI repeated it); engineLine is the new line for the engine.
func (a *Adapter) extendGame(line, engineLine string, moves []string) {
	g := &a.game
	g.line, g.engineLine = line, engineLine
	if len(moves) == 0 {
		return
	}
	g.hasMovesWord = true
	followed := len(g.moves)
	if g.predicted != nil && moves[0] == g.predictedMove {
		g.beforeLast, g.beforeLastOK = g.cur.Pos, true
		g.cur = g.predicted
		g.moves = append(g.moves, moves[0])
		moves = moves[1:]
	}
	g.predicted = nil
	if err := g.playMoves(moves, len(g.moves)); err != nil {
		g.moves = g.moves[:followed] // the GUI's last line that was followed
		a.lostTrack(err, true)
		return
	}
	g.moves = append(g.moves, moves...)
	a.tracked(true)
}

// replaceLastMoveText is replaceLastMove for a line read only from where
// it leaves the game's line (the usual case, as extendFollowedGame): the
// game's line but its last move, then other moves. Only when the engine
// gets the GUI's own lines (a game from the start position): the engine's
// line for a game from a FEN is written from the moves read in full.
func (a *Adapter) replaceLastMoveText(line string) bool {
	g := &a.game
	n := len(g.moves)
	if n == 0 || !g.beforeLastOK || g.engineLine != g.line {
		return false
	}
	last := g.moves[n-1]
	prev, ok := cutLastMove(g.line, last)
	if !ok {
		return false
	}
	moves, ok := uci.MovesAfter(prev, line, true)
	return ok && a.replaceLastMove(line, line, moves)
}

// cutLastMove is line without its last move, move, and the space before.
func cutLastMove(line, move string) (string, bool) {
	i := len(line) - len(move) - 1
	if i < 0 || line[i] != ' ' || line[i+1:] != move {
		return "", false
	}
	return line[:i], true
}

// replaceLastMove follows a line (engineLine for the engine) that
// replaces the game's last move with moves[0], and may add more (a ponder
// miss), from the position before that move: at the cost of its new
// moves, as a line that extends the game. false: moves[0] is the game's
// last move, or one of them does not play, or the engine must not get the
// line; nothing was done, and the line is read in full.
func (a *Adapter) replaceLastMove(line, engineLine string, moves []string) bool {
	g := &a.game
	n := len(g.moves)
	if !g.beforeLastOK || n == 0 || len(moves) == 0 || moves[0] == g.moves[n-1] {
		return false
	}
	pos := g.beforeLast // the new moves are checked before anything changes
	for _, s := range moves {
		m, err := board.ParseMove(s)
		if err != nil {
			return false
		}
		m = pos.ToPlayed(m)
		if _, err := pos.LegalMove(m); err != nil {
			return false
		}
		pos.Play(m)
	}
	if engineLine == g.poisoned {
		return false
	}
	// Cut in place: the game alone holds its moves and keys (a line made
	// with After copies the keys before it grows them).
	g.cur.Pos = g.beforeLast
	g.cur.Keys = g.cur.Keys[:len(g.cur.Keys)-1]
	g.moves = g.moves[:n-1]
	g.beforeLastOK, g.predicted, g.refused = false, nil, ""
	a.extendGame(line, engineLine, moves)
	g.hasMovesWord = true
	return true
}

// playMoves plays moves (UCI form; the first is move number first+1) on
// the game, keeping the position before the last of them (beforeLast).
func (g *game) playMoves(moves []string, first int) error {
	if len(moves) == 0 {
		return nil
	}
	g.beforeLastOK = false
	last := len(moves) - 1
	if err := g.cur.PlayMoves(moves[:last], first); err != nil {
		return err
	}
	before := g.cur.Pos
	if err := g.cur.PlayMoves(moves[last:], first+last); err != nil {
		return err
	}
	g.beforeLast, g.beforeLastOK = before, true
	return nil
}

// tracked reports a successfully followed position.
func (a *Adapter) tracked(continues bool) {
	g := &a.game
	if g.err != "" {
		a.log.printf("position followed again")
	}
	g.ok, g.err = true, ""
	if a.observer.obs == nil {
		return
	}
	// A copy: the game moves on before the observer runs (after the flush).
	pos := g.cur.Pos
	if continues {
		a.observer.later(func(o GameObserver) { o.Position(pos, true) })
		return
	}
	// The last game ends: its learning lands now. The host's PGN is stat'ed
	// here, as the game starts, not by the observer, whose calls may come
	// games later.
	at, line := time.Now(), slices.Clone(g.cur.Keys)
	pgn := learn.StatPGN(a.settings.BookLearnPGN)
	a.observer.laterNow(func(o GameObserver) {
		o.Position(pos, false)
		o.GameStart(at, line, pgn)
	})
}

// reset sets the game to its base position.
func (g *game) reset(base string) error {
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

// forget ends the game followed: the next position begins a new one. base
// and moves stay set while a bad line leaves the game unfollowed
// (lostTrack): the GUI's next good line may continue it.
func (g *game) forget() {
	g.ok, g.base, g.moves, g.predicted, g.beforeLastOK = false, "", nil, nil, false
}

// lostTrack stops using the book until a position can be followed again;
// the engine still gets the GUI's line unchanged and decides. continues
// tells whether the bad line continued the game: a good line may then
// continue it still (its book moves, its learning), else a new game
// begins with the next good line.
func (a *Adapter) lostTrack(err error, continues bool) {
	g := &a.game
	g.ok, g.predicted = false, nil
	if !continues {
		g.forget()
	}
	msg := "position not followed, no book until the next good position: " + err.Error()
	if msg != g.err {
		g.err = msg
		a.infoString(msg)
	}
	a.log.printf("%s", msg)
}

// refusePosition keeps from the engine a position that cannot be played
// (why says what is wrong): engines such as Stockfish crash on a bad FEN,
// and a restart would replay it into a second crash. A go on it gets
// "bestmove 0000" at once.
func (a *Adapter) refusePosition(line, why string) {
	g := &a.game
	g.line, g.engineLine = "", ""
	g.refused = why
	g.forget()
	msg := "position not sent to the engine: " + why
	if msg != g.err {
		g.err = msg
		a.infoString(msg)
	}
	a.log.printf("%s: %s", msg, line)
}

// engineLineFor is the engine's line for c, a position from base: the
// GUI's own line from the start position, else the normalised FEN and
// the GUI's moves.
func (g *game) engineLineFor(c uci.Command) string {
	if c.Position.StartPos {
		return c.Line
	}
	return withMoves("position fen "+g.baseFEN, c.Position.Moves)
}

// engineLineAfter is the engine's line for line, a position line that
// extends the game's (uci.MovesAfter): the GUI's own line when the engine
// got the GUI's lines so far (from the start position), without a copy of
// a line as long as the game; else the engine's line so far with line's
// new moves.
func (g *game) engineLineAfter(line string) string {
	if g.engineLine == g.line { // the same string: no bytes compared
		return line
	}
	return g.engineLine + line[len(g.line):]
}

// withMoves is a position line: base, then moves (nil: no "moves" word).
func withMoves(base string, moves []string) string {
	if moves == nil {
		return base
	}
	n := len(base) + len(" moves")
	for _, m := range moves {
		n += 1 + len(m)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(base)
	b.WriteString(" moves")
	for _, m := range moves {
		b.WriteByte(' ')
		b.WriteString(m)
	}
	return b.String()
}

func isPrefix(prefix, s []string) bool {
	if len(prefix) > len(s) {
		return false
	}
	for i := range prefix {
		if prefix[i] != s[i] {
			return false
		}
	}
	return true
}

// continuesGame reports whether a line of moves from the game's start
// continues the game whose moves were played, for every rule that counts
// over a game (BookMaxMoves, BookMinLine, learning). A take-back, a jump
// back to any earlier move (then perhaps other moves), a ponder miss and
// the same line again do. A line that changes the game's first move does
// not, nor does a line of at most one move that is not one ply from the
// game: that is the first position a new game shows an engine of either
// colour, which is what a GUI that does not send ucinewgame sends next
// (python-chess).
func continuesGame(played, moves []string) bool {
	n := commonPrefix(played, moves)
	return n >= len(played)-1 || n >= 1 && len(moves) >= 2
}

func commonPrefix(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// noteAnalyseMode follows the engine option UCI_AnalyseMode, however it is
// set (setoption, [Engine], -uci): analysis is the engine's, never the
// book's. Only logged: python-chess switches it for every analyse and play.
func (a *Adapter) noteAnalyseMode(name, value string) {
	if !strings.EqualFold(name, "UCI_AnalyseMode") {
		return
	}
	on, err := config.ParseBool(value)
	if err != nil || on == a.game.analyse {
		return
	}
	a.game.analyse = on
	if on {
		a.log.printf("UCI_AnalyseMode on: book off, the engine analyses")
	} else {
		a.log.printf("UCI_AnalyseMode off: book on again")
	}
}

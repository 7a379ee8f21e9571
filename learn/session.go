package learn

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
)

// Settings are what live learning goes by. The proxy's core gives them with
// SetLearning at the start and whenever the GUI changes one.
type Settings struct {
	// On is BookLearn. Games are followed either way, so switching it on
	// mid-game still learns that game.
	On bool
	// Books are the books in use: each is opened for writing before the
	// first game, so one that cannot be written is reported at once, not
	// after a game. Books not listed are opened when first learned into.
	Books []string
	// ResignScore and ResignMoves: a game counts as decided when the
	// engine's last ResignMoves scores are all at least ResignScore
	// centipawns for the same side.
	ResignScore int
	ResignMoves int
	// PGN is BookLearnPGN: the file the host appends each finished game
	// to. When set, every game is looked for there by its moves and
	// counted with the result written there, as learn -pgn counts it;
	// when empty, results are taken from the evidence (DecidePosition,
	// DecideScores) and the GUI's result (CECP).
	PGN string
}

// Session learns from the games played through the proxy. The proxy core's
// single loop calls its methods in the order events happen; it is not safe
// for use by several goroutines. All methods are safe on a nil *Session
// (learning off).
type Session struct {
	settings     Settings
	logf, warnf  func(format string, args ...any)
	files        map[string]*book.LearnFile // by book path; nil: the book cannot be written
	game         game
	checkedBooks bool
	games        int  // games ended, numbered for the log
	guiResults   bool // the GUI gave a result (CECP)
	said         map[string]bool
	fromPGN      pgnLearning
}

// playedBookMove is a book entry polyproxy played in the current game.
type playedBookMove struct {
	ply        int // of the position it was played from
	path       string
	line       []board.Key // the game's positions to the one it was played from
	stored     board.Move
	whiteMoved bool
}

type game struct {
	bookMoves []playedBookMove
	last      board.Position // the last position seen (our own copy), when seen
	seen      bool
	// keys identifies every position seen (by its Polyglot key: placement,
	// side to move, castling and a capturable en-passant file) by ply from
	// firstPly (0: a ply not seen), so that a position sent again (a
	// repeated "position" command, a ponder miss, a take-back) replaces
	// rather than counts twice. A slice, not a map: going back costs what
	// it takes back, not the game's length. held[i] is the position of
	// keys[i] where it was seen, to tell whether the next one follows it.
	keys     []board.Key
	held     []heldPosition
	firstPly int
	lastPly  int
	// ours are the plies our moves were played from, those still in the
	// game: a move the GUI took back or replaced is not.
	ours   []int
	scores []Score // engine scores of its consecutive moves since the last book move
	// scorePlies[i] is the ply of the position scores[i] was searched in.
	scorePlies []int
	pending    *Score // reported for the search whose bestmove has not come yet
	booked     bool   // the move being answered came from the book

	// What finds the game in the host's PGN.
	started  time.Time
	fromBase bool // keys start at the GUI's base position (GameStart)
	guiPly   int  // of the last position the GUI sent (guiSeen)
	guiSeen  bool
	guiWhite bool // White was to move there
	// afterOurs: the last position seen is the one after our own move
	// (AfterBestmove), which a CECP front then plays on the game and
	// reports again as the game's position: not one the GUI sent.
	afterOurs bool
	host      *hostPGN
	mark      pgnMark // where host ended when the game started (host set; GameStart)
}

// heldPosition is a position of the game where it was seen; ok false: a
// ply known by its key only (an opening's moves), or not at all.
type heldPosition struct {
	pos board.Position
	ok  bool
}

// NewSession follows games with settings. log receives one line per
// decision (nil: nothing is logged) until UseLog replaces it.
func NewSession(settings Settings, log logrus.FieldLogger) *Session {
	s := &Session{settings: settings, files: map[string]*book.LearnFile{}, said: map[string]bool{}, fromPGN: newPGNLearning()}
	if log != nil {
		s.logf, s.warnf = log.Infof, log.Warnf
	} else {
		s.logf, s.warnf = func(string, ...any) {}, func(string, ...any) {}
	}
	return s
}

// UseLog sends the session's log lines to logf and its warnings (a book
// that cannot be written) to warnf, e.g. the proxy's log and the GUI.
func (s *Session) UseLog(logf, warnf func(format string, args ...any)) {
	if s == nil || logf == nil || warnf == nil {
		return
	}
	s.logf, s.warnf = logf, warnf
}

// SetLearning replaces the settings.
func (s *Session) SetLearning(settings Settings) {
	if s == nil {
		return
	}
	s.settings = settings
	if settings.PGN != "" {
		// A first look at the host's PGN, before the first game starts:
		// the games far before its end are no one's (lookBack).
		s.hostPGN(settings.PGN)
	}
}

// checkBooks opens the books in use for writing, so that one that cannot
// be written is reported before its games.
func (s *Session) checkBooks() {
	if !s.settings.On {
		return
	}
	for _, p := range s.settings.Books {
		s.file(p)
	}
}

// file returns the book opened for learning, opening it the first time;
// nil when it cannot be written (warned once).
func (s *Session) file(path string) *book.LearnFile {
	if f, ok := s.files[path]; ok {
		return f
	}
	f, err := formats.OpenLearnFile(path)
	if err != nil {
		s.warnf("learn: BookLearn is on but %v: games go on without learning into this book", err)
		s.files[path] = nil
		return nil
	}
	s.files[path] = f
	return f
}

// NewGame ends the current game (ucinewgame) and starts a new one.
func (s *Session) NewGame() {
	if s == nil {
		return
	}
	s.poll()
	s.finish("ucinewgame")
	s.checkBooks()
}

// Position records a position the GUI sent. continues=false means it does
// not extend the current game, which therefore ends first.
func (s *Session) Position(p board.Position, continues bool) {
	if s == nil {
		return
	}
	s.poll()
	if !continues {
		s.finish("a position that does not continue the game")
	}
	if !s.checkedBooks {
		s.checkedBooks = true
		s.checkBooks()
	}
	if !s.game.seen {
		s.startGame()
	}
	g := &s.game
	again := continues && g.afterOurs && g.seen && plyOf(&p) == g.lastPly && p.Key() == g.last.Key()
	g.see(&p)
	g.afterOurs = false
	if again {
		// Our move reported back (CECP): the GUI has not sent a position
		// with it. A host that never took it (we lost on time with it
		// under way) writes the game without it.
		return
	}
	g.guiPly, g.guiSeen, g.guiWhite = g.lastPly, true, p.WhiteToMove()
}

// GameStart follows the Position that starts a game: at is when the GUI
// sent it and pgn the host's PGN file just after (StatPGN of BookLearnPGN;
// the calls come later, beside the proxy's loop), line the key of every
// position from the GUI's base (its start position or FEN) to it: the
// moves played before polyproxy was asked anything (an opening suite's),
// so that the game is found in the host's PGN from its start, among the
// games written since it started.
func (s *Session) GameStart(at time.Time, line []board.Key, pgn PGNStat) {
	if s == nil {
		return
	}
	g := &s.game
	if !g.seen || len(g.keys) != 1 || len(line) == 0 || line[len(line)-1] != g.keys[0] {
		return // not the first position of a game, or another one
	}
	g.firstPly -= len(line) - 1
	first := g.held[0]
	// keys becomes line (the caller's, given with room to grow); held
	// reuses the room the games before made, so that a game's plies
	// append without allocating.
	g.keys = line
	g.held = slices.Grow(g.held[:0], len(line))[:len(line)]
	clear(g.held)
	g.held[len(line)-1] = first
	g.fromBase = true
	g.started = at
	if h := g.host; h != nil {
		switch m, ok := s.fromPGN.newest[h]; {
		case pgn.known && pgn.path == h.path:
			g.mark = h.markOf(pgn, at)
		case ok:
			// Not stat'ed (the stat failed): the games written since the
			// game before started; for a first game, those read since the
			// session heard of it (startGame).
			g.mark = m
		}
		s.fromPGN.newest[h] = g.mark
	}
}

// BookMove records that polyproxy answered from book b with the entry
// stored of the last position of line: the keys of the game's positions
// from its start, which the session keeps (the line the result is counted
// on, see book.LearnUpdate).
func (s *Session) BookMove(b *book.Book, line []board.Key, stored board.Move, whiteMoved bool) {
	if s == nil || b == nil || len(line) == 0 {
		return
	}
	s.poll()
	g := &s.game
	g.takeLine(line)
	g.bookMoves = append(g.bookMoves, playedBookMove{g.lastPly, b.Path(), line, stored, whiteMoved})
	g.booked = true
	g.pending = nil
}

// EngineScore records the engine's last score before its bestmove.
func (s *Session) EngineScore(white bool, cp int, mate int, isMate bool) {
	if s == nil {
		return
	}
	s.game.pending = &Score{White: white, CP: cp, Mate: mate, IsMate: isMate}
}

// AfterBestmove records the position after our own move, so that a mate
// or stalemate we deliver is seen.
func (s *Session) AfterBestmove(p board.Position) {
	if s == nil {
		return
	}
	s.poll()
	s.takeScore()
	g := &s.game
	g.see(&p)
	g.ours = append(g.ours, plyOf(&p)-1)
	g.afterOurs = true
}

// GameResult ends the current game with the result the GUI gave (CECP's
// result command): it is learned as given, not guessed. Unknown ("*"):
// the game ended undecided, and is judged as any other end is (its last
// position, the engine's scores).
func (s *Session) GameResult(o Outcome, why string) {
	if s == nil {
		return
	}
	s.guiResults = true
	if o == Unknown {
		s.finish(why)
		return
	}
	s.finishWith(why, &Decision{Outcome: o, Reason: "the GUI's result"})
}

// Close ends the current game (quit or end of input) and closes the books.
func (s *Session) Close() {
	if s == nil {
		return
	}
	s.finish("end of the session")
	s.waitForPGN()
	s.countInto(true)
	s.fromPGN.closeBooks()
	for p, f := range s.files {
		if f != nil {
			f.Close()
		}
		delete(s.files, p)
	}
}

// takeScore ends one move of ours: a book move breaks the run of engine
// scores (it was not the engine's judgement), an engine move adds its score
// or, without one, breaks the run too.
func (s *Session) takeScore() {
	g := &s.game
	if g.pending != nil && !g.booked {
		g.scores = append(g.scores, *g.pending)
		g.scorePlies = append(g.scorePlies, g.lastPly)
	} else {
		g.scores, g.scorePlies = g.scores[:0], g.scorePlies[:0]
	}
	g.booked, g.pending = false, nil
}

// plyOf numbers a position's ply from its move counters: within one game
// they advance one per move, which is all that matters here.
func plyOf(p *board.Position) int {
	ply := 2 * (p.FullMove() - 1)
	if !p.WhiteToMove() {
		ply++
	}
	return ply
}

// see records a position at its ply, at a cost that does not grow with
// the game. The rules library's view of it is built only if the game ends
// with book moves to learn (it costs 10-25 us a ply).
func (g *game) see(p *board.Position) {
	ply, id := plyOf(p), p.Key()
	if g.seen {
		g.follow(p, ply)
	}
	if len(g.keys) == 0 || ply-g.firstPly-len(g.keys) > maxPlyGap {
		// The first position, or one that claims to be far ahead (a FEN's
		// move number): no position before it can repeat it.
		g.keys, g.held, g.firstPly = g.keys[:0], g.held[:0], ply
	}
	for len(g.keys) < ply-g.firstPly {
		// Plies not seen (a jump forward).
		g.keys, g.held = append(g.keys, 0), append(g.held, heldPosition{})
	}
	g.keys, g.held = append(g.keys, id), append(g.held, heldPosition{*p, true})
	g.last, g.lastPly, g.seen = *p, ply, true
}

// follow cuts the line held where p, a position at ply, leaves it. When p
// is the position held there, or follows from the one held a ply before
// by a legal move, the GUI went on, went back, or played another move in
// place of one held: what was played from p's place on (from the ply
// before, when p is not the position held there) is not in the game any
// more. Otherwise (a jump, back or forward) the game goes on from the
// latest position held that p can follow from at all (mayFollow), and
// what was played from there on is not known to be in it. Either way a
// book move in no position the GUI sent afterwards is dropped, whatever
// the GUI's move lists say.
func (g *game) follow(p *board.Position, ply int) {
	i := ply - g.firstPly // p's place in keys
	switch {
	case i <= 0:
		// At or before the first position held: nothing held stays.
		g.dropFrom(ply)
		g.keys, g.held = g.keys[:0], g.held[:0]
	case i < len(g.keys) && g.keys[i] == p.Key():
		// The position held there (sent again, gone back to).
		g.dropFrom(ply)
		g.keys, g.held = g.keys[:i], g.held[:i]
	case i <= len(g.keys) && g.held[i-1].ok && follows(&g.held[i-1].pos, p):
		if i < len(g.keys) {
			g.dropFrom(ply - 1) // the move from the ply before was another
		}
		g.keys, g.held = g.keys[:i], g.held[:i]
	default:
		j := min(i, len(g.keys)) - 1 // the latest position held before p
		if j == i-1 {
			j-- // p does not follow from it: found out above
		}
		for j > 0 && !(g.held[j].ok && mayFollow(&g.held[j].pos, p)) {
			j--
		}
		if j == len(g.keys)-1 {
			return // a jump forward from the last position held
		}
		g.dropFrom(g.firstPly + j)
		g.keys, g.held = g.keys[:j+1], g.held[:j+1]
	}
}

// takeLine takes the game's line as the proxy's core follows it (a book
// move's: the key of every position from the game's start to the last
// one seen) in place of the keys held: where they differ, the GUI's line
// went another way than the one held (a transposition, a jump), and our
// moves played from the ply before are not in the game.
func (g *game) takeLine(line []board.Key) {
	start := g.lastPly - (len(line) - 1) // the ply of line[0]
	if len(line) == 0 || !g.seen || g.lastPly-g.firstPly != len(g.keys)-1 || line[len(line)-1] != g.keys[len(g.keys)-1] {
		return // not a line to the last position seen
	}
	for ply := max(start, g.firstPly); ply < g.lastPly; ply++ {
		i, k := ply-g.firstPly, line[ply-start]
		if g.keys[i] == k {
			continue
		}
		if g.keys[i] != 0 {
			g.dropFrom(ply - 1)
		}
		g.keys[i], g.held[i] = k, heldPosition{}
	}
}

// dropFrom forgets our moves played from ply on, with their scores: they
// are not in the game.
func (g *game) dropFrom(ply int) {
	for len(g.bookMoves) > 0 && g.bookMoves[len(g.bookMoves)-1].ply >= ply {
		g.bookMoves = g.bookMoves[:len(g.bookMoves)-1]
	}
	for len(g.scores) > 0 && g.scorePlies[len(g.scorePlies)-1] >= ply {
		g.scores, g.scorePlies = g.scores[:len(g.scores)-1], g.scorePlies[:len(g.scorePlies)-1]
	}
	for len(g.ours) > 0 && g.ours[len(g.ours)-1] >= ply {
		g.ours = g.ours[:len(g.ours)-1]
	}
}

// sides are the sides we moved for in the game.
func (g *game) sides() (white, black bool) {
	for _, ply := range g.ours {
		if ply%2 == 0 {
			white = true
		} else {
			black = true
		}
	}
	return white, black
}

// played reports that a move was played in the game: one of ours, or
// one the GUI sent. A game that never left its first position (a CECP
// front's board before the GUI's first "new") is not counted.
func (g *game) played() bool {
	return len(g.ours) > 0 || len(g.bookMoves) > 0 || g.lastPly > g.firstPly
}

// maxPlyGap bounds the plies not seen that keys holds places for.
const maxPlyGap = 512

// repeated is how often the last position seen occurred.
func (g *game) repeated() int {
	if !g.seen {
		return 0
	}
	k, n := g.keys[g.lastPly-g.firstPly], 0
	for _, v := range g.keys {
		if v == k {
			n++
		}
	}
	return n
}

// finish decides the current game's result, learns from it, and starts an
// empty game.
func (s *Session) finish(why string) { s.finishWith(why, nil) }

// finishWith is finish with the result known (known non-nil) or to be
// decided.
func (s *Session) finishWith(why string, known *Decision) {
	g := &s.game
	if g.pending != nil || g.booked {
		// A search that never got a position after it (e.g. bestmove
		// (none) when mated) still tells what the engine saw.
		s.takeScore()
	}
	// The next game reuses the positions' room (the keys go with the
	// game to the host's PGN).
	defer func() { s.game = game{held: g.held[:0]} }()
	if g.seen && g.played() {
		s.games++
	}
	if s.settings.PGN != "" {
		s.endForPGN(why, known)
		return
	}
	if known == nil && g.seen && s.settings.On && !s.guiResults {
		s.sayOnce("no result source", "learn: the GUI sends no game results (UCI) and BookLearnPGN names no PGN file: live learning counts only games decided on the board (mate, stalemate, the draw rules) or by the engine's resign-level scores, not adjudicated games, time losses or agreed draws; set BookLearnPGN to the PGN file the host writes its games to, to count every game")
	}
	if len(g.bookMoves) == 0 {
		return
	}
	if !s.settings.On {
		s.logf("learn: game ended (%s): BookLearn is off, %d book move(s) not learned", why, len(g.bookMoves))
		return
	}
	var d Decision
	if known != nil {
		d = *known
	} else {
		var lastPos *board.Position // nil: no position seen
		if g.seen {
			lastPos = &g.last
		}
		d = DecidePosition(lastPos, g.repeated())
	}
	if d.Outcome == Unknown {
		byScores := DecideScores(g.scores, s.settings.ResignScore, s.settings.ResignMoves)
		if byScores.Outcome == Unknown {
			s.logf("learn: game ended (%s) with result unknown: %s; %s; %d book move(s) not learned",
				why, d.Reason, byScores.Reason, len(g.bookMoves))
			return
		}
		d = byScores
	}
	s.logf("learn: game ended (%s): %s by %s; learning %d book move(s)", why, d.Outcome, d.Reason, len(g.bookMoves))

	byBook := map[string][]book.LearnUpdate{}
	var order []string
	for _, m := range g.bookMoves {
		if _, ok := byBook[m.path]; !ok {
			order = append(order, m.path)
		}
		byBook[m.path] = append(byBook[m.path], book.LearnUpdate{Key: m.line[len(m.line)-1], Move: m.stored, Result: d.Outcome.For(m.whiteMoved), Line: m.line})
	}
	for _, path := range order {
		s.apply(path, byBook[path])
	}
}

// sayOnce logs a line the first time only.
func (s *Session) sayOnce(what, format string, args ...any) {
	if !s.said[what] {
		s.said[what] = true
		s.logf(format, args...)
	}
}

// apply counts updates into the book at path, and logs each entry's
// change, or why it is not learned.
func (s *Session) apply(path string, updates []book.LearnUpdate) {
	f := s.file(path)
	if f == nil {
		// Warned once, when it could not be opened; the log still
		// accounts for every book move.
		for _, u := range updates {
			s.logf("learn: %s key %s move %s: not learned (the book cannot be written)", path, u.Key, u.Move)
		}
		return
	}
	changes, err := f.Apply(context.Background(), updates)
	notLearned := func(key board.Key, move board.Move) {
		why := err.Error()
		if errors.Is(err, book.ErrBookDeleted) {
			why = book.ErrBookDeleted.Error()
		}
		s.warnf("learn: %s key %s move %s: not learned (%s)", path, key, move, why)
	}
	if changes == nil && err != nil {
		// Nothing was looked up (the book is gone, or cannot be
		// locked): no entry is learned.
		for _, u := range updates {
			notLearned(u.Key, u.Move)
		}
	}
	for _, c := range changes {
		switch {
		case !c.Found():
			s.warnf("learn: %s key %s move %s: entry no longer in the book, not learned", path, c.Key, c.Move)
		case c.Results == 0 && err != nil:
			notLearned(c.Key, c.Move) // a write failed before it
		default:
			s.logf("learn: %s key %s move %s: %s -> %s", path, c.Key, c.Move, c.Before, c.After)
		}
	}
	if err != nil {
		return // each book move not learned was reported, with err
	}
	if err := f.Sync(); err != nil {
		s.warnf("learn: sync %s: %v", path, err)
	}
}

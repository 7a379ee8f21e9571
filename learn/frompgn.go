package learn

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
)

// Live learning from the host's PGN (BookLearnPGN). UCI has no result
// message, and tournaments adjudicate: the true result of every game is
// in the PGN file the host writes as each game ends. A game that ends is
// looked for there by what polyproxy saw of it, and counted exactly as
// learn -pgn counts that game of the file (gameUpdates).
//
// Finding it. Every position the GUI sent (from its base, GameStart) and
// the one after each of our moves must be the game's, at the same place;
// the game must start where the GUI's base is, and end at or after the
// GUI's last position and at most one move after the last position
// known: our last move may be missing (a time loss), and the host may end
// the game on the opponent's move without sending it (fastchess), or
// adjudicate after it. Only games written after the game started count
// (pgnMark), so an earlier game with the same moves is never taken: where
// the file ended then is what the proxy's loop saw of it as the GUI
// started the game (PGNStat), as the calls come later, perhaps games
// later and before the session's first look at the file (markOf). Only
// the games filed under what the game saw of its end are looked at
// (fitting), so finding one costs the same however long the file.
//
// Two proxies of one tournament whose games nothing either saw tells
// apart (the same moves, say, with the result decided in a move neither
// saw) share claims on the file's games (claimFile): a game that fits
// one game only claims it at once, and so does one whose free fitting
// games all count alike (a trivial engine's, over and over), taking the
// first; one that fits games that count differently waits a moment for
// the other proxies to claim theirs, prefers those where our side has
// the name it had in the games found before, then claims the first still
// free in the file. Each game is then counted once, and where two games
// are alike in every move either proxy saw, either may be counted for
// either.
//
// Timing. The calls come from the proxy core's observer goroutine, never
// its loop. A game not in the file yet (cutechess-cli writes games in the
// order they started, so a game waits for the games begun before it) is
// looked for again at the session's later calls, until three times the
// longest game played so far, at least pgnWaits.min, has passed since its end;
// then it is reported and not learned. The games found are counted into
// the books together, now and then (countInto). At the end of the session
// (Close) the games not found yet are waited for a short while (quit),
// the log says so, the rest are reported, and every game found is counted.

// pgnWaits are the times learning from the host's PGN goes by.
type pgnWaits struct {
	min       time.Duration // a game is waited for at least this long after its end
	quit      time.Duration // the wait at the end of the session
	ambiguity time.Duration // a game fitting several waits this long for other proxies' claims
	retry     time.Duration // how often the file is read again while games wait
}

var defaultWaits = pgnWaits{min: time.Minute, quit: 3 * time.Second, ambiguity: 1500 * time.Millisecond, retry: 250 * time.Millisecond}

// pgnLearning is a session's state of learning from host PGN files.
type pgnLearning struct {
	hosts    map[string]*hostPGN // by BookLearnPGN
	waiting  []*playedGame
	lastLook time.Time
	longest  time.Duration // the longest game played
	// newest is, for each host file, the mark of the newest game started:
	// the games the calls still to come are about started after it.
	newest map[*hostPGN]pgnMark
	// names are our side's names in the games found that fitted alone.
	names map[string]bool
	books map[string]openBook // by path
	waits pgnWaits
	now   func() time.Time
	sleep func(time.Duration)
	// claims is the folder of the claims files, and claimFiles those
	// read, by host file.
	claims     string
	claimFiles map[string]*claimFile
	// counted is what the games found give each book, counted together
	// (one lock and one sync a book), in the order of the books' first
	// updates; lastCount is when that was last done, and countCost what
	// it took: counting is that far apart thrice over (and a look's
	// interval) at least, so that learning takes at most a quarter of the
	// time however costly counting into a book is (an ABK book is read
	// whole), counting more games each time when they come fast.
	counted      map[string][]book.LearnUpdate
	countedOrder []string
	lastCount    time.Time
	countCost    time.Duration
}

func newPGNLearning() pgnLearning {
	return pgnLearning{hosts: map[string]*hostPGN{}, newest: map[*hostPGN]pgnMark{}, names: map[string]bool{}, books: map[string]openBook{}, waits: defaultWaits, now: time.Now, sleep: time.Sleep, claims: claimsDir(), claimFiles: map[string]*claimFile{}, counted: map[string][]book.LearnUpdate{}}
}

// claimsOf is the claims on the games of the host file at path, for a
// game that started at started: the claims made since are read.
func (p *pgnLearning) claimsOf(path string, started time.Time) *claimFile {
	c := p.claimFiles[path]
	if c == nil || started.Add(-claimSlack).Before(c.since) {
		c = claimsFor(p.claims, path, started)
		p.claimFiles[path] = c
	}
	return c
}

// playedGame is a game that ended, as polyproxy saw it, waiting to be
// found in the host's PGN.
type playedGame struct {
	number   int
	why      string // what ended it
	keys     []board.Key
	firstPly int
	fromBase bool
	guiPly   int
	lastPly  int
	white    bool
	black    bool
	host     *hostPGN
	claims   *claimFile
	mark     pgnMark
	books    []string
	started  time.Time
	ended    time.Time
	deadline time.Time
	// ambiguous is when it was first found to fit several free games.
	ambiguous time.Time
	toldWait  bool
}

// startGame notes where the host's PGN ends as a game starts.
func (s *Session) startGame() {
	g, p := &s.game, &s.fromPGN
	g.started = p.now()
	path := s.settings.PGN
	if path == "" {
		return
	}
	// Where what was read of the file ends now; GameStart gives where it
	// ended when the GUI started the game, perhaps long before.
	h := s.hostPGN(path)
	g.host, g.mark = h, h.readTo()
	if s.settings.On {
		s.sayOnce("source "+path, "learn: results from the host's PGN file %s (BookLearnPGN): each game is looked for there when it ends and counted as learn -pgn counts it", path)
	}
}

// hostPGN is the reader of the host file at path, which has read what is
// there now.
func (s *Session) hostPGN(path string) *hostPGN {
	p := &s.fromPGN
	h := p.hosts[path]
	if h == nil {
		h = newHostPGN(path, p.now)
		p.hosts[path] = h
	}
	if err := h.refresh(); err != nil {
		s.warnOnce("read "+path, "learn: BookLearnPGN %s: %v", path, err)
	}
	return h
}

// warnOnce warns the first time only.
func (s *Session) warnOnce(what, format string, args ...any) {
	if !s.said[what] {
		s.said[what] = true
		s.warnf(format, args...)
	}
}

// endForPGN hands the game that ended to be looked for in the host's PGN.
func (s *Session) endForPGN(why string, known *Decision) {
	g, p := &s.game, &s.fromPGN
	if !g.seen {
		return
	}
	now := p.now()
	p.longest = max(p.longest, now.Sub(g.started))
	switch {
	case !s.settings.On:
		if len(g.bookMoves) > 0 {
			s.logf("learn: game %d ended (%s): BookLearn is off, not looked for in %s", s.games, why, s.settings.PGN)
		}
		return
	case len(s.settings.Books) == 0:
		return // no book to learn into
	case !g.played():
		return // nothing to count
	case g.host == nil || g.host.path != s.settings.PGN:
		s.warnf("learn: game %d ended (%s): BookLearnPGN was set to %s during the game, so where the game lies in it is unknown: not learned", s.games, why, s.settings.PGN)
		return
	}
	if known != nil {
		s.logf("learn: game %d: the GUI's result %s is not used: the host's PGN gives it", s.games, known.Outcome)
	}
	white, black := g.sides()
	if !white && !black && g.guiSeen {
		// We never moved: the side the GUI asked to move is ours.
		white, black = g.guiWhite, !g.guiWhite
	}
	pg := &playedGame{
		number: s.games, why: why,
		keys: g.keys, firstPly: g.firstPly, fromBase: g.fromBase,
		guiPly: g.guiPly, lastPly: g.lastPly,
		white: white, black: black,
		host: g.host, claims: p.claimsOf(g.host.path, g.started), mark: g.mark,
		books:    append([]string(nil), s.settings.Books...),
		started:  g.started,
		ended:    now,
		deadline: now.Add(max(p.waits.min, 3*p.longest)),
	}
	p.waiting = append(p.waiting, pg)
	s.look(false)
}

// poll looks for the games waiting, now and then, and counts those found.
func (s *Session) poll() {
	p := &s.fromPGN
	if len(p.waiting) > 0 && p.now().Sub(p.lastLook) >= p.waits.retry {
		s.look(false)
	} else if len(p.countedOrder) > 0 {
		s.countInto(false)
	}
}

// look reads the host files again and counts each game waiting that is
// found; final: the last look (the end of the session), where a game
// fitting several is counted without waiting for claims and a game not
// found is reported.
func (s *Session) look(final bool) {
	p := &s.fromPGN
	now := p.now()
	p.lastLook = now
	read := map[*hostPGN]bool{}
	keep := p.waiting[:0]
	for _, pg := range p.waiting {
		if !read[pg.host] {
			read[pg.host] = true
			if err := pg.host.refresh(); err != nil {
				s.warnOnce("read "+pg.host.path, "learn: BookLearnPGN %s: %v", pg.host.path, err)
			}
		}
		if !s.resolve(pg, now, final) {
			keep = append(keep, pg)
		}
	}
	clear(p.waiting[len(keep):])
	p.waiting = keep
	s.countInto(final)
	s.forgetOldClaims(now)
	for _, h := range p.hosts {
		var marks []pgnMark
		for _, pg := range p.waiting {
			if pg.host == h {
				marks = append(marks, pg.mark)
			}
		}
		if s.game.host == h {
			marks = append(marks, s.game.mark)
		}
		if m, ok := p.newest[h]; ok {
			// Games played already, whose calls are still to come (they
			// lag behind the loop), were written after it.
			marks = append(marks, m)
		}
		h.prune(marks)
	}
}

// forgetOldClaims lets each host file's claims go of the games older than
// any game still looked for with them: the games waiting, and the game
// being played (a game that started before it gets claims of its own when
// it ends). Without, a proxy held every claim of the tournament.
func (s *Session) forgetOldClaims(now time.Time) {
	p := &s.fromPGN
	for _, c := range p.claimFiles {
		oldest := now
		if g := &s.game; g.host != nil && !g.started.IsZero() && g.started.Before(oldest) {
			oldest = g.started
		}
		for _, pg := range p.waiting {
			if pg.claims == c && pg.started.Before(oldest) {
				oldest = pg.started
			}
		}
		c.forgetBefore(oldest.Add(-claimSlack))
	}
}

// resolve looks for pg in its host's games; true: it is done with, counted
// or reported.
func (s *Session) resolve(pg *playedGame, now time.Time, final bool) bool {
	over := final || !now.Before(pg.deadline)
	if len(pg.host.fitting(pg)) == 0 {
		if over {
			s.warnf("learn: game %d (ended by %s) not found in %s %s: not learned", pg.number, pg.why, pg.host.path, s.waited(pg, now, final))
			return true
		}
		if !pg.toldWait {
			pg.toldWait = true
			s.logf("learn: game %d (ended by %s) is not in %s yet: looked for until %s", pg.number, pg.why, pg.host.path, pg.deadline.Format("15:04:05"))
		}
		return false
	}
	var c candidates
	choose := func(claimed claimedBy) *hostGame { return s.choose(pg, &c, claimed, now, final) }
	g, err := pg.claims.take(now, pg.started, pg.white, pg.black, choose)
	if err != nil {
		s.warnOnce("claims "+pg.host.path, "learn: cannot record the games of %s this proxy counts (%v): games nothing tells apart may be counted for another proxy's", pg.host.path, err)
		g = choose(func(*hostGame, bool) bool { return false })
	}
	if g == nil {
		if len(c.frees) == 0 && over {
			s.warnf("learn: game %d (ended by %s): the %d game(s) of %s it fits were counted by other proxies %s: not learned", pg.number, pg.why, c.fits, pg.host.path, s.waited(pg, now, final))
			return true
		}
		return false
	}
	note := ""
	switch {
	case c.alike && c.fits > 1:
		note = fmt.Sprintf("; %d games there fit it, alike in every move and the result: the first free one is counted", c.fits)
	case len(c.frees) > 1:
		note = fmt.Sprintf("; %d games there fit it alike and none was claimed by another proxy: the first is counted", len(c.frees))
	case g.game != nil:
		s.fromPGN.names[pg.nameIn(g)] = true
	}
	s.count(pg, g, note)
	return true
}

// candidates are the games of the host's that a played game fits, as one
// look found them.
type candidates struct {
	fits  int         // the fitting games
	frees []*hostGame // of each group alike, the first not claimed for our sides, in file order
	alike bool        // one group has free games: they count alike
}

// choose is the game to claim for pg, given the claims made (nil: none,
// or not yet), and what it found, in c.
func (s *Session) choose(pg *playedGame, c *candidates, claimed claimedBy, now time.Time, final bool) *hostGame {
	c.fits, c.frees = 0, c.frees[:0]
	for _, f := range pg.host.fitting(pg) {
		g, n := f.free(pg, claimed)
		c.fits += n
		if g != nil {
			c.frees = append(c.frees, g)
		}
	}
	slices.SortFunc(c.frees, func(a, b *hostGame) int { return cmp.Or(cmp.Compare(a.gen, b.gen), cmp.Compare(a.offset, b.offset)) })
	c.alike = len(c.frees) == 1
	frees := c.frees
	if len(frees) > 1 {
		// Our side's name in the games found before tells apart games
		// alike but for who played which side.
		if named := slices.DeleteFunc(slices.Clone(frees), func(g *hostGame) bool { return !s.fromPGN.names[pg.nameIn(g)] }); len(named) > 0 {
			frees = named
		}
	}
	switch {
	case len(frees) == 0:
		return nil
	case len(frees) > 1:
		if pg.ambiguous.IsZero() {
			pg.ambiguous = now
		}
		if !final && now.Sub(pg.ambiguous) < s.fromPGN.waits.ambiguity {
			return nil // other proxies may claim theirs first
		}
	}
	// Of games that count alike, the first free: the games after it stay
	// free for the proxies whose games started later.
	return frees[0]
}

// nameIn is the name of the player of our side (both, when we played both)
// in the tags of g.
func (pg *playedGame) nameIn(g *hostGame) string {
	if g.game == nil {
		return ""
	}
	var name []string
	if pg.white {
		name = append(name, g.game.Tag("White"))
	}
	if pg.black {
		name = append(name, g.game.Tag("Black"))
	}
	return strings.Join(name, "\x00")
}

// waited says how long a game was looked for, for the log.
func (s *Session) waited(pg *playedGame, now time.Time, final bool) string {
	if final && now.Before(pg.deadline) {
		return "by the end of the session"
	}
	return fmt.Sprintf("within %s of its end", pg.deadline.Sub(pg.ended).Round(time.Second))
}

// count learns the game g found for pg, into each book in use, as learn
// -pgn counts it for the sides polyproxy played: its updates are counted
// into the books with the other games found, when it is time (countInto).
func (s *Session) count(pg *playedGame, g *hostGame, note string) {
	s.logf("learn: game %d (ended by %s) is %s in %s%s", pg.number, pg.why, g.describe(), pg.host.path, note)
	p := &s.fromPGN
	for _, path := range pg.books {
		b, err := p.openBook(path)
		if err != nil {
			s.warnf("learn: game %d not learned into %s: %v", pg.number, path, err)
			continue
		}
		updates, err := gameUpdates(g.game, b, pg.white, pg.black, nil)
		if err != nil {
			s.logf("learn: game %d not learned: %v (learn -pgn skips it too)", pg.number, err)
			return
		}
		if len(updates) == 0 {
			s.logf("learn: game %d: no move of ours in it is in %s", pg.number, path)
			continue
		}
		if _, ok := p.counted[path]; !ok {
			p.countedOrder = append(p.countedOrder, path)
		}
		p.counted[path] = append(p.counted[path], updates...)
	}
}

// countInto counts the games found into their books, when it is time
// (final: now).
func (s *Session) countInto(final bool) {
	p := &s.fromPGN
	now := p.now()
	if len(p.countedOrder) == 0 || !final && now.Sub(p.lastCount) < max(p.waits.retry, 3*p.countCost) {
		return
	}
	defer func() { p.lastCount, p.countCost = now, p.now().Sub(now) }()
	for _, path := range p.countedOrder {
		s.apply(path, p.counted[path])
		delete(p.counted, path)
	}
	p.countedOrder = p.countedOrder[:0]
}

// openBook is the book at path, to find the entries of a game's moves in,
// opened as learn -pgn opens it; kept open from game to game while the
// path names the same file of the same size (learning changes only learn
// fields, which are read afresh under the lock when counting).
func (p *pgnLearning) openBook(path string) (*book.Book, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if o, ok := p.books[path]; ok {
		if os.SameFile(o.file, st) && o.file.Size() == st.Size() {
			return o.b, nil
		}
		o.b.Close()
		delete(p.books, path)
	}
	b, err := formats.Open(path)
	if err != nil {
		return nil, err
	}
	p.books[path] = openBook{b, st}
	return b, nil
}

// openBook is a book kept open, and the file it was opened from.
type openBook struct {
	b    *book.Book
	file os.FileInfo
}

// closeBooks closes the books kept open.
func (p *pgnLearning) closeBooks() {
	for path, o := range p.books {
		o.b.Close()
		delete(p.books, path)
	}
}

// waitForPGN waits a little, at the end of the session, for the games not
// found yet.
func (s *Session) waitForPGN() {
	p := &s.fromPGN
	if len(p.waiting) == 0 {
		return
	}
	s.logf("learn: waiting up to %s for %d game(s) to appear in the host's PGN before quitting", p.waits.quit, len(p.waiting))
	until := p.now().Add(p.waits.quit)
	for {
		s.look(false)
		if len(p.waiting) == 0 || !p.now().Before(until) {
			break
		}
		p.sleep(p.waits.retry)
	}
	if len(p.waiting) > 0 {
		s.look(true)
	}
}

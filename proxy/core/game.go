package core

import (
	"time"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy/track"
)

// The game followed (proxy/track), as the core tells of it.

// Game is a game for the core to follow, as a front gives it: where it
// starts and the moves played since (track.Game).
type Game = track.Game

// follow tells what a command did to the game followed (ch): the log,
// and the GUI, what is wrong with it; live learning its positions.
func (c *Core) follow(ch track.Change) {
	switch ch.Kind {
	case track.Followed:
		if ch.Again {
			c.log.Printf("position followed again")
		}
		c.observePosition(ch.Continues)
	case track.Lost:
		if ch.Tell {
			c.notice(ch.Message)
		}
		c.log.Printf("%s", ch.Message)
	case track.Refused:
		if ch.Tell {
			c.notice(ch.Message)
		}
		c.log.Printf("%s: %s", ch.Message, ch.Detail)
	}
}

// gameRoom is the plies a game's line has room for before it grows.
const gameRoom = 64

// observePosition gives live learning the position followed: a copy, as
// the game moves on before the observer runs (after the flush).
func (c *Core) observePosition(continues bool) {
	if !c.observer.On() {
		return
	}
	cur := c.game.Current()
	pos := cur.Pos
	if continues {
		c.observer.Later(func(o GameObserver) { o.Position(pos, true) })
		return
	}
	// The last game ends: its learning lands now.
	// The session keeps line and appends the game's plies to it: room for
	// them spares an allocation at each of the first plies.
	at, line := time.Now(), append(make([]board.Key, 0, len(cur.Keys)+gameRoom), cur.Keys...)
	// Where the host's PGN ends now, before our answer: our game lies
	// after. Its last bytes are read once the answer is out.
	pgn := learn.StatPGN(c.settings.BookLearnPGN)
	c.observer.AfterOutput(pgn.ReadTail)
	c.observer.Now(func(o GameObserver) {
		o.Position(pos, false)
		o.GameStart(at, line, *pgn)
	})
}

// settlePonder takes back the move a ponder search assumed when no
// ponderhit played it: the game given goes on from the game as played.
func (c *Core) settlePonder() {
	if c.game.Pondering() {
		c.follow(c.game.ReplaceLast(nil, ""))
	}
}

// Game is the game given, as played (without a move only pondered on).
func (c *Core) Game() GameView { return GameView{g: c.game} }

// GameView is the game given, read only, valid until the next command.
type GameView struct{ g *track.Tracker }

// FEN is where the game starts ("": the standard start position).
func (v GameView) FEN() string {
	fen, _ := v.g.Given()
	return fen
}

// Moves are the moves played, as given.
func (v GameView) Moves() []board.Move {
	_, moves := v.g.Given()
	return moves
}

// Position is the position reached.
func (v GameView) Position() *board.Position { return v.g.PlayedPosition() }

// Searched is the position the latest search is on: the game's, or with
// the move a ponder search assumes.
func (v GameView) Searched() *board.Position { return &v.g.Current().Pos }

// Repetitions is how often the position reached occurred in the game.
func (v GameView) Repetitions() int {
	played := v.g.Played()
	return played.Repetitions()
}

package adapter

import (
	"strconv"
	"strings"
)

// cecpClock is the time control a CECP GUI sets, kept by CECP's rules:
// level sets moves per session, base and increment, and ends st; st sets
// a time per move, in effect until the next level (new keeps it); sd
// limits the depth until new; time and otim give the clocks, which new
// sets back to the level's base until the GUI sends them again.
type cecpClock struct {
	mps            int
	baseMS, incMS  int64
	moveTimeMS     int64 // st (0: none)
	depth          int   // sd (0: none)
	timeMS, otimMS int64 // our clock and the opponent's
	known          bool  // time or otim came since the game began
}

func (c *cecpClock) level(mps int, baseMS, incMS int64) {
	c.mps, c.baseMS, c.incMS = mps, baseMS, incMS
	c.moveTimeMS = 0
}

func (c *cecpClock) st(ms int64) { c.moveTimeMS = ms }

// newGame is new's part: the depth limit goes, the clocks start again.
func (c *cecpClock) newGame() {
	c.depth = 0
	c.known = false
}

// goLine is the UCI go for our move (ponder: on the opponent's time),
// playing White or Black, done of our moves made since the game's start:
// st's time less stFudge as the movetime (st is a bound, movetime the
// exact time), else the clocks; sd's depth either way.
func (c *cecpClock) goLine(ponder, white bool, done int, stFudge int64) string {
	var b strings.Builder
	b.WriteString("go")
	if ponder {
		b.WriteString(" ponder")
	}
	if c.depth > 0 {
		b.WriteString(" depth " + strconv.Itoa(c.depth))
	}
	if c.moveTimeMS > 0 {
		b.WriteString(" movetime " + strconv.FormatInt(max(c.moveTimeMS-stFudge, 1), 10))
		return b.String()
	}
	own, opp := c.timeMS, c.otimMS
	if !c.known {
		if c.baseMS == 0 && c.incMS == 0 {
			if c.depth > 0 {
				return b.String()
			}
			return b.String() + " infinite" // no limit at all: the GUI's ? ends it
		}
		own, opp = c.baseMS, c.baseMS
	}
	w, bl := own, opp
	if !white {
		w, bl = opp, own
	}
	b.WriteString(" wtime " + strconv.FormatInt(max(w, 1), 10) + " btime " + strconv.FormatInt(max(bl, 1), 10))
	if c.incMS > 0 {
		inc := strconv.FormatInt(c.incMS, 10)
		b.WriteString(" winc " + inc + " binc " + inc)
	}
	if c.mps > 0 {
		b.WriteString(" movestogo " + strconv.Itoa(c.mps-done%c.mps))
	}
	return b.String()
}

package cecpfront

import "github.com/polyproxy/polyproxy/uci"

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

// limits are the search limits for our move (ponder: on the opponent's
// time), playing White or Black, done of our moves made since the game's
// start: st's time less stFudge as the movetime (st is a bound, movetime
// the exact time), else the clocks; sd's depth either way.
func (c *cecpClock) limits(ponder, white bool, done int, stFudge int64) uci.Go {
	g := uci.Go{Ponder: ponder, Depth: int64(c.depth)}
	if c.moveTimeMS > 0 {
		g.MoveTime, g.HasMoveTime = max(c.moveTimeMS-stFudge, 1), true
		return g
	}
	own, opp := c.timeMS, c.otimMS
	if !c.known {
		if c.baseMS == 0 && c.incMS == 0 {
			g.Infinite = c.depth == 0 // no limit at all: the GUI's ? ends it
			return g
		}
		own, opp = c.baseMS, c.baseMS
	}
	if !white {
		own, opp = opp, own
	}
	g.WTime, g.BTime, g.HasWTime, g.HasBTime = max(own, 1), max(opp, 1), true, true
	g.WInc, g.BInc = c.incMS, c.incMS
	if c.mps > 0 {
		g.MovesToGo = c.mps - done%c.mps
	}
	return g
}

package learn

import (
	"slices"

	"github.com/polyproxy/polyproxy/book/board"
)

// Which games of the host's file a game played may be: the games read are
// filed by what a game played tells of its end, and among those by what
// they count, so that finding a game costs what fits it, not the file.

// fits reports that g is, as far as polyproxy saw, the game pg.
func (pg *playedGame) fits(g *hostGame) bool {
	if !g.after(pg.mark) || len(g.keys) == 0 {
		return false // older, unreadable, or not a game polyproxy can play
	}
	// d is the place in g of pg's first position: g's start when pg's
	// first position is the GUI's base, else by the move numbers.
	d := 0
	if !pg.fromBase {
		if d = pg.firstPly - g.begin; d < 0 {
			return false
		}
	}
	if end := g.plies; end < d+pg.guiPly-pg.firstPly || end > d+pg.lastPly-pg.firstPly+1 {
		return false
	}
	for i, k := range pg.keys {
		j := d + i
		if j > g.plies {
			break
		}
		if k == 0 {
			continue // a position not seen
		}
		if j >= len(g.keys) || g.keys[j] != k {
			return false
		}
	}
	return true
}

// fitKey files a game of the host by its moves and the position before
// the last one (the start, for a game without moves): a game played is
// one of the few filed under what the proxy saw of its end.
type fitKey struct {
	plies  int
	before board.Key
}

// fitKeyOf is where a game of plies moves whose positions are keys is
// filed.
func fitKeyOf(plies int, keys []board.Key) fitKey {
	return fitKey{plies, keys[max(plies-1, 0)]}
}

// alikeGames are games of the host's that count alike (their counts),
// in file order: the same positions and result, so a game played fits
// all of them or none but for when each was written, and any of them
// counts as it does.
type alikeGames struct {
	counts uint64
	games  []*hostGame
	// claimed is, for White and for Black, how many of the first games
	// are known to be claimed for that side: claims are only made, so the
	// next look goes on from there.
	claimed [2]int
}

// fileGame files g, read and replayed whole.
func (h *hostPGN) fileGame(g *hostGame) {
	if h.filed == nil {
		h.filed = map[fitKey][]*alikeGames{}
	}
	k := fitKeyOf(g.plies, g.keys)
	for _, a := range h.filed[k] {
		if a.counts == g.counts {
			a.games = append(a.games, g)
			return
		}
	}
	h.filed[k] = append(h.filed[k], &alikeGames{counts: g.counts, games: []*hostGame{g}})
}

// unfileGame forgets g, the first of its games alike.
func (h *hostPGN) unfileGame(g *hostGame) {
	k := fitKeyOf(g.plies, g.keys)
	groups := h.filed[k]
	i := slices.IndexFunc(groups, func(a *alikeGames) bool { return a.counts == g.counts })
	a := groups[i]
	a.games = a.games[1:]
	a.claimed = [2]int{max(a.claimed[0]-1, 0), max(a.claimed[1]-1, 0)}
	switch {
	case len(a.games) > 0:
	case len(groups) > 1:
		h.filed[k] = slices.Delete(groups, i, i+1)
	default:
		delete(h.filed, k)
	}
}

// fitting is the games of the host's that fit pg, by what they count,
// each group's from the first written after pg started. A game played
// from the GUI's base ends at one of a few plies, each after a position
// it knows: only the games filed under those are looked at.
func (h *hostPGN) fitting(pg *playedGame) []fittingGames {
	var out []fittingGames
	for plies := pg.guiPly - pg.firstPly; plies <= pg.lastPly-pg.firstPly+1 && pg.fromBase; plies++ {
		before := max(plies-1, 0)
		if before >= len(pg.keys) || pg.keys[before] == 0 {
			return h.fittingAny(pg) // a position not seen there
		}
		for _, a := range h.filed[fitKey{plies, pg.keys[before]}] {
			first, _ := slices.BinarySearchFunc(a.games, pg.mark, func(g *hostGame, m pgnMark) int {
				if g.after(m) {
					return 1
				}
				return -1
			})
			if first < len(a.games) && pg.fits(a.games[first]) {
				out = append(out, fittingGames{a, first})
			}
		}
	}
	if !pg.fromBase {
		return h.fittingAny(pg)
	}
	return out
}

// fittingAny is fitting, looking at every game read.
func (h *hostPGN) fittingAny(pg *playedGame) []fittingGames {
	var out []fittingGames
	for _, g := range h.games {
		if !pg.fits(g) {
			continue
		}
		i := slices.IndexFunc(out, func(f fittingGames) bool { return f.games.counts == g.counts })
		if i < 0 {
			out = append(out, fittingGames{&alikeGames{counts: g.counts}, 0})
			i = len(out) - 1
		}
		out[i].games.games = append(out[i].games.games, g)
	}
	return out
}

// fittingGames are games alike from first on.
type fittingGames struct {
	games *alikeGames
	first int
}

// free is the first of the games not claimed for a side pg played, and
// how many there are from first.
func (f fittingGames) free(pg *playedGame, claimed claimedBy) (*hostGame, int) {
	a, from := f.games, f.first
	for side, white := range []bool{true, false} {
		if white && !pg.white || !white && !pg.black {
			continue
		}
		for a.claimed[side] < len(a.games) && claimed(a.games[a.claimed[side]], white) {
			a.claimed[side]++
		}
		from = max(from, a.claimed[side])
	}
	for _, g := range a.games[from:] {
		if !(pg.white && claimed(g, true) || pg.black && claimed(g, false)) {
			return g, len(a.games) - f.first
		}
	}
	return nil, len(a.games) - f.first
}

package proxy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

// BenchmarkMoveCost is one move of a game inside the proxy, through each
// front, with and without the live-learning observer the binary installs:
// the GUI's move in (UCI: the whole position line and go; CECP:
// usermove), the engine's thinking and bestmove out, and the observer's
// work. The moves measured are the same ones, plies 300 to 340 of one
// game, in a game that has 300 plies before them (ply=300: from the start
// position) and in one that has 10 (ply=10: set up from the position at
// ply 290): what a position costs stays out of the comparison, and a move
// must cost the same whatever the game's length, in ns/op and allocs/op.
// The engine is a null one; its lines are handed to the loop's handlers
// as the loop does.
func BenchmarkMoveCost(b *testing.B) {
	const at, window = 300, 40
	game := proxytest.LiveGame(b, at+window+2)
	for _, front := range []string{"uci", "xboard"} {
		for _, learning := range []bool{false, true} {
			for _, history := range []int{10, at} {
				obsName := "plain"
				if learning {
					obsName = "learning"
				}
				b.Run(fmt.Sprintf("%s/%s/ply=%d", front, obsName, history), func(b *testing.B) {
					var obs core.GameObserver
					if learning {
						obs = learningObserver()
					}
					benchmarkMoveCost(b, front, obs, game, at-history, at, window)
				})
			}
		}
	}
}

// benchmarkMoveCost measures the moves from ply at to at+window of game,
// played from the position after game[:base].
func benchmarkMoveCost(b *testing.B, front string, obs core.GameObserver, game []string, base, at, window int) {
	a, w := byHand(b, "", obs)
	baseLine := "position startpos moves"
	if base > 0 {
		l, _ := board.NewLine("startpos")
		if err := l.PlayMoves(game[:base], 0); err != nil {
			b.Fatal(err)
		}
		baseLine = "position fen " + l.Pos.FEN() + " moves"
	}
	// The engine's answer to the position after ply k (it plays Black,
	// so k is odd): thinking with a score, then its move, game[k].
	engineOut := make([][]byte, len(game))
	uciLines := make([]string, len(game))
	uciMoves := make([][]string, len(game)) // the GUI's lines for ply k: its game, then go
	for k := base + 1; k+1 < len(game); k += 2 {
		engineOut[k] = []byte("info depth 12 seldepth 18 multipv 1 score cp 25 nodes 123456 nps 1000000 hashfull 10 time 123 pv " +
			game[k] + " " + game[k+1] + "\nbestmove " + game[k] + " ponder " + game[k+1] + "\n")
		uciLines[k] = baseLine + " " + strings.Join(game[base:k], " ")
		uciMoves[k] = []string{uciLines[k], "go wtime 60000 btime 60000"}
	}
	event := func(lines ...string) {
		if _, err := a.GUIEvent(lines...); err != nil {
			b.Fatal(err)
		}
	}
	engine := func(k int) {
		if _, err := a.EngineEvent(engineOut[k]); err != nil {
			b.Fatal(err)
		}
	}
	// move plays the GUI's move game[k-1] and the engine's game[k].
	move := func(k int) {
		if front == "uci" {
			event(uciMoves[k]...)
		} else {
			event("usermove " + game[k-1])
		}
		engine(k)
	}
	start := at + 1 - at%2 // the first ply the engine answers
	// setUp plays the game up to ply start-2, and one move to settle.
	setUp := func() {
		if front == "uci" {
			event("ucinewgame", uciLines[start-2])
		} else {
			lines := []string{"new", "force"}
			if base > 0 {
				lines = append(lines, "setboard "+strings.TrimSuffix(strings.TrimPrefix(baseLine, "position fen "), " moves"))
			}
			for _, m := range game[base : start-3] {
				lines = append(lines, "usermove "+m)
			}
			event(append(lines, "playother")...)
		}
		move(start - 2)
	}
	if front == "xboard" {
		event("xboard", "protover 2", "post")
	}
	k := start
	setUp()
	bestmoves := w.N
	b.ResetTimer()
	for range b.N {
		if k >= start+window {
			b.StopTimer()
			setUp()
			k = start
			b.StartTimer()
		}
		move(k)
		k += 2
	}
	b.StopTimer()
	if front == "uci" && w.N-bestmoves < b.N {
		b.Fatalf("%d bestmoves for %d moves", w.N-bestmoves, b.N)
	}
	if front == "xboard" {
		followed(b, a, game, k-1, base) // the front played the engine's last move
	} else {
		followed(b, a, game, k-2, base)
	}
}

// BenchmarkPonderMiss is a ponder miss through the UCI front, at the same
// plies of one game as BenchmarkMoveCost, in a game of 10 plies and of
// 300 before them: the GUI's line with the move pondered on (another than
// the one played), then its line with the move played and the next.
func BenchmarkPonderMiss(b *testing.B) {
	const at, window = 300, 40
	game := proxytest.LiveGame(b, at+window+2)
	for _, history := range []int{10, at} {
		b.Run(fmt.Sprintf("ply=%d", history), func(b *testing.B) {
			base := at - history
			l, _ := board.NewLine("startpos")
			if err := l.PlayMoves(game[:base], 0); err != nil {
				b.Fatal(err)
			}
			prefix := "position fen " + l.Pos.FEN() + " moves"
			if base == 0 {
				prefix = "position startpos moves"
			}
			// played[k] is the game up to ply k+2; pondered[k] has another
			// move than game[k+1] at its end.
			played, pondered := make([]string, len(game)), make([]string, len(game))
			for k := base; k+2 <= len(game); k++ {
				played[k] = prefix + " " + strings.Join(game[base:k+2], " ")
				l.PlayMoves(game[k:k+1], k)
				for _, m := range l.Pos.LegalMoves() {
					if m.String() != game[k+1] {
						pondered[k] = prefix + " " + strings.Join(game[base:k+1], " ") + " " + m.String()
						break
					}
				}
			}
			a, _ := byHand(b, "", nil)
			k := at - 1
			setUp := func() { a.GUILine("ucinewgame"); a.GUILine(played[k-2]) }
			setUp()
			b.ResetTimer()
			for range b.N {
				if k >= at-1+window {
					b.StopTimer()
					k = at - 1
					setUp()
					b.StartTimer()
				}
				a.GUILine(pondered[k])
				a.GUILine(played[k])
				k += 2
			}
			b.StopTimer()
			followed(b, a, game, k, base)
		})
	}
}

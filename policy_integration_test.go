package main

import (
	"strconv"
	"testing"
	"time"
)

// policyProxy starts polyproxy on Stockfish and the gnuchess book with the
// book settings given (-pg NAME=VALUE pairs), ready for games.
func policyProxy(t *testing.T, skill int, pg ...string) *gameSide {
	t.Helper()
	args := []string{"-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile=" + gnuchessBook,
		"-uci", "Skill Level=" + strconv.Itoa(skill), "-uci", "Threads=1", "-uci", "Hash=16", "-uci", "Move Overhead=150"}
	for _, kv := range pg {
		args = append(args, "-pg", kv)
	}
	p := startProxy(t, nil, args...)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	return &gameSide{p: p}
}

// endGames checks that nothing follows the last bestmove and quits.
func endGames(t *testing.T, sides ...*gameSide) {
	t.Helper()
	for _, s := range sides {
		s.stopPondering()
		s.p.send("isready")
		if rest := s.p.until("readyok", 10*time.Second); len(rest) != 1 {
			t.Fatalf("output after the last bestmove: %q", rest)
		}
		s.p.send("quit")
		if code := s.p.waitExit(5 * time.Second); code != 0 {
			t.Fatalf("exit code %d; stderr %s", code, s.p.stderr.String())
		}
	}
}

// BookMaxMoves 4 through the built binary, in complete games against
// Stockfish: the book answers every position it has a move for until the
// side's 4th book move of the game, and none after (playGame checks each
// move against the book), in every game: the count starts again at
// ucinewgame.
func TestBookMaxMovesGames(t *testing.T) {
	needStockfishAndBook(t)
	if testing.Short() {
		t.Skip("games take a few seconds")
	}
	const maxMoves = 4
	a := policyProxy(t, 20, "BookMaxMoves=4")
	b := policyProxy(t, 0, "BookMaxMoves=4")
	a.maxBook, b.maxBook = maxMoves, maxMoves
	reached := 0
	for game := range 2 {
		white, black := a, b
		if game == 1 {
			white, black = b, a
		}
		result := playGame(t, white, black, fastchessHabits, 256)
		t.Logf("game %d: %s; book moves %d+%d", game+1, result, white.gameBook, black.gameBook)
		for _, s := range []*gameSide{white, black} {
			if s.gameBook > maxMoves {
				t.Fatalf("%d book moves in a game", s.gameBook)
			}
			if s.gameBook == maxMoves {
				reached++
			}
		}
	}
	if reached == 0 {
		t.Error("no side reached BookMaxMoves: the test proves little")
	}
	endGames(t, a, b)
}

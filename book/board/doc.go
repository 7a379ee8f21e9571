// Package board is the rules of standard chess and Chess960 that
// polyproxy's hot paths need: a position with its Polyglot key kept up to date move by move,
// FEN in and out, legality of a move, legal move generation, mate,
// stalemate and insufficient material, SAN in and out, and a line of play
// (a game from a start position). It is also where the types every book
// format shares live: squares, moves (Polyglot's 16-bit move code, so a
// Polyglot entry plays as it is), and the Polyglot key with its Random64
// table, which every format's positions are looked up by. The formats
// (book, book/abk, ...) are built on this package, never the reverse.
//
// notnil/chess has all of this, but replaying a game with it costs 15-25
// µs a ply where make-book and the proxy's book answers need well under
// one (measured in book/build's BenchmarkReplaySAN and
// BenchmarkReplayNotnil), and its package start-up alone is a tenth of
// the proxy's time to its first uciok. These rules are cross-checked
// against it in notnil_test.go, move by move, over random games and
// fuzzed FENs; notnil is a test dependency only.
package board

// Chess960 is checked against python-chess (python-chess 1.11.2 made the
// committed table): testdata/chess960.txt holds its keys, X-FEN, Shredder-FEN
// and legal moves of 2,748 positions, which chess960_test.go reads. To
// remake it, put python-chess's source tree (github.com/niklasf/python-chess,
// pure Python, no install needed) in PYTHON_CHESS and run go generate.
//
//go:generate sh -c "PYTHONPATH=$PYTHON_CHESS python3 testdata/chess960_fixture.py > testdata/chess960.txt"

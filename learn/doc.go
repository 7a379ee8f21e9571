// Package learn is book learning's policy: it follows the games played
// through the proxy, decides each game's result (from its last position,
// or from the engine's scores when the GUI stops early), and counts the
// result into the learn field of every book move polyproxy played; it
// also learns from the PGN files tournament managers write, and weights
// book moves by their learned results. The learn field itself and its
// safe update in place, shared by many processes, are the book format's
// (book.Learn, book.LearnFile).
package learn

//go:generate go test -run TestFixtureBook -update .

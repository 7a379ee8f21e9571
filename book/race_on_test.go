//go:build race

package book

// raceEnabled lets the slowest real-data tests check less under -race,
// where the rules engine runs about ten times slower.
const raceEnabled = true

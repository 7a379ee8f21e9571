//go:build !race

package testenv

// RaceEnabled lets the slowest tests check less under -race, where code
// runs about ten times slower.
const RaceEnabled = false

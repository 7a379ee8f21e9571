//go:build race

package main

// makeBookRace makes the PolyGlot comparison use fewer real games under the
// race detector, which slows make-book down ~25 times (the whole reference
// file alone would take 8 s); the full comparison runs without -race.
const makeBookRace = true

//go:build !race

package main

const makeBookRace = false

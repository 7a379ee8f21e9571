module github.com/polyproxy/polyproxy

go 1.26.8

require (
	github.com/notnil/chess v1.10.0
	golang.org/x/sys v0.49.0
)

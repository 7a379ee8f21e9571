module github.com/polyproxy/polyproxy

go 1.26.8

require (
	github.com/notnil/chess v1.10.0
	golang.org/x/sys v0.49.0
)

require (
	github.com/sirupsen/logrus v1.10.2 // indirect
	gopkg.in/ini.v1 v1.67.3 // indirect
)

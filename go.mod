module github.com/polyproxy/polyproxy

go 1.26.0

require (
	github.com/klauspost/compress v1.20.3
	github.com/notnil/chess v1.10.0
	github.com/sirupsen/logrus v1.10.2
	golang.org/x/sys v0.49.0
	gopkg.in/ini.v1 v1.67.3
)

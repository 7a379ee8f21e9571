module github.com/polyproxy/polyproxy

go 1.26.0

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/klauspost/compress v1.20.3
	github.com/notnil/chess v1.10.0
	github.com/sirupsen/logrus v1.10.2
	golang.org/x/sys v0.49.0
	gopkg.in/ini.v1 v1.67.3
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect

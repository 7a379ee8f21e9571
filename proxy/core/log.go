package core

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/version"
)

// lineFormatter writes "15:04:05.000 message": one line per event, as
// PolyGlot's log, with the level only when it is not plain info.
type lineFormatter struct{}

func (lineFormatter) Format(e *logrus.Entry) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(e.Message) + 24)
	b.WriteString(e.Time.Format("15:04:05.000"))
	b.WriteByte(' ')
	if e.Level != logrus.InfoLevel {
		b.WriteString(e.Level.String())
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// openLog returns the logger cfg asks for: off (nil) unless Log is set,
// then appending to LogFile. Never stdout: it belongs to UCI.
func openLog(cfg *config.Config) (*logrus.Logger, io.Closer, error) {
	if !cfg.Log {
		return nil, nil, nil
	}
	f, err := os.OpenFile(cfg.LogFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("log file: %w", err)
	}
	l := logrus.New()
	l.SetOutput(f)
	l.SetFormatter(lineFormatter{})
	l.SetLevel(logrus.InfoLevel)
	return l, f, nil
}

// logger is the proxy's log: off (the zero value) unless Log is set.
type logger struct {
	l    *logrus.Logger
	on   bool      // callers on hot paths test it first, so nothing is formatted
	file io.Closer // the file we opened for it, if any
}

// printf logs a decision or event; a no-op when logging is off.
func (l *logger) printf(format string, args ...any) {
	if l.on {
		l.l.Infof(format, args...)
	}
}

// traffic logs one protocol line with its direction; only when on.
func (l *logger) traffic(dir, line string) {
	l.l.Info(dir + " " + line)
}

// close closes the file we opened, if any.
func (l *logger) close() {
	if l.file != nil {
		l.file.Close()
		l.file = nil
	}
}

// applyLogConfig (re)opens the log after a change of Log or LogFile.
func (c *Core) applyLogConfig() {
	c.log.close()
	c.log = logger{}
	l, closer, err := openLog(c.settings)
	if err != nil {
		c.notify("%v: logging off", err)
		return
	}
	if l != nil {
		c.log = logger{l: l, on: true, file: closer}
		c.log.printf("%s: log started %s", version.Get(), time.Now().Format(time.RFC3339)) // the version, as PolyGlot starts its log
	}
}

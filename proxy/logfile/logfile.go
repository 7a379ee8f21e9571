// Package logfile is the proxy's log, written as PolyGlot writes its own:
// one line per event, "15:04:05.000 message", appended to the LogFile;
// the protocol lines with their direction, and every decision with its
// reason. It is off unless the configuration's Log is set, and then costs
// a test of On on the hot paths. Never stdout: that belongs to the GUI.
package logfile

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

// Log is the proxy's log: off (the zero value) unless opened.
type Log struct {
	l    *logrus.Logger
	on   bool
	file io.Closer // the file Open opened, if any
}

// With is a log written to l, which its caller opened and closes (nil:
// off); only its level says whether it is on.
func With(l *logrus.Logger) Log {
	return Log{l: l, on: l != nil && l.IsLevelEnabled(logrus.InfoLevel)}
}

// Open is the log cfg asks for: off unless Log is set, then appending to
// LogFile, starting with the version, as PolyGlot starts its log.
func Open(cfg *config.Config) (Log, error) {
	if !cfg.Log {
		return Log{}, nil
	}
	f, err := os.OpenFile(cfg.LogFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return Log{}, fmt.Errorf("log file: %w", err)
	}
	l := logrus.New()
	l.SetOutput(f)
	l.SetFormatter(lineFormatter{})
	l.SetLevel(logrus.InfoLevel)
	lg := Log{l: l, on: true, file: f}
	lg.Printf("%s: log started %s", version.Get(), time.Now().Format(time.RFC3339))
	return lg, nil
}

// On reports whether the log is written: callers on hot paths test it
// before they make what they would log.
func (l *Log) On() bool { return l.on }

// Printf logs a decision or an event; nothing when the log is off.
func (l *Log) Printf(format string, args ...any) {
	if l.on {
		l.l.Infof(format, args...)
	}
}

// Traffic logs one protocol line with its direction (">engine", "gui>",
// ...); only called when On.
func (l *Log) Traffic(dir, line string) {
	l.l.Info(dir + " " + line)
}

// File is what the log writes to when Open opened it (nil: none), to
// tell one opening from another.
func (l *Log) File() io.Closer { return l.file }

// Close closes the file Open opened, if any; the log is then off.
func (l *Log) Close() {
	if l.file != nil {
		l.file.Close()
	}
	*l = Log{}
}

// lineFormatter writes "15:04:05.000 message", with the level only when
// it is not plain info.
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

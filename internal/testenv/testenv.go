// Package testenv is what polyproxy's tests share about the machine they
// run on: the real programs and books they use (Stockfish, PolyGlot, the
// gnuchess book, all Debian packages that scripts/setup.sh installs), and
// the rule that a test skipped for a missing prerequisite fails instead
// when CI is set, so CI can never pass by skipping.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// Paths of the Debian packages the tests use.
const (
	StockfishPath    = "/usr/games/stockfish"
	PolyGlotPath     = "/usr/games/polyglot"
	GnuchessBookPath = "/usr/share/games/gnuchess/book.bin"
	XboardPath       = "/usr/games/xboard"
	XvfbRunPath      = "/usr/bin/xvfb-run"
	ChromiumPath     = "/usr/bin/chromium"
)

// Skip skips the test for a missing prerequisite, or fails it when the
// CI environment variable is set.
func Skip(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI: "+format, args...)
	}
	t.Skipf(format, args...)
}

// need returns path if it exists, else skips (or fails under CI) with the
// package that provides it.
func need(t testing.TB, path, pkg string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		Skip(t, "%s missing (apt-get install %s, or scripts/setup.sh): %v", path, pkg, err)
	}
	return path
}

// Stockfish is the path of the real Stockfish engine.
func Stockfish(t testing.TB) string { return need(t, StockfishPath, "stockfish") }

// PolyGlot is the path of PolyGlot 2.0.4, the program polyproxy replaces.
func PolyGlot(t testing.TB) string { return need(t, PolyGlotPath, "polyglot") }

// GnuchessBook is the path of the gnuchess book (180,358 entries), a real
// Polyglot book. Never write to it: copy it first.
func GnuchessBook(t testing.TB) string { return need(t, GnuchessBookPath, "gnuchess-book") }

// Xboard is the path of XBoard, the CECP GUI, and XvfbRun that of
// xvfb-run, which gives it a display of its own.
func Xboard(t testing.TB) string  { return need(t, XboardPath, "xboard") }
func XvfbRun(t testing.TB) string { return need(t, XvfbRunPath, "xvfb") }

// Chromium is the path of Debian's Chromium, the browser the explore page
// is tested in (headless).
func Chromium(t testing.TB) string { return need(t, ChromiumPath, "chromium") }

// Program returns the path of a program found on PATH, or skips (fails
// under CI).
func Program(t testing.TB, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Skip(t, "%s not found (apt-get install %s, or scripts/setup.sh): %v", name, pkg, err)
	}
	return p
}

// Symlink makes link a symbolic link to target, or skips (fails under CI)
// where the system refuses (Windows without the right to make links).
func Symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		Skip(t, "cannot make a symbolic link here: %v", err)
	}
}

package ucitest

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"time"
)

// Main is the fake engine as a program: args are its flags (-h lists
// them), and each flag's default comes from an environment variable
// (FAKEENGINE_ and the flag's name in capitals, - as _), so a test can
// steer an engine that a proxy starts, and restarts, through the
// environment. It returns the exit status.
//
// Two flags act only in a process: -log FILE appends every line received
// to FILE, and -child-pid FILE starts a sleeping child process and writes
// its pid to FILE (for tests of process groups).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if os.Getenv("FAKEENGINE_SLEEPER") == "1" {
		time.Sleep(time.Hour) // the child of -child-pid
		return ExitOK
	}
	var s Settings
	var options, echo bool
	var logFile, childPID string
	var startMs, readyMs, searchMs int
	fs := flag.NewFlagSet("fakeengine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	str := func(p *string, name, usage string) { fs.StringVar(p, name, env(name, ""), usage) }
	num := func(p *int, name, usage string) { fs.IntVar(p, name, envInt(name), usage) }
	boolean := func(p *bool, name string, def bool, usage string) { fs.BoolVar(p, name, envBool(name, def), usage) }
	str(&s.Name, "name", "id name (default "+DefaultName+")")
	str(&s.Author, "author", "id author (default "+DefaultAuthor+")")
	boolean(&options, "options", true, "announce the default options (false: none)")
	str(&s.BestMove, "bestmove", "play this move in every search (default: follow the game, play the legal move that sorts first)")
	boolean(&s.Ponder, "ponder", false, "name the reply that sorts first as the bestmove's ponder move (a followed game only)")
	num(&s.Score, "score", "score (cp) of the info line before each bestmove")
	boolean(&s.NoInfo, "no-info", false, "no info line before bestmove")
	num(&startMs, "start-ms", "wait this many ms before answering uci")
	num(&readyMs, "ready-ms", "wait this many ms before answering isready")
	num(&searchMs, "search-ms", "each timed go searches this many ms (setoption name SearchMs too)")
	num(&s.Flood, "flood", "info lines at the start of each search (setoption name Flood too)")
	boolean(&s.FloodBuffered, "flood-buffered", false, "write a flood in 64 KB chunks (default: a write per line)")
	boolean(&s.Odd, "odd", false, `before each bestmove print "info string 100% sure %d %s", an empty line and a line of blanks`)
	boolean(&s.Mute, "mute", false, "never answer uci")
	boolean(&s.IgnoreStop, "ignore-stop", false, "a hung search: stop does not end it")
	boolean(&s.IgnorePonderHit, "ignore-ponderhit", false, "keep pondering after ponderhit")
	boolean(&s.IgnoreQuit, "ignore-quit", false, "ignore quit (stay until killed or the input ends)")
	str(&s.ExitOn, "exit-on", "exit 0 without answering a line whose first word is this")
	num(&s.CrashOnGo, "crash-on-go", "exit 3 without a word on the Nth go (setoption name CrashOnGo too; setoption name Crash: at once)")
	str(&s.CrashIn, "crash-in", "exit 3 without a word on a go in a position whose line contains this text")
	str(&s.CrashOnce, "crash-once", "crash only if this file does not exist, creating it")
	str(&logFile, "log", "append every line received to this file")
	boolean(&echo, "stderr", false, `echo every line received to stderr as "fakeengine: got LINE"`)
	str(&childPID, "child-pid", "start a sleeping child process and write its pid to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if !options {
		s.Options = []string{}
	}
	s.StartDelay = time.Duration(startMs) * time.Millisecond
	s.ReadyDelay = time.Duration(readyMs) * time.Millisecond
	s.SearchTime = time.Duration(searchMs) * time.Millisecond
	if echo {
		s.Echo = stderr
	}
	if logFile != "" {
		f, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(stderr, "fakeengine:", err)
			return 2
		}
		defer f.Close()
		s.Log = f
	}
	if childPID != "" {
		startChild(childPID, stderr)
	}
	return Serve(context.Background(), stdin, stdout, s)
}

// envName is the environment variable that gives flag name its default.
func envName(name string) string {
	b := []byte("FAKEENGINE_" + name)
	for i, c := range b {
		switch {
		case c == '-':
			b[i] = '_'
		case 'a' <= c && c <= 'z':
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func env(name, def string) string {
	if v, ok := os.LookupEnv(envName(name)); ok {
		return v
	}
	return def
}

func envInt(name string) int {
	n, _ := strconv.Atoi(env(name, "0"))
	return n
}

func envBool(name string, def bool) bool {
	b, err := strconv.ParseBool(env(name, strconv.FormatBool(def)))
	if err != nil {
		return def
	}
	return b
}

// startChild starts this program again as a sleeper (FAKEENGINE_SLEEPER)
// and writes its pid to pidFile.
func startChild(pidFile string, stderr io.Writer) {
	self, err := os.Executable()
	if err == nil {
		cmd := exec.Command(self, os.Args[1:]...)
		cmd.Env = append(os.Environ(), "FAKEENGINE_SLEEPER=1")
		if err = cmd.Start(); err == nil {
			err = os.WriteFile(pidFile, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "fakeengine: child:", err)
	}
}

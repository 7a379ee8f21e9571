package learn

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/polyproxy/polyproxy/internal/filelock"
	"github.com/polyproxy/polyproxy/internal/paths"
)

// claimFile records which games of one host PGN file the proxies learning
// from it have counted, and for which side: every proxy of a tournament
// (cutechess-cli -concurrency, each learning into the same book or its
// own) reads and writes the same claims, under the file's lock, so that
// two games nothing seen by the proxies tells apart are counted once each
// rather than one twice. It lives in the system's temporary folder, named
// after where the PGN file is (every proxy finds the same one whatever its
// working folder), not beside the host's file.
type claimFile struct{ path string }

// claimsFor is the claims, kept in the folder dir, of the host PGN file
// at pgnPath.
func claimsFor(dir, pgnPath string) claimFile {
	sum := fnv.New64a()
	sum.Write([]byte(paths.Place(pgnPath)))
	return claimFile{filepath.Join(dir, fmt.Sprintf("%016x", sum.Sum64()))}
}

// claimsDir is where claims are kept: the same folder for every proxy of
// the user's.
func claimsDir() string { return filepath.Join(os.TempDir(), "polyproxy-claims") }

// A claim names a game by where it starts and its text's hash, which stay
// the same when a host writes the whole file again, and is timed: a claim
// made before a game started can only be of an older game (a file written
// anew from the start may hold the same text at the same place).
type claim struct {
	at     time.Time
	offset int64
	hash   uint64
	white  bool
}

// claimSlack allows for the system clock being set back a little between
// two proxies' readings of it.
const claimSlack = time.Second

// claimKeep is how long claims are kept once the file grows past
// claimFileMax: far longer than any game waits to be found.
const (
	claimKeep    = 7 * 24 * time.Hour
	claimFileMax = 1 << 20
)

// take locks the claims, and asks choose which of the games is to be
// claimed for the sides given, telling it which are claimed already for
// one of them (by claims made since since); the game it returns (nil:
// none) is claimed, at now, before the lock is released.
func (c claimFile) take(now, since time.Time, white, black bool, choose func(claimed func(*hostGame) bool) *hostGame) (*hostGame, error) {
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(c.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := filelock.Lock(f, true); err != nil {
		return nil, err
	}
	defer filelock.Unlock(f)
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	data := make([]byte, st.Size())
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, err
	}
	all := parseClaims(data)
	type name struct {
		offset int64
		hash   uint64
		white  bool
	}
	taken := map[name]bool{}
	for _, cl := range all {
		if !cl.at.Before(since.Add(-claimSlack)) {
			taken[name{cl.offset, cl.hash, cl.white}] = true
		}
	}
	g := choose(func(g *hostGame) bool {
		return white && taken[name{g.offset, g.hash, true}] || black && taken[name{g.offset, g.hash, false}]
	})
	if g == nil {
		return nil, nil
	}
	var out bytes.Buffer
	if st.Size() > claimFileMax {
		// Written anew with the recent claims only.
		for _, cl := range all {
			if now.Sub(cl.at) < claimKeep {
				writeClaim(&out, cl)
			}
		}
		if err := f.Truncate(0); err != nil {
			return nil, err
		}
	}
	for _, w := range []bool{true, false} {
		if w && white || !w && black {
			writeClaim(&out, claim{now, g.offset, g.hash, w})
		}
	}
	if _, err := f.Write(out.Bytes()); err != nil {
		return nil, err
	}
	return g, nil
}

// A claim is a line: the time (Unix nanoseconds), the game's offset and
// hash, and the side, w or b.
func writeClaim(out *bytes.Buffer, cl claim) {
	side := "b"
	if cl.white {
		side = "w"
	}
	fmt.Fprintf(out, "%d %d %016x %s\n", cl.at.UnixNano(), cl.offset, cl.hash, side)
}

// parseClaims reads claim lines; any other line is left out (a line cut
// by a crash, say).
func parseClaims(data []byte) []claim {
	var out []claim
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		f := bytes.Fields(line)
		if len(f) != 4 || len(f[3]) != 1 || f[3][0] != 'w' && f[3][0] != 'b' {
			continue
		}
		at, err1 := strconv.ParseInt(string(f[0]), 10, 64)
		off, err2 := strconv.ParseInt(string(f[1]), 10, 64)
		hash, err3 := strconv.ParseUint(string(f[2]), 16, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		out = append(out, claim{time.Unix(0, at), off, hash, f[3][0] == 'w'})
	}
	return out
}

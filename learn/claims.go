package learn

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
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
//
// Each proxy keeps what it read of the file and reads only the claims
// added since, so a claim costs the same however many were made before.
type claimFile struct {
	path string
	// head is the file's first line as last read: a file written anew
	// (compacted) has a new one, and is read again from its start.
	head []byte
	// readTo is where the claims read end (after a whole line).
	readTo int64
	// claimed is the claims read, by game, made since since: the others
	// are of games older than any game looked for.
	claimed map[readGame]claimTimes
	since   time.Time
}

// claimTimes is when a game was last claimed for each side (zero: never).
type claimTimes struct{ white, black time.Time }

// claimsFor is the claims, kept in the folder dir, of the host PGN file
// at pgnPath, for games that started at started or after.
func claimsFor(dir, pgnPath string, started time.Time) *claimFile {
	sum := fnv.New64a()
	sum.Write([]byte(paths.Place(pgnPath)))
	return &claimFile{path: filepath.Join(dir, fmt.Sprintf("%016x", sum.Sum64())), claimed: map[readGame]claimTimes{}, since: started.Add(-claimSlack)}
}

// claimsDir is where claims are kept: the same folder for every proxy of
// the user's.
func claimsDir() string { return filepath.Join(os.TempDir(), "polyproxy-claims") }

// A claim names a game by where it starts and its text's hash, which stay
// the same when a host writes the whole file again, and is timed: a claim
// made before a game started can only be of an older game (a file written
// anew from the start may hold the same text at the same place).
type claim struct {
	at    time.Time
	game  readGame
	white bool
}

// claimSlack allows for the system clock being set back a little between
// two proxies' readings of it.
const claimSlack = time.Second

// claimKeep is how long claims are kept when the file is written anew,
// far longer than any game waits to be found; the file is written anew
// once it has grown past claimFileMax and twice what it held after it was
// last written anew (its first line says), so that doing so costs each
// claim a share that does not grow.
const (
	claimKeep    = 7 * 24 * time.Hour
	claimFileMax = 1 << 20
)

// claimHead starts the first line of a claims file: a name for the file
// as written anew (what each proxy read of it holds while it stays), and
// its size then.
const claimHead = "# polyproxy claims "

// claimedBy tells which games are claimed for a side, by claims made
// since a time.
type claimedBy func(g *hostGame, white bool) bool

// take locks the claims, and asks choose which of the games is to be
// claimed for the sides given, telling it which are claimed already for
// one of them (by claims made since since); the game it returns (nil:
// none) is claimed, at now, before the lock is released.
func (c *claimFile) take(now, since time.Time, white, black bool, choose func(claimed claimedBy) *hostGame) (*hostGame, error) {
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(c.path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := filelock.Lock(context.Background(), f, true); err != nil {
		return nil, err
	}
	defer filelock.Unlock(f)
	size, err := c.readNew(f, now)
	if err != nil {
		return nil, err
	}
	from := since.Add(-claimSlack)
	g := choose(func(g *hostGame, white bool) bool {
		t := c.claimed[readGame{g.offset, g.hash}]
		if white {
			return !t.white.IsZero() && !t.white.Before(from)
		}
		return !t.black.IsZero() && !t.black.Before(from)
	})
	if g == nil {
		return nil, nil
	}
	var out bytes.Buffer
	if c.readTo < size {
		out.WriteByte('\n') // after a line cut by a crash: it stays one line, left out
	}
	for _, w := range []bool{true, false} {
		if w && white || !w && black {
			cl := claim{now, readGame{g.offset, g.hash}, w}
			writeClaim(&out, cl)
			c.note(cl)
		}
	}
	if _, err := f.WriteAt(out.Bytes(), size); err != nil {
		return nil, err
	}
	c.readTo = size + int64(out.Len())
	return g, nil
}

// readNew reads the claims added since the last look at the file f,
// locked (all of them when it was written anew), and writes the file anew
// when it has grown too much; it returns the file's size.
func (c *claimFile) readNew(f *os.File, now time.Time) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := st.Size()
	if size == 0 {
		size, err = c.writeAnew(f, now, nil)
		if err != nil {
			return 0, err
		}
	}
	var head [128]byte
	n, err := f.ReadAt(head[:], 0)
	if err != nil && err != io.EOF {
		return 0, err
	}
	first := head[:n]
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i+1]
	}
	if !bytes.Equal(first, c.head) || size < c.readTo {
		c.head, c.readTo = append(c.head[:0], first...), 0
		clear(c.claimed)
	}
	data := make([]byte, size-c.readTo)
	if _, err := f.ReadAt(data, c.readTo); err != nil && err != io.EOF {
		return 0, err
	}
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		data = data[:i+1] // a line cut by a crash is left for a writer after it
	} else {
		data = data[:0]
	}
	for _, cl := range parseClaims(data) {
		c.note(cl)
	}
	c.readTo += int64(len(data))
	if size > claimFileMax && size > 2*headSize(c.head) {
		return c.compact(f, now)
	}
	return size, nil
}

// note takes in a claim read or made.
func (c *claimFile) note(cl claim) {
	if cl.at.Before(c.since) {
		return
	}
	t := c.claimed[cl.game]
	if cl.white && cl.at.After(t.white) {
		t.white = cl.at
	} else if !cl.white && cl.at.After(t.black) {
		t.black = cl.at
	}
	c.claimed[cl.game] = t
}

// forgetBefore drops the claims made before t, and takes none made before
// it from now on: no game the proxy still looks for with these claims
// started before t. A game that did is given claims of its own
// (pgnLearning.claimsOf). So a proxy holds the claims of the games of the
// last minutes, not of every game of the tournament.
func (c *claimFile) forgetBefore(t time.Time) {
	if !t.After(c.since) {
		return
	}
	c.since = t
	for g, ct := range c.claimed {
		if ct.white.Before(t) && ct.black.Before(t) {
			delete(c.claimed, g)
		}
	}
}

// compact writes the file anew with the claims of the last claimKeep.
func (c *claimFile) compact(f *os.File, now time.Time) (int64, error) {
	data := make([]byte, c.readTo)
	if _, err := f.ReadAt(data, 0); err != nil && err != io.EOF {
		return 0, err
	}
	var keep []claim
	for _, cl := range parseClaims(data) {
		if now.Sub(cl.at) < claimKeep {
			keep = append(keep, cl)
		}
	}
	size, err := c.writeAnew(f, now, keep)
	if err != nil {
		return 0, err
	}
	return size, nil
}

// writeAnew writes the file f with a first line of its own and claims,
// and takes them as read; it returns the size.
func (c *claimFile) writeAnew(f *os.File, now time.Time, claims []claim) (int64, error) {
	var body bytes.Buffer
	for _, cl := range claims {
		writeClaim(&body, cl)
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s%d.%d %d\n", claimHead, now.UnixNano(), os.Getpid(), body.Len())
	head := out.Len()
	out.Write(body.Bytes())
	if err := f.Truncate(0); err != nil {
		return 0, err
	}
	if _, err := f.WriteAt(out.Bytes(), 0); err != nil {
		return 0, err
	}
	c.head, c.readTo = append(c.head[:0], out.Bytes()[:head]...), int64(out.Len())
	clear(c.claimed)
	for _, cl := range claims {
		c.note(cl)
	}
	return int64(out.Len()), nil
}

// headSize is the size of the claims the file held when it was last
// written anew, as its first line says (0: not said).
func headSize(head []byte) int64 {
	f := bytes.Fields(bytes.TrimPrefix(head, []byte(claimHead)))
	if !bytes.HasPrefix(head, []byte(claimHead)) || len(f) != 2 {
		return 0
	}
	n, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return n
}

// A claim is a line: the time (Unix nanoseconds), the game's offset and
// hash, and the side, w or b.
func writeClaim(out *bytes.Buffer, cl claim) {
	side := "b"
	if cl.white {
		side = "w"
	}
	fmt.Fprintf(out, "%d %d %016x %s\n", cl.at.UnixNano(), cl.game.offset, cl.game.hash, side)
}

// parseClaims reads claim lines; any other line is left out (the first
// line, a line cut by a crash).
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
		out = append(out, claim{time.Unix(0, at), readGame{off, hash}, f[3][0] == 'w'})
	}
	return out
}

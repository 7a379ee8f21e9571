package build

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/polyproxy/polyproxy/book/board"
)

// How a build counts. Each counted ply is appended to a batch as a packed
// record (key, then its number in the stream, move, side and points): a
// sequential write, where a hash table would take a cache miss or two per
// ply once the distinct (position, move) pairs outgrow the cache, which on
// a real database they do at once. A full batch is sorted by key (a stable
// radix sort, so a key's records stay in stream order) and merged into the
// aggregate: every distinct (position, move) with PolyGlot's counts, halved
// as PolyGlot halves them, and the full totals, sorted by key, a key's
// moves in order of first appearance. Replaying each key's records in
// stream order on top of what the aggregate holds is exactly what
// PolyGlot's hash table does, since halving a key depends only on that
// key's plies: the book is the same bytes.
//
// With Options.Memory, when the aggregate would outgrow its share, it is
// written as a counts file (its totals: a sorted run) to a temporary
// folder and counting starts afresh; at the end the runs and what is left
// are added up as SumCounts adds counts files, streaming, and the book is
// FromCounts's: what the counts recipe (make-book -counts on parts of the
// games, then -from-counts) makes of the same games.

// record is one counted ply; meta is seq<<19 | move<<3 | white<<2 | points.
type record struct {
	key  board.Key
	meta uint64
}

func (r record) move() board.Move { return board.Move(uint16(r.meta >> 3)) }
func (r record) white() bool      { return r.meta>>2&1 == 1 }
func (r record) points() uint64   { return r.meta & 3 }

// aggEntry is one (position, move) of the aggregate: 32 bytes.
type aggEntry struct {
	key           board.Key
	games, points uint64 // totals, never halved
	move          board.Move
	n, sum        uint16 // PolyGlot's counts: halved at countMax
	white         bool
}

// Memory shares. reserveMemory is what a build needs besides its counts:
// the pieces in flight, the goroutines, the output's and the runs' buffers,
// the runtime. Of the rest a quarter goes to the batch being filled, the
// one being merged and the sort's scratch (48 bytes a record), the others
// to the aggregate (32 bytes an entry), which is merged in place.
const (
	reserveMemory = 40 << 20
	minCountMem   = 8 << 20
	// unboundedBatch is the largest batch of a build without
	// Options.Memory, minBatch the smallest batch that is merged.
	unboundedBatch = 16 << 20
	minBatch       = 64 << 10
	recordBytes    = 3 * 16
	aggBytes       = 32
)

// MinMemory is the smallest Options.Memory a build accepts.
const MinMemory = reserveMemory + minCountMem

// counter holds a build's counts. With more than one thread a full batch
// is sorted and merged on a goroutine of its own while the next one
// fills: the merges (a tenth of a second each on a large aggregate) no
// longer hold up the readers, which waited for them with their pieces
// done. The merge owns scratch, agg, buf and the temporary runs until
// wait collects it.
type counter struct {
	opt          *Options
	seq          uint64
	batch        []record
	sorted       bool     // the batch is sorted (finish may come twice)
	full         []record // the batch the running merge counts, or the last one
	merging      chan error
	scratch      []record
	batchCap     int
	batchLimit   int        // the batch is merged at this length
	batchReserve int        // the batches' and scratch's reservation (bigSlice)
	agg          []aggEntry // buf[aggStart:aggStart+len(agg)]
	buf          []aggEntry // the aggregate's buffer, its length all of its reservation
	aggStart     int
	aggLen       int // len(agg) when the last merge was collected, for Stats
	group        []aggEntry
	mem          *mappings
	aggCap       int // entries the aggregate's buffer may hold
	merged       int // distinct pairs of the last finish (for Stats)
	finished     bool
	halved       int

	temp tempRuns
}

// mappings are the system memory behind a counter's batches, scratch and
// aggregate (bigSlice), apart from the counter so that a cleanup can
// release them once the build is garbage. A mapping costs memory only
// where it was written: bufTouched is how many of buf's entries have
// been, what counts against the bound.
type mappings struct {
	batch, full, scratch, buf []byte
	bufTouched                int
}

func (m *mappings) free() {
	for _, mem := range []*[]byte{&m.batch, &m.full, &m.scratch, &m.buf} {
		freeBig(*mem)
		*mem = nil
	}
	m.bufTouched = 0
}

func (c *counter) init(opt *Options) {
	c.opt = opt
	c.mem = &mappings{}
	c.temp.dir = opt.TempDir
	if opt.Memory <= 0 {
		c.batchCap, c.aggCap = unboundedBatch, int(^uint(0)>>1)
	} else {
		avail := max(opt.Memory-reserveMemory, minCountMem)
		c.batchCap = int(avail / 4 / recordBytes)
		c.aggCap = int((avail - int64(c.batchCap)*recordBytes) / aggBytes)
	}
	c.batchReserve = c.batchCap
	c.setBatchLimit()
}

// setBatchLimit sizes the next batch by the aggregate: merging costs the
// aggregate's size, so a batch half as big keeps that cost below the
// sort's, and few positions (an opening suite's games) keep both small.
func (c *counter) setBatchLimit() {
	c.batchLimit = min(max(len(c.agg)/2, minBatch), c.batchCap)
}

func (c *counter) spilled() bool { return len(c.temp.runs) > 0 }

func (c *counter) positions() int {
	if runs, _ := c.runInfo(); runs > 0 || c.finished {
		return c.merged
	}
	return c.aggLen
}

func (c *counter) runInfo() (int, int64) {
	c.temp.mu.Lock()
	defer c.temp.mu.Unlock()
	return len(c.temp.runs), c.temp.bytes
}

// add appends a game's plies (or a piece's) to the batch.
func (c *counter) add(plies []ply) error {
	for _, p := range plies {
		if len(c.batch) >= c.batchLimit {
			if err := c.flush(); err != nil {
				return err
			}
		}
		if len(c.batch) == cap(c.batch) {
			grown, mem := bigSlice[record](min(max(2*cap(c.batch), 1<<14), c.batchLimit), c.batchReserve)
			grown = append(grown, c.batch...)
			freeBig(c.mem.batch)
			c.batch, c.mem.batch = grown, mem
		}
		w := uint64(0)
		if p.white {
			w = 1
		}
		c.batch = append(c.batch, record{p.key, c.seq<<19 | uint64(p.move)<<3 | w<<2 | uint64(p.points)})
		c.seq++
	}
	c.sorted, c.finished = false, false
	return nil
}

// flush hands the batch to a merge, on a goroutine of its own with more
// than one thread, once the one before it is done; an error of either
// comes back here or from the next wait.
func (c *counter) flush() error {
	if err := c.wait(); err != nil {
		return err
	}
	if len(c.batch) == 0 {
		return nil
	}
	c.setBatchLimit()
	c.batch, c.full = c.full[:0], c.batch
	c.mem.batch, c.mem.full = c.mem.full, c.mem.batch
	c.sorted = false
	if c.opt.Threads <= 1 {
		err := c.merge(c.full)
		c.aggLen = len(c.agg)
		return err
	}
	c.merging = make(chan error, 1)
	go func(full []record) { c.merging <- c.merge(full) }(c.full)
	return nil
}

// wait collects the running merge, if any.
func (c *counter) wait() error {
	if c.merging == nil {
		return nil
	}
	err := <-c.merging
	c.merging = nil
	c.aggLen = len(c.agg)
	return err
}

// merge sorts a batch and merges it into the aggregate, in place, first
// writing the aggregate to a run if the merged one might not fit.
//
// The aggregate grows into its buffer's free room from one end or the
// other: merging from the back, the merged entries end at the end of the
// room, each written after the entries it may overwrite were read; when
// the room before the aggregate can hold every new pair, the next merge
// writes from the front. One buffer instead of an old and a new one halves
// the memory the aggregate touches, each page of which the system must
// clear once (a fifth of a build's time on a virtual machine).
func (c *counter) merge(batch []record) error {
	c.sortRecords(batch)
	fresh := distinctPairs(batch) // at most this many new pairs
	if c.aggStart < fresh && c.aggStart+len(c.agg)+fresh > c.aggCap && len(c.agg) > 0 {
		if err := c.spill(); err != nil {
			return err
		}
		c.agg, c.aggStart = c.buf[:0], 0
	}
	if c.aggStart >= fresh {
		c.agg = mergeForward(c.buf, c.aggStart, len(c.agg), batch)
		c.aggStart = 0
		return nil
	}
	end := max(c.mem.bufTouched, c.aggStart+len(c.agg)+fresh)
	if end > len(c.buf) {
		// Beyond the reservation: a new buffer (the first merge; without
		// Options.Memory, one that needs four times its predecessor's).
		reserve := c.aggCap
		if c.opt.Memory <= 0 {
			reserve = 4 * end
		}
		buf, mem := bigSlice[aggEntry](end, reserve)
		buf = buf[:cap(buf)]
		copy(buf, c.agg)
		freeBig(c.mem.buf)
		c.buf, c.mem.buf = buf, mem
		c.agg, c.aggStart = buf[:len(c.agg)], 0
		end = len(c.agg) + fresh
	}
	c.mem.bufTouched = end
	c.agg, c.group = mergeBackward(c.buf, c.aggStart, len(c.agg), end, batch, c.group)
	c.aggStart = end - len(c.agg)
	return nil
}

// sortBatch sorts the batch by key, once (finish, with no merge running).
func (c *counter) sortBatch() {
	if !c.sorted {
		c.sortRecords(c.batch)
		c.sorted = true
	}
}

// sortRecords sorts a batch by key with the counter's scratch.
func (c *counter) sortRecords(batch []record) {
	if cap(c.scratch) < len(batch) {
		freeBig(c.mem.scratch)
		c.scratch, c.mem.scratch = nil, nil
		c.scratch, c.mem.scratch = bigSlice[record](len(batch), c.batchReserve)
	}
	sortRecords(batch, c.scratch[:len(batch)], max(c.opt.Threads, 1))
}

// distinctPairs counts the distinct (key, move) pairs of a sorted batch.
func distinctPairs(batch []record) int {
	n := 0
	var moves []board.Move
	for i := 0; i < len(batch); {
		k := batch[i].key
		moves = moves[:0]
		for ; i < len(batch) && batch[i].key == k; i++ {
			if m := batch[i].move(); !containsMove(moves, m) {
				moves = append(moves, m)
			}
		}
		n += len(moves)
	}
	return n
}

func containsMove(moves []board.Move, m board.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}

// mergeForward merges a sorted batch into the aggregate buf[from:from+n]
// and returns the merged one, which starts at buf[0]: a key's new records
// are counted in stream order on top of what the aggregate holds for it,
// as PolyGlot counts them, halving included. from must be at least the
// number of new pairs, so that no entry is written before it is read.
func mergeForward(buf []aggEntry, from, n int, batch []record) []aggEntry {
	agg, out := buf[from:from+n], buf[:0]
	i := 0
	for j := 0; j < len(batch); {
		k := batch[j].key
		lo := i
		for i < len(agg) && agg[i].key < k {
			i++
		}
		out = append(out, agg[lo:i]...)
		start := len(out)
		for ; i < len(agg) && agg[i].key == k; i++ {
			out = append(out, agg[i])
		}
		out, j = countKey(out, start, batch, j)
	}
	return append(out, agg[i:]...)
}

// mergeBackward is mergeForward from the last key down: the merged
// aggregate ends at buf[end], which must leave room after start+n for every
// new pair. group is scratch for one position's moves, returned for reuse.
func mergeBackward(buf []aggEntry, start, n, end int, batch []record, group []aggEntry) ([]aggEntry, []aggEntry) {
	i, w := start+n, end // unread entries end at i; the merged ones start at w
	for j := len(batch); j > 0; {
		k := batch[j-1].key
		lo := i
		for lo > start && buf[lo-1].key > k {
			lo--
		}
		w -= i - lo
		copy(buf[w:], buf[lo:i])
		i = lo
		for lo > start && buf[lo-1].key == k {
			lo--
		}
		jlo := j - 1
		for jlo > 0 && batch[jlo-1].key == k {
			jlo--
		}
		group = append(group[:0], buf[lo:i]...)
		group, _ = countKey(group, 0, batch, jlo)
		w -= len(group)
		copy(buf[w:], group)
		i, j = lo, jlo
	}
	w -= i - start
	copy(buf[w:], buf[start:i])
	return buf[w:end], group
}

// mergeGroups is mergeForward calling fn with each position's merged moves
// in key order instead of keeping them (valid during the call): the last
// merge of a build, which needs no room for a merged aggregate.
func mergeGroups(agg []aggEntry, batch []record, fn func([]aggEntry) error) error {
	var group []aggEntry
	i := 0
	next := func(limit board.Key, all bool) error {
		for i < len(agg) && (all || agg[i].key < limit) {
			lo := i
			for i < len(agg) && agg[i].key == agg[lo].key {
				i++
			}
			if err := fn(agg[lo:i]); err != nil {
				return err
			}
		}
		return nil
	}
	for j := 0; j < len(batch); {
		k := batch[j].key
		if err := next(k, false); err != nil {
			return err
		}
		group = group[:0]
		for ; i < len(agg) && agg[i].key == k; i++ {
			group = append(group, agg[i])
		}
		group, j = countKey(group, 0, batch, j)
		if err := fn(group); err != nil {
			return err
		}
	}
	return next(0, true)
}

// countKey counts the records of batch[j]'s key, from j on, into the
// key's moves out[start:] (appending new moves), and returns where the
// next key's records start.
func countKey(out []aggEntry, start int, batch []record, j int) ([]aggEntry, int) {
	k := batch[j].key
	for ; j < len(batch) && batch[j].key == k; j++ {
		r := batch[j]
		m := r.move()
		x := start
		for x < len(out) && out[x].move != m {
			x++
		}
		if x == len(out) {
			out = append(out, aggEntry{key: k, move: m, white: r.white()})
		}
		e := &out[x]
		pts := r.points()
		e.games++
		e.points += pts
		e.n++
		e.sum += uint16(pts)
		if e.n >= countMax {
			for y := start; y < len(out); y++ {
				out[y].n = (out[y].n + 1) / 2
				out[y].sum = (out[y].sum + 1) / 2
			}
		}
	}
	return out, j
}

// batchSource reads a sorted batch as a counts file's groups (totals).
type batchSource struct {
	batch []record
	j     int
	moves []aggEntry
	g     CountGroup
}

func (s *batchSource) Next() (*CountGroup, error) {
	if s.j >= len(s.batch) {
		return nil, io.EOF
	}
	s.g.Key = s.batch[s.j].key
	s.moves, s.j = countKey(s.moves[:0], 0, s.batch, s.j)
	s.g.Moves = s.g.Moves[:0]
	for _, e := range s.moves {
		s.g.Moves = append(s.g.Moves, CountMove{Move: e.move, Games: e.games, Points: e.points, White: e.white})
	}
	return &s.g, nil
}

// sortRecords sorts records by key, stably (a key's records stay in
// stream order), with scratch of the same length; the buckets of the
// first pass are sorted on threads goroutines.
func sortRecords(r, scratch []record, threads int) {
	if len(r) < 1<<16 || threads <= 1 {
		radixSort(r, scratch, 56, true)
		return
	}
	var count [256]int
	for _, x := range r {
		count[x.key>>56]++
	}
	next := starts(&count)
	bounds := next
	for _, x := range r {
		d := x.key >> 56
		scratch[next[d]] = x
		next[d]++
	}
	var bucket atomic.Int32
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				d := int(bucket.Add(1)) - 1
				if d >= 256 {
					return
				}
				lo, hi := bounds[d], bounds[d]+count[d]
				radixSort(scratch[lo:hi], r[lo:hi], 48, false)
			}
		}()
	}
	wg.Wait()
}

// radixSort sorts a by key, stably, from the byte at shift down, with b
// (of a's length) as scratch: the result ends in a if toA, else in b.
func radixSort(a, b []record, shift uint, toA bool) {
	for {
		if len(a) <= 32 {
			insertionSort(a)
			if !toA {
				copy(b, a)
			}
			return
		}
		var count [256]int
		for _, x := range a {
			count[byte(x.key>>shift)]++
		}
		if count[byte(a[0].key>>shift)] < len(a) {
			break
		}
		// One value of this byte (a frequent position's records): on to
		// the next byte without moving anything.
		if shift == 0 {
			if !toA {
				copy(b, a)
			}
			return
		}
		shift -= 8
	}
	var count [256]int
	for _, x := range a {
		count[byte(x.key>>shift)]++
	}
	next := starts(&count)
	bounds := next
	for _, x := range a {
		d := byte(x.key >> shift)
		b[next[d]] = x
		next[d]++
	}
	if shift == 0 {
		if toA {
			copy(a, b)
		}
		return
	}
	for d, n := range count {
		if n > 0 {
			lo := bounds[d]
			radixSort(b[lo:lo+n], a[lo:lo+n], shift-8, !toA)
		}
	}
}

// starts is where each bucket of a radix pass begins: the sums of the
// counts before it.
func starts(count *[256]int) (start [256]int) {
	sum := 0
	for d, n := range count {
		start[d] = sum
		sum += n
	}
	return start
}

// insertionSort sorts a few records by key, stably.
func insertionSort(a []record) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for j > 0 && a[j-1].key > x.key {
			a[j] = a[j-1]
			j--
		}
		a[j] = x
	}
}

// tempRuns are a build's sorted runs: counts files in a folder of their
// own, made in dir (the system's temporary folder if empty) on the first
// spill and removed with everything in it by remove.
type tempRuns struct {
	mu      sync.Mutex
	dir     string // where the folder goes
	folder  string // the build's own folder, once made
	runs    []string
	bytes   int64
	writing *os.File // the run being written, closed by remove
	removed bool
	stopped atomic.Bool // removed, for the build's loops to read without the lock
}

// errRemoved: the build's temporary files were removed (Close, a signal).
var errRemoved = errors.New("make-book stopped: its temporary files were removed")

// prepare makes the build's temporary folder.
func (t *tempRuns) prepare() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.removed {
		return errRemoved
	}
	if t.folder != "" {
		return nil
	}
	dir := t.dir
	if dir == "" {
		dir = os.TempDir()
	}
	folder, err := os.MkdirTemp(dir, "polyproxy-make-book-")
	if err != nil {
		return &TempError{Dir: dir, Err: err}
	}
	t.folder = folder
	return nil
}

// create opens a new run file.
func (t *tempRuns) create() (*os.File, error) {
	if err := t.prepare(); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.removed {
		return nil, errRemoved
	}
	f, err := os.CreateTemp(t.folder, fmt.Sprintf("run%04d-*.counts", len(t.runs)+1))
	if err != nil {
		return nil, &TempError{Dir: t.folder, Written: t.bytes, Err: err}
	}
	t.writing = f
	return f, nil
}

// done records a written run (err nil) or removes a failed one.
func (t *tempRuns) done(f *os.File, size int64, err error) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.writing = nil
	if cerr := f.Close(); err == nil && !t.removed {
		err = cerr
	}
	if t.removed {
		return errRemoved
	}
	if err != nil {
		os.Remove(f.Name())
		return &TempError{Dir: t.folder, Written: t.bytes + size, Err: err}
	}
	t.runs = append(t.runs, f.Name())
	t.bytes += size
	return nil
}

// remove deletes the folder and everything in it; safe from any
// goroutine and more than once.
func (t *tempRuns) remove() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.removed = true
	t.stopped.Store(true)
	if t.writing != nil {
		t.writing.Close()
		t.writing = nil
	}
	if t.folder == "" {
		return nil
	}
	err := os.RemoveAll(t.folder)
	t.folder = ""
	return err
}

// TempError is a failure to write the temporary runs: an unwritable
// folder, a full disk.
type TempError struct {
	Dir     string
	Written int64 // bytes of runs written there when it failed
	Err     error
}

func (e *TempError) Error() string {
	if e.Written == 0 {
		return fmt.Sprintf("temporary files in %s: %v", e.Dir, e.Err)
	}
	return fmt.Sprintf("temporary files in %s: %v (%.0f MB of sorted runs written there by then)", e.Dir, e.Err, float64(e.Written)/(1<<20))
}

func (e *TempError) Unwrap() error { return e.Err }

// countingWriter counts what passes to a run file.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// spill writes the aggregate as a run (its totals, as a counts file) and
// empties it.
func (c *counter) spill() error {
	f, err := c.temp.create()
	if err != nil {
		return err
	}
	cw := &countingWriter{w: f}
	w := NewCountsWriter(cw, CountsHeader{Settings: c.opt.CountSettings()})
	src := aggSource{agg: c.agg}
	for err == nil {
		var g *CountGroup
		if g, err = src.Next(); err == nil {
			err = w.Write(g)
		}
	}
	if err == io.EOF {
		err = w.Close()
	}
	return c.temp.done(f, cw.n, err)
}

// aggSource reads an aggregate as a counts file's groups (totals).
type aggSource struct {
	agg []aggEntry
	i   int
	g   CountGroup
}

func (s *aggSource) Next() (*CountGroup, error) {
	if s.i >= len(s.agg) {
		return nil, io.EOF
	}
	k := s.agg[s.i].key
	s.g.Key, s.g.Moves = k, s.g.Moves[:0]
	for ; s.i < len(s.agg) && s.agg[s.i].key == k; s.i++ {
		e := &s.agg[s.i]
		s.g.Moves = append(s.g.Moves, CountMove{Move: e.move, Games: e.games, Points: e.points, White: e.white})
	}
	return &s.g, nil
}

// finish counts what is left and calls fn with each position in key
// order: its totals and, in moves, the counts the book is made from
// (PolyGlot's if the build never spilled, the totals halved as
// FromCounts halves them if it did). It may be called again.
func (c *counter) finish(fn func(g *CountGroup, moves []aggEntry) error) error {
	if err := c.wait(); err != nil {
		return err
	}
	c.sortBatch()
	if !c.spilled() {
		var g CountGroup
		pairs := 0
		err := mergeGroups(c.agg, c.batch, func(moves []aggEntry) error {
			if c.temp.stopped.Load() {
				return errRemoved
			}
			pairs += len(moves)
			g.Key, g.Moves = moves[0].key, g.Moves[:0]
			for _, e := range moves {
				g.Moves = append(g.Moves, CountMove{Move: e.move, Games: e.games, Points: e.points, White: e.white})
			}
			return fn(&g, moves)
		})
		if err == nil {
			c.merged, c.finished = pairs, true
		}
		return err
	}
	c.temp.mu.Lock()
	runs := append([]string(nil), c.temp.runs...)
	c.temp.mu.Unlock()
	var sources []groupSource
	for _, name := range runs {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r, err := NewCountsReader(f)
		if err != nil {
			return fmt.Errorf("temporary run %s: %w", name, err)
		}
		sources = append(sources, r)
	}
	sources = append(sources, &aggSource{agg: c.agg}, &batchSource{batch: c.batch})
	c.merged, c.halved = 0, 0
	var moves []aggEntry
	return mergeCounts(sources, func(g *CountGroup) error {
		if c.temp.stopped.Load() {
			return errRemoved
		}
		var halved bool
		moves, halved = countsFromTotals(g, moves[:0])
		c.merged += len(g.Moves)
		if halved {
			c.halved++
		}
		return fn(g, moves)
	})
}

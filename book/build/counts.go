package build

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
)

// A counts file holds, for every (position, move) of some games, the full
// number of games and points (never halved, never filtered by -min-game
// and the like), so that files counted from parts of a game collection on
// several machines add up exactly, and a book can be made from the sum.
//
// Layout (version 2); "uvarint" is Go's encoding/binary unsigned varint
// (7 bits a byte, low first), "u64"/"u16"/"u32" big-endian:
//
//	magic     8 bytes "PGCOUNTS"
//	version   uvarint, 2
//	settings  uvarint length + UTF-8 text: what was counted (-max-ply,
//	          game filters); files are added only when equal
//	games     uvarint: games counted
//	variants  uvarint count, then count × { uvarint length + name (as a
//	          @PG@ header names it: "normal", "fischerandom"), uvarint
//	          games }: names ascending, games >= 1, adding up to games
//	groups    one per position, keys strictly ascending:
//	            moves  uvarint, >= 1
//	            key    u64 (the Polyglot key)
//	            moves × { move u16 (book form, castling king-to-rook),
//	                      uvarint games*2 + white (1: White to move),
//	                      uvarint points (2 per win, 1 per draw for the
//	                      mover; at most 2 × games) }
//	          a position's moves in order of first appearance in the games
//	end       uvarint 0, uvarint groups, uvarint records
//	crc       u32: CRC-32 (Castagnoli) of every byte before it
//
// The end and the checksum make a truncated or damaged file an error, not
// a smaller book. A reader refuses a version it does not know.
//
// The variants let a book made from counts carry the @PG@ header a book
// made from the games has. Version 1 has no variants; its games are read
// as standard ones (a book made from them has no header, as before).
const (
	CountsMagic   = "PGCOUNTS" // the first bytes of a counts file
	CountsVersion = 2
	// oldestCountsVersion is the oldest version a reader reads.
	oldestCountsVersion = 1
)

// countsCRC is the checksum a counts file ends with (CRC-32C; the table
// is the hash package's own, made on first use).
func countsCRC() hash.Hash32 { return crc32.New(crc32.MakeTable(crc32.Castagnoli)) }

// CountsHeader is a counts file's header.
type CountsHeader struct {
	Settings string // what was counted: -max-ply and the game filters
	Games    uint64 // games counted
	// Variants are the games counted by variant, names ascending, none
	// with no game: they add up to Games.
	Variants []VariantGames
	// Version is the version a reader read; a writer writes CountsVersion.
	Version int
}

// VariantGames is how many counted games were of a variant, named as a
// @PG@ header names it (polyglot.VariantNormal, polyglot.VariantChess960).
type VariantGames struct {
	Name  string
	Games uint64
}

// Chess960Games is how many of the games of variants were Chess960's.
func Chess960Games(variants []VariantGames) uint64 {
	for _, v := range variants {
		if v.Name == polyglot.VariantChess960 {
			return v.Games
		}
	}
	return 0
}

// variantList turns games by variant name into a header's list: names
// ascending, variants without games left out.
func variantList(games map[string]uint64) []VariantGames {
	var out []VariantGames
	for _, name := range slices.Sorted(maps.Keys(games)) {
		if games[name] > 0 {
			out = append(out, VariantGames{name, games[name]})
		}
	}
	return out
}

// normalFirst orders a header's variant names as make-book and merge
// write them: the standard game first, the others in their order.
func normalFirst(names []string) {
	slices.SortStableFunc(names, func(x, y string) int {
		switch {
		case x == y:
			return 0
		case x == polyglot.VariantNormal:
			return -1
		case y == polyglot.VariantNormal:
			return 1
		}
		return 0
	})
}

// madeBookHeader is the @PG@ header a book made from games starts with:
// the variants of its games, the standard game first; none when all are
// standard, so that such a book stays byte-identical to PolyGlot's, which
// writes no header.
func madeBookHeader(variants []VariantGames) []book.Entry {
	var names []string
	for _, v := range variants {
		names = append(names, v.Name)
	}
	if len(names) == 0 || len(names) == 1 && names[0] == polyglot.VariantNormal {
		return nil
	}
	normalFirst(names)
	return polyglot.HeaderEntriesFor(names, "made by polyproxy make-book")
}

// CountMove is one move of a position in a counts file.
type CountMove struct {
	Move          board.Move
	Games, Points uint64
	White         bool // White to move
}

// CountGroup is a position's moves in a counts file.
type CountGroup struct {
	Key   board.Key
	Moves []CountMove
}

// CountsWriter writes a counts file: the header, then groups by
// ascending key, then Close.
type CountsWriter struct {
	out             io.Writer
	w               *bufio.Writer
	crc             hash.Hash32
	groups, records uint64
	last            board.Key
	buf             []byte
	err             error
}

// NewCountsWriter writes the header to w (in version CountsVersion, what
// version h was read in); a header its reader would refuse is the
// writer's error.
func NewCountsWriter(w io.Writer, h CountsHeader) *CountsWriter {
	cw := &CountsWriter{out: w, crc: countsCRC()}
	cw.w = bufio.NewWriterSize(io.MultiWriter(w, cw.crc), 256<<10)
	if cw.err = checkVariants(h); cw.err != nil {
		return cw
	}
	b := binary.AppendUvarint([]byte(CountsMagic), CountsVersion)
	b = binary.AppendUvarint(b, uint64(len(h.Settings)))
	b = append(b, h.Settings...)
	b = binary.AppendUvarint(b, h.Games)
	b = binary.AppendUvarint(b, uint64(len(h.Variants)))
	for _, v := range h.Variants {
		b = binary.AppendUvarint(b, uint64(len(v.Name)))
		b = append(b, v.Name...)
		b = binary.AppendUvarint(b, v.Games)
	}
	_, cw.err = cw.w.Write(b)
	return cw
}

// Bounds of a header's variant list.
const (
	maxVariants    = 16
	maxVariantName = 32
)

// checkVariants tells whether h's variant list is as a file holds it:
// names of lower-case letters and digits (they become header lines),
// ascending, each with games, adding up to h.Games.
func checkVariants(h CountsHeader) error {
	if len(h.Variants) > maxVariants {
		return fmt.Errorf("counts: %d variants", len(h.Variants))
	}
	var games uint64
	for i, v := range h.Variants {
		if v.Name == "" || len(v.Name) > maxVariantName || strings.Trim(v.Name, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
			return fmt.Errorf("counts: variant name %q", v.Name)
		}
		if i > 0 && v.Name <= h.Variants[i-1].Name {
			return fmt.Errorf("counts: variant %q after %q: names must ascend", v.Name, h.Variants[i-1].Name)
		}
		if v.Games == 0 || v.Games > h.Games-games {
			return fmt.Errorf("counts: the variants' games do not add up to the %d games counted", h.Games)
		}
		games += v.Games
	}
	if games != h.Games {
		return fmt.Errorf("counts: the variants' games do not add up to the %d games counted", h.Games)
	}
	return nil
}

// Write adds a position's moves; keys must ascend strictly.
func (cw *CountsWriter) Write(g *CountGroup) error {
	if cw.err != nil {
		return cw.err
	}
	if len(g.Moves) == 0 {
		return nil
	}
	if cw.groups > 0 && g.Key <= cw.last {
		return fmt.Errorf("counts: key %s after %s: keys must ascend", g.Key, cw.last)
	}
	b := binary.AppendUvarint(cw.buf[:0], uint64(len(g.Moves)))
	b = binary.BigEndian.AppendUint64(b, uint64(g.Key))
	for _, m := range g.Moves {
		b = binary.BigEndian.AppendUint16(b, uint16(m.Move))
		w := uint64(0)
		if m.White {
			w = 1
		}
		b = binary.AppendUvarint(b, m.Games<<1|w)
		b = binary.AppendUvarint(b, m.Points)
	}
	cw.buf = b
	cw.last = g.Key
	cw.groups++
	cw.records += uint64(len(g.Moves))
	_, cw.err = cw.w.Write(b)
	return cw.err
}

// Close writes the end and the checksum and flushes (it does not close
// the underlying writer).
func (cw *CountsWriter) Close() error {
	if cw.err != nil {
		return cw.err
	}
	b := binary.AppendUvarint(nil, 0)
	b = binary.AppendUvarint(b, cw.groups)
	b = binary.AppendUvarint(b, cw.records)
	if _, err := cw.w.Write(b); err != nil {
		return err
	}
	if err := cw.w.Flush(); err != nil {
		return err
	}
	// The checksum itself goes past the summing writer.
	_, err := cw.out.Write(binary.BigEndian.AppendUint32(nil, cw.crc.Sum32()))
	cw.err = errors.New("counts: writer closed")
	return err
}

// CountsReader reads a counts file group by group, checking it as it goes.
type CountsReader struct {
	r               *crcReader
	header          CountsHeader
	groups, records uint64
	last            board.Key
	group           CountGroup
	done            bool
}

// maxSettings bounds the settings text a reader accepts.
const maxSettings = 1 << 16

// NewCountsReader reads and checks the header.
func NewCountsReader(r io.Reader) (*CountsReader, error) {
	cr := &CountsReader{r: &crcReader{br: bufio.NewReaderSize(r, 256<<10), crc: countsCRC()}}
	magic := make([]byte, len(CountsMagic))
	if _, err := io.ReadFull(cr.r, magic); err != nil || string(magic) != CountsMagic {
		return nil, errors.New("not a counts file (make-book -counts writes them)")
	}
	v, err := binary.ReadUvarint(cr.r)
	if err != nil {
		return nil, cr.bad(err)
	}
	if v < oldestCountsVersion || v > CountsVersion {
		return nil, fmt.Errorf("counts file version %d; this polyproxy reads versions %d to %d (a newer polyproxy wrote it?)", v, oldestCountsVersion, CountsVersion)
	}
	cr.header.Version = int(v)
	n, err := binary.ReadUvarint(cr.r)
	if err != nil || n > maxSettings {
		return nil, cr.bad(err)
	}
	settings := make([]byte, n)
	if _, err := io.ReadFull(cr.r, settings); err != nil {
		return nil, cr.bad(err)
	}
	cr.header.Settings = string(settings)
	if cr.header.Games, err = binary.ReadUvarint(cr.r); err != nil {
		return nil, cr.bad(err)
	}
	if v == 1 {
		cr.header.Variants = variantList(map[string]uint64{polyglot.VariantNormal: cr.header.Games})
		return cr, nil
	}
	if cr.header.Variants, err = cr.readVariants(); err != nil {
		return nil, err
	}
	if err := checkVariants(cr.header); err != nil {
		return nil, fmt.Errorf("counts file damaged: %s", strings.TrimPrefix(err.Error(), "counts: "))
	}
	return cr, nil
}

func (cr *CountsReader) readVariants() ([]VariantGames, error) {
	n, err := binary.ReadUvarint(cr.r)
	if err != nil {
		return nil, cr.bad(err)
	}
	if n > maxVariants {
		return nil, fmt.Errorf("counts file damaged: %d variants", n)
	}
	var out []VariantGames
	for range n {
		size, err := binary.ReadUvarint(cr.r)
		if err != nil {
			return nil, cr.bad(err)
		}
		if size > maxVariantName {
			return nil, errors.New("counts file damaged: a variant name too long")
		}
		name := make([]byte, size)
		if _, err := io.ReadFull(cr.r, name); err != nil {
			return nil, cr.bad(err)
		}
		games, err := binary.ReadUvarint(cr.r)
		if err != nil {
			return nil, cr.bad(err)
		}
		out = append(out, VariantGames{string(name), games})
	}
	return out, nil
}

func (cr *CountsReader) bad(err error) error {
	if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("counts file truncated or damaged")
	}
	return err
}

// Header is the file's header.
func (cr *CountsReader) Header() CountsHeader { return cr.header }

// maxMovesPerGroup bounds a position's moves (a position has at most 218
// legal moves; a damaged count must not allocate gigabytes).
const maxMovesPerGroup = 1024

// Next returns the next position's moves, valid until the next call; at
// the end, once the checksum is verified, io.EOF.
func (cr *CountsReader) Next() (*CountGroup, error) {
	if cr.done {
		return nil, io.EOF
	}
	n, err := binary.ReadUvarint(cr.r)
	if err != nil {
		return nil, cr.bad(err)
	}
	if n == 0 {
		return nil, cr.end()
	}
	if n > maxMovesPerGroup {
		return nil, fmt.Errorf("counts file damaged: a position with %d moves", n)
	}
	var kb [8]byte
	if _, err := io.ReadFull(cr.r, kb[:]); err != nil {
		return nil, cr.bad(err)
	}
	key := board.Key(binary.BigEndian.Uint64(kb[:]))
	if cr.groups > 0 && key <= cr.last {
		return nil, fmt.Errorf("counts file damaged: key %s after %s", key, cr.last)
	}
	g := &cr.group
	g.Key, g.Moves = key, g.Moves[:0]
	for range n {
		var mb [2]byte
		if _, err := io.ReadFull(cr.r, mb[:]); err != nil {
			return nil, cr.bad(err)
		}
		gw, err := binary.ReadUvarint(cr.r)
		if err != nil {
			return nil, cr.bad(err)
		}
		points, err := binary.ReadUvarint(cr.r)
		if err != nil {
			return nil, cr.bad(err)
		}
		m := CountMove{Move: board.Move(binary.BigEndian.Uint16(mb[:])), Games: gw >> 1, Points: points, White: gw&1 == 1}
		if m.Games == 0 || m.Points > 2*m.Games || slices.ContainsFunc(g.Moves, func(x CountMove) bool { return x.Move == m.Move }) {
			return nil, fmt.Errorf("counts file damaged at key %s", key)
		}
		g.Moves = append(g.Moves, m)
	}
	cr.last = key
	cr.groups++
	cr.records += n
	return g, nil
}

func (cr *CountsReader) end() error {
	groups, err := binary.ReadUvarint(cr.r)
	if err != nil {
		return cr.bad(err)
	}
	records, err := binary.ReadUvarint(cr.r)
	if err != nil {
		return cr.bad(err)
	}
	if groups != cr.groups || records != cr.records {
		return errors.New("counts file damaged: its end does not match its content")
	}
	want := cr.r.sum()
	var sb [4]byte
	if _, err := io.ReadFull(cr.r.br, sb[:]); err != nil {
		return cr.bad(err)
	}
	if binary.BigEndian.Uint32(sb[:]) != want {
		return errors.New("counts file damaged: checksum mismatch")
	}
	if _, err := cr.r.br.ReadByte(); err != io.EOF {
		return errors.New("counts file damaged: data after its end")
	}
	cr.done = true
	return io.EOF
}

// crcReader sums the bytes as they are consumed (bufio reads ahead).
type crcReader struct {
	br      *bufio.Reader
	crc     hash.Hash32
	pending []byte
}

func (c *crcReader) ReadByte() (byte, error) {
	b, err := c.br.ReadByte()
	if err == nil {
		c.pending = append(c.pending, b)
		if len(c.pending) >= 4096 {
			c.crc.Write(c.pending)
			c.pending = c.pending[:0]
		}
	}
	return b, err
}

func (c *crcReader) Read(p []byte) (int, error) {
	n, err := c.br.Read(p)
	c.pending = append(c.pending, p[:n]...)
	if len(c.pending) >= 4096 {
		c.crc.Write(c.pending)
		c.pending = c.pending[:0]
	}
	return n, err
}

func (c *crcReader) sum() uint32 {
	c.crc.Write(c.pending)
	c.pending = c.pending[:0]
	return c.crc.Sum32()
}

// WriteCounts writes what the build counted as a counts file: every
// (position, move) with its full games and points.
func (b *Builder) WriteCounts(w io.Writer) error {
	cw := NewCountsWriter(w, CountsHeader{Settings: b.opt.CountSettings(), Games: uint64(b.gamesCounted()), Variants: b.variants()})
	err := b.count.finish(func(g *CountGroup, _ []aggEntry) error { return cw.Write(g) })
	if err != nil {
		return err
	}
	return cw.Close()
}

// SumStats reports what SumCounts did.
type SumStats struct {
	Games     uint64 // games counted in all inputs
	Variants  []VariantGames
	Positions uint64 // positions written
	Records   uint64 // (position, move) records written
}

// addHeaders adds up the inputs' headers: their games, and the games of
// each variant. Inputs with different settings do not add up.
func addHeaders(inputs []*CountsReader) (CountsHeader, error) {
	if len(inputs) == 0 {
		return CountsHeader{}, errors.New("no counts to add")
	}
	sum := CountsHeader{Settings: inputs[0].Header().Settings}
	variants := map[string]uint64{}
	for i, in := range inputs {
		h := in.Header()
		if h.Settings != sum.Settings {
			return sum, fmt.Errorf("input %d was counted with %q, input 1 with %q: they do not add up", i+1, h.Settings, sum.Settings)
		}
		sum.Games += h.Games
		for _, v := range h.Variants {
			variants[v.Name] += v.Games
		}
	}
	sum.Variants = variantList(variants)
	return sum, nil
}

// SumCounts adds counts files into one, streaming: the inputs must be in
// the order of the games they counted (the first part of the collection
// first), because a position's moves are kept in order of first
// appearance: the first input's, then the moves the next one adds, and
// so on, which is the order one build of all the games has. Inputs with
// different settings are refused; the variants are united.
func SumCounts(inputs []*CountsReader, w io.Writer) (SumStats, error) {
	var st SumStats
	h, err := addHeaders(inputs)
	if err != nil {
		return st, err
	}
	st.Games, st.Variants = h.Games, h.Variants
	cw := NewCountsWriter(w, h)
	err = mergeCounts(sourcesOf(inputs), func(g *CountGroup) error {
		st.Positions++
		st.Records += uint64(len(g.Moves))
		return cw.Write(g)
	})
	if err != nil {
		return st, err
	}
	return st, cw.Close()
}

// groupSource gives a counts file's groups in key order: a CountsReader,
// or a build's own counts in memory.
type groupSource interface {
	Next() (*CountGroup, error)
}

func sourcesOf(inputs []*CountsReader) []groupSource {
	out := make([]groupSource, len(inputs))
	for i, in := range inputs {
		out[i] = in
	}
	return out
}

// mergeCounts calls fn with each position of the inputs added up, in key
// order (a k-way merge, so memory holds one position per input).
func mergeCounts(inputs []groupSource, fn func(*CountGroup) error) error {
	heads := make([]*CountGroup, len(inputs))
	advance := func(i int) error {
		g, err := inputs[i].Next()
		if err == io.EOF {
			heads[i] = nil
			return nil
		}
		if err != nil {
			return fmt.Errorf("input %d: %w", i+1, err)
		}
		heads[i] = g
		return nil
	}
	// The heap orders inputs by their head's key, then by input number, so
	// a position's parts come in input order.
	h := &countHeap{heads: heads}
	for i := range inputs {
		if err := advance(i); err != nil {
			return err
		}
		if heads[i] != nil {
			h.push(i)
		}
	}
	var sum CountGroup
	for len(h.idx) > 0 {
		key := heads[h.idx[0]].Key
		sum.Key, sum.Moves = key, sum.Moves[:0]
		for len(h.idx) > 0 && heads[h.idx[0]].Key == key {
			i := h.pop()
			for _, m := range heads[i].Moves {
				j := slices.IndexFunc(sum.Moves, func(x CountMove) bool { return x.Move == m.Move })
				if j < 0 {
					sum.Moves = append(sum.Moves, m)
					continue
				}
				sum.Moves[j].Games += m.Games
				sum.Moves[j].Points += m.Points
			}
			if err := advance(i); err != nil {
				return err
			}
			if heads[i] != nil {
				h.push(i)
			}
		}
		if err := fn(&sum); err != nil {
			return err
		}
	}
	return nil
}

// countHeap is a binary min-heap of input numbers by (head key, number).
type countHeap struct {
	heads []*CountGroup
	idx   []int
}

func (h *countHeap) less(a, b int) bool {
	ka, kb := h.heads[h.idx[a]].Key, h.heads[h.idx[b]].Key
	return ka < kb || ka == kb && h.idx[a] < h.idx[b]
}

func (h *countHeap) push(i int) {
	h.idx = append(h.idx, i)
	for c := len(h.idx) - 1; c > 0; {
		p := (c - 1) / 2
		if !h.less(c, p) {
			break
		}
		h.idx[c], h.idx[p] = h.idx[p], h.idx[c]
		c = p
	}
}

func (h *countHeap) pop() int {
	top := h.idx[0]
	last := len(h.idx) - 1
	h.idx[0] = h.idx[last]
	h.idx = h.idx[:last]
	for p := 0; ; {
		c := 2*p + 1
		if c >= len(h.idx) {
			break
		}
		if c+1 < len(h.idx) && h.less(c+1, c) {
			c++
		}
		if !h.less(c, p) {
			break
		}
		h.idx[c], h.idx[p] = h.idx[p], h.idx[c]
		p = c
	}
	return top
}

// FromCountsStats reports what FromCounts did.
type FromCountsStats struct {
	Games     uint64 // games the counts hold
	Variants  []VariantGames
	Positions uint64
	Records   uint64
	// Halved counts positions where a move has countMax (16384) games or
	// more: their counts were halved to fit, see FromCounts.
	Halved uint64
	// Dropped are the position-moves the move rules left out.
	Dropped Dropped
}

// FromCounts makes a book from counts files (added up as SumCounts does,
// so give them in the order of the games) with make-book's move rules:
// MinGame, MinScore, MinShare, Colours, Uniform; the weight is the points.
//
// PolyGlot halves a position's counts while reading, whenever one of its
// moves reaches 16384 games, so its numbers there depend on the order of
// the games, which counts do not keep. For a position where some move has
// 16384 games or more in total, FromCounts halves all its moves' games and
// points (rounding up) until every move has fewer than 16384: the same
// rule applied to the totals. Only those positions (Halved) can differ
// from a make-book run over all the games at once: everywhere else the
// book is the same bytes, the @PG@ header naming the games' variants
// included.
func FromCounts(inputs []*CountsReader, opt Options) ([]book.Entry, FromCountsStats, error) {
	var st FromCountsStats
	h, err := addHeaders(inputs)
	if err != nil {
		return nil, st, err
	}
	st.Games, st.Variants = h.Games, h.Variants
	out := madeBookHeader(h.Variants)
	var counted []aggEntry
	err = mergeCounts(sourcesOf(inputs), func(g *CountGroup) error {
		st.Positions++
		st.Records += uint64(len(g.Moves))
		var halved bool
		if counted, halved = countsFromTotals(g, counted[:0]); halved {
			st.Halved++
		}
		out = groupEntries(&opt, counted, out, &st.Dropped)
		return nil
	})
	return out, st, err
}

// countsFromTotals turns a position's totals into the counts its book
// entries are made from: for a position where some move has countMax
// games or more, all its moves' games and points halved (rounding up)
// until every move has fewer, as FromCounts documents.
func countsFromTotals(g *CountGroup, out []aggEntry) ([]aggEntry, bool) {
	most := uint64(0)
	for _, m := range g.Moves {
		most = max(most, m.Games)
	}
	halvings := 0
	for ; most >= countMax; halvings++ {
		most = (most + 1) / 2
	}
	for _, m := range g.Moves {
		n, sum := m.Games, m.Points
		for range halvings {
			n, sum = (n+1)/2, (sum+1)/2
		}
		out = append(out, aggEntry{key: g.Key, games: m.Games, points: m.Points, move: m.Move, n: uint16(n), sum: uint16(sum), white: m.White})
	}
	return out, halvings > 0
}

// groupEntries appends a position's book entries to out: its moves that
// pass the move rules (MinGame, MinScore, MinShare, Colours), weight the
// points (1 with Uniform), highest weight first, ties in order of first
// appearance. d counts the moves left out.
func groupEntries(opt *Options, moves []aggEntry, out []book.Entry, d *Dropped) []book.Entry {
	total := uint64(0)
	for i := range moves {
		total += uint64(moves[i].n)
	}
	start := len(out)
	for i := range moves {
		e := &moves[i]
		if !keepEntry(opt, uint64(e.n), uint64(e.sum), e.white, d) {
			continue
		}
		if !keepShare(opt, uint64(e.n), total) {
			d.MinShare++
			continue
		}
		w := e.sum
		if opt.Uniform {
			w = 1
		}
		out = append(out, book.Entry{Key: e.key, Move: e.move, Weight: w})
	}
	slices.SortStableFunc(out[start:], book.CompareEntries)
	return out
}

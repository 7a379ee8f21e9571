package pgn

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/polyproxy/polyproxy/internal/fixture"
)

func gzipBytes(t testing.TB, data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zstdBytes(t testing.TB, data []byte) []byte {
	w, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	return w.EncodeAll(data, nil)
}

// smallPGN is testdata's small.pgn, plain and bzip2-compressed (the
// go:generate step in doc.go).
func smallPGN(t *testing.T) (plain, bz2 []byte) {
	t.Helper()
	dir := filepath.Join(fixture.Testdata, "pgn")
	return fixture.ReadFile(t, filepath.Join(dir, "small.pgn")), fixture.ReadFile(t, filepath.Join(dir, "small.pgn.bz2"))
}

// TestOpenCompressed: every format is told by its first bytes, whatever
// the name, read whole (concatenated gzip members, bzip2 streams and
// zstd frames too, as parallel compressors write them), with the file's
// bytes read counted for progress.
func TestOpenCompressed(t *testing.T) {
	plain, bz2 := smallPGN(t)
	twice := append(append([]byte{}, plain...), plain...)
	cases := []struct {
		name, kind string
		data, want []byte
	}{
		{"a.pgn", Plain, plain, plain},
		{"a.pgn.gz", Gzip, gzipBytes(t, plain), plain},
		{"a.pgn", Gzip, gzipBytes(t, plain), plain}, // misnamed
		{"two.gz", Gzip, append(gzipBytes(t, plain), gzipBytes(t, plain)...), twice},
		{"a.pgn.bz2", Bzip2, bz2, plain},
		{"two.bz2", Bzip2, append(append([]byte{}, bz2...), bz2...), twice},
		{"a.pgn.zst", Zstd, zstdBytes(t, plain), plain},
		{"two.zst", Zstd, append(zstdBytes(t, plain), zstdBytes(t, plain)...), twice},
		{"empty.pgn", Plain, nil, nil},
		{"BZ.pgn", Plain, []byte("BZ not bzip2\n"), []byte("BZ not bzip2\n")},
	}
	dir := t.TempDir()
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := Open(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := io.ReadAll(in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if in.Compression != c.kind || !bytes.Equal(got, c.want) {
			t.Errorf("%s: read as %s, %d bytes; want %s, %d bytes", c.name, in.Compression, len(got), c.kind, len(c.want))
		}
		if in.Size != int64(len(c.data)) || in.Consumed() != in.Size {
			t.Errorf("%s: size %d, consumed %d; want %d", c.name, in.Size, in.Consumed(), len(c.data))
		}
		if err := in.Close(); err != nil {
			t.Errorf("%s: close: %v", c.name, err)
		}
	}

	// Standard input, compressed.
	in, err := Open("-", bytes.NewReader(zstdBytes(t, plain)))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(in); err != nil || !bytes.Equal(got, plain) || in.Size != 0 {
		t.Errorf("stdin: %d bytes, size %d, %v", len(got), in.Size, err)
	}
	in.Close()

	// Failures name the file: missing, a folder, a corrupt stream.
	corrupt := gzipBytes(t, plain)
	corrupt[len(corrupt)/2] ^= 0xff
	os.WriteFile(filepath.Join(dir, "corrupt.gz"), corrupt, 0o644)
	if _, err := Open(filepath.Join(dir, "missing.pgn"), nil); err == nil {
		t.Error("missing file: no error")
	}
	if _, err := Open(dir, nil); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("folder: %v", err)
	}
	in, err = Open(filepath.Join(dir, "corrupt.gz"), nil)
	if err == nil {
		_, err = io.ReadAll(in)
		in.Close()
	}
	if err == nil {
		t.Error("corrupt gzip: no error")
	}
}

// readAllOf reads data as Open reads a file of it.
func readAllOf(t testing.TB, data []byte) (got []byte, warnings []string, err error) {
	t.Helper()
	in, err := NewInput(bytes.NewReader(data), "t")
	if err != nil {
		return nil, nil, err
	}
	defer in.Close()
	got, err = io.ReadAll(in)
	return got, in.Warnings(), err
}

// TestOpenTrailingData: what follows the last compressed member is judged
// as gzip -t, bzip2 -t and zstd -t judge it. Zero padding after gzip data
// was refused as "invalid header", garbage as "invalid header" or
// "unexpected EOF"; now both are read past with a warning, as gzip and
// bzip2 do, and a member cut short or with a bad header is an error
// saying so. zstd refuses any such tail, and says what it is.
func TestOpenTrailingData(t *testing.T) {
	plain, bz2 := smallPGN(t)
	gz := gzipBytes(t, plain)
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	zeros := make([]byte, 1000)
	for _, c := range []struct {
		name      string
		data      []byte
		warn, err string // what the warning or the error says; both "": neither
	}{
		{"gzip", gz, "", ""},
		{"gzip + zeros", cat(gz, zeros), "1000 bytes of zero padding", ""},
		{"gzip + 1 zero", cat(gz, []byte{0}), "1 bytes of zero padding", ""},
		{"gzip + garbage", cat(gz, []byte("hello junk")), "10 bytes of trailing garbage", ""},
		{"gzip + short garbage", cat(gz, []byte("xy")), "2 bytes of trailing garbage", ""},
		{"gzip + zeros + garbage", cat(gz, zeros, []byte("x")), "1001 bytes of trailing garbage", ""},
		{"gzip + bad member", cat(gz, []byte("\x1f\x8bjunkjunkjunk")), "", "member 2 at byte"},
		{"gzip + cut member", cat(gz, gz[:5]), "", "member 2 at byte " + strconv.Itoa(len(gz)) + " is cut short"},
		{"gzip cut", gz[:len(gz)-12], "", "ends in the middle of member 1"},
		{"gzip + gzip + zeros", cat(gz, gz, zeros), "zero padding", ""},
		{"bzip2 + zeros", cat(bz2, zeros), "trailing garbage after the bzip2 data", ""},
		{"bzip2 + garbage", cat(bz2, []byte("hello junk")), "trailing garbage after the bzip2 data", ""},
		{"zstd + zeros", cat(zstdBytes(t, plain), zeros), "", "not zstd data"},
		{"zstd + garbage", cat(zstdBytes(t, plain), []byte("hello junk")), "", "not zstd data"},
	} {
		got, warnings, err := readAllOf(t, c.data)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one saying %q", c.name, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !bytes.HasPrefix(got, plain):
			t.Errorf("%s: %d bytes read, not the games", c.name, len(got))
		case c.warn == "" && len(warnings) > 0:
			t.Errorf("%s: warnings %q", c.name, warnings)
		case c.warn != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], c.warn)):
			t.Errorf("%s: warnings %q, want one saying %q", c.name, warnings, c.warn)
		}
	}
}

// FuzzCompressedTail: any bytes after complete compressed data either are
// read past with a warning, or give an error; the data before is never
// lost or changed, and nothing panics.
func FuzzCompressedTail(f *testing.F) {
	for _, tail := range []string{"", "\x00\x00\x00", "junk", "\x1f\x8b", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", "BZh9", "\x28\xb5\x2f\xfd"} {
		f.Add([]byte(tail))
	}
	plain := []byte("[Event \"x\"]\n\n1. e4 e5 1-0\n")
	gz, zs := gzipBytes(f, plain), zstdBytes(f, plain)
	f.Fuzz(func(t *testing.T, tail []byte) {
		for _, head := range [][]byte{gz, zs} {
			got, warnings, err := readAllOf(t, append(append([]byte{}, head...), tail...))
			if err == nil && !bytes.HasPrefix(got, plain) {
				t.Fatalf("tail %q: read %q without error", tail, got)
			}
			if len(tail) == 0 && (err != nil || len(warnings) > 0 || !bytes.Equal(got, plain)) {
				t.Fatalf("no tail: %v %q", err, warnings)
			}
		}
	})
}

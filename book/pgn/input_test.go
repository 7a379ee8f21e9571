package pgn

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
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

// TestOpenCompressed: every format is told by its first bytes, whatever
// the name, read whole (concatenated gzip members, bzip2 streams and
// zstd frames too, as parallel compressors write them), with the file's
// bytes read counted for progress.
func TestOpenCompressed(t *testing.T) {
	plain, err := os.ReadFile("../../testdata/pgn/small.pgn")
	if err != nil {
		t.Fatal(err)
	}
	bz2, err := os.ReadFile("../../testdata/pgn/small.pgn.bz2")
	if err != nil {
		t.Fatal(err)
	}
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

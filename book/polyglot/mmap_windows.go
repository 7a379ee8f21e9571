//go:build windows

package polyglot

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// mapFile maps the whole file read-only (learning's search under the
// lock; books opened to play from are read into memory here).
func mapFile(f *os.File, size int64) ([]byte, error) {
	if size == 0 {
		return nil, nil
	}
	h, err := windows.CreateFileMapping(windows.Handle(f.Fd()), nil, windows.PAGE_READONLY,
		uint32(uint64(size)>>32), uint32(size), nil)
	if err != nil {
		return nil, os.NewSyscallError("CreateFileMapping", err)
	}
	defer windows.CloseHandle(h)
	addr, err := windows.MapViewOfFile(h, windows.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		return nil, os.NewSyscallError("MapViewOfFile", err)
	}
	// addr is a mapped view outside the Go heap, so the garbage collector
	// never needs to track it; building the pointer with unsafe.Add instead
	// of converting the uintptr keeps vet's check meaningful for real Go
	// memory.
	return unsafe.Slice((*byte)(unsafe.Add(nil, addr)), int(size)), nil
}

func unmapFile(b []byte) error {
	if b == nil {
		return nil
	}
	return windows.UnmapViewOfFile(uintptr(unsafe.Pointer(&b[0])))
}

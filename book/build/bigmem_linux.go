//go:build linux

package build

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// bigSlice returns a slice of capacity n (length 0) for the count's large
// buffers, mapped from the system and asked to be backed by huge pages
// where it can be: on a virtual machine a page fault costs microseconds,
// and the count touches its buffers' every page once per merge, so 2 MB
// pages instead of 4 KB ones were a large part of a build's time. The
// mapping is released by freeBig, at once, not at the next collection.
// T must hold no pointers.
func bigSlice[T any](n int) ([]T, []byte) {
	var zero T
	size := n * int(unsafe.Sizeof(zero))
	if size < 4<<20 {
		return make([]T, 0, n), nil
	}
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return make([]T, 0, n), nil
	}
	unix.Madvise(mem, unix.MADV_HUGEPAGE) // a hint: an error changes nothing
	return unsafe.Slice((*T)(unsafe.Pointer(&mem[0])), n)[:0], mem
}

// freeBig releases what bigSlice mapped (nothing for a slice it made).
func freeBig(mem []byte) {
	if mem != nil {
		unix.Munmap(mem)
	}
}

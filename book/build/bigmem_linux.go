//go:build linux

package build

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// bigSlice returns a slice of capacity at least n (length 0) for the
// count's large buffers, mapped from the system and asked to be backed by
// huge pages where it can be: on a virtual machine a page fault costs
// microseconds, and the count touches its buffers' every page once per
// merge, so 2 MB pages instead of 4 KB ones were a large part of a
// build's time. The mapping reserves room for reserve elements (at least
// n) where the system allows: address space only, since a page costs
// memory, and the kernel's zeroing, once written; so a buffer that grows
// a little at a time keeps its pages instead of having fresh ones zeroed
// each time (2 GB of them for 300,000 games, a sixth of the build's time,
// when each growth was a new mapping; growing one with mremap lost its
// huge pages). The mapping is released by freeBig, at once, not at the
// next collection. T must hold no pointers.
func bigSlice[T any](n, reserve int) ([]T, []byte) {
	var zero T
	elem := int(unsafe.Sizeof(zero))
	if n*elem < 4<<20 && reserve*elem < 4<<20 {
		return make([]T, 0, n), nil
	}
	for _, c := range []int{max(n, reserve), n} {
		mem, err := unix.Mmap(-1, 0, c*elem, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE|unix.MAP_NORESERVE)
		if err != nil {
			continue
		}
		unix.Madvise(mem, unix.MADV_HUGEPAGE) // a hint: an error changes nothing
		return unsafe.Slice((*T)(unsafe.Pointer(&mem[0])), c)[:0], mem
	}
	return make([]T, 0, n), nil
}

// freeBig releases what bigSlice mapped (nothing for a slice it made).
func freeBig(mem []byte) {
	if mem != nil {
		unix.Munmap(mem)
	}
}

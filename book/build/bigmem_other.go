//go:build !linux

package build

// bigSlice returns a slice of capacity at least n (length 0) for the
// count's large buffers, with a little room to grow towards reserve (on
// Linux, bigmem_linux.go maps them from the system and reserves all of
// it).
func bigSlice[T any](n, reserve int) ([]T, []byte) {
	return make([]T, 0, max(n, min(reserve, n+n/8))), nil
}

func freeBig([]byte) {}

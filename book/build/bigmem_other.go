//go:build !linux

package build

// bigSlice returns a slice of capacity n (length 0) for the count's large
// buffers (on Linux, bigmem_linux.go maps them from the system).
func bigSlice[T any](n int) ([]T, []byte) { return make([]T, 0, n), nil }

func freeBig([]byte) {}

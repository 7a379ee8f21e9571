// Command printversion prints version.Get(), for the test that builds it
// with and without the release's -ldflags.
package main

import (
	"fmt"

	"github.com/polyproxy/polyproxy/internal/version"
)

func main() { fmt.Println(version.Get()) }

// Command polyproxy is a UCI engine wrapper with Polyglot opening books: a
// chess GUI starts it as its engine, and it starts the real engine. The
// commands live in package cli; this file only starts them.
package main

import (
	"os"

	"github.com/polyproxy/polyproxy/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

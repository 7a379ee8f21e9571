package ctg

// The CTG test books in testdata and what DroidFish's CTG reader offers on
// them (testdata/README.md): the test-only writer makes the books, and the
// oracle tables, which need DroidFish's source and a JDK (CI has neither),
// are kept in the repository and remade only when DROIDFISH names the
// source (oracle.sh says so and skips otherwise).

//go:generate go run ./testdata/gen -dir testdata
//go:generate sh testdata/oracle.sh

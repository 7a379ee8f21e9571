package abk

// The ABK test books in testdata and what DroidFish's ABK reader offers on
// them (testdata/README.md): our generator writes the hand-made books,
// polyproxy's own ABK writer the written-*.abk ones, its learning the
// learned*.abk ones. The oracle tables need DroidFish's source and a JDK,
// which CI has not, so they are kept in the repository and remade only
// when DROIDFISH names the source (oracle.sh says so and skips otherwise).

//go:generate go run ./testdata/gen -dir testdata
//go:generate sh testdata/learned.sh
//go:generate go test -run TestABKWrittenUpToDate -update-abk .
//go:generate go test -run TestLearnedTreesUpToDate -update-trees .
//go:generate sh testdata/oracle.sh

package lazy

import (
	"sync"
	"testing"
)

var built int

func buildOnce() []int {
	built++
	return []int{1, 2, 3}
}

var numbers = Value[[]int]{New: buildOnce}

func TestValueBuildsOnceOnFirstGet(t *testing.T) {
	if built != 0 {
		t.Fatalf("built %d times before the first Get", built)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := numbers.Get(); len(got) != 3 || got[2] != 3 {
				t.Errorf("Get = %v", got)
			}
		})
	}
	wg.Wait()
	if built != 1 {
		t.Fatalf("built %d times, want once", built)
	}
}

var word = Regexp{Expr: `^[a-z]+$`}

func TestRegexpCompilesOnFirstGet(t *testing.T) {
	if word.re != nil {
		t.Fatal("compiled before the first Get")
	}
	if !word.Get().MatchString("book") || word.Get().MatchString("Book") {
		t.Fatalf("%q matches wrongly", word.Expr)
	}
}

func TestRegexpPanicsOnABadExpression(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a bad expression compiled")
		}
	}()
	bad := Regexp{Expr: `(`}
	bad.Get()
}

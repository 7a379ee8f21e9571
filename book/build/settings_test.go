package build

import (
	"flag"
	"io"
	"reflect"
	"testing"
)

// TestSettingsCoverTheFilter: every field of GameFilter, set, turns the
// game filter on and changes the counts header, so that counts made
// with a filter never add up with counts made without (a field missing
// from the table fails here). Each setting's flag sets what it names.
func TestSettingsCoverTheFilter(t *testing.T) {
	base := DefaultOptions()
	if got := base.CountSettings(); got != "max-ply=1024" {
		t.Errorf("the defaults' header %q: counts files made before would no longer add up", got)
	}
	if base.filtering() {
		t.Error("filtering with no filter")
	}
	ft := reflect.TypeOf(GameFilter{})
	for i := range ft.NumField() {
		o := DefaultOptions()
		f := reflect.ValueOf(&o.Filter).Elem().Field(i)
		switch f.Kind() {
		case reflect.Int:
			f.SetInt(20240101)
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"x"}))
		default:
			t.Fatalf("GameFilter.%s: a %v, which this test cannot set", ft.Field(i).Name, f.Kind())
		}
		if !o.filtering() || o.CountSettings() == base.CountSettings() {
			t.Errorf("GameFilter.%s set: filtering %v, header %q: declare it in Settings", ft.Field(i).Name, o.filtering(), o.CountSettings())
		}
	}
}

// TestSettingsHeader: every counted setting, given by its flag, is in
// the header in the table's order (the order older counts files have),
// lists in lower case, sorted, each once.
func TestSettingsHeader(t *testing.T) {
	o := DefaultOptions()
	fs := flag.NewFlagSet("make-book", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	table := Settings()
	for i := range table {
		table[i].Define(fs, &o)
	}
	err := fs.Parse([]string{"-max-ply", "20", "-min-elo", "2000", "-min-mover-elo", "2100", "-from-date", "2024", "-to-date", "2024.06",
		"-player", "B", "-player", "a", "-time-control", "Blitz,rapid", "-min-base-time", "60", "-skip-termination", "Abandoned",
		"-skip-forfeits", "-min-game", "1", "-min-score", "50", "-only-white", "-uniform", "-min-share", "5"})
	if err != nil {
		t.Fatal(err)
	}
	want := "max-ply=20 min-elo=2000 min-mover-elo=2100 from-date=20240101 to-date=20240631 player=a,b time-control=blitz,rapid min-base-time=60 skip-termination=abandoned,time forfeit"
	if got := o.CountSettings(); got != want {
		t.Errorf("header\n%q\nwant\n%q", got, want)
	}
	if o.MinGame != 1 || o.MinScore != 50 || o.Colours != WhiteOnly || !o.Uniform || o.MinShare != 5 {
		t.Errorf("move rules not set: %+v", o)
	}
	for _, s := range Settings() {
		if s.Counted() != (s.Flag == "max-ply" || s.filter) {
			t.Errorf("%s: counted %v, filter %v", s.Flag, s.Counted(), s.filter)
		}
	}
	for _, bad := range [][]string{{"-time-control", "fast"}, {"-from-date", "2024.13"}, {"-player", ","}, {"-max-ply", "-1"}} {
		if err := fs.Parse(bad); err == nil {
			t.Errorf("%q taken", bad)
		}
	}
}

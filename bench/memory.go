package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// procMemory is a running process's memory as Linux reports it in
// /proc/PID/status, in bytes.
type procMemory struct {
	Peak int64 `json:"vmhwm"`   // VmHWM: the largest resident size since it started
	Anon int64 `json:"rssanon"` // RssAnon: resident anonymous memory (heap, stacks) now
	File int64 `json:"rssfile"` // RssFile: resident file-backed pages (the program, mapped files) now
}

// memory reads the process's memory now (the first stage's, for a
// pipeline).
func (p *proc) memory() (procMemory, error) {
	if runtime.GOOS != "linux" {
		return procMemory{}, errors.New("the memory of a running process is read from /proc/PID/status: Linux only")
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmds[0].Process.Pid))
	if err != nil {
		return procMemory{}, err
	}
	var m procMemory
	for _, l := range strings.Split(string(b), "\n") {
		key, val, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		var dst *int64
		switch key {
		case "VmHWM":
			dst = &m.Peak
		case "RssAnon":
			dst = &m.Anon
		case "RssFile":
			dst = &m.File
		default:
			continue
		}
		f := strings.Fields(val) // "1234 kB"
		if len(f) != 2 || f[1] != "kB" {
			return procMemory{}, fmt.Errorf("/proc status: %s: %q", key, val)
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return procMemory{}, err
		}
		*dst = kb << 10
	}
	if m.Peak == 0 {
		return procMemory{}, errors.New("/proc status without VmHWM")
	}
	return m, nil
}

// memoryNote says how the memory row was measured, with the median
// resident anonymous and file-backed sizes of each side.
func memoryNote(res *result) string {
	var parts []string
	for _, s := range []*side{res.Polyproxy, res.PolyGlot, res.Reference} {
		if !s.ok() || len(s.Memory) == 0 {
			continue
		}
		var anon, file []float64
		for _, m := range s.Memory {
			anon = append(anon, float64(m.Anon))
			file = append(file, float64(m.File))
		}
		parts = append(parts, fmt.Sprintf("%s %s anonymous + %s file-backed", s.Label,
			res.format(summarize(anon).Median), res.format(summarize(file).Median)))
	}
	note := "VmHWM from /proc/PID/status (the largest resident size since the process started), read after the last round trip of each round, the process idle; resident then (medians)"
	if len(parts) == 0 {
		return note + "."
	}
	return note + ": " + strings.Join(parts, "; ") + "."
}

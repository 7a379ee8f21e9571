package main

import (
	"bytes"
	"os"
)

// measureLearnGain is the learning benchmark's simulation (see
// learngain_sim.go); its tables go to the log and -learngain-md.
func (r *runner) measureLearnGain() {
	var out bytes.Buffer
	if err := r.learnGainSim(&out); err != nil {
		r.logf("learngain: %v", err)
	}
	r.learnGainReport(out.Bytes())
}

// measureLearnGainHost is its real run (learngain_host.go).
func (r *runner) measureLearnGainHost() {
	var out bytes.Buffer
	if err := r.learnGainHost(&out); err != nil {
		r.logf("learngainhost: %v", err)
	}
	r.learnGainReport(out.Bytes())
}

// learnGainReport writes a part of the learning benchmark's report to the
// log and appends it to -learngain-md.
func (r *runner) learnGainReport(md []byte) {
	r.logf("%s", md)
	if r.cfg.learnGainMD == "" {
		return
	}
	f, err := os.OpenFile(r.cfg.learnGainMD, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err == nil {
		_, err = f.Write(md)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		r.logf("learngain: %v", err)
	}
}

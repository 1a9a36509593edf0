package relaybench

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// cpuSnapshot is the CPU time (clock ticks, user+system) each live process
// has used, by pid, and the machine's busy and total ticks. Two snapshots
// around a run say where the CPU went: the relay's own process, the
// PostgreSQL backends, nats-server. Linux only (/proc); elsewhere empty.
type cpuSnapshot struct {
	procs       map[int]procCPU
	busy, total int64
}

type procCPU struct {
	comm  string
	ticks int64
}

func takeCPU() cpuSnapshot {
	s := cpuSnapshot{procs: map[int]procCPU{}}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		f := strings.Fields(line)
		for i, v := range f[1:] {
			n, _ := strconv.ParseInt(v, 10, 64)
			s.total += n
			if i != 3 && i != 4 { // idle, iowait
				s.busy += n
			}
		}
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		b, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue
		}
		st := string(b)
		open, close := strings.IndexByte(st, '('), strings.LastIndexByte(st, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(st[close+2:])
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		k, _ := strconv.ParseInt(f[12], 10, 64)
		s.procs[pid] = procCPU{st[open+1 : close], u + k}
	}
	return s
}

// reportCPU adds CPU metrics for the run between before and now: µs of CPU
// per message for postgres, nats-server and this process, and the machine's
// busy share (of all cores). A process that ended during the run is not
// counted (the relay's pool keeps its backends for the whole run).
func reportCPU(b *testing.B, before cpuSnapshot, msgs int) {
	after := takeCPU()
	const tick = 1e6 / 100 // µs per clock tick (USER_HZ 100)
	by := map[string]int64{}
	self := os.Getpid()
	for pid, a := range after.procs {
		d := a.ticks - before.procs[pid].ticks
		if p, ok := before.procs[pid]; ok && p.comm != a.comm {
			d = a.ticks
		}
		switch {
		case pid == self:
			by["self"] += d
		case a.comm == "postgres":
			by["postgres"] += d
		case a.comm == "nats-server":
			by["nats"] += d
		}
	}
	if msgs == 0 || after.total == before.total {
		return
	}
	for _, k := range []string{"self", "postgres", "nats"} {
		b.ReportMetric(float64(by[k])*tick/float64(msgs), k+"-cpu-µs/msg")
	}
	b.ReportMetric(float64(after.busy-before.busy)/float64(after.total-before.total)*100, "%machine-busy")
}

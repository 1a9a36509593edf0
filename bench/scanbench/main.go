// Command scanbench measures `outboxify scan` against `go vet` on the same
// packages in the same run: wall time and peak resident memory of the whole
// process tree (the go command and every tool it starts, summed at each
// sample), each repetition with a fresh GOCACHE warmed by `go build` only,
// so go vet's results cache is cold and neither side reuses the other's work.
//
//	go run ./bench/scanbench -n 3            # from the repository root
//
// It prints a Markdown table (docs/benchmarks.md keeps the last figures).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	var (
		reps   = flag.Int("n", 3, "repetitions of each command")
		dir    = flag.String("C", "bench/scan", "module whose requirements provide the packages")
		pkgs   = flag.String("pkgs", "github.com/nats-io/nats-server/v2/... github.com/outboxify/outboxify/bench/scan/shapes", "packages to analyze (space separated): a large real product and the shapes package (route setup, dispatcher, recursion)")
		vettoo = flag.Bool("vettool", true, "also time go vet -vettool=outboxify-vet")
		out    = flag.String("o", "", "also write the Markdown report to this file")
	)
	flag.Parse()
	if err := run(*reps, *dir, strings.Fields(*pkgs), *vettoo, *out); err != nil {
		fmt.Fprintln(os.Stderr, "scanbench:", err)
		os.Exit(1)
	}
}

type measure struct {
	wall    time.Duration
	treeRSS int64 // bytes, peak of the sum over the process tree
	maxRSS  int64 // bytes, largest single process (rusage)
}

type command struct {
	name string
	argv []string
}

func run(reps int, dir string, pkgs []string, vettool bool, out string) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "scanbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "bin")
	if err := sh("", nil, "go", "build", "-o", bin+"/", "./cmd/outboxify", "./cmd/outboxify-vet"); err != nil {
		// outboxify-vet may not exist yet: build what does.
		if err := sh("", nil, "go", "build", "-o", bin+"/", "./cmd/outboxify"); err != nil {
			return fmt.Errorf("build outboxify: %w", err)
		}
		vettool = false
	}
	cmds := []command{
		{"go vet", append([]string{"go", "vet"}, pkgs...)},
		{"outboxify scan", append([]string{filepath.Join(bin, "outboxify"), "scan", "-C", dir}, pkgs...)},
	}
	if vettool {
		cmds = append(cmds, command{"go vet -vettool=outboxify-vet",
			append([]string{"go", "vet", "-vettool=" + filepath.Join(bin, "outboxify-vet")}, pkgs...)})
	}
	results := make([][]measure, len(cmds))
	for r := 0; r < reps; r++ {
		for k := range cmds {
			i := (k + r) % len(cmds) // rotate the order between repetitions
			cache := filepath.Join(tmp, fmt.Sprintf("gocache-%d-%d", r, i))
			env := append(os.Environ(), "GOCACHE="+cache, "GOFLAGS=-mod=mod")
			if err := sh(dir, env, "go", append([]string{"build"}, pkgs...)...); err != nil {
				return fmt.Errorf("warm cache: %w", err)
			}
			m, err := measureCmd(dir, env, cmds[i].argv)
			if err != nil {
				return fmt.Errorf("%s: %w", cmds[i].name, err)
			}
			fmt.Fprintf(os.Stderr, "rep %d %-30s %8.2fs tree %6.0f MiB max %6.0f MiB\n",
				r+1, cmds[i].name, m.wall.Seconds(), mib(m.treeRSS), mib(m.maxRSS))
			results[i] = append(results[i], m)
			os.RemoveAll(cache)
		}
	}
	report := markdown(cmds, results, pkgs, reps)
	fmt.Print(report)
	if out != "" {
		return os.WriteFile(out, []byte(report), 0o644)
	}
	return nil
}

func markdown(cmds []command, results [][]measure, pkgs []string, reps int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Packages: `%s`, %d repetitions. Medians; the ratios are the medians of each repetition's ratio to that repetition's `go vet` run.\n\n", strings.Join(pkgs, " "), reps)
	b.WriteString("| command | wall (s) | peak RSS, process tree (MiB) | largest process (MiB) | wall vs go vet | tree RSS vs go vet |\n|---|---|---|---|---|---|\n")
	for i, c := range cmds {
		m := median(results[i])
		var wr, rr []float64
		for r := range results[i] {
			wr = append(wr, results[i][r].wall.Seconds()/results[0][r].wall.Seconds())
			rr = append(rr, float64(results[i][r].treeRSS)/float64(results[0][r].treeRSS))
		}
		fmt.Fprintf(&b, "| `%s` | %.2f | %.0f | %.0f | %.2f× | %.2f× |\n", c.name, m.wall.Seconds(), mib(m.treeRSS), mib(m.maxRSS),
			medianF(wr), medianF(rr))
	}
	b.WriteString("\nEvery run (wall s / tree MiB):\n\n| command |")
	for r := 0; r < reps; r++ {
		fmt.Fprintf(&b, " rep %d |", r+1)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", reps) + "\n")
	for i, c := range cmds {
		fmt.Fprintf(&b, "| `%s` |", c.name)
		for _, m := range results[i] {
			fmt.Fprintf(&b, " %.2f / %.0f |", m.wall.Seconds(), mib(m.treeRSS))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func medianF(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// median takes each figure's median independently.
func median(ms []measure) measure {
	var w []time.Duration
	var t, x []int64
	for _, m := range ms {
		w, t, x = append(w, m.wall), append(t, m.treeRSS), append(x, m.maxRSS)
	}
	slices.Sort(w)
	slices.Sort(t)
	slices.Sort(x)
	return measure{wall: w[len(w)/2], treeRSS: t[len(t)/2], maxRSS: x[len(x)/2]}
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// measureCmd runs argv, sampling the RSS of its process tree every 5ms.
// Exit status 1 (findings) counts as success.
func measureCmd(dir string, env, argv []string) (measure, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return measure{}, err
	}
	done := make(chan struct{})
	peak := make(chan int64)
	go func() {
		var max int64
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if rss := treeRSS(cmd.Process.Pid); rss > max {
				max = rss
			}
			select {
			case <-done:
				peak <- max
				return
			case <-tick.C:
			}
		}
	}()
	err := cmd.Wait()
	wall := time.Since(start)
	close(done)
	m := measure{wall: wall, treeRSS: <-peak}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.maxRSS = ru.Maxrss * 1024 // Linux: KiB
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		return m, fmt.Errorf("%v\n%s", err, stderr.String())
	}
	return m, nil
}

// treeRSS sums the resident memory of pid and all its descendants.
func treeRSS(root int) int64 {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	children := map[int][]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the parenthesised command name: state ppid ...
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		children[ppid] = append(children[ppid], pid)
	}
	page := int64(os.Getpagesize())
	var total int64
	stack := []int{root}
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stack = append(stack, children[pid]...)
		statm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
		if err != nil {
			continue
		}
		f := strings.Fields(string(statm))
		if len(f) > 1 {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			total += n * page
		}
	}
	return total
}

func sh(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

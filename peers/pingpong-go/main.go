// Measurement anchor for the ping-pong load client (`tickwork-load.jar pingpong`): the same
// workload in Go, a goroutine per connection on each side, so the comparison with Go's scheduler
// and netpoller is reproducible. Standard library only; not part of the Maven build (built by
// docs/results/many-core/run.sh with go).
//
//	cd peers/pingpong-go && go build -o /tmp/pingpong-go .
//	/tmp/pingpong-go run [-c 100] [-n 1000000] [-w 100000] [-procs N] [-server-procs N] [-client-procs N] [-d 120s]
//	/tmp/pingpong-go server [-port 0] [-procs N] [-d 60s]    # prints the bound port, one line
//	/tmp/pingpong-go client [-c 100] [-n 1000000] [-w 100000] [-procs N] [-d 120s] HOST:PORT
//
// The server answers "Pong" for every 4 bytes it reads, whatever the read boundaries; the client
// keeps one 4-byte "Ping" in flight on each of its -c connections (a blocking write then read
// per round trip), runs -w unmeasured round trips, then -n measured ones (both split evenly
// across the connections), starting the clock once every connection is open and warmed, and
// prints total time / round trips (us per ping, the figure the Java client and the C anchor
// print). Any error (refused connection, short read, a reply other than "Pong", the -d bound
// passing) exits 1. TCP_NODELAY is on for every connection (Go's default for TCP).
//
// GOMAXPROCS decides how many cores Go uses (default: every core the process may use): set
// -procs to compare with a given number of Java threads. run keeps server and client in one
// process, sharing its GOMAXPROCS, unless -server-procs or -client-procs is given: then the
// server runs as a child process (this program's server command, as the C anchor forks), since
// GOMAXPROCS is one setting per process. Every run is bounded: the server by -d, then it exits;
// the client by -d (connecting, warm-up and measured round trips together). SIGINT or SIGTERM
// stops either at once.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var ping = []byte("Ping")

const pong = "Pong"

// serve accepts until ln is closed, one goroutine per connection.
func serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go answer(c)
	}
}

// answer writes one Pong per 4 bytes read, whatever the read boundaries, until the peer closes.
func answer(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 4096)
	out := make([]byte, 0, 4096)
	pending := 0
	for {
		n, err := c.Read(buf)
		if n > 0 {
			pending += n
			out = out[:0]
			for ; pending >= 4; pending -= 4 {
				out = append(out, pong...)
			}
			if len(out) > 0 {
				if _, werr := c.Write(out); werr != nil {
					return
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// result is what one client run measured: pings counts the Pongs received in the measured part.
type result struct {
	pings   int64
	conns   int
	procs   string
	elapsed time.Duration
	errors  int64
}

func (r result) String() string {
	us, rate := 0.0, 0.0
	if r.pings > 0 {
		us = float64(r.elapsed.Nanoseconds()) / 1e3 / float64(r.pings)
	}
	if s := r.elapsed.Seconds(); s > 0 {
		rate = float64(r.pings) / s
	}
	return fmt.Sprintf("go: %d pings over %d connections (GOMAXPROCS %s) in %.3fs: %.2f us/ping, %.0f pings/s, errors %d",
		r.pings, r.conns, r.procs, r.elapsed.Seconds(), us, rate, r.errors)
}

// share splits total among conns: connection i gets total/conns, the first total%conns one more.
func share(total int64, conns, i int) int64 {
	s := total / int64(conns)
	if int64(i) < total%int64(conns) {
		s++
	}
	return s
}

// roundTrips sends a Ping and reads a Pong k times on c; it returns how many Pongs came back.
func roundTrips(c net.Conn, k int64) (int64, error) {
	var in [4]byte
	for j := int64(0); j < k; j++ {
		if _, err := c.Write(ping); err != nil {
			return j, err
		}
		if _, err := io.ReadFull(c, in[:]); err != nil {
			return j, err
		}
		if string(in[:]) != pong {
			return j, fmt.Errorf("reply %q, not %q", in[:], pong)
		}
	}
	return k, nil
}

// phase runs share(total, ...) round trips on every connection, a goroutine each, and waits for
// all of them: the Pongs received, the connections that failed and the first failure.
func phase(cs []net.Conn, total int64) (done, errs int64, first error) {
	var d, e atomic.Int64
	var once sync.Once
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Add(1)
		go func(i int, c net.Conn) {
			defer wg.Done()
			k, err := roundTrips(c, share(total, len(cs), i))
			d.Add(k)
			if err != nil {
				e.Add(1)
				once.Do(func() { first = fmt.Errorf("connection %d: %w", i, err) })
			}
		}(i, c)
	}
	wg.Wait()
	return d.Load(), e.Load(), first
}

// client opens conns connections to addr, runs warm unmeasured round trips, then n measured
// ones; the clock runs from the moment every connection has finished its warm-up. Everything,
// connecting included, must end within deadline.
func client(addr string, conns int, n, warm int64, deadline time.Duration) (result, error) {
	end := time.Now().Add(deadline)
	r := result{conns: conns, procs: strconv.Itoa(runtime.GOMAXPROCS(0))}
	bound := func(err error) error {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return fmt.Errorf("not done within %v (-d): %w", deadline, err)
		}
		return err
	}
	dialer := net.Dialer{Deadline: end}
	cs := make([]net.Conn, 0, conns)
	defer func() {
		for _, c := range cs {
			c.Close()
		}
	}()
	for i := 0; i < conns; i++ {
		c, err := dialer.Dial("tcp", addr)
		if err != nil {
			return r, bound(fmt.Errorf("connection %d: %w", i, err))
		}
		c.SetDeadline(end)
		cs = append(cs, c)
	}
	if _, errs, err := phase(cs, warm); err != nil {
		r.errors = errs
		return r, bound(fmt.Errorf("warm-up: %w", err))
	}
	start := time.Now()
	done, errs, err := phase(cs, n)
	r.elapsed, r.pings, r.errors = time.Since(start), done, errs
	if err == nil && done != n {
		err = fmt.Errorf("%d pings answered, %d asked for", done, n)
	}
	if err != nil {
		return r, bound(err)
	}
	return r, nil
}

// serverProcess starts this program's server command as a child process with GOMAXPROCS procs
// (0: Go's default) for at most d, and reads the port it prints. stop kills it and waits.
func serverProcess(procs int, d time.Duration) (addr string, stop func(), err error) {
	exe, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(exe, "server", "-port", "0", "-procs", strconv.Itoa(procs), "-d", d.String())
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(s)
		io.Copy(io.Discard, out)
	}()
	select {
	case s := <-line:
		if _, perr := strconv.Atoi(s); perr != nil {
			stop()
			return "", nil, fmt.Errorf("server process printed %q, not a port", s)
		}
		return "127.0.0.1:" + s, stop, nil
	case <-time.After(10 * time.Second):
		stop()
		return "", nil, errors.New("server process printed no port within 10s")
	}
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "pingpong-go: "+format+"\n", a...)
	os.Exit(1)
}

// report prints the result line once the measured part has started, then fails on err.
func report(r result, err error) {
	if r.elapsed > 0 {
		fmt.Println(r)
	}
	if err != nil {
		fail("%v", err)
	}
}

const usage = `usage: pingpong-go run|server|client [options]   (-h after the command for its options)
  run    [-c 100] [-n 1000000] [-w 100000] [-procs N] [-server-procs N] [-client-procs N] [-d 120s]
  server [-port 0] [-procs N] [-d 60s]
  client [-c 100] [-n 1000000] [-w 100000] [-procs N] [-d 120s] HOST:PORT`

func main() {
	if len(os.Args) < 2 {
		fail("%s", usage)
	}
	cmd, args := os.Args[1], os.Args[2:]
	if cmd != "run" && cmd != "server" && cmd != "client" {
		fail("unknown command %q\n%s", cmd, usage)
	}
	fs := flag.NewFlagSet("pingpong-go "+cmd, flag.ExitOnError)
	procs := fs.Int("procs", 0, "GOMAXPROCS: cores Go uses (0: Go's default, every core)")
	var d time.Duration
	defaultD := 120 * time.Second
	if cmd == "server" {
		defaultD = 60 * time.Second
	}
	fs.DurationVar(&d, "d", defaultD, "bound on the whole run; the server exits when it passes")
	fs.DurationVar(&d, "deadline", defaultD, "same as -d")
	var conns *int
	var n, warm *int64
	var port, serverProcs, clientProcs *int
	if cmd == "server" {
		port = fs.Int("port", 0, "port on 127.0.0.1 (0: any free one, printed)")
	} else {
		conns = fs.Int("c", 100, "connections, a goroutine each")
		n = fs.Int64("n", 1_000_000, "measured round trips, in all")
		warm = fs.Int64("w", 100_000, "unmeasured round trips first, in all")
	}
	if cmd == "run" {
		serverProcs = fs.Int("server-procs", 0, "the server's GOMAXPROCS, in a child process (0: -procs)")
		clientProcs = fs.Int("client-procs", 0, "the client's GOMAXPROCS, server in a child process (0: -procs)")
	}
	fs.Parse(args)
	if *procs < 0 || d <= 0 {
		fail("-procs must be at least 0 and -d positive")
	}
	if conns != nil && (*conns < 1 || *n < 1 || *warm < 0) {
		fail("-c and -n must be at least 1, -w at least 0")
	}
	want := 0 // HOST:PORT for the client, nothing for the others
	if cmd == "client" {
		want = 1
	}
	if fs.NArg() != want {
		fail("%s: unexpected arguments %q\n%s", cmd, fs.Args(), usage)
	}
	if *procs > 0 {
		runtime.GOMAXPROCS(*procs)
	}
	switch cmd {
	case "server":
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
		if err != nil {
			fail("%v", err)
		}
		fmt.Println(ln.Addr().(*net.TCPAddr).Port)
		time.AfterFunc(d, func() { ln.Close() })
		serve(ln)
	case "client":
		r, err := client(fs.Arg(0), *conns, *n, *warm, d)
		report(r, err)
	case "run":
		var addr string
		var stop func()
		label := ""
		if *serverProcs > 0 || *clientProcs > 0 {
			sp, cp := *serverProcs, *clientProcs
			if sp == 0 {
				sp = *procs
			}
			if cp > 0 {
				runtime.GOMAXPROCS(cp)
			}
			var err error
			addr, stop, err = serverProcess(sp, d+5*time.Second)
			if err != nil {
				fail("server: %v", err)
			}
			server := "default"
			if sp > 0 {
				server = strconv.Itoa(sp)
			}
			label = ", server process " + server
		} else {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				fail("%v", err)
			}
			go serve(ln)
			addr, stop = ln.Addr().String(), func() { ln.Close() }
		}
		r, err := client(addr, *conns, *n, *warm, d)
		stop()
		r.procs += label
		report(r, err)
	}
}

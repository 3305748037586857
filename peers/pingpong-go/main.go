// Measurement anchor for the ping-pong load client (`tickwork-load.jar pingpong`): the same
// workload in Go, a goroutine per connection on each side, so the comparison with Go's scheduler
// and netpoller is reproducible. Standard library only; not part of the Maven build (built by
// docs/results/many-core/run.sh with go).
//
//	cd peers/pingpong-go && go build -o /tmp/pingpong-go .
//	/tmp/pingpong-go run [-c 100] [-n 1000000] [-w 100000]         # server and client in one process
//	/tmp/pingpong-go server [-port 0] [-d 60s]                      # prints "listening 127.0.0.1:PORT"
//	/tmp/pingpong-go client [-c 100] [-n 1000000] [-w 100000] [-d 120s] HOST:PORT
//
// The server answers "Pong" for every 4 bytes it reads; the client keeps one 4-byte "Ping" in
// flight on each of its -c connections, runs -w unmeasured round trips, then -n measured ones,
// and prints total time / round trips (us per ping, the figure the Java client and the C anchor
// print). TCP_NODELAY is on (Go's default). GOMAXPROCS (default: every core) decides how many
// cores Go uses: set it to compare with a given number of Java threads. Every run is bounded:
// the server by -d, the client by -d (exit 1 if the pings are not done by then).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

var ping = []byte("Ping")
var pong = []byte("Pong")

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

// answer writes one Pong per 4 bytes read, whatever the read boundaries.
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

type result struct {
	pings   int64
	conns   int
	elapsed time.Duration
	errors  int64
}

func (r result) String() string {
	us := float64(r.elapsed.Nanoseconds()) / 1e3 / float64(r.pings)
	return fmt.Sprintf("go: %d pings over %d connections in %.3fs: %.2f us/ping, %.0f pings/s, errors %d",
		r.pings, r.conns, r.elapsed.Seconds(), us, float64(r.pings)/r.elapsed.Seconds(), r.errors)
}

// share splits total among conns: connection i gets total/conns, the first total%conns one more.
func share(total int64, conns, i int) int64 {
	s := total / int64(conns)
	if int64(i) < total%int64(conns) {
		s++
	}
	return s
}

// roundTrips sends a Ping and reads a Pong k times on c.
func roundTrips(c net.Conn, k int64) error {
	var in [4]byte
	for j := int64(0); j < k; j++ {
		if _, err := c.Write(ping); err != nil {
			return err
		}
		if _, err := io.ReadFull(c, in[:]); err != nil {
			return err
		}
		if string(in[:]) != "Pong" {
			return fmt.Errorf("unexpected reply %q", in[:])
		}
	}
	return nil
}

// client opens conns connections to addr, runs warm unmeasured round trips, then n measured
// ones; the clock runs from the moment every connection has finished its warm-up.
func client(addr string, conns int, n, warm int64, deadline time.Duration) (result, error) {
	cs := make([]net.Conn, conns)
	for i := range cs {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			for _, o := range cs[:i] {
				o.Close()
			}
			return result{}, err
		}
		cs[i] = c
	}
	defer func() {
		for _, c := range cs {
			c.Close()
		}
	}()
	end := time.Now().Add(deadline)
	for _, c := range cs {
		c.SetDeadline(end)
	}
	var errs atomic.Int64
	var firstErr atomic.Value
	run := func(k func(i int) int64) {
		var wg sync.WaitGroup
		for i, c := range cs {
			wg.Add(1)
			go func(i int, c net.Conn) {
				defer wg.Done()
				if err := roundTrips(c, k(i)); err != nil {
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err)
				}
			}(i, c)
		}
		wg.Wait()
	}
	run(func(i int) int64 { return share(warm, conns, i) })
	start := time.Now()
	run(func(i int) int64 { return share(n, conns, i) })
	r := result{pings: n, conns: conns, elapsed: time.Since(start), errors: errs.Load()}
	if e, ok := firstErr.Load().(error); ok {
		var ne net.Error
		if errors.As(e, &ne) && ne.Timeout() {
			return r, fmt.Errorf("not done within %v: %w", deadline, e)
		}
		return r, e
	}
	return r, nil
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "pingpong-go: "+format+"\n", a...)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: pingpong-go run|server|client [options]  (-h after the command for its options)")
	}
	cmd, args := os.Args[1], os.Args[2:]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	conns := fs.Int("c", 100, "connections")
	n := fs.Int64("n", 1_000_000, "measured round trips, in all")
	warm := fs.Int64("w", 100_000, "unmeasured round trips first, in all")
	port := fs.Int("port", 0, "server: port on 127.0.0.1 (0: any free one)")
	d := fs.Duration("d", 0, "bound on the run (server default 60s, client and run 120s)")
	fs.Parse(args)
	if *conns < 1 || *n < 1 || *warm < 0 {
		fail("-c and -n must be at least 1, -w at least 0")
	}
	switch cmd {
	case "server":
		if *d == 0 {
			*d = 60 * time.Second
		}
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
		if err != nil {
			fail("%v", err)
		}
		fmt.Printf("listening %s\n", ln.Addr())
		time.AfterFunc(*d, func() { ln.Close() })
		serve(ln)
	case "client":
		if fs.NArg() != 1 {
			fail("client: one HOST:PORT expected")
		}
		if *d == 0 {
			*d = 120 * time.Second
		}
		r, err := client(fs.Arg(0), *conns, *n, *warm, *d)
		if err != nil {
			fail("%v", err)
		}
		fmt.Println(r)
	case "run":
		if *d == 0 {
			*d = 120 * time.Second
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fail("%v", err)
		}
		go serve(ln)
		r, err := client(ln.Addr().String(), *conns, *n, *warm, *d)
		ln.Close()
		if err != nil {
			fail("%v", err)
		}
		fmt.Println(r)
	default:
		fail("unknown command %q: run, server or client", cmd)
	}
}

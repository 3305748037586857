package main

import (
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for the program when serverProcess starts it as a child.
func TestMain(m *testing.M) {
	if os.Getenv("PINGPONG_GO_AS_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// listen serves on an ephemeral port with handle, one goroutine per connection, until the test ends.
func listen(t *testing.T, handle func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go handle(c)
		}
	}()
	return ln.Addr().String()
}

func TestPingsAreAnsweredOnEveryConnection(t *testing.T) {
	addr := listen(t, answer)
	r, err := client(addr, 10, 10_007, 1_000, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if r.pings != 10_007 || r.errors != 0 || r.conns != 10 || r.elapsed <= 0 {
		t.Fatalf("got %+v", r)
	}
	if s := r.String(); !strings.HasPrefix(s, "go: 10007 pings over 10 connections (GOMAXPROCS ") ||
		!strings.HasSuffix(s, "pings/s, errors 0") {
		t.Fatalf("result line %q", s)
	}
}

func TestShareSplitsTheTotal(t *testing.T) {
	var sum int64
	for i := 0; i < 7; i++ {
		sum += share(100, 7, i)
	}
	if sum != 100 || share(100, 7, 0) != 15 || share(100, 7, 6) != 14 || share(3, 7, 6) != 0 {
		t.Fatalf("share: sum %d", sum)
	}
}

func TestAServerAnswersSplitPings(t *testing.T) {
	a, b := net.Pipe()
	go answer(a)
	defer b.Close()
	go func() {
		b.Write([]byte("Pi"))
		b.Write([]byte("ngPingP"))
		b.Write([]byte("ing"))
	}()
	buf := make([]byte, 12)
	b.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadFull(b, buf); err != nil {
		t.Fatal(err)
	}
	if string(buf) != "PongPongPong" {
		t.Fatalf("got %q", buf)
	}
}

// replyThen answers the first ping with reply, then closes the connection.
func replyThen(reply string) func(net.Conn) {
	return func(c net.Conn) {
		defer c.Close()
		var in [4]byte
		if _, err := io.ReadFull(c, in[:]); err == nil {
			c.Write([]byte(reply))
		}
	}
}

func TestWrongOrShortRepliesAreErrors(t *testing.T) {
	for _, reply := range []string{"Pang", "Po", ""} {
		addr := listen(t, replyThen(reply))
		r, err := client(addr, 3, 30, 0, 10*time.Second)
		if err == nil || r.errors != 3 || r.pings != 0 {
			t.Fatalf("reply %q: got %+v, %v", reply, r, err)
		}
	}
}

func TestTheDeadlineBoundsASilentServer(t *testing.T) {
	addr := listen(t, func(c net.Conn) { defer c.Close(); io.Copy(io.Discard, c) })
	start := time.Now()
	_, err := client(addr, 2, 10, 0, 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "not done within 300ms") {
		t.Fatalf("got %v", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Fatalf("took %v", waited)
	}
}

func TestARefusedConnectionIsAnError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	if _, err := client(addr, 1, 1, 0, 5*time.Second); err == nil {
		t.Fatal("no error from a closed port")
	}
}

func TestAServerProcessServesTheClient(t *testing.T) {
	t.Setenv("PINGPONG_GO_AS_MAIN", "1")
	addr, stop, err := serverProcess(1, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	r, err := client(addr, 4, 2_000, 100, 20*time.Second)
	if err != nil || r.pings != 2_000 || r.errors != 0 {
		t.Fatalf("got %+v, %v", r, err)
	}
}

package main

import (
	"net"
	"testing"
	"time"
)

func TestPingsAreAnsweredOnEveryConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go serve(ln)
	r, err := client(ln.Addr().String(), 10, 10_007, 1_000, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if r.pings != 10_007 || r.errors != 0 || r.elapsed <= 0 {
		t.Fatalf("got %+v", r)
	}
}

func TestShareSplitsTheTotal(t *testing.T) {
	var sum int64
	for i := 0; i < 7; i++ {
		sum += share(100, 7, i)
	}
	if sum != 100 || share(100, 7, 0) != 15 || share(100, 7, 6) != 14 {
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
	got := 0
	for got < 12 {
		n, err := b.Read(buf[got:])
		if err != nil {
			t.Fatal(err)
		}
		got += n
	}
	if string(buf) != "PongPongPong" {
		t.Fatalf("got %q", buf)
	}
}

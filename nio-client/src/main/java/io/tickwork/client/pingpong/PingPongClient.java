package io.tickwork.client.pingpong;

import io.tickwork.client.common.ClientSelectorLoop;
import io.tickwork.client.common.ClientSelectorLoop.Clock;
import io.tickwork.client.common.ClientSelectorLoop.Wait;
import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.LatencyRange;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A TCP ping-pong client (the workload of the Go-versus-Scala ping-pong benchmark):
 * {@code connections} persistent connections, each with one 4-byte {@code "Ping"} in flight,
 * until {@code pings} round trips complete or the time limit passes. Selector threads split the
 * connections and the pings evenly. Every round trip's time goes into an HdrHistogram; the
 * headline figure is total time divided by round trips (µs per ping, the inverse of throughput;
 * the usual ping-pong metric). A reply other than {@code "Pong"} is
 * an error and ends its connection.
 *
 * <p>Each thread runs a {@link ClientSelectorLoop} (ready keys through {@code select(Consumer)}:
 * no selected-key set, nothing allocated per ping; a clock reading per ready key); with {@code
 * spin} the loops poll with {@code selectNow} instead of sleeping in {@code epoll_wait}. The
 * clock starts once every connection is open.
 *
 * <p>Runs in the calling thread plus {@code threads - 1} more; not reusable. {@link #stop} ends a
 * run early from any thread, before or during it; the run still returns what it measured.
 */
final class PingPongClient {
    private static final byte[] PING = {'P', 'i', 'n', 'g'};
    private static final int PONG = ('P' << 24) | ('o' << 16) | ('n' << 8) | 'g';
    /** How often a loop waiting for the others to connect looks for a stop or their failure. */
    private static final long CONNECT_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /** What one run measured. */
    record Result(
            long pings,
            long asked,
            long errors,
            double elapsedSeconds,
            Histogram rtt,
            int connections,
            int threads,
            boolean stopped) {
        double microsPerPing() {
            return pings == 0 ? Double.NaN : elapsedSeconds * 1e6 / pings;
        }

        String toText(String label) {
            return String.format(
                            Locale.ROOT,
                            "%s: %d pings over %d connection%s (%d client thread%s) "
                                    + "in %.3fs: %s us/ping, %.0f pings/s, errors %d%n"
                                    + "  round trip p50 %s  p90 %s  p99 %s  p99.9 %s  max %s%n",
                            label,
                            pings,
                            connections,
                            connections == 1 ? "" : "s",
                            threads,
                            threads == 1 ? "" : "s",
                            elapsedSeconds,
                            pings == 0 ? "-" : String.format(Locale.ROOT, "%.2f", microsPerPing()),
                            pings / Math.max(elapsedSeconds, 1e-9),
                            errors,
                            p(50),
                            p(90),
                            p(99),
                            p(99.9),
                            rtt.getTotalCount() == 0 ? "-" : Fmt.nanos(rtt.getMaxValue()))
                    + (pings < asked
                            ? String.format(
                                    Locale.ROOT,
                                    "  incomplete: %d of %d pings answered: %s%n",
                                    pings,
                                    asked,
                                    stopped
                                            ? "stopped (a signal) before the end"
                                            : errors > 0
                                                    ? errors + " of " + connections + " connections ended in an"
                                                            + " error (closed or reset by the server, or a reply"
                                                            + " other than one Pong per ping)"
                                                    : "the time limit (--duration) passed")
                            : "");
        }

        private String p(double q) {
            return rtt.getTotalCount() == 0 ? "-" : Fmt.nanos(rtt.getValueAtPercentile(q)); // nothing measured
        }
    }

    private final InetSocketAddress target;
    private final int connections;
    private final int threads;
    private final boolean spin;
    private volatile boolean stopped;
    /** A loop failed to open its connections: the others stop waiting for it. */
    private volatile boolean connectFailed;
    /** The running loops, published for {@link #stop}; null before {@link #run}. */
    private volatile List<Loop> running;

    PingPongClient(InetSocketAddress target, int connections, int threads) {
        this(target, connections, threads, false);
    }

    PingPongClient(InetSocketAddress target, int connections, int threads, boolean spin) {
        this.spin = spin;
        this.target = target;
        this.connections = connections;
        this.threads = Math.min(threads, connections);
    }

    Result run(long pings, long timeLimitNanos) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeLimitNanos;
        List<Loop> loops = new ArrayList<>();
        CountDownLatch connected = new CountDownLatch(threads);
        int first = 0; // the loop's first connection, counted over all loops
        for (int i = 0; i < threads; i++) {
            int conns = connections / threads + (i < connections % threads ? 1 : 0);
            loops.add(new Loop(conns, share(pings, connections, first, conns), deadline, connected));
            first += conns;
        }
        running = loops; // then the stop flag, read by every loop before each turn: no stop is missed
        List<Thread> ts = new ArrayList<>();
        for (int i = 1; i < loops.size(); i++) {
            Thread t = new Thread(loops.get(i)::runQuietly, "pingpong-client-" + i);
            t.setDaemon(true);
            t.start();
            ts.add(t);
        }
        loops.get(0).runQuietly();
        for (Thread t : ts) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()) + 5_000));
        }
        List<IOException> failures = new ArrayList<>();
        for (Loop l : loops) {
            failures.add(l.failure);
        }
        IOException failure = runFailure(failures);
        if (failure != null) {
            throw failure;
        }
        // every loop starts its clock once all are connected; the run ends with the last loop's
        // end, before its connections close (with thousands of them that takes as long as the pings)
        long started = loops.get(0).startedAt;
        long ended = started;
        for (Loop l : loops) {
            if (l.startedAt != 0) {
                long end = l.endedAt != 0 ? l.endedAt : System.nanoTime(); // still running past the join's bound
                ended = end - ended > 0 ? end : ended;
            }
        }
        double elapsed = started == 0 ? 0 : (ended - started) / 1e9; // 0: stopped while connecting
        Histogram all = LatencyRange.histogram();
        long done = 0;
        long errors = 0;
        for (Loop l : loops) {
            all.add(l.rtt);
            done += l.done;
            errors += l.errors;
        }
        return new Result(done, pings, errors, elapsed, all, connections, threads, stopped);
    }

    /**
     * The pings of the loop that owns {@code conns} connections from connection {@code first}
     * on: {@code pings} spread evenly over all {@code connections} (the first {@code pings %
     * connections} connections one more), so a loop's share follows its connections and no loop
     * runs alone at the end.
     */
    static long share(long pings, int connections, int first, int conns) {
        long perConnection = pings / connections;
        long extra = pings % connections; // connections [0, extra) take one more
        return perConnection * conns + Math.max(0, Math.min(extra, first + conns) - first);
    }

    /** Whether a loop is inside a blocking connect now (for tests). */
    boolean connectUnderWay() {
        List<Loop> loops = running;
        if (loops != null) {
            for (Loop l : loops) {
                if (l.connecting.underWay()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@link #stop} was called. */
    boolean stopRequested() {
        return stopped;
    }

    /**
     * Ends the run early: the loops stop after their current turn (a loop still connecting stops
     * before its next connection, and a connect under way is cut short by closing its channel),
     * and {@link #run} returns what was measured, {@link Result#stopped} set. Any thread, before or
     * during the run; idempotent.
     */
    void stop() {
        stopped = true;
        List<Loop> loops = running;
        if (loops != null) {
            for (Loop l : loops) {
                ClientSelectorLoop sel = l.loop;
                if (sel != null) {
                    sel.stop();
                }
                l.connecting.cut();
            }
        }
    }

    /**
     * The failure that stopped a run, of the loops' failures (null: none): the first that is not a
     * loop's giving up on the others, else the first.
     */
    static IOException runFailure(List<IOException> failures) {
        IOException failure = null;
        for (IOException f : failures) {
            if (f != null
                    && (failure == null || failure instanceof OtherLoopFailed && !(f instanceof OtherLoopFailed))) {
                failure = f;
            }
        }
        return failure;
    }

    /** A loop that gave up waiting because another one failed to connect: that one's failure is the run's. */
    static final class OtherLoopFailed extends IOException {
        OtherLoopFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final class Loop implements ClientSelectorLoop.Handler {
        final int conns;
        final long pings;
        final long deadline;
        final CountDownLatch connected;
        final Histogram rtt = LatencyRange.histogram();
        final ByteBuffer readBuf = ByteBuffer.allocateDirect(16 * 1024);
        final ByteBuffer ping = ByteBuffer.allocateDirect(4);
        long sent;
        long done;
        long errors;
        int open;
        long startedAt;
        /** When the selector loop ended (last pong, time limit, stop or failure); 0 if it never ran. */
        long endedAt;
        /** Published for {@link #stop}, which also reads the flag the loop checks every turn. */
        volatile ClientSelectorLoop loop;
        /** The blocking connect under way, if any, which {@link #stop} cuts short. */
        final ConnectUnderWay connecting = new ConnectUnderWay();

        volatile IOException failure;

        Loop(int conns, long pings, long deadline, CountDownLatch connected) {
            this.connected = connected;
            this.conns = conns;
            this.pings = pings;
            this.deadline = deadline;
            ping.put(PING).flip();
        }

        void runQuietly() {
            try {
                run();
            } catch (IOException e) {
                failure = e;
            } catch (RuntimeException | Error e) {
                failure = new IOException("client thread failed: " + e, e);
            } finally {
                if (failure != null) {
                    connectFailed = true; // however it failed (a connect, the selector): none waits for it
                }
            }
        }

        void run() throws IOException {
            try (ClientSelectorLoop sel = new ClientSelectorLoop(this, spin ? Wait.SPIN : Wait.SLEEP, Clock.PER_KEY)) {
                loop = sel;
                try {
                    connectAndRun(sel);
                } finally {
                    // every connection made, whatever ended the run: closing the selector does not
                    // close its channels
                    for (SelectionKey k : sel.keys()) {
                        try {
                            k.channel().close();
                        } catch (IOException ignored) {
                            // closing
                        }
                    }
                }
            }
        }

        private void connectAndRun(ClientSelectorLoop sel) throws IOException {
            for (int i = 0; i < conns; i++) {
                if (stopped) {
                    return; // the other loops see the flag too
                }
                SocketChannel ch = SocketChannel.open();
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                // blocking connect (setup, not measured load), bounded by the run's deadline:
                // a listener whose backlog is full drops the SYN, and connect() alone would wait
                // for the kernel's retries, minutes
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (!connecting.begin(ch, () -> stopped)) {
                    return; // stopped: the other loops see the flag too
                }
                try {
                    if (left <= 0) {
                        throw new SocketTimeoutException("no time left to connect to " + target);
                    }
                    ch.socket().connect(target, (int) Math.min(Integer.MAX_VALUE, left));
                    ch.configureBlocking(false);
                    sel.register(ch, SelectionKey.OP_READ, new Conn(ch));
                } catch (IOException | RuntimeException e) {
                    ch.close();
                    if (stopped) {
                        return; // the stop closed it: not a failure
                    }
                    throw e;
                } finally {
                    connecting.end();
                }
                open++;
            }
            connected.countDown();
            try {
                // every loop's connections are open before any clock starts: setup is not measured
                while (!connected.await(
                        Math.max(1, Math.min(CONNECT_POLL_NANOS, deadline - System.nanoTime())),
                        TimeUnit.NANOSECONDS)) {
                    if (stopped) {
                        return;
                    }
                    if (connectFailed || System.nanoTime() - deadline >= 0) {
                        // another loop failed to connect, or still connects at the time limit: its
                        // own error says why
                        throw new OtherLoopFailed("client threads did not all connect in time", null);
                    }
                }
            } catch (InterruptedException e) {
                throw new IOException("interrupted while the client threads connected", e);
            }
            startedAt = System.nanoTime();
            for (SelectionKey k : sel.keys()) {
                sendPing(k, startedAt);
            }
            try {
                sel.run();
            } finally {
                endedAt = System.nanoTime(); // before the connections close
            }
        }

        @Override
        public long beforeSelect(long now) {
            if (done >= pings || open == 0 || now >= deadline || stopped) {
                loop.stop();
            }
            return deadline;
        }

        /** A ready key with its own clock reading ({@link Clock#PER_KEY}), for its round trip. */
        @Override
        public void ready(SelectionKey k, long now) {
            if (k.isValid() && k.isReadable()) {
                read(k, now);
            }
        }

        private void sendPing(SelectionKey k, long now) {
            if (sent >= pings) {
                return;
            }
            Conn c = (Conn) k.attachment();
            ping.clear();
            try {
                int n = ((SocketChannel) k.channel()).write(ping);
                if (n != 4) {
                    throw new IOException("short write of a 4-byte ping: " + n);
                }
            } catch (IOException e) {
                fail(k);
                return;
            }
            sent++;
            c.inflight = true;
            c.sentAt = now;
        }

        private void read(SelectionKey k, long now) {
            Conn c = (Conn) k.attachment();
            readBuf.clear();
            int n;
            try {
                n = ((SocketChannel) k.channel()).read(readBuf);
            } catch (IOException e) {
                fail(k);
                return;
            }
            if (n < 0) {
                fail(k);
                return;
            }
            readBuf.flip();
            while (readBuf.hasRemaining()) {
                c.word = (c.word << 8) | (readBuf.get() & 0xff);
                if (++c.have == 4) {
                    c.have = 0;
                    if (c.word != PONG || !c.inflight || readBuf.hasRemaining()) {
                        // not a pong, a pong with no ping in flight, or bytes after it that came
                        // before the next ping was sent: a reply nobody asked for
                        fail(k);
                        return;
                    }
                    done++;
                    c.inflight = false;
                    rtt.recordValue(LatencyRange.clamp(now - c.sentAt));
                    sendPing(k, now);
                }
            }
        }

        private void fail(SelectionKey k) {
            errors++;
            open--;
            boolean lost = ((Conn) k.attachment()).inflight;
            ((Conn) k.attachment()).inflight = false;
            try {
                k.channel().close();
            } catch (IOException ignored) {
                // closing
            }
            if (lost) {
                sent--; // the ping in flight on it will never be answered: an idle connection sends it now
                for (SelectionKey other : loop.keys()) {
                    if (other != k && other.isValid() && !((Conn) other.attachment()).inflight) {
                        sendPing(other, System.nanoTime());
                        return;
                    }
                }
                // every other connection has a ping in flight: the next pong sends it
            }
        }
    }

    private static final class Conn {
        final SocketChannel ch;
        long sentAt;
        boolean inflight;
        int word;
        int have;

        Conn(SocketChannel ch) {
            this.ch = ch;
        }
    }
}

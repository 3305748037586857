package io.tickwork.client.idle;

import io.tickwork.client.common.ClientSelectorLoop;
import io.tickwork.client.common.ClientSelectorLoop.Clock;
import io.tickwork.client.common.ClientSelectorLoop.Wait;
import io.tickwork.client.common.Fmt;
import io.tickwork.client.common.OsError;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Opens and holds many idle connections from one selector thread (the caller's, running a
 * {@link ClientSelectorLoop} with this holder as its handler), the C1M-style holder: connects
 * ramp up at {@code step} per second with at most {@code maxPending} connects in flight, each
 * bound first to the next source address of {@code sources} so that the ephemeral-port range
 * applies per source address instead of once in total.
 *
 * <p>When the OS refuses, the first failure of each kind is reported with the limit it hit and
 * how to raise it ({@link OsError}). A hard limit (EMFILE, ENFILE, all source addresses out of
 * ports, ECONNREFUSED) stops the ramp; the connections already open are held until the end. The
 * {@link MemoryGuard} stops it the same way when MemAvailable falls below {@code minAvailable}
 * (checked before each turn's connects, /proc/meminfo read at most every 100 ms). On
 * EMFILE a few connections are given back so the JVM keeps descriptors for its own needs (class
 * loading, /proc reads). Connections the server closes are replaced while the ramp was not stopped.
 * Once a second the machine's MemAvailable and TCP socket memory ({@link SystemMemory}) are read
 * for the report, and an {@link IdleProgress} goes to the listener (the progress line, or a child
 * process's JSON line), as one does when the ramp ends.
 *
 * <p>With {@code workload}, each connection idles a random time in [idleMin, idleMax], sends
 * {@code GET path?len=L} with L random in [1, maxLength], reads the response, and idles again.
 *
 * <p>Bounded: everything stops at {@code duration}, or {@code hold} after the ramp ended. Memory
 * is one small object per connection (about 800 B of heap with its channel and key; a response
 * parser more with {@code workload}) plus the kernel's socket. One {@link #run} per holder. Not
 * thread safe: {@link #run} confines everything to the calling thread; {@link #stop()} and {@link
 * #requestRampStop} may be called from any thread.
 */
final class IdleHolder implements ClientSelectorLoop.Handler {

    private static final int EMFILE_HEADROOM = 16;
    /** While the ramp is short of its target, a turn lasts at most this long. */
    private static final long RAMP_TURN_NS = TimeUnit.MILLISECONDS.toNanos(5);

    private final IdleConfig cfg;
    private final PrintStream out;
    private final IdleProgress.Listener listener;
    private final List<IdleConnection> open = new ArrayList<>();
    private final Map<OsError, Long> failures = new EnumMap<>(OsError.class);
    private final boolean[] sourceExhausted;
    private final ByteBuffer readBuf = ByteBuffer.allocateDirect(64 * 1024);
    private final IdleWorkload workload;
    private final MemoryGuard guard;
    /** Set by the running thread, read by {@link #stop()} from any thread. */
    private volatile ClientSelectorLoop loop;

    private volatile boolean stop;
    /** Why another thread asked the ramp to stop; null until it does. */
    private volatile String rampStopRequest;
    /** Published once per loop turn for observers on other threads (tests, a stop controller). */
    private volatile int connectedSeen;

    private volatile long closedSeen;

    private int nextSource;
    private int nextTarget;
    private int pending;
    private int connected;
    private int peak;
    private long attempts;
    /** Connect attempts --step allows now (see beforeSelect); starts full. */
    private double connectTokens = Double.MAX_VALUE;

    private long tokensAt;
    private long closedByServer;
    private long responseBytes;
    private OsError hardLimit;
    private String hardLimitMessage;
    /** Why the ramp stopped (an OS limit or the memory guard); null while it may go on. */
    private String stoppedBy;

    private SystemMemory system;
    // the run's clock: start, hard end, end of the hold, next progress line (nanoTime)
    private long start;
    private long end;
    private long holdEnd;
    private long nextTick;
    private long rampEndedAt = -1;
    private IdleMemory before;
    private IdleMemory atRamp;
    private int second;
    private int lastConnected;
    private long lastRequests;
    private long lastBytes;

    /** The workload's timers pending; on the holder's thread, or once {@link #run} has returned. */
    int workloadTimers() {
        return workload.pendingTimers();
    }

    /** Events (limits hit, the end of the ramp) to {@code out}, progress to {@code listener}; either may be null. */
    IdleHolder(IdleConfig cfg, PrintStream out, IdleProgress.Listener listener) {
        this.cfg = cfg;
        this.out = out;
        this.listener = listener;
        this.workload = new IdleWorkload(cfg, this::lost, this::close);
        this.sourceExhausted = new boolean[cfg.sources().size()];
        this.guard = new MemoryGuard(cfg.minAvailable(), SystemMemory::readMemAvailable);
    }

    void stop() {
        stop = true;
        ClientSelectorLoop l = loop;
        if (l != null) {
            l.stop();
        }
    }

    /**
     * From any thread: no more connects, hold what is open, {@code why} the report's {@code stopped_by}
     * (unless the ramp had stopped); seen at the next turn, within 5 ms while ramping.
     */
    void requestRampStop(String why) {
        rampStopRequest = why;
    }

    /** Connections open as of the last loop turn; readable from any thread. */
    int connectedSeen() {
        return connectedSeen;
    }

    /** Connections the server has closed so far, as of the last loop turn; any thread. */
    long closedSeen() {
        return closedSeen;
    }

    /** How {@link #cutShort} begins: what a fleet's report recognises in its children's. */
    static final String CUT_SHORT = "the end of the run, before the ramp's: ";

    /** {@code stopped_by} for a run that ended with its ramp under way: what ended it, how far it got. */
    static String cutShort(String what, long connected, long target) {
        return CUT_SHORT + what + " at " + connected + " of " + target;
    }

    /** Ramps, holds and reports; once per holder. */
    IdleResult run() throws IOException {
        OsError.values(); // load what the failure path needs while descriptors are plentiful
        Fmt.bytes(0);
        before = IdleMemory.measure(cfg, true);
        if (out != null) {
            out.println("before: " + before.describe(null, 0));
        }
        start = System.nanoTime();
        end = start + cfg.duration().toNanos();
        holdEnd = end;
        nextTick = start + TimeUnit.SECONDS.toNanos(1);
        try (ClientSelectorLoop l = new ClientSelectorLoop(this, Wait.SLEEP, Clock.PER_TURN)) {
            loop = l;
            if (stop) {
                l.stop(); // stopped before the loop existed
            }
            try {
                l.run();
            } finally {
                // connects still pending are known only to the selector's keys, and closing the
                // selector leaves their channels open: close them here, or they stay open after
                // the run (and the kernel may complete them into live connections)
                for (SelectionKey k : new ArrayList<>(l.keys())) {
                    if (k.attachment() instanceof IdleConnection c && c.pending) {
                        close(c);
                    }
                }
            }
            if (stoppedBy == null && rampEndedAt < 0 && connected < cfg.connections()) { // the ramp still under way
                stoppedBy = cutShort(
                        stop ? "a stop request (a signal)" : "the duration (-D)", connected, cfg.connections());
            }
            IdleMemory last = atRamp != null ? atRamp : IdleMemory.measure(cfg, true);
            SystemMemory atEnd = SystemMemory.read();
            guard.seen(atEnd.memAvailable());
            return new IdleResult(
                    cfg.connections(),
                    connected,
                    peak,
                    attempts,
                    new EnumMap<>(failures),
                    hardLimit,
                    hardLimitMessage,
                    stoppedBy,
                    closedByServer,
                    workload.requests(),
                    responseBytes,
                    workload.timeouts(),
                    workload.badResponses(),
                    workload.closedUnanswered(),
                    workload.non2xx(),
                    workload.latency(),
                    before,
                    last,
                    atEnd,
                    guard.min(),
                    cfg.minAvailable(),
                    guard.enabled(),
                    (System.nanoTime() - start) / 1e9);
        } finally {
            loop = null;
            while (!open.isEmpty()) {
                IdleConnection c = open.get(open.size() - 1);
                try {
                    // a reset, not a FIN: the source port does not then sit in TIME_WAIT for a
                    // minute, so a next run from the same sources can bind it at once
                    c.ch.setOption(StandardSocketOptions.SO_LINGER, 0);
                } catch (IOException | RuntimeException ignored) {
                    // closed normally then
                }
                close(c);
            }
        }
    }

    /** Top of a turn: the end, the ramp's connects, the end of the ramp, and the next deadline. */
    @Override
    public long beforeSelect(long now) {
        if (now >= holdEnd || hardLimit != null && connected == 0 && pending == 0) {
            // a hard limit with nothing open: no connection to hold, and none will be tried
            loop.stop();
            return Math.min(now, holdEnd);
        }
        if (stoppedBy == null && rampStopRequest != null) {
            stopRamp(rampStopRequest); // set once, never reset: the second read is the first's value
        }
        if (stoppedBy == null) {
            // --step bounds connect attempts, the first ones and those replacing connections the
            // server closed alike: a bucket refilled at step a second, one token spent per attempt,
            // holding min(step, 100) or two quiet turns' worth, whichever is more (a fast ramp is
            // not held back by the turn length), so a server that closes everything at once after
            // a long hold gets no more than the ramp did
            double burst = Math.max(Math.min(cfg.step(), 100), cfg.step() * 2.0 * RAMP_TURN_NS / 1e9);
            connectTokens = Math.min(burst, connectTokens + (now - tokensAt) / 1e9 * cfg.step());
            tokensAt = now;
            if (connected + pending < cfg.connections() && connectTokens >= 1 && pending < cfg.maxPending()) {
                String low = guard.check(now);
                if (low != null) {
                    stopRamp(low);
                }
            }
            while (stoppedBy == null
                    && connected + pending < cfg.connections()
                    && connectTokens >= 1
                    && pending < cfg.maxPending()) {
                long before = attempts;
                open(now);
                connectTokens -= attempts - before;
            }
        }
        if (rampEndedAt < 0 && (connected >= cfg.connections() || stoppedBy != null) && pending == 0) {
            rampEnded(now);
        }
        long deadline = Math.min(nextTick, holdEnd);
        deadline = Math.min(deadline, workload.nextDeadline());
        if (stoppedBy == null && connected + pending < cfg.connections()) {
            deadline = Math.min(deadline, now + RAMP_TURN_NS);
        }
        return deadline;
    }

    private void rampEnded(long now) {
        rampEndedAt = now;
        holdEnd = Math.min(end, now + cfg.hold().toNanos());
        atRamp = IdleMemory.measure(cfg, true);
        if (out != null) {
            out.printf(
                    Locale.ROOT,
                    "ramp done in %.1fs: %d of %d connected%s%n",
                    (now - start) / 1e9,
                    connected,
                    cfg.connections(),
                    stoppedBy == null ? "" : " (stopped by " + stoppedBy + ")");
            out.println("memory: " + atRamp.describe(before, connected));
            out.printf(Locale.ROOT, "holding until %.1fs%n", (holdEnd - start) / 1e9);
        }
        if (listener != null) {
            listener.rampEnded(progress());
        }
    }

    /** After the events: workload timers, what observers see, and the once-a-second work. */
    @Override
    public void afterSelect(long now) {
        workload.runTimers(now);
        connectedSeen = connected;
        closedSeen = closedByServer;
        if (now >= nextTick) {
            second++;
            nextTick += TimeUnit.SECONDS.toNanos(1);
            checkConnectTimeouts(now);
            system = SystemMemory.read();
            guard.seen(system.memAvailable());
            if (listener != null) {
                listener.second(progress());
            }
            lastConnected = connected;
            lastRequests = workload.requests();
            lastBytes = responseBytes;
        }
    }

    /** What the holder has reached now, for the listener. */
    private IdleProgress progress() {
        return new IdleProgress(
                second,
                cfg.connections(),
                connected,
                pending,
                peak,
                attempts,
                new EnumMap<>(failures),
                closedByServer,
                connected - lastConnected,
                ProcMemory.selfRssBytes(),
                system == null ? SystemMemory.read() : system,
                workload.requests(),
                workload.requests() - lastRequests,
                responseBytes - lastBytes,
                cfg.workload(),
                stoppedBy,
                rampEndedAt >= 0);
    }

    private void open(long now) {
        int s = -1;
        if (!cfg.sources().isEmpty()) {
            for (int i = 0; i < cfg.sources().size(); i++) {
                int cand = (nextSource + i) % cfg.sources().size();
                if (!sourceExhausted[cand]) {
                    s = cand;
                    break;
                }
            }
            if (s < 0) {
                hardStop(OsError.EADDRNOTAVAIL, "all " + cfg.sources().size() + " source addresses are out of ports");
                return;
            }
            nextSource = (s + 1) % cfg.sources().size();
        }
        InetSocketAddress target = cfg.targets().get(nextTarget);
        nextTarget = (nextTarget + 1) % cfg.targets().size();
        attempts++;
        SocketChannel ch;
        try {
            ch = SocketChannel.open();
        } catch (IOException e) {
            fail(OsError.classify(e), e, -1);
            return;
        }
        IdleConnection c = new IdleConnection(ch, s);
        try {
            ch.configureBlocking(false);
            if (s >= 0) {
                ch.bind(new InetSocketAddress(cfg.sources().get(s), 0));
            }
            c.startedAt = now;
            pending++;
            c.pending = true;
            if (ch.connect(target)) {
                c.key = loop.register(ch, 0, c);
                connected(c, now);
            } else {
                c.key = loop.register(ch, SelectionKey.OP_CONNECT, c);
            }
        } catch (IOException | RuntimeException e) {
            failConnect(c, e);
        }
    }

    /** A ready connection: finish its connect, or read (a close, a workload response) and write. */
    @Override
    public void ready(SelectionKey k, long now) {
        IdleConnection c = (IdleConnection) k.attachment();
        if (!k.isValid() || c.closed) {
            return;
        }
        try {
            if (k.isConnectable()) {
                if (c.ch.finishConnect()) {
                    connected(c, now);
                }
                return;
            }
            if (k.isReadable()) {
                read(c, now);
            }
            if (!c.closed && k.isValid() && k.isWritable()) {
                c.flush();
            }
        } catch (IOException | RuntimeException e) {
            if (c.pending) {
                failConnect(c, e);
            } else {
                lost(c);
            }
        }
    }

    private void connected(IdleConnection c, long now) throws IOException {
        c.pending = false;
        pending--;
        connected++;
        peak = Math.max(peak, connected);
        c.index = open.size();
        open.add(c);
        c.ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        c.key.interestOps(SelectionKey.OP_READ); // to see the server close, or workload responses
        if (cfg.workload()) {
            workload.start(c, now);
        }
    }

    private void failConnect(IdleConnection c, Throwable e) {
        OsError kind = OsError.classify(e);
        close(c); // also ends the pending connect
        if (kind == OsError.EADDRINUSE || kind == OsError.EADDRNOTAVAIL) {
            if (c.source >= 0 && !sourceExhausted[c.source]) {
                sourceExhausted[c.source] = true;
                if (out != null) {
                    out.println("source " + cfg.sources().get(c.source).getHostAddress() + " is out of local ports: "
                            + kind.describe(e));
                }
            }
            failures.merge(kind, 1L, Long::sum);
            if (c.source < 0) {
                hardStop(kind, String.valueOf(e.getMessage()));
            }
            return;
        }
        fail(kind, e, c.source);
    }

    private void fail(OsError kind, Throwable e, int source) {
        long n = failures.merge(kind, 1L, Long::sum);
        if (n == 1 && out != null && !kind.hardLimit()) {
            out.println("connect failed: " + kind.describe(e));
        }
        if (kind.hardLimit()) {
            hardStop(kind, String.valueOf(e.getMessage()));
        }
    }

    private void hardStop(OsError kind, String message) {
        if (hardLimit != null) {
            return;
        }
        hardLimit = kind;
        hardLimitMessage = message;
        if (stoppedBy == null) {
            stoppedBy = kind.name() + " (" + kind.what() + ")";
        }
        if (kind == OsError.EMFILE || kind == OsError.ENFILE) {
            // give back a few descriptors: the JVM needs some to load classes and read /proc
            for (int i = 0; i < EMFILE_HEADROOM && !open.isEmpty(); i++) {
                close(open.get(open.size() - 1));
            }
        }
        if (out != null) {
            out.println("limit hit at " + connected + " connections: " + kind.name() + " (" + kind.what() + "): "
                    + message);
            out.println("  how to raise it: " + kind.advice());
            out.println("  no more connects; holding the " + connected + " open connections");
        }
    }

    /** The memory guard tripped, or a stop was asked: no more connects, as after a hard limit, none closed. */
    private void stopRamp(String why) {
        stoppedBy = why;
        if (out != null) {
            out.println(why + " at " + connected + " connections");
            out.println("  no more connects; holding the " + connected + " open connections");
        }
    }

    private void lost(IdleConnection c) {
        closedByServer++;
        workload.lostByServer(c); // a workload request it was awaiting goes unanswered
        close(c);
    }

    private void close(IdleConnection c) {
        if (c.closed) {
            return;
        }
        c.closed = true;
        workload.stop(c);
        if (c.pending) {
            c.pending = false;
            pending--;
        }
        if (c.index >= 0) {
            // swap-remove keeps the open list dense without a search
            IdleConnection last = open.remove(open.size() - 1);
            if (last != c) {
                open.set(c.index, last);
                last.index = c.index;
            }
            c.index = -1;
            connected--;
        }
        try {
            c.ch.close();
        } catch (IOException ignored) {
            // closing: nothing to recover
        }
    }

    private void checkConnectTimeouts(long now) {
        if (pending == 0) {
            return;
        }
        long limit = cfg.connectTimeout().toNanos();
        for (SelectionKey k : new ArrayList<>(loop.keys())) {
            IdleConnection c = (IdleConnection) k.attachment();
            if (c != null && c.pending && now - c.startedAt > limit) {
                failConnect(c, new IOException("connect timed out"));
            }
        }
    }

    private void read(IdleConnection c, long now) throws IOException {
        readBuf.clear();
        int n = c.ch.read(readBuf);
        if (n < 0) {
            workload.endOfInput(c, now);
            lost(c);
            return;
        }
        responseBytes += n;
        if (c.parser == null || !c.awaiting) {
            return; // idle mode: whatever the server sends is ignored
        }
        readBuf.flip();
        workload.read(c, readBuf, now);
    }
}

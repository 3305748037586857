package io.tickwork.server.client.idle;

import io.tickwork.server.client.common.Fmt;
import io.tickwork.server.client.common.LatencyRange;
import io.tickwork.server.client.common.OsError;
import io.tickwork.server.client.common.ResponseParser;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Opens and holds many idle connections from one selector thread (the caller's), the C1M-style
 * holder: connects ramp up at {@code step} per second with at most {@code maxPending} connects
 * in flight, each bound first to the next source address of {@code sources} so that the
 * ephemeral-port range applies per source address instead of once in total.
 *
 * <p>When the OS refuses, the first failure of each kind is reported with the limit it hit and
 * how to raise it ({@link OsError}). A hard limit (EMFILE, ENFILE, all source addresses out of
 * ports, ECONNREFUSED) stops the ramp; the connections already open are held until the end. On
 * EMFILE a few connections are given back so the JVM keeps descriptors for its own needs (class
 * loading, /proc reads). Connections the server closes are replaced while no hard limit was hit.
 *
 * <p>With {@code workload}, each connection idles a random time in [idleMin, idleMax], sends
 * {@code GET path?len=L} with L random in [1, maxLength], reads the response, and idles again.
 *
 * <p>Bounded: everything stops at {@code duration}, or {@code hold} after the ramp ended. Memory
 * is one small object per connection plus the kernel's socket. Not thread safe: {@link #run}
 * confines everything to the calling thread; {@link #stop()} may be called from any thread.
 */
final class IdleHolder {

    private static final int EMFILE_HEADROOM = 16;

    private final IdleConfig cfg;
    private final PrintStream out;
    private final SplittableRandom random;
    private final List<Conn> open = new ArrayList<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
    private final Map<OsError, Long> failures = new EnumMap<>(OsError.class);
    private final boolean[] sourceExhausted;
    private final ByteBuffer readBuf = ByteBuffer.allocateDirect(64 * 1024);
    private final Histogram latency = LatencyRange.histogram();
    private Selector selector;
    private volatile boolean stop;
    /** Published once per loop turn for observers on other threads (tests, a stop controller). */
    private volatile int connectedSeen;

    private volatile long closedSeen;

    private int nextSource;
    private int nextTarget;
    private int pending;
    private int connected;
    private int peak;
    private long attempts;
    private long closedByServer;
    private long requests;
    private long responseBytes;
    private long timeouts;
    private long badResponses;
    private OsError hardLimit;
    private String hardLimitMessage;

    IdleHolder(IdleConfig cfg, PrintStream out) {
        this.cfg = cfg;
        this.out = out;
        this.random = new SplittableRandom(cfg.seed());
        this.sourceExhausted = new boolean[cfg.sources().size()];
    }

    void stop() {
        stop = true;
        Selector s = selector;
        if (s != null) {
            s.wakeup();
        }
    }

    /** Connections open as of the last loop turn; readable from any thread. */
    int connectedSeen() {
        return connectedSeen;
    }

    /** Connections the server has closed so far, as of the last loop turn; any thread. */
    long closedSeen() {
        return closedSeen;
    }

    IdleResult run() throws IOException {
        OsError.values(); // load what the failure path needs while descriptors are plentiful
        Fmt.bytes(0);
        IdleMemory before = IdleMemory.measure(cfg, true);
        if (out != null) {
            out.println("before: " + before.describe(null, 0));
        }
        IdleMemory atRamp = null;
        long start = System.nanoTime();
        long end = start + cfg.duration().toNanos();
        long rampEndedAt = -1;
        long holdEnd = end;
        long nextTick = start + TimeUnit.SECONDS.toNanos(1);
        int lastConnected = 0;
        long lastRequests = 0;
        long lastBytes = 0;
        int second = 0;
        try (Selector sel = Selector.open()) {
            selector = sel;
            while (!stop) {
                long now = System.nanoTime();
                if (now >= holdEnd) {
                    break;
                }
                if (hardLimit == null) {
                    long permitted = Math.min(
                            cfg.connections(), (long) ((now - start) / 1e9 * cfg.step()) + Math.min(cfg.step(), 100));
                    while (hardLimit == null && connected + pending < permitted && pending < cfg.maxPending()) {
                        open(now);
                    }
                }
                if (rampEndedAt < 0 && (connected >= cfg.connections() || hardLimit != null) && pending == 0) {
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
                                hardLimit == null ? "" : " (stopped by " + hardLimit.name() + ")");
                        out.println("memory: " + atRamp.describe(before, connected));
                        out.printf(Locale.ROOT, "holding until %.1fs%n", (holdEnd - start) / 1e9);
                    }
                }
                long wait = Math.min(nextTick, holdEnd) - now;
                if (!timers.isEmpty()) {
                    wait = Math.min(wait, timers.peek().at - now);
                }
                if (hardLimit == null && connected + pending < cfg.connections()) {
                    wait = Math.min(wait, TimeUnit.MILLISECONDS.toNanos(5));
                }
                if (wait > 0) {
                    sel.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
                } else {
                    sel.selectNow();
                }
                now = System.nanoTime();
                Iterator<SelectionKey> it = sel.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey k = it.next();
                    it.remove();
                    handle(k, (Conn) k.attachment(), now);
                }
                runTimers(now);
                connectedSeen = connected;
                closedSeen = closedByServer;
                if (now >= nextTick) {
                    second++;
                    nextTick += TimeUnit.SECONDS.toNanos(1);
                    checkConnectTimeouts(now);
                    if (out != null) {
                        StringBuilder line = new StringBuilder(String.format(
                                Locale.ROOT,
                                "%4ds  target %d  connected %d  pending %d  failed %d  rate %d/s  rss %s",
                                second,
                                cfg.connections(),
                                connected,
                                pending,
                                failedTotal(),
                                Math.max(0, connected - lastConnected),
                                Fmt.bytes(ProcMemory.selfRssBytes())));
                        if (cfg.workload()) {
                            line.append(String.format(
                                    Locale.ROOT,
                                    "  requests %d  %d req/s  %.2f MiB/s",
                                    requests,
                                    requests - lastRequests,
                                    (responseBytes - lastBytes) / (1024.0 * 1024.0)));
                        }
                        out.println(line);
                    }
                    lastConnected = connected;
                    lastRequests = requests;
                    lastBytes = responseBytes;
                }
            }
            IdleMemory last = atRamp != null ? atRamp : IdleMemory.measure(cfg, true);
            IdleResult r = new IdleResult(
                    cfg.connections(),
                    connected,
                    peak,
                    attempts,
                    new EnumMap<>(failures),
                    hardLimit,
                    hardLimitMessage,
                    closedByServer,
                    requests,
                    responseBytes,
                    timeouts,
                    badResponses,
                    latency.copy(),
                    before,
                    last,
                    (System.nanoTime() - start) / 1e9);
            return r;
        } finally {
            selector = null;
            while (!open.isEmpty()) {
                close(open.get(open.size() - 1));
            }
        }
    }

    private long failedTotal() {
        long n = 0;
        for (long v : failures.values()) {
            n += v;
        }
        return n;
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
        Conn c = new Conn(ch, s);
        try {
            ch.configureBlocking(false);
            if (s >= 0) {
                ch.bind(new InetSocketAddress(cfg.sources().get(s), 0));
            }
            c.startedAt = now;
            pending++;
            c.pending = true;
            if (ch.connect(target)) {
                c.key = ch.register(selector, 0, c);
                connected(c, now);
            } else {
                c.key = ch.register(selector, SelectionKey.OP_CONNECT, c);
            }
        } catch (IOException | RuntimeException e) {
            failConnect(c, e);
        }
    }

    private void handle(SelectionKey k, Conn c, long now) {
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
                flush(c);
            }
        } catch (IOException | RuntimeException e) {
            if (c.pending) {
                failConnect(c, e);
            } else {
                lost(c);
            }
        }
    }

    private void connected(Conn c, long now) throws IOException {
        c.pending = false;
        pending--;
        connected++;
        peak = Math.max(peak, connected);
        c.index = open.size();
        open.add(c);
        c.ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        c.key.interestOps(SelectionKey.OP_READ); // to see the server close, or workload responses
        if (cfg.workload()) {
            c.parser = new ResponseParser();
            scheduleIdle(c, now);
        }
    }

    private void failConnect(Conn c, Throwable e) {
        OsError kind = OsError.classify(e);
        if (c.pending) {
            c.pending = false;
            pending--;
        }
        close(c);
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

    private void lost(Conn c) {
        closedByServer++;
        close(c);
    }

    private void close(Conn c) {
        if (c.closed) {
            return;
        }
        c.closed = true;
        if (c.pending) {
            c.pending = false;
            pending--;
        }
        if (c.index >= 0) {
            // swap-remove keeps the open list dense without a search
            Conn last = open.remove(open.size() - 1);
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
        for (SelectionKey k : new ArrayList<>(selector.keys())) {
            Conn c = (Conn) k.attachment();
            if (c != null && c.pending && now - c.startedAt > limit) {
                failConnect(c, new IOException("connect timed out"));
            }
        }
    }

    // ---- http-kit workload ----

    private void scheduleIdle(Conn c, long now) {
        long min = cfg.idleMin().toNanos();
        long span = cfg.idleMax().toNanos() - min;
        c.awaiting = false;
        timers.add(new Timer(now + min + (span > 0 ? random.nextLong(span + 1) : 0), c, ++c.gen));
    }

    private void runTimers(long now) {
        Timer t0;
        while ((t0 = timers.peek()) != null && t0.at <= now) {
            timers.poll();
            Conn c = t0.conn;
            if (c.closed || c.gen != t0.gen) {
                continue; // superseded: a response came before its timeout, or the connection is gone
            }
            if (c.awaiting) {
                timeouts++;
                lost(c);
                continue;
            }
            int len = 1 + random.nextInt(cfg.maxLength());
            String sep = cfg.path().indexOf('?') >= 0 ? "&" : "?";
            InetSocketAddress t = (InetSocketAddress) remote(c);
            byte[] req = ("GET " + cfg.path() + sep + "len=" + len + " HTTP/1.1\r\nHost: "
                            + (t == null ? "127.0.0.1" : t.getAddress().getHostAddress() + ":" + t.getPort())
                            + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1);
            c.outBuf = ByteBuffer.wrap(req);
            c.sentAt = now;
            c.awaiting = true;
            timers.add(new Timer(now + cfg.timeout().toNanos(), c, ++c.gen));
            try {
                flush(c);
            } catch (IOException e) {
                lost(c);
            }
        }
    }

    private static Object remote(Conn c) {
        try {
            return c.ch.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    private void flush(Conn c) throws IOException {
        if (c.outBuf == null) {
            return;
        }
        c.ch.write(c.outBuf);
        if (c.outBuf.hasRemaining()) {
            c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        } else {
            c.outBuf = null;
            c.key.interestOps(SelectionKey.OP_READ);
        }
    }

    private void read(Conn c, long now) throws IOException {
        readBuf.clear();
        int n = c.ch.read(readBuf);
        if (n < 0) {
            if (c.parser != null && c.awaiting) {
                try {
                    if (c.parser.endOfInput()) {
                        responseDone(c, now);
                    }
                } catch (ResponseParser.ParseException e) {
                    badResponses++;
                }
            }
            lost(c);
            return;
        }
        responseBytes += n;
        if (c.parser == null || !c.awaiting) {
            return; // idle mode: whatever the server sends is ignored
        }
        readBuf.flip();
        try {
            if (c.parser.parse(readBuf)) {
                responseDone(c, now);
                if (c.parser.close() || readBuf.hasRemaining()) {
                    lost(c);
                }
            }
        } catch (ResponseParser.ParseException e) {
            badResponses++;
            lost(c);
        }
    }

    private void responseDone(Conn c, long now) {
        requests++;
        latency.recordValue(LatencyRange.clamp(now - c.sentAt));
        scheduleIdle(c, now);
    }

    /** One held connection; confined to the selector thread. */
    static final class Conn {
        final SocketChannel ch;
        final int source;
        SelectionKey key;
        boolean pending;
        boolean closed;
        int index = -1;
        long startedAt;
        // workload only
        ResponseParser parser;
        ByteBuffer outBuf;
        boolean awaiting;
        long sentAt;
        int gen;

        Conn(SocketChannel ch, int source) {
            this.ch = ch;
            this.source = source;
        }
    }

    /** A workload deadline; stale when its connection's generation has moved on. */
    record Timer(long at, Conn conn, int gen) {}
}

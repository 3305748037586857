package io.tickwork.server.http;

import io.tickwork.primitives.order.KeyedSerialExecutor;
import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * An HTTP/1.1 server on NIO selector loops: N loop threads (default one per core), no thread per
 * connection, no buffer per idle connection; keep-alive, pipelining, HTTP/1.0, strict parsing
 * with the right status for bad input, header and idle timeouts on a {@link TimerQueue} per loop,
 * back-pressure for clients that do not read, back-off when {@code accept} fails (EMFILE), an
 * optional cap on open connections, and {@code SO_REUSEPORT} so several processes can share a port.
 * The loop threads are named {@code tickwork-http-PORT-loop-I} and are not daemons: a started
 * server keeps the JVM alive until {@link #close()}.
 *
 * <p>Requests reach one {@link HttpHandler}, called on the loop thread (or on the pool's, see
 * {@link Builder#workers}); responses on a connection go out in request order. {@link #close()}
 * stops gracefully: no new connections, idle ones are closed, responses in flight are finished and
 * the pipelined requests already read are answered (within the drain timeout; the last says
 * {@code Connection: close}, but for a response a worker was computing before the stop, and for
 * requests of the read during which a handler called {@code close()}), then the threads end.
 * Past the drain timeout a connection still waiting for a response is closed without it; a worker
 * still running its handler keeps its pool thread, and its response is dropped.
 * A handler that throws fails its request only (a 500); a loop whose own machinery fails closes
 * its connections and stops the whole server the same way ({@link Builder#onFailure}).
 *
 * <p>Thread safety: {@link Builder#start}, {@link #stats}, {@link #close} may be called from any
 * thread, {@code close} from one of the server's handlers too (it then returns without waiting).
 * A builder is not shared with the servers it started: change it after {@code start} and only
 * the next {@code start} sees the change.
 */
public final class HttpServer implements AutoCloseable {
    /**
     * The finest timer resolution for the timeouts, in ms (the loops' clock): a timeout fires at
     * most one tick late. With {@link #TIMER_TICKS_PER_WHEEL} such ticks a wheel spans about 65 s,
     * enough for the default idle (60 s) and header (10 s) timeouts.
     */
    public static final long TIMER_TICK_MILLIS = 4;

    public static final int TIMER_TICKS_PER_WHEEL = 16384;

    /** The longest timeout the builder accepts. */
    public static final Duration MAX_TIMEOUT = Duration.ofDays(30);

    /**
     * The coarsest tick the loops use, in ms: every timer of a loop shares its tick (the header
     * timeout, the accept back-off), so a timeout longer than about 27 min is not worth a coarser
     * one; it waits in the wheel's overflow heap instead.
     */
    public static final long TIMER_MAX_TICK_MILLIS = 100;

    /**
     * A selector loop's timer queue of {@code kind} on the loops' clock (milliseconds of
     * {@code System.nanoTime()}, counted from now), with {@link #TIMER_TICKS_PER_WHEEL} ticks of
     * {@link #TIMER_TICK_MILLIS}, or longer ticks (up to {@link #TIMER_MAX_TICK_MILLIS}) if that is
     * too short a span for {@code longestTimeoutMillis}, so that the loop's timeouts stay on the
     * wheel rather than in its overflow heap (O(log n) per timer, 16 more bytes each). The tick, and
     * so the most a timeout fires late, is {@code max(4 ms, longest / 16,382)} up to 100 ms: 37 ms
     * for a 10-minute idle timeout. Caveat: the wheel's window starts where the loop last expired
     * its timers (every iteration), so a timeout armed after the loop slept in {@code select} for
     * longer than the span's slack over the timeout (5 s at the defaults) waits in the heap until
     * it comes within the span.
     */
    public static TimerQueue<Object> loopTimers(TimerKind kind, long longestTimeoutMillis) {
        long tick = timerTickMillis(longestTimeoutMillis);
        return TimerQueue.builder(TimeUnit.MILLISECONDS, SelectorLoop.clockMillis())
                .kind(kind)
                .tick(Duration.ofMillis(tick))
                .span(Duration.ofMillis(tick * TIMER_TICKS_PER_WHEEL))
                .build();
    }

    /**
     * The loops' timer tick for timeouts up to {@code longestTimeoutMillis}: a deadline that far
     * ahead of a current cursor lands at most {@code longest / tick + 1} ticks past it, which must
     * be inside the wheel's {@link #TIMER_TICKS_PER_WHEEL}; at most {@link #TIMER_MAX_TICK_MILLIS}.
     */
    static long timerTickMillis(long longestTimeoutMillis) {
        long fit = longestTimeoutMillis <= 0 ? 1 : (longestTimeoutMillis - 1) / (TIMER_TICKS_PER_WHEEL - 2) + 1;
        return Math.min(TIMER_MAX_TICK_MILLIS, Math.max(TIMER_TICK_MILLIS, fit));
    }

    /** How a loop accepts; a seam so tests can make {@code accept} fail like EMFILE. */
    @FunctionalInterface
    interface Acceptor {
        SocketChannel accept(ServerSocketChannel listener) throws IOException;
    }

    /** Settings, validated by {@link Builder}; each server gets a copy of its own at start. */
    static final class Config implements Cloneable {
        String host = "127.0.0.1";
        int port = 9090;
        int threads = Math.min(Runtime.getRuntime().availableProcessors(), Builder.MAX_THREADS);
        long idleTimeoutMillis = 60_000;
        long headerTimeoutMillis = 10_000;
        /** Worker mode: how long a connection waits for its next response, no progress made; 0: for ever. */
        long responseTimeoutMillis;

        long drainTimeoutMillis = 5_000;
        int maxRequestLine = 8 * 1024;
        int maxHeadBytes = 16 * 1024;
        int maxHeaders = 100;
        int maxBody = 16 * 1024;
        int outputBufferSize = 256 * 1024;
        /** Per loop: the most bytes of output held back for slow sockets; 0: a quarter of the heap over the loops. */
        long maxHeldOutput;

        /** Per loop: the most bytes of requests held between reads; 0: an eighth of the heap over the loops. */
        long maxHeldInput;

        /**
         * The input budget of a loop whose parser holds at most {@code maxPending} bytes of one
         * partial request: at least four connections' worth (twice that each: a partial request
         * and a read behind it).
         */
        long heldInputBudget(int maxPending) {
            return maxHeldInput > 0
                    ? maxHeldInput
                    : Math.max(8L * maxPending, Runtime.getRuntime().maxMemory() / 8 / threads);
        }

        long heldOutputBudget() {
            return maxHeldOutput > 0
                    ? maxHeldOutput
                    : Math.max(4L * outputBufferSize, Runtime.getRuntime().maxMemory() / 4 / threads);
        }

        int backlog = 4096;
        int maxConnections = Integer.MAX_VALUE;
        boolean reusePort;
        TimerKind timerKind = TimerKind.WHEEL_LIST;
        /** A custom queue per loop, or null: then {@link #loopTimers} of the kind, sized for the timeouts. */
        Supplier<? extends TimerQueue<Object>> timers;

        TimerQueue<Object> newTimers() {
            return timers != null
                    ? timers.get()
                    : loopTimers(
                            timerKind,
                            Math.max(Math.max(idleTimeoutMillis, headerTimeoutMillis), responseTimeoutMillis));
        }

        HttpHandler handler;
        Consumer<String> log = System.err::println;
        Consumer<Throwable> onFailure = failure -> {};
        Acceptor acceptor = ServerSocketChannel::accept;
        Executor workers;

        Config copy() {
            try {
                return (Config) clone(); // every field a value or a shared, immutable-for-us reference
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** Settings for a server; {@link #start()} binds and starts it. */
    public static final class Builder {
        /** The most selector loops a server runs (as {@code --threads} allows). */
        public static final int MAX_THREADS = 1024;

        private final Config c = new Config();

        private Builder(HttpHandler handler) {
            c.handler = Objects.requireNonNull(handler, "handler");
        }

        /**
         * Address to bind; default {@code 127.0.0.1} (loopback only: {@code 0.0.0.0} for every IPv4
         * interface, {@code ::} for every interface, IPv6 and, where the system maps them, IPv4). An
         * IPv4 address gets an IPv4 socket, so {@code 0.0.0.0} does not also listen on IPv6.
         */
        public Builder host(String host) {
            c.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** Port to bind, 0 for an ephemeral one; default 9090. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be in 0..65535: " + port);
            }
            c.port = port;
            return this;
        }

        /**
         * Number of selector loops (threads), 1 to {@value #MAX_THREADS}; default one per core. Each
         * loop takes its read and output buffers at start.
         */
        public Builder threads(int threads) {
            if (threads < 1 || threads > MAX_THREADS) {
                throw new IllegalArgumentException("threads must be 1.." + MAX_THREADS + ": " + threads);
            }
            c.threads = threads;
            return this;
        }

        /**
         * Keep-alive connections with no request for this long are closed. Every timeout is 1 ms to
         * {@link #MAX_TIMEOUT} (30 days), anything else an {@link IllegalArgumentException}, and
         * counts whole milliseconds (a finer part is dropped).
         */
        public Builder idleTimeout(Duration d) {
            c.idleTimeoutMillis = positiveMillis("idleTimeout", d);
            return this;
        }

        /**
         * A request not complete this long after its first byte gets 408 and a close (slowloris;
         * default 10 s). The body counts too: a request whose body (within the size limit) is not
         * all there in time is refused the same way, after a {@code 100 Continue} as well.
         */
        public Builder headerTimeout(Duration d) {
            c.headerTimeoutMillis = positiveMillis("headerTimeout", d);
            return this;
        }

        /**
         * Worker mode ({@link #workers}): a connection whose next response the workers have not
         * computed within this long, while nothing else moved on it (no byte read or written, no
         * response delivered), gets {@code 503} with {@code Connection: close} in that response's
         * place and closes; the responses to it and to the requests behind it, when the pool
         * computes them, are dropped. The handler is not interrupted: a hung handler keeps its
         * pool thread, and a request it answers late may have had its effect after the client saw
         * the 503. The time-out is logged at most once a minute. Default: none, a connection waits
         * for its handlers however long they take (the idle timeout does not run meanwhile).
         * {@link #start()} refuses it without {@link #workers} ({@link IllegalStateException}).
         */
        public Builder responseTimeout(Duration d) {
            c.responseTimeoutMillis = positiveMillis("responseTimeout", d);
            return this;
        }

        /**
         * How long {@link HttpServer#close()} waits for responses in flight (default 5 s, from
         * 1 ms to {@link #MAX_TIMEOUT}); then it closes the connections still open and logs how
         * many.
         */
        public Builder drainTimeout(Duration d) {
            c.drainTimeoutMillis = positiveMillis("drainTimeout", d);
            return this;
        }

        /**
         * The kind of timer queue each loop runs its timeouts on (default {@code WHEEL_LIST}),
         * built by {@link #loopTimers} with a tick that keeps the longest timeout on the wheel.
         */
        public Builder timerKind(TimerKind kind) {
            c.timerKind = Objects.requireNonNull(kind, "kind");
            c.timers = null;
            return this;
        }

        /**
         * A timer queue of the caller's own for each loop (one new queue per loop), instead of
         * {@link #timerKind}'s. Its clock must be the loops' ({@link #loopTimers} shows how).
         */
        public Builder timers(Supplier<? extends TimerQueue<Object>> timers) {
            c.timers = Objects.requireNonNull(timers, "timers");
            return this;
        }

        /**
         * Limits: request line (414 past it), whole head (431), header count (431), body (413).
         *
         * @throws IllegalArgumentException if the request line is under 16 bytes or longer than
         *     the head, the header count is under 1 or over 100, the body is negative, or head and
         *     body together exceed 64 MiB (each loop's read buffer is twice that sum)
         */
        public Builder limits(int maxRequestLine, int maxHeadBytes, int maxHeaders, int maxBody) {
            new RequestParser(maxRequestLine, maxHeadBytes, maxHeaders, maxBody); // validates
            c.maxRequestLine = maxRequestLine;
            c.maxHeadBytes = maxHeadBytes;
            c.maxHeaders = maxHeaders;
            c.maxBody = maxBody;
            return this;
        }

        /**
         * Per loop, the most bytes of output it holds back for sockets that do not take it (by
         * default a quarter of the heap shared over the loops, at least four output buffers): a
         * connection whose held-back output would take its loop past this is closed instead, so
         * clients that stop reading cannot exhaust the heap however many connect.
         */
        public Builder maxHeldOutput(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxHeldOutput must be >= 1: " + bytes);
            }
            c.maxHeldOutput = bytes;
            return this;
        }

        /**
         * Per loop, the most bytes of requests its connections hold between reads: partial requests
         * (until complete or the header timeout) and requests read behind blocked output or a full
         * worker pipeline (by default an eighth of the heap shared over the loops, at least four
         * connections' worth at the parser's limits). A connection whose bytes would take its loop
         * past this is closed instead, so clients that send large requests slowly cannot exhaust
         * the heap however many connect. A request that arrives in one read is held only behind
         * blocked output or, with {@link #workers}, while the pool owes the loop all it allows.
         */
        public Builder maxHeldInput(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxHeldInput must be >= 1: " + bytes);
            }
            c.maxHeldInput = bytes;
            return this;
        }

        /** Per-loop output buffer (responses of one read are written from it in one call). */
        public Builder outputBufferSize(int bytes) {
            if (bytes < 4096) {
                throw new IllegalArgumentException("outputBufferSize must be >= 4096: " + bytes);
            }
            c.outputBufferSize = bytes;
            return this;
        }

        /**
         * Where the server reports problems (accept failures, handler exceptions). Called on the
         * server's threads; what it throws is ignored, so a failing log cannot fail a request or
         * a loop.
         */
        public Builder log(Consumer<String> log) {
            c.log = Objects.requireNonNull(log, "log");
            return this;
        }

        /**
         * Called once if a selector loop's own machinery fails (an {@code OutOfMemoryError} outside
         * any handler, a selector that throws; a handler's failure is only a 500): the failure is
         * logged, that loop's connections are closed, and the server then stops as by
         * {@link HttpServer#close()} rather than go on with a loop missing (with one loop, its
         * port would accept connections that nobody answers). The callback runs on the failed
         * loop's thread, before that stop; a process would typically exit non-zero.
         */
        public Builder onFailure(Consumer<Throwable> onFailure) {
            c.onFailure = Objects.requireNonNull(onFailure, "onFailure");
            return this;
        }

        /**
         * Worker mode: handlers run on {@code pool} instead of the loop threads (for handlers that
         * block or compute a lot); each connection's responses stay in request order through a
         * {@code KeyedSerialExecutor} keyed by connection, at most 64 requests per connection in
         * flight, and per loop at most one per 16 KiB of its {@link #maxHeldOutput} (at least 64;
         * past that a connection keeps what it read, reads no more, and waits its turn), so that
         * responses computed for clients that do not read cannot fill the heap. The caller owns the pool and shuts it down after {@link HttpServer#close()}: a
         * request the pool refuses (shut down, or saturated with a rejecting policy while none of
         * the server's workers runs) is answered 503 after the responses before it, the connection
         * closes after that, and the refusal is logged. Handlers then run on
         * the pool's threads and may block; a pool that runs tasks in the caller
         * ({@code CallerRunsPolicy}) runs them on the loop thread, which waits for them.
         */
        public Builder workers(Executor pool) {
            c.workers = Objects.requireNonNull(pool, "pool");
            return this;
        }

        /**
         * At most {@code max} connections open at once, over all loops. At the cap the loops stop
         * accepting: new connections wait in the kernel's accept queue (the backlog) until one
         * closes, then the loop that closed it accepts at once and the others within 10 ms. Keeps
         * the process under a descriptor limit with room to spare for its own files. Default: no
         * cap (nothing is counted).
         */
        public Builder maxConnections(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxConnections must be >= 1: " + max);
            }
            c.maxConnections = max;
            return this;
        }

        /**
         * {@code SO_REUSEPORT} on the listening socket: other sockets with the option, of the same
         * user, may bind the same address and port, and the kernel spreads new connections over
         * them by a hash of each connection's addresses and ports (Linux 3.9+). A connection waits
         * in the accept queue of the socket it was hashed to, whatever the load of the others.
         * {@link #start()} throws {@link UnsupportedOperationException} where the platform lacks
         * the option. Default: off.
         */
        public Builder reusePort(boolean on) {
            c.reusePort = on;
            return this;
        }

        Builder acceptor(Acceptor acceptor) {
            c.acceptor = acceptor;
            return this;
        }

        /** Binds and starts the loops. */
        public HttpServer start() throws IOException {
            if (c.responseTimeoutMillis > 0 && c.workers == null) {
                throw new IllegalStateException(
                        "responseTimeout needs workers: handlers on the loops cannot be timed out");
            }
            return new HttpServer(c.copy());
        }

        private static long positiveMillis(String name, Duration d) {
            Objects.requireNonNull(d, name);
            if (d.compareTo(MAX_TIMEOUT) > 0) {
                // the loops add timeouts to their clock: an unbounded one would overflow
                throw new IllegalArgumentException(name + " must be at most " + MAX_TIMEOUT.toDays() + " days: " + d);
            }
            long ms = d.toMillis();
            if (ms <= 0) {
                throw new IllegalArgumentException(name + " must be at least 1 ms: " + d);
            }
            return ms;
        }
    }

    public static Builder builder(HttpHandler handler) {
        return new Builder(handler);
    }

    private final Config config;
    private final ServerSocketChannel listener;
    private final List<SelectorLoop> loops = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private final AtomicLong lastAcceptFailureLog = new AtomicLong();
    private final AtomicLong acceptFailures = new AtomicLong();
    private final AtomicBoolean acceptRecoveryUnreported = new AtomicBoolean();
    /** Orders the accept failure's log line before the recovery's. */
    private final Object acceptLog = new Object();

    private final AtomicBoolean closing = new AtomicBoolean();
    private final AtomicBoolean failureReported = new AtomicBoolean();
    /** Connections open over all loops while a cap is set; not counted without one. */
    private final AtomicInteger connections = new AtomicInteger();

    private final AtomicLong lastCapLog = new AtomicLong();
    private final ThrottledReport refusals = new ThrottledReport();
    private final ThrottledReport sheds = new ThrottledReport();
    private final ThrottledReport inputSheds = new ThrottledReport();
    private final ThrottledReport responseTimeouts = new ThrottledReport();
    private final InetSocketAddress address;
    private KeyedSerialExecutor<Connection> keyed;

    private HttpServer(Config config) throws IOException {
        this.config = config;
        RequestParser parser =
                new RequestParser(config.maxRequestLine, config.maxHeadBytes, config.maxHeaders, config.maxBody);
        InetSocketAddress bindTo = new InetSocketAddress(config.host, config.port);
        // an IPv4 address on a dual-stack channel would bind ::, every IPv6 interface as well
        this.listener = bindTo.getAddress() instanceof java.net.Inet4Address
                ? ServerSocketChannel.open(java.net.StandardProtocolFamily.INET)
                : ServerSocketChannel.open();
        try {
            if (config.reusePort) {
                listener.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            }
            listener.bind(bindTo, config.backlog);
            listener.configureBlocking(false);
            this.address = (InetSocketAddress) listener.getLocalAddress();
            for (int i = 0; i < config.threads; i++) {
                loops.add(new SelectorLoop(this, config, parser, listener));
            }
        } catch (Throwable e) { // an Error too (a loop's buffers, say): the port and the selectors go back
            closeQuietly(listener, e);
            for (SelectorLoop l : loops) {
                closeQuietly(l.selector, e);
            }
            throw e;
        }
        warnIfBudgetsPassHalfTheHeap(parser);
        for (int i = 0; i < loops.size(); i++) {
            Thread t = new Thread(loops.get(i), "tickwork-http-" + address.getPort() + "-loop-" + i);
            t.setDaemon(false); // whatever the starting thread is: the server keeps the JVM alive
            threads.add(t);
            t.start();
        }
    }

    /**
     * Each loop holds back at most its budgets of output and of requests for slow clients (by
     * default a quarter and an eighth of the heap over the loops), but never less than a few
     * buffers' worth: with many loops on a small heap those floors add up past it, and clients that
     * stop reading could exhaust the heap before a budget refuses them. Logged once, at the start.
     */
    private void warnIfBudgetsPassHalfTheHeap(RequestParser parser) {
        long heap = Runtime.getRuntime().maxMemory();
        long perLoop = config.heldOutputBudget() + config.heldInputBudget(parser.maxPending());
        long held = perLoop > Long.MAX_VALUE / config.threads ? Long.MAX_VALUE : perLoop * config.threads;
        if (heap != Long.MAX_VALUE && held > heap / 2) {
            log(String.format(
                    java.util.Locale.ROOT,
                    "warning: %d loop(s) may hold %,d MiB of output and requests for slow clients, over half"
                            + " of the %,d MiB heap: clients that stop reading could exhaust it (run fewer"
                            + " loops or give a larger heap; or lower HttpServer.Builder's maxHeldOutput, maxHeldInput)",
                    config.threads,
                    held >> 20,
                    heap >> 20));
        }
    }

    private static void closeQuietly(java.io.Closeable c, Throwable failure) {
        try {
            c.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    public InetSocketAddress address() {
        return address;
    }

    public int port() {
        return address.getPort();
    }

    public int threads() {
        return loops.size();
    }

    public ServerStats stats() {
        long open = 0, accepted = 0, requests = 0, in = 0, out = 0;
        for (SelectorLoop l : loops) {
            open += l.publishedOpen;
            accepted += l.publishedAccepted;
            requests += l.publishedRequests;
            in += l.publishedBytesIn;
            out += l.publishedBytesOut;
        }
        return new ServerStats(
                open, accepted, requests, in, out, (System.nanoTime() - startNanos) / 1_000_000, loops.size());
    }

    /** The one ordered executor all loops share in worker mode (created on first use, at construction). */
    synchronized KeyedSerialExecutor<Connection> keyedExecutor() {
        if (keyed == null) {
            keyed = KeyedSerialExecutor.builder(config.workers)
                    .fairnessBudget(64)
                    .failureHandler((Connection c, Runnable task, Throwable e) -> log("worker task failed: " + e))
                    .build();
        }
        return keyed;
    }

    /** Connections closed because their held-back output did not fit their loop's budget. */
    long shedConnections() {
        return sumOverLoops(l -> l.output.shed);
    }

    /** The most output any one loop has held back at once, over its connections. */
    long maxHeldOutputBytes() {
        return maxOverLoops(l -> l.output.maxHeldOutSeen);
    }

    /** Request bytes the loops hold now, over all of them (0 once every connection has closed). */
    long heldInputBytes() {
        return sumOverLoops(SelectorLoop::heldInputBytes);
    }

    /** The most request bytes any one loop has held at once, over its connections. */
    long maxHeldInputBytes() {
        return maxOverLoops(l -> l.input.maxHeldSeen);
    }

    /** Connections closed because their held request bytes did not fit their loop's input budget. */
    long inputShedConnections() {
        return sumOverLoops(l -> l.input.shed);
    }

    /** Worker mode: the most responses any one loop has been owed by the pool at once (0 otherwise). */
    long maxOwedResponses() {
        return maxOverLoops(SelectorLoop::maxOwedResponses);
    }

    /** Largest output any connection has held back since start (tests of the back-pressure bound). */
    long maxPendingOutputBytes() {
        return maxOverLoops(l -> l.output.maxPendingOut);
    }

    /** A loop counter (tests), summed over the loops. */
    private long sumOverLoops(ToLongFunction<SelectorLoop> counter) {
        long n = 0;
        for (SelectorLoop l : loops) {
            n += counter.applyAsLong(l);
        }
        return n;
    }

    /** A loop's high-water mark (tests), the largest over the loops. */
    private long maxOverLoops(ToLongFunction<SelectorLoop> mark) {
        long m = 0;
        for (SelectorLoop l : loops) {
            m = Math.max(m, mark.applyAsLong(l));
        }
        return m;
    }

    void log(String message) {
        try {
            config.log.accept(message);
        } catch (Throwable ignored) {
            // a report that cannot be made must not fail what it reports on
        }
    }

    /**
     * On a loop's thread once the loop has ended by a failure of its own (its connections closed,
     * its termination counted): the whole server stops, so no port is left accepting for a loop
     * that is gone. {@link #close()} may run here: it waits only for loops still running, and
     * this one's drain task is skipped as any ended loop's is. The first failure is reported.
     */
    void loopFailed(Throwable failure) {
        if (failureReported.compareAndSet(false, true)) {
            try {
                config.onFailure.accept(failure);
            } catch (RuntimeException | Error callbackFailed) {
                log("the failure callback threw: " + callbackFailed);
            }
        }
        close();
    }

    /**
     * Logged at most once a minute however many loops see it and however often accept flaps
     * between failing and working at the edge of the descriptor limit; the suppressed count is
     * reported with the next message.
     */
    void acceptFailed(IOException e, long backoffMillis) {
        acceptFailures.incrementAndGet();
        if (dueOnceAMinute(lastAcceptFailureLog)) {
            long n = acceptFailures.getAndSet(0);
            synchronized (acceptLog) { // the failure's line, then the recovery's, never the other way round
                acceptRecoveryUnreported.set(true); // before the line: an accept after it reports the recovery
                log("accept failed (" + e.getMessage()
                        + "); still serving open connections, retrying with back-off from " + backoffMillis + " ms"
                        + (n > 1 ? " (" + (n - 1) + " more failures since the last report)" : ""));
            }
        }
    }

    /**
     * Whether a report throttled to once a minute is due, {@code last} holding when the previous
     * one was made (nanoTime, 0 for never): if so, claims it (one caller of racing ones wins).
     */
    private static boolean dueOnceAMinute(AtomicLong last) {
        long now = System.nanoTime();
        long before = last.get();
        return (before == 0 || now - before >= TimeUnit.MINUTES.toNanos(1))
                && last.compareAndSet(before, now == 0 ? 1 : now);
    }

    /**
     * The worker pool refused a request, which was answered 503. Logged at most once a minute: a
     * saturated pool refuses many, and the suppressed count is reported with the next message.
     */
    void workersRefused(RuntimeException refused) {
        refusals.report(() -> "the worker pool refused a request, answered 503 (" + refused.getMessage() + ")");
    }

    /**
     * A loop closed a connection whose held request bytes did not fit its input budget of
     * {@code budget} bytes. Logged at most once a minute, with the count since the last report.
     */
    void inputShed(long budget) {
        inputSheds.report(
                () -> "closed a connection whose partial or held-back requests would pass its loop's input budget of "
                        + budget + " bytes (clients sending requests slowly, or not reading their responses)");
    }

    /**
     * A loop closed a connection whose held-back output did not fit its budget of {@code budget}
     * bytes (clients that do not read what they asked for). Logged at most once a minute, with
     * the count since the last report.
     */
    void outputShed(long budget) {
        sheds.report(() -> "closed a connection whose unread output would pass its loop's budget of " + budget
                + " bytes (its client not taking its responses)");
    }

    /**
     * A connection waited longer than the response timeout for the workers and was answered 503.
     * Logged at most once a minute, with the count since the last report.
     */
    void responseTimedOut() {
        responseTimeouts.report(() ->
                "no response within " + config.responseTimeoutMillis + " ms from the workers: answered 503 and closed");
    }

    /**
     * An event counted each time it happens and logged at most once a minute, the count since the
     * last line with it; any thread.
     */
    private final class ThrottledReport {
        private final AtomicLong count = new AtomicLong();
        private final AtomicLong last = new AtomicLong();

        /** Counts one; logs {@code what} (built only then) if a line is due. */
        void report(Supplier<String> what) {
            count.incrementAndGet();
            if (dueOnceAMinute(last)) {
                long n = count.getAndSet(0);
                log(what.get()
                        + (n > 1 ? "; " + (n - 1) + " more since the last report" : "")
                        + " (reported at most once a minute)");
            }
        }
    }

    /**
     * Takes one of the {@code maxConnections} places for a connection about to be accepted;
     * {@code false} at the cap. Linearizes at the successful CAS, so loops racing for the last
     * place cannot overshoot the cap.
     */
    boolean claimConnection() {
        int max = config.maxConnections;
        if (max == Integer.MAX_VALUE) {
            return true;
        }
        for (int n = connections.get(); n < max; n = connections.get()) {
            if (connections.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        if (dueOnceAMinute(lastCapLog)) {
            log(max + (max == 1 ? " connection" : " connections")
                    + " open, the cap: accepting again as connections close" + " (reported at most once a minute)");
        }
        return false;
    }

    /** Gives back a place taken by {@link #claimConnection()}: its connection closed or was never accepted. */
    void releaseConnection() {
        if (config.maxConnections != Integer.MAX_VALUE) {
            connections.decrementAndGet();
        }
    }

    /** An accept succeeded: logs the recovery once if a failure was logged; a plain read otherwise. */
    void acceptRecovered() {
        if (acceptRecoveryUnreported.get()) {
            synchronized (acceptLog) {
                if (acceptRecoveryUnreported.compareAndSet(true, false)) {
                    log("accept works again");
                }
            }
        }
    }

    /** Set by {@link #endDrainNow()}: a drain, under way or to come, ends at once. */
    private volatile boolean drainCutShort;

    /**
     * Cuts the graceful stop short: each loop closes the connections it is still draining on its
     * next turn, as if the drain timeout had passed, and {@link #close()} returns then. Called
     * before {@code close()}, it makes that drain end at once; after, it does nothing. Any thread;
     * idempotent.
     */
    public void endDrainNow() {
        drainCutShort = true; // first: a drain that starts after this reads it (SelectorLoop.drain)
        for (SelectorLoop l : loops) {
            l.endDrainNow(); // and one under way is cut on its loop's next turn
        }
    }

    /** Whether {@link #endDrainNow()} was called. */
    boolean drainCutShort() {
        return drainCutShort;
    }

    /**
     * The server whose handler this worker thread is running, if any: its close() must not wait
     * for itself. Not set on loop threads, which close() recognises by themselves.
     */
    static final ThreadLocal<HttpServer> HANDLING = new ThreadLocal<>();

    /**
     * Graceful stop: stops accepting, closes idle connections, finishes responses in flight and
     * answers the requests read and held back behind them (up to the drain timeout; a request not
     * yet complete is not answered), then ends the loop threads. Idempotent; returns when they have
     * ended, or, for a loop thread held in a handler that blocks (which a loop's handler must not),
     * after waiting for it the drain timeout plus 5 s (the thread is left running). Called from one of this server's handlers or loop threads, it starts the same stop on
     * a thread of its own and returns at once: waiting there would wait for itself (the loops wait
     * for the handler's response), so the caller's response still goes out.
     */
    @Override
    public void close() {
        if (HANDLING.get() == this || threads.contains(Thread.currentThread())) {
            Thread stopper = new Thread(this::close, "tickwork-close");
            stopper.setDaemon(false); // the stop completes even if everything else has ended
            stopper.start();
            return;
        }
        boolean interrupted = false;
        if (closing.compareAndSet(false, true)) {
            CountDownLatch acceptsStopped = new CountDownLatch(loops.size());
            for (SelectorLoop l : loops) {
                if (l.terminated.getCount() == 0) {
                    acceptsStopped.countDown(); // ended (failed): it accepts nothing and runs no task
                } else {
                    l.drain(config.drainTimeoutMillis, acceptsStopped::countDown);
                }
            }
            // Then the listening socket goes at once, not after the drain: until it is closed the
            // kernel keeps completing handshakes into its backlog, and those connections would
            // wait out the drain and be reset. Closed, new ones are refused (or, with --processes,
            // go to another worker's socket).
            try {
                // a loop that has ended already never runs its drain task: wait briefly, not the drain
                acceptsStopped.await(Math.min(config.drainTimeoutMillis, 1_000), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
            try {
                listener.close();
            } catch (IOException ignored) {
                // closed again below; nothing more to release
            }
        }
        for (SelectorLoop l : loops) {
            while (true) {
                try {
                    l.terminated.await(config.drainTimeoutMillis + 5_000, TimeUnit.MILLISECONDS);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        try {
            listener.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
        synchronized (this) {
            if (keyed != null) {
                keyed.shutdown(); // the loops are gone: a late worker task has nobody to answer
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.tickwork.client.bench;

import io.tickwork.client.common.ClientSelectorLoop;
import io.tickwork.client.common.ClientSelectorLoop.Clock;
import io.tickwork.client.common.ClientSelectorLoop.Wait;
import io.tickwork.client.common.LatencyRange;
import io.tickwork.client.common.OsError;
import io.tickwork.client.common.ResponseParser;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One selector thread of {@code bench}: owns a share of the connections, keeps each one's
 * requests in flight, parses responses and records latency. It is the handler of its thread's
 * {@link ClientSelectorLoop}. Everything here is confined to the worker's thread except {@link
 * #counters} and {@link #recorder}, which a reporter reads, and {@link #stop()}.
 *
 * <p>Closed loop: each connection keeps {@code depth} requests outstanding and sends the next as
 * soon as one completes; latency is measured from the moment the request was queued for write.
 * Open loop ({@code rate > 0}): request k of this worker is <em>intended</em> at {@code origin +
 * k / rate}; it goes out on the first connection with a free slot, and its latency is measured
 * from the intended time, so a stalled server is charged for the requests it delayed
 * (coordinated-omission correction as in wrk2). Worker i of T starts its schedule i/T of its
 * interval after the run's start, so together the workers send at the total rate in an even
 * stream, not T requests at once every T/rate. Requests intended at or after the run's end are
 * not sent, nor charged.
 *
 * <p>The run's clock starts at {@link RunStart}: first every connection of every worker connects
 * (or fails to), sending nothing, so that neither the latency nor the run's time holds the
 * client's own connect phase.
 *
 * <p>Warm-up ({@code warmEndNs > startNs}): until then the same workload runs unmeasured. Each
 * request remembers whether it belongs to the measured phase (closed loop: sent in it; open loop:
 * intended in it, so a backlog the warm-up left is not charged to it); only those count toward the
 * result (latency in {@link #recorder}, completions, statuses, the {@code --requests} budget),
 * so requests still in flight at the boundary are not charged to it. Warm-up latencies go to
 * {@link #warmRecorder} for the progress lines only. The event counters (bytes, connects,
 * errors) are counted throughout; at the boundary the worker snapshots them into {@link
 * #baseline} (read after the worker thread ends), and the result is the difference.
 */
final class BenchWorker implements Runnable, ClientSelectorLoop.Handler {

    private static final long HOUSEKEEPING_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long CONNECT_RETRY_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The longest wait before replacing a connection that ended without a response. */
    private static final long MAX_RECONNECT_BACKOFF_NS = TimeUnit.SECONDS.toNanos(1);
    /**
     * How long one housekeeping pass may spend opening connections: a kernel slow to connect (many
     * ports in use, a full backlog) must not stop the loop reading, timing out and measuring; the
     * rest wait for the next pass.
     */
    private static final long HOUSEKEEPING_CONNECTS_NS = TimeUnit.MILLISECONDS.toNanos(2);

    final Counters counters = new Counters();
    final SingleWriterRecorder recorder = LatencyRange.recorder();
    final SingleWriterRecorder warmRecorder = LatencyRange.recorder();
    /** Counter values at the end of the warm-up; null until then (or without warm-up). */
    long[] baseline;

    private final BenchConfig cfg;
    private final List<BenchConnection> conns = new ArrayList<>();
    private final ArrayDeque<BenchConnection> ready = new ArrayDeque<>();
    private final ArrayDeque<BenchConnection> dirty = new ArrayDeque<>();
    private final ByteBuffer readBuf = ByteBuffer.allocateDirect(64 * 1024);
    private final SplittableRandom random;
    private final AtomicLong budget; // closed loop with --requests: requests still to send, shared
    private final long openLoopCount; // open loop with --requests: this worker's share
    private final double ratePerNs;
    private final int index;
    private final double rate;
    private final RunStart gate;
    /** Connections whose first connect has neither succeeded nor failed yet. */
    private int unsettled;
    /** This worker has told {@link #gate} its connects have settled. */
    private boolean announced;
    /** The run's clock has started: the times below are set. */
    private boolean started;
    /** Open loop: the intended time of this worker's request 0, its schedule's origin. */
    private long startNs;

    private long warmEndNs;
    private long endNs;
    private final long timeoutNs;
    private final long connectTimeoutNs;
    /** Written once by the worker thread, read by {@link #stop()} from any thread. */
    private volatile ClientSelectorLoop loop;

    private long nextHousekeeping;
    private long issued; // open loop: intended sends so far, warm-up included
    private long measuredIssued; // open loop: sends in the measured phase
    private boolean measuring;
    private int inflight; // over all connections of this worker
    private long longestAnswer; // the longest latency of a measured response, ns
    private boolean charged; // chargeUnfinished ran: at the end, or when stopped early
    private volatile boolean stop;
    /** What ended this worker's thread other than the end of the run; read after the join. */
    volatile Throwable failure;
    /** Why the first response this worker could not parse was refused; null if none. Read after the join. */
    volatile String firstParseError;

    BenchWorker(
            BenchConfig cfg,
            int index,
            int connections,
            AtomicLong budget,
            long openLoopCount,
            double rate,
            RunStart gate) {
        this.cfg = cfg;
        this.index = index;
        this.rate = rate;
        this.gate = gate;
        this.random = new SplittableRandom(cfg.seed() * 31 + index);
        this.budget = budget;
        this.openLoopCount = openLoopCount;
        this.ratePerNs = rate / 1e9;
        this.unsettled = connections;
        this.timeoutNs = cfg.timeout().toNanos();
        this.connectTimeoutNs = cfg.connectTimeout().toNanos();
        for (int i = 0; i < connections; i++) {
            conns.add(new BenchConnection(cfg.depth(), cfg.maxRequestBytes()));
        }
    }

    /**
     * Starts this worker's clock: the run starts at {@code startNs}, measures from
     * {@code warmEndNs}, ends at {@code endNs}. Worker i of T starts its open-loop schedule i/T of
     * its interval later (see the class comment).
     */
    void begin(long startNs, long warmEndNs, long endNs) {
        this.startNs = startNs + (rate > 0 ? (long) (index * 1e9 / (rate * cfg.threads())) : 0);
        this.warmEndNs = warmEndNs;
        this.endNs = endNs;
        this.measuring = warmEndNs <= this.startNs;
        this.started = true;
    }

    /** The run's clock has started ({@link RunStart#go}): ends this worker's wait for it. Any thread. */
    void wake() {
        ClientSelectorLoop l = loop;
        if (l != null) {
            l.wakeup();
        }
    }

    void stop() {
        stop = true;
        ClientSelectorLoop l = loop;
        if (l != null) {
            l.stop();
        }
    }

    /** When this worker's loop ended (read after the thread ended); 0 before. */
    long loopEndedAt;

    @Override
    public void run() {
        try (ClientSelectorLoop l = new ClientSelectorLoop(this, cfg.spin() ? Wait.SPIN : Wait.SLEEP, Clock.PER_TURN)) {
            loop = l;
            if (stop) {
                l.stop(); // stopped before the loop existed
            }
            for (BenchConnection c : conns) {
                if (stop) {
                    break; // the rest stay unconnected: the run ends before it starts
                }
                connect(c, System.nanoTime()); // each connect's own time: its timeout runs from it
            }
            issued();
            nextHousekeeping = System.nanoTime() + HOUSEKEEPING_NS;
            l.run();
            if (started && measuring && !charged && !finished()) {
                // stopped early (a signal, or the run gave up): what was owed is charged as at the end
                chargeUnfinished(System.nanoTime());
            }
        } catch (IOException e) {
            counters.inc(Counters.ERR_IO); // the selector itself failed: this worker's connections end
            failure = e; // so the run's figures are incomplete, and the command says so
        } catch (RuntimeException | Error e) {
            failure = e; // a bug: the run's figures are incomplete, and the command says so
        } finally {
            issued();
            if (!announced) {
                announced = true;
                gate.settled(); // ended before its connects settled: the run need not wait for it
            }
            loopEndedAt = System.nanoTime(); // before the closes: they are not the run's time
            for (BenchConnection c : conns) {
                closeQuietly(c);
            }
        }
    }

    /** Whether this worker told {@link #gate} its first connects have all been begun. */
    private boolean issuedAll;

    private void issued() {
        if (!issuedAll) {
            issuedAll = true;
            gate.issued();
        }
    }

    /** The warm-up ends at {@code warmEndNs}: from then on requests and events are measured. */
    private void enterMeasuredPhaseBy(long now) {
        if (!measuring && now >= warmEndNs) {
            baseline = counters.snapshot();
            measuring = true;
        }
    }

    /** Top of a turn: the warm-up boundary, the end, the next deadline (end, housekeeping, send). */
    @Override
    public long beforeSelect(long now) {
        if (!started) {
            return awaitStart(now);
        }
        enterMeasuredPhaseBy(now);
        if (now >= endNs || finished()) {
            if (measuring && !charged && !finished()) {
                chargeUnfinished(now);
            }
            loop.stop();
            return endNs;
        }
        long deadline = Math.min(measuring ? endNs : warmEndNs, nextHousekeeping);
        if (ratePerNs > 0 && !ready.isEmpty() && mayIssue()) {
            long nextIntended = startNs + (long) Math.ceil(issued / ratePerNs);
            deadline = Math.min(deadline, nextIntended);
        }
        return deadline;
    }

    /**
     * Before the run's clock starts: once every connection's first connect has ended, tells the
     * gate; once the gate says go ({@link #wake()} ends the wait), fills the connections that are
     * up. Until then the loop keeps turning on its connections (a close or a reset is seen, a
     * failed connect retried) and housekeeping (a connect that takes too long is timed out).
     */
    private long awaitStart(long now) {
        if (!announced && unsettled == 0) {
            announced = true;
            gate.settled();
        }
        try {
            if (!announced || !gate.awaitGo(0)) {
                return nextHousekeeping;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            loop.stop();
            return ClientSelectorLoop.NO_DEADLINE;
        }
        begin(gate.start(), gate.warmEnd(), gate.end());
        long at = System.nanoTime();
        for (BenchConnection c : conns) {
            if (c.ch != null && c.connected) {
                topUp(c, at);
            }
        }
        return at; // a turn without waiting: the next one works on the run's clock
    }

    /** After the events: open-loop sends that are due, writes the events queued, housekeeping. */
    @Override
    public void afterSelect(long now) {
        if (!started) {
            if (now >= nextHousekeeping) {
                housekeeping(now);
                nextHousekeeping = now + HOUSEKEEPING_NS;
            }
            return;
        }
        if (ratePerNs > 0) {
            enterMeasuredPhaseBy(now); // the select may have waited past the boundary
            dispatchOpenLoop(now);
        }
        flushDirty(now);
        if (now >= nextHousekeeping) {
            housekeeping(now);
            nextHousekeeping = now + HOUSEKEEPING_NS;
        }
    }

    /**
     * The time is up: a request the server has not answered yet (closed loop: only one that has
     * waited longer than every answer measured), or (open loop) one whose intended
     * time came but that no connection had room to send, was delayed by the server as much as one
     * it answered late. Each is charged its delay so far ({@code now} minus the time it was queued,
     * or its intended time in open loop: a lower bound) in the latency, so a stall at the end of a
     * run counts like one in the middle; they are not counted as completed.
     */
    private void chargeUnfinished(long now) {
        charged = true;
        // closed loop: a request in flight at the end of a healthy run has waited less than a
        // typical answer, and charging that part of a wait would pull the percentiles down; only a
        // wait already longer than every answer measured (a stall) is charged and counted
        long longerThan = ratePerNs > 0 ? -1 : longestAnswer;
        long unanswered = 0;
        for (BenchConnection c : conns) {
            unanswered += c.recordUnfinished(recorder, now, longerThan);
        }
        counters.add(Counters.UNANSWERED_AT_END, unanswered);
        if (ratePerNs <= 0) {
            return; // closed loop: nothing is due that was not sent
        }
        long due = dueBy(now, startNs, ratePerNs, endNs);
        long from = Math.max(issued, firstSendAtOrAfter(startNs, ratePerNs, warmEndNs));
        long room = openLoopCount - measuredIssued; // sends still allowed in the measured phase
        if (from < due && room > 0) {
            long to = due - from <= room ? due : from + room;
            chargeBacklog(recorder, startNs, ratePerNs, from, to, now);
            counters.add(Counters.UNSENT_AT_END, to - from);
        }
    }

    /**
     * Open loop: how many sends are due at {@code now}, those intended at or before it and before
     * {@code endNs} (at most one more, the boundary being rounded as the intended times are).
     */
    static long dueBy(long now, long startNs, double ratePerNs, long endNs) {
        long t = Math.min(now, endNs - 1);
        return t < startNs ? 0 : (long) Math.floor((t - startNs) * ratePerNs) + 1;
    }

    /** Open loop: the intended time of this worker's request 0. */
    long scheduleOrigin() {
        return startNs;
    }

    /** The first send {@code k} whose intended time, {@code startNs + (long) (k / ratePerNs)}, is at or after {@code t}. */
    static long firstSendAtOrAfter(long startNs, double ratePerNs, long t) {
        if (t <= startNs) {
            return 0;
        }
        long k = Math.max(0, (long) Math.ceil((t - startNs) * ratePerNs) - 1);
        while (k > 0 && startNs + (long) ((k - 1) / ratePerNs) >= t) {
            k--; // the floating-point estimate overshot
        }
        while (startNs + (long) (k / ratePerNs) < t) {
            k++; // or fell short
        }
        return k;
    }

    /**
     * Records sends {@code [from, to)} that were due but never made, each delayed by {@code now}
     * minus its intended time {@code startNs + (long) (k / ratePerNs)}. The delays fall in steps of
     * {@code 1 / ratePerNs}; sends whose delays lie within the histogram's resolution (1/2048 of
     * the value, 3 significant digits) of the first of them are recorded once, with their count.
     * So a backlog of any size, billions of sends at a rate the server never kept up with, costs
     * at most about 2,048 steps per factor of e in the delays (some 60,000 for 1 ns to 10 min),
     * not one per send.
     */
    static void chargeBacklog(
            SingleWriterRecorder recorder, long startNs, double ratePerNs, long from, long to, long now) {
        long k = from;
        while (k < to) {
            long delay = now - (startNs + (long) (k / ratePerNs)); // the largest left: delays fall with k
            long lowest = delay >= LatencyRange.HIGHEST_NS
                    ? LatencyRange.HIGHEST_NS // every delay above the range is recorded as its top
                    : delay - Math.max(1, delay >> 11) + 1;
            // the first send after k whose delay is below lowest, i.e. intended after now - lowest
            long next = Math.max(k + 1, firstSendAtOrAfter(startNs, ratePerNs, now - lowest + 1));
            long end = Math.min(next, to);
            recorder.recordValueWithCount(LatencyRange.clamp(delay), end - k);
            k = end;
        }
    }

    private boolean finished() {
        if (!measuring) {
            return false;
        }
        if (ratePerNs > 0) {
            return openLoopCount != Long.MAX_VALUE && measuredIssued >= openLoopCount && inflight == 0;
        }
        return budget != null && budget.get() <= 0 && inflight == 0;
    }

    /** Open loop: another request may be issued (the count applies to the measured phase). */
    private boolean mayIssue() {
        return !measuring || measuredIssued < openLoopCount;
    }

    /** A ready connection: finish its connect, or read its responses and write what is queued. */
    @Override
    public void ready(SelectionKey k, long now) {
        BenchConnection c = (BenchConnection) k.attachment();
        if (!k.isValid() || c.ch == null) {
            return;
        }
        try {
            if (k.isConnectable()) {
                if (c.ch.finishConnect()) {
                    onConnected(c, now);
                }
                return;
            }
            if (k.isReadable()) {
                read(c, now);
            }
            if (c.ch != null && k.isValid() && k.isWritable()) {
                flush(c, now);
            }
        } catch (IOException e) {
            if (!c.connected) {
                connectFailed(c, e, now);
            } else {
                fail(c, Counters.ERR_IO, now);
            }
        }
    }

    private void connect(BenchConnection c, long now) {
        c.reconnectAt = Long.MAX_VALUE;
        SocketChannel ch = null;
        try {
            ch = SocketChannel.open();
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            c.ch = ch;
            c.connectStarted = now;
            c.connected = false;
            c.answered = false;
            if (ch.connect(cfg.address())) {
                c.key = loop.register(ch, 0, c);
                onConnected(c, now);
            } else {
                c.key = loop.register(ch, SelectionKey.OP_CONNECT, c);
            }
        } catch (IOException | RuntimeException e) {
            if (c.ch == null && ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // nothing more to do
                }
            }
            connectFailed(c, e, now);
        }
    }

    private void connectFailed(BenchConnection c, Throwable e, long now) {
        settle(c);
        counters.inc(Counters.ERR_CONNECT);
        counters.inc(Counters.CONNECT_CAUSE + OsError.classify(e).ordinal());
        closeQuietly(c);
        c.reconnectAt = now + CONNECT_RETRY_NS;
    }

    /** A connection's first connect has ended (either way): the run's clock waits for no more of it. */
    private void settle(BenchConnection c) {
        if (!c.settled) {
            c.settled = true;
            unsettled--;
        }
    }

    private void onConnected(BenchConnection c, long now) {
        settle(c);
        c.connected = true;
        counters.inc(Counters.CONNECTS);
        counters.inc(Counters.OPEN);
        counters.lazyMark(Counters.EVER_CONNECTED);
        c.key.interestOps(SelectionKey.OP_READ);
        topUp(c, now);
    }

    /**
     * After a connect or a read: open loop queues the connection for its next slot, closed loop
     * refills it. Before the run's clock starts nothing is sent: the start fills them all.
     */
    private void topUp(BenchConnection c, long now) {
        if (!started) {
            return;
        }
        if (ratePerNs > 0) {
            makeReady(c);
        } else {
            fill(c, now);
            flush(c, now);
        }
    }

    /** Closed loop: top the connection up to depth requests in flight. */
    private void fill(BenchConnection c, long now) {
        while (c.inflight < cfg.depth() && takeBudget()) {
            send(c, now, now);
        }
    }

    /** Closed loop with a count: takes one request from the shared budget, never below zero. */
    private boolean takeBudget() {
        if (budget == null || !measuring) {
            return true;
        }
        for (long b = budget.get(); b > 0; b = budget.get()) {
            if (budget.compareAndSet(b, b - 1)) {
                return true;
            }
        }
        return false; // exhausted: a plain read, no write to the shared counter
    }

    private void makeReady(BenchConnection c) {
        if (!c.inReady && c.connected && c.inflight < cfg.depth()) {
            c.inReady = true;
            ready.addLast(c);
        }
    }

    /** Open loop: send every request whose intended time has come, on connections with room. */
    private void dispatchOpenLoop(long now) {
        long due = dueBy(now, startNs, ratePerNs, endNs);
        while (issued < due && mayIssue()) {
            BenchConnection c = ready.pollFirst();
            if (c == null) {
                return; // all connections are at depth: the backlog waits, its latency keeps growing
            }
            c.inReady = false;
            if (c.ch == null || !c.connected || c.inflight >= cfg.depth()) {
                continue; // a stale entry (closed, or reconnected and listed again since)
            }
            long intended = startNs + (long) (issued / ratePerNs);
            issued++;
            send(c, intended, now);
            if (!c.dirty) {
                c.dirty = true;
                dirty.addLast(c);
            }
            makeReady(c);
        }
    }

    private void send(BenchConnection c, long latencyBase, long now) {
        List<byte[]> requests = cfg.requests();
        c.out.put(requests.get(requests.size() == 1 ? 0 : random.nextInt(requests.size())));
        // open loop: a request belongs to the phase of its intended time, so a backlog built up
        // in the warm-up and sent after it is not charged to the measured phase
        boolean measured = measuring && (ratePerNs <= 0 || latencyBase >= warmEndNs);
        c.queued(latencyBase, now, measured);
        inflight++;
        if (measured) {
            counters.inc(Counters.SENT);
            if (ratePerNs > 0) {
                measuredIssued++;
            }
        }
    }

    private void flushDirty(long now) {
        BenchConnection c;
        while ((c = dirty.pollFirst()) != null) {
            c.dirty = false;
            if (c.ch != null) {
                flush(c, now);
            }
        }
    }

    private void flush(BenchConnection c, long now) {
        if (c.out.position() == 0) {
            return;
        }
        c.out.flip();
        try {
            int n = c.ch.write(c.out);
            counters.add(Counters.BYTES_WRITTEN, n);
        } catch (IOException e) {
            c.out.clear();
            fail(c, Counters.ERR_IO, now);
            return;
        }
        c.out.compact();
        try {
            int ops = c.out.position() > 0 ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
            if (c.key.interestOps() != ops) {
                c.key.interestOps(ops); // only on change: each call queues an epoll update
            }
        } catch (RuntimeException e) {
            fail(c, Counters.ERR_IO, now);
        }
    }

    private void read(BenchConnection c, long now) throws IOException {
        for (int round = 0; round < 4; round++) {
            readBuf.clear();
            int n = c.ch.read(readBuf);
            if (n < 0) {
                onEof(c, now);
                return;
            }
            if (n == 0) {
                break;
            }
            counters.add(Counters.BYTES_READ, n);
            readBuf.flip();
            while (readBuf.hasRemaining()) {
                if (c.inflight == 0) {
                    parseFailed(c, "bytes with no request in flight", now);
                    return;
                }
                boolean done;
                try {
                    done = c.parser.parse(readBuf);
                } catch (ResponseParser.ParseException e) {
                    parseFailed(c, e.getMessage(), now);
                    return;
                }
                if (!done) {
                    break;
                }
                if (!onResponse(c, now)) {
                    return;
                }
            }
            if (n < readBuf.capacity()) {
                break;
            }
        }
        topUp(c, now);
    }

    /** Accounts for one complete response; false if the connection was closed by it. */
    private boolean onResponse(BenchConnection c, long now) {
        long latency = LatencyRange.clamp(now - c.oldestSentAt());
        boolean measured = c.retireOldest();
        inflight--;
        if (measured) {
            recorder.recordValue(latency);
            if (latency > longestAnswer) {
                longestAnswer = latency;
            }
            counters.inc(Counters.COMPLETED);
            counters.inc(Counters.STATUS + c.parser.status()); // 100..599: the parser refuses others
        } else {
            warmRecorder.recordValue(latency);
            counters.inc(Counters.WARM_COMPLETED);
        }
        c.answered = true;
        if (c.parser.close()) {
            // the server ends the connection after this response: not an error, but any requests
            // pipelined behind it will never be answered (giveBack: sent again, or lost)
            giveBack(c, now, false);
            closeQuietly(c);
            replace(c, now);
            return false;
        }
        return true;
    }

    /**
     * Opens a new connection in place of {@code c}, just closed: at once if the old one had a
     * response, else after a wait that doubles with each such connection in a row (from
     * {@link #CONNECT_RETRY_NS} to {@link #MAX_RECONNECT_BACKOFF_NS}), so that a server that
     * accepts and then closes or resets every connection does not get a storm of connects.
     */
    private void replace(BenchConnection c, long now) {
        counters.inc(Counters.RECONNECTS);
        if (c.answered) {
            c.fruitless = 0;
            connect(c, now);
        } else {
            c.reconnectAt = now + Math.min(MAX_RECONNECT_BACKOFF_NS, CONNECT_RETRY_NS << Math.min(c.fruitless, 10));
            c.fruitless++;
        }
    }

    private void onEof(BenchConnection c, long now) {
        try {
            if (c.parser.endOfInput()) {
                if (!onResponse(c, now)) {
                    return;
                }
            }
        } catch (ResponseParser.ParseException e) {
            fail(c, Counters.ERR_CLOSED, now);
            return;
        }
        if (c.inflight > 0) {
            fail(c, Counters.ERR_CLOSED, now);
        } else {
            closeQuietly(c); // an idle keep-alive connection closed by the server: just replace it
            replace(c, now);
        }
    }

    private void parseFailed(BenchConnection c, String why, long now) {
        if (firstParseError == null) {
            firstParseError = why;
        }
        fail(c, Counters.ERR_PARSE, now);
    }

    private void fail(BenchConnection c, int kind, long now) {
        counters.inc(kind);
        giveBack(c, now, kind == Counters.ERR_TIMEOUT);
        closeQuietly(c);
        replace(c, now);
    }

    /**
     * Requests outstanding on a connection that is going away will not be answered. With a count
     * of requests (closed loop, {@code -n}) they go back to the budget and are sent again;
     * otherwise they are lost and counted. Lost to a {@code --timeout} ({@code stalled}), each is
     * also charged its latency so far (a lower bound) in either case, as at the end of a run: a
     * server that stalls is charged for the requests it delayed, not let off them (a request sent
     * again is a new request, with a latency of its own). Lost to a close, a reset or a response
     * that does not parse, they are not: their wait ended at a failure, not an answer, and
     * charging it would make a server that fails fast look fast.
     */
    private void giveBack(BenchConnection c, long now, boolean stalled) {
        int measured = c.measuredInFlight();
        if (measured > 0) {
            if (stalled) {
                c.recordUnfinished(recorder, now, -1);
            }
            if (ratePerNs > 0 || budget == null) {
                counters.add(Counters.LOST, measured);
            } else {
                budget.addAndGet(measured); // closed loop with a count: send them again
            }
        }
        inflight -= c.dropInFlight();
    }

    /**
     * Where the next housekeeping pass starts: at the first connection the last pass had no
     * connect time left for, so that every connection waiting to reconnect gets its turn.
     */
    private int housekeepingFrom;

    private void housekeeping(long now) {
        long connectsUntil = System.nanoTime() + HOUSEKEEPING_CONNECTS_NS;
        int n = conns.size();
        int from = housekeepingFrom;
        int next = -1;
        for (int k = 0; k < n; k++) {
            int i = from + k < n ? from + k : from + k - n;
            BenchConnection c = conns.get(i);
            if (c.ch == null) {
                if (now >= c.reconnectAt) {
                    if (System.nanoTime() - connectsUntil < 0) {
                        connect(c, now);
                    } else if (next < 0) {
                        next = i; // out of time: the next pass starts here
                    }
                }
            } else if (!c.connected) {
                if (now - c.connectStarted > connectTimeoutNs) {
                    connectFailed(c, new IOException("connect timed out"), now);
                }
            } else if (c.inflight > 0 && now - c.oldestWrittenAt() > timeoutNs) {
                fail(c, Counters.ERR_TIMEOUT, now);
            }
        }
        housekeepingFrom = next < 0 ? 0 : next;
    }

    private void closeQuietly(BenchConnection c) {
        if (c.ch != null && c.connected) {
            counters.add(Counters.OPEN, -1);
        }
        inflight -= c.close();
    }
}

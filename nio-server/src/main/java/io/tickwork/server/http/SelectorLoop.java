package io.tickwork.server.http;

import io.tickwork.primitives.timer.TimerQueue;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * One selector thread serving many connections: accepts ({@link LoopAcceptor}: every loop watches
 * the shared listening socket, one wins each connection), reads into one loop-wide buffer, answers
 * every complete request of a read in order, and runs the connections' timeouts on its own
 * {@link TimerQueue}. Everything from a decided response to the close (staging, writing, held-back
 * output, interest, close) belongs to its {@link ConnectionOutput}. In worker mode handlers run on a
 * pool ({@link WorkerDispatch}) and the loop writes the responses it gets back.
 *
 * <p><b>Back-pressure:</b> output the socket does not take stays in {@code pendingOut}, and the
 * connection neither reads nor answers until it drains: a client that pipelines without reading
 * holds at most one output buffer plus one read's worth of requests. In worker mode the loop also
 * stops handing out requests while the pool owes it as many responses as it allows
 * ({@link WorkerDispatch#full()}): a connection then keeps its requests, reads no more, and, if
 * nothing of its own is in flight to resume it, waits in {@link #waitingForWorkers} until a
 * response comes back, first come first served.
 *
 * <p><b>Timeouts</b>, one timer per connection, re-armed lazily (a request records its time; an
 * early timer re-schedules itself): idle keep-alive (close), partial request head older than the
 * header timeout (408, close), output the socket took no byte of within the idle timeout (close;
 * the time between two writes, as nginx's {@code send_timeout}, not the whole response's). While
 * the workers owe a response, only the response timeout runs, if set (503 in that response's place,
 * close), counted from the connection's last progress.
 *
 * <p>Thread safety: all loop-thread state, except {@link #execute} (any thread) and the published
 * counters (volatile, written once per iteration).
 */
final class SelectorLoop implements Runnable, WorkerDispatch.Loop {
    private final HttpServer server;
    private final HttpServer.Config config;
    private final RequestParser parser;
    final Selector selector;
    private final TimerQueue<Object> timers;
    private final byte[] in;
    private final ByteBuffer inBuffer;
    final ConnectionOutput output;
    /** The request bytes this loop's connections hold between reads, and their budget. */
    final HeldInput input;

    private final HttpRequest request = new HttpRequest();
    private final HttpResponse response = new HttpResponse();
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    final CountDownLatch terminated = new CountDownLatch(1);
    private final LoopAcceptor acceptor;
    /** Worker mode's hand-off, or null when handlers run on the loop. */
    private final WorkerDispatch workers;
    /**
     * Worker mode: connections holding requests that the loop did not hand out because the pool
     * owed it all it allows, with none of their own in flight; resumed in order as responses come
     * back. A connection closed or resumed meanwhile is skipped.
     */
    private final ArrayDeque<Connection> waitingForWorkers = new ArrayDeque<>();

    private long now;
    private boolean clockRead; // now read since this iteration's select began (by its first ready key)

    private final Consumer<SelectionKey> onReady = key -> {
        now = clockRead ? now : clock();
        clockRead = true;
        onKey(key);
    };
    private final Consumer<Object> onTimer = this::onTimer;
    private boolean draining;
    private long drainDeadline;
    private long drainGraceMillis;

    private long requests, bytesIn, accepted;
    volatile long publishedRequests, publishedBytesIn, publishedBytesOut, publishedAccepted;
    volatile int publishedOpen;

    SelectorLoop(HttpServer server, HttpServer.Config config, RequestParser parser, ServerSocketChannel listener)
            throws IOException {
        this.server = server;
        this.config = config;
        this.parser = parser;
        this.workers = config.workers == null
                ? null
                : new WorkerDispatch(
                        this,
                        WorkerDispatch.maxOwed(config.heldOutputBudget()),
                        server.keyedExecutor(),
                        parser,
                        server,
                        config.handler);
        this.selector = Selector.open();
        this.timers = config.newTimers();
        // room for the largest partial request plus a full read behind it
        this.in = new byte[Math.max(64 * 1024, 2 * parser.maxPending())];
        this.inBuffer = ByteBuffer.wrap(in);
        this.request.server = server;
        this.now = clock();
        this.acceptor = new LoopAcceptor(listener, selector, config.acceptor, server);
        long heldOutputBudget = config.heldOutputBudget();
        this.input = new HeldInput(config.heldInputBudget(parser.maxPending()));
        this.output = new ConnectionOutput(
                config.outputBufferSize,
                heldOutputBudget,
                () -> server.outputShed(heldOutputBudget),
                input,
                timers,
                acceptor);
        // Load the timer's classes now: the first timer may be armed when no descriptor is left
        // to open a class file with (the accept back-off when the process runs out of them).
        timers.cancel(timers.schedule(now + 1, this));
    }

    private static long clock() {
        return clockMillis();
    }

    /** The loops' clock: milliseconds of {@code System.nanoTime()}. */
    static long clockMillis() {
        return System.nanoTime() / 1_000_000;
    }

    /** Runs {@code task} on this loop's thread, soon. Any thread. */
    @Override
    public void execute(Runnable task) {
        if (!selector.isOpen()) {
            return; // the loop has ended and closed its connections: nothing left to deliver to
        }
        tasks.add(task);
        selector.wakeup();
    }

    @Override
    public void run() {
        Throwable failure = null;
        try {
            while (iterate()) {}
        } catch (Throwable e) { // any, a checked one thrown undeclared included: the server must stop, not hang
            failure = e; // reported below, once the loop is down: logging may fail for want of memory
        } finally {
            try {
                for (SelectionKey key : new ArrayList<>(selector.keys())) {
                    if (key.attachment() instanceof Connection) {
                        output.close((Connection) key.attachment());
                    }
                }
                selector.close();
            } catch (IOException | RuntimeException | Error cleanupFailed) {
                failure = failure != null ? failure : cleanupFailed; // the connections go with the process
            } finally {
                publish();
                terminated.countDown();
                if (failure != null) {
                    try {
                        server.log("selector loop failed, closed its connections; stopping the server: " + failure);
                    } catch (RuntimeException | Error logFailed) {
                        // the stop below matters more than the line
                    }
                    server.loopFailed(failure);
                }
            }
        }
    }

    /**
     * Queued tasks, due timers, one select; false once a drain has finished. Not inlined in
     * {@link #run}: a method is compiled after thousands of calls, a never-ending loop only after
     * tens of thousands of back-edges, which a worker process seeing a few hundred requests a
     * second reaches only after minutes.
     */
    private boolean iterate() throws IOException {
        now = clock(); // for the tasks (a drain's deadline, a delivery's timer)
        for (Runnable t; (t = tasks.poll()) != null; ) {
            t.run();
        }
        // Timers due by the clock read before the tasks fire after them: a worker's response
        // queued by the time its timeout fell due has just been sent, not replaced by a 503.
        // Every turn, due or not: it moves a wheel's window up, so the timeouts armed next land
        // in the wheel, not in its overflow heap. What fell due since waits for the next turn:
        // the wait below is then 1 ms
        timers.expire(now, onTimer);
        // the last turn's keys and these tasks took time: the wait is measured from now
        now = clock();
        long next = timers.nextDeadline();
        // published before the wait, not after the turn: the tasks and that expiry change the
        // counters too (a connection closed there), and an untimed wait may last for ever
        publish();
        // after that expiry: it may have closed a draining loop's last connection
        if (draining && (output.open == 0 || now >= drainDeadline)) {
            if (output.open > 0) {
                server.log("stopping " + Thread.currentThread().getName() + ": " + output.open
                        + " connection(s) still open "
                        + (server.drainCutShort()
                                ? "when a second signal ended the drain"
                                : "after the " + drainGraceMillis + " ms drain timeout")
                        + " (output or requests pending, or the client not done closing); closed");
            }
            return false;
        }
        if (draining) {
            next = Math.min(next, drainDeadline);
        }
        clockRead = false; // select(Consumer): no selected-key set to fill, iterate and clear
        if (next == TimerQueue.NO_DEADLINE) {
            selector.select(onReady);
        } else {
            // what was due at now has just expired, so a deadline at or before now is a wheel
            // answering the start of the current tick: wait, do not spin
            selector.select(onReady, Math.max(1, next - now));
        }
        return true; // what fell due during the wait expires next turn, after the tasks queued meanwhile
    }

    private void publish() {
        publishedRequests = requests;
        publishedBytesIn = bytesIn;
        publishedBytesOut = output.bytesOut;
        publishedAccepted = accepted;
        publishedOpen = output.open;
    }

    /**
     * Starts a graceful stop: no more accepts ({@code acceptsStopped} runs on this loop once it has
     * stopped accepting), idle connections closed, busy ones closed once their output drains. A
     * connection holding requests it read but has not answered (pipelined behind output the client
     * has not read, or behind a full worker pipeline) answers them first: the last response it
     * has read a whole request for says {@code Connection: close}, and a request still incomplete
     * then is not answered ({@link #process}).
     */
    void drain(long graceMillis, Runnable acceptsStopped) {
        execute(() -> {
            draining = true;
            drainDeadline = server.drainCutShort() ? now : now + graceMillis;
            drainGraceMillis = graceMillis;
            acceptor.stop();
            acceptsStopped.run();
            for (SelectionKey key : new ArrayList<>(selector.keys())) {
                if (key.attachment() instanceof Connection) {
                    Connection c = (Connection) key.attachment();
                    if (c.closed) {
                        continue; // closed this turn: its cancelled key stays listed until the next select
                    }
                    if (c.pendingOut == null && c.inFlight == 0 && !c.heldBack()) {
                        output.close(c);
                    } else if (c.pendingIn != null && c.requestStart < 0) {
                        // requests held back: answered once the output drains, the last one closing
                    } else {
                        c.closeAfterResponse(); // the client may be sending: as after any last response
                        output.updateInterest(c);
                    }
                }
            }
        });
    }

    /**
     * Ends a drain under way at once: the connections still open are closed on the loop's next
     * turn, as when the drain timeout passes. Nothing if not draining: a drain that starts later
     * reads {@link HttpServer#drainCutShort()} itself.
     */
    void endDrainNow() {
        execute(() -> {
            if (draining) {
                drainDeadline = now;
            }
        });
    }

    private void onKey(SelectionKey key) {
        Object a = key.attachment();
        if (a == null) {
            if (key.isValid() && key.isAcceptable()) {
                onAcceptable();
            }
            return;
        }
        Connection c = (Connection) a;
        try {
            if (key.isWritable()) {
                writeAndResume(c);
            }
            if (!c.closed && key.isValid() && key.isReadable()) {
                onReadable(c);
            }
        } catch (RuntimeException e) {
            server.log("closing a connection after an unexpected error: " + e);
            output.close(c); // with what was staged for it: not a byte of it may reach the next connection
        }
    }

    private void onAcceptable() {
        for (int i = 0; i < 64 && !draining; i++) {
            SocketChannel ch = acceptor.accept(timers, now);
            if (ch == null) {
                return;
            }
            try {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                Connection c = output.open(ch, selector, now);
                accepted++;
                armTimer(c, now + config.idleTimeoutMillis);
            } catch (IOException e) {
                acceptor.discard(ch);
            }
        }
    }

    private void onReadable(Connection c) {
        if (c.lingering()) {
            discard(c);
            return;
        }
        PendingInput pending = c.pendingIn;
        int len = pending != null ? pending.length : 0;
        // the new bytes go to the buffer's start, leaving room to put the pending ones (or a held
        // CR) before them
        boolean crHeld = c.requestStart == Connection.CR_HELD; // then no input is pending
        inBuffer.clear().limit(in.length - len - (crHeld ? 1 : 0));
        int n = readOrClose(c);
        if (n == CLOSED) {
            return;
        }
        if (n < 0) {
            // The peer closed its side: a request not complete by now never will be. Responses it
            // is owed (computed by workers, or held back) still go out, then the connection closes:
            // a half-close is not a request to drop them (RFC 9112 9.6).
            input.drop(c);
            c.requestStart = -1;
            if (c.inFlight > 0 || c.pendingOut != null) {
                output.closeAfterWrite(c);
            } else {
                output.close(c);
            }
            return;
        }
        if (n == 0) {
            return;
        }
        bytesIn += n;
        if (crHeld) {
            c.requestStart = -1;
            if (in[0] == '\n') {
                System.arraycopy(in, 1, in, 0, --n); // the held CR's LF: an empty line, dropped
                if (n == 0) {
                    return;
                }
            } else {
                System.arraycopy(in, 0, in, 1, n++); // a bare CR: back before the bytes it preceded
                in[0] = '\r';
            }
        }
        if (len != 0 && c.requestStart >= 0 && !pending.parseDue(in, 0, n)) {
            // the parser would still ask for more: keep the bytes, parse once they can tell
            if (!input.append(c, in, 0, n)) {
                shedInput(c);
                return;
            }
            c.lastActivity = now;
            return;
        }
        input.drop(c); // its bytes go back in front of the new ones, below
        if (len != 0) {
            System.arraycopy(in, 0, in, len, n);
            pending.copyTo(in);
        }
        if (c.requestStart >= 0 || !onlyEmptyLines(0, len + n)) {
            // empty lines between requests are ignored (RFC 9112 2.2), and are no activity: a client
            // sending nothing else keeps no connection open past the idle timeout, also when a
            // read ends between a CR and its LF (the CR is held, no request started)
            c.lastActivity = now;
        }
        process(c, len + n);
    }

    /** Whether {@code in[from, to)} holds nothing but CR and LF bytes. */
    private boolean onlyEmptyLines(int from, int to) {
        for (int i = from; i < to; i++) {
            if (in[i] != '\r' && in[i] != '\n') {
                return false;
            }
        }
        return true;
    }

    /** {@link #readOrClose}'s answer when the read failed and {@code c} is closed. */
    private static final int CLOSED = -2;

    /** Reads from {@code c} into {@link #inBuffer}: the bytes read, -1 at its end of stream, or {@link #CLOSED}. */
    private int readOrClose(Connection c) {
        try {
            return c.channel().read(inBuffer);
        } catch (IOException e) {
            output.close(c);
            return CLOSED;
        }
    }

    /** A lingering connection: reads and drops what the client still sends; closes at its end of stream. */
    private void discard(Connection c) {
        for (int i = 0; i < 16; i++) { // at most 16 buffers a turn: other connections get theirs
            inBuffer.clear();
            int n = readOrClose(c);
            if (n < 0) {
                output.close(c); // its end of stream (or already closed after an error: idempotent)
                return;
            }
            bytesIn += n;
            if (n < inBuffer.capacity()) {
                return;
            }
        }
    }

    /**
     * Writes {@code c}'s pending output, then answers the requests held back while the output was
     * blocked or the worker pipeline full, or else sets the interest the connection now needs
     * (which closes it after a decided close, once no response is still being computed).
     */
    private void writeAndResume(Connection c) {
        if (!output.writePending(c, now)) {
            return;
        }
        resumeAfterWrite(c);
    }

    /** After a write of {@code c}'s pending output (all of it or part): the rest of {@link #writeAndResume}. */
    private void resumeAfterWrite(Connection c) {
        armAfterProgress(c); // the output drained: waiting for the workers again, if they owe any
        if (c.heldBack()) {
            process(c, input.restore(c, in));
        } else {
            output.updateInterest(c);
        }
    }

    private void onTimer(Object payload) {
        if (payload == LoopAcceptor.RESUME) {
            if (!draining) {
                acceptor.resume();
            }
            return;
        }
        Connection c = (Connection) payload;
        c.timerHandle = 0;
        if (c.closed) {
            return;
        }
        if (c.lingering()) {
            long due = c.lastActivity + ConnectionOutput.LINGER_MILLIS;
            if (now < due) {
                armTimer(c, due);
            } else {
                output.close(c); // the client kept sending, or kept its side open: enough
            }
            return;
        }
        boolean partial = c.pendingOut == null && c.requestStart >= 0;
        long due = partial ? c.requestStart + config.headerTimeoutMillis : c.lastActivity + config.idleTimeoutMillis;
        // waiting for our workers: a response is owed, or requests wait for room on the pool
        boolean awaitingWorkers = c.pendingOut == null && (c.inFlight > 0 || c.heldBack());
        if (awaitingWorkers) {
            // waiting for our workers, not for the client: only the response timeout, if any, runs
            long limit = config.responseTimeoutMillis;
            due = limit > 0 ? c.lastActivity + limit : Math.max(due, now + config.idleTimeoutMillis);
        }
        if (now < due) {
            armTimer(c, due);
            return;
        }
        if (awaitingWorkers) {
            server.responseTimedOut();
            // in the place of the response owed first (those before it are written: no output is
            // pending); it closes the connection, so the responses still to come are dropped, and
            // deliver arms the idle timer again for a client that does not read it.
            // No body: the request it answers may have been a HEAD
            if (c.inFlight == 0) {
                c.inFlight = 1; // requests waiting for room on the pool: the 503 answers the first
            }
            deliver(c, ResponseEncoder.responseTimedOutBytes(), true);
            return;
        }
        if (partial) {
            PendingInput held = c.pendingIn;
            // a HEAD's answer has no body, its 408 included (RFC 9110 9.3.2)
            boolean head = held != null && RequestParser.isHeadRequest(held.bytes, 0, held.length);
            input.drop(c);
            c.requestStart = -1;
            requests++;
            if (errorResponse(c, 408, "request not received within " + config.headerTimeoutMillis + " ms", head)
                    && output.flush(c, now)) {
                output.updateInterest(c); // closes it once the 408 is written
                if (!c.closed) {
                    armTimer(c, now + config.idleTimeoutMillis);
                }
            }
        } else if (!tookOutputAtTheDeadline(c)) {
            output.close(c);
        }
    }

    /**
     * At the idle deadline of a connection whose output is held back: writes once more, and
     * {@code true} if the socket took a byte (the connection goes on as after any write, its timer
     * armed again unless that closed it) or the write failed (closed). A readiness event alone
     * would miss a slow reader: the kernel reports a socket writable only once a good part of its
     * send buffer has drained (Linux: a third of it, which loopback grows to megabytes), so a
     * client reading steadily through a small window can take bytes for longer than the idle
     * timeout without the loop hearing of it.
     */
    private boolean tookOutputAtTheDeadline(Connection c) {
        if (c.pendingOut == null) {
            return false;
        }
        long before = c.lastActivity; // before now: the deadline came at least a millisecond after it
        if (!output.writePending(c, now)) {
            return true;
        }
        if (c.lastActivity == before) {
            return false;
        }
        resumeAfterWrite(c);
        if (!c.closed) {
            armTimer(c, c.lastActivity + config.idleTimeoutMillis); // an earlier one armed meanwhile stays
        }
        return true;
    }

    private void armTimer(Connection c, long deadline) {
        if (c.timerHandle != 0) {
            if (c.timerDeadline <= deadline) {
                return; // fires earlier and re-arms itself then
            }
            if (timers.reschedule(c.timerHandle, deadline)) {
                c.timerDeadline = deadline;
                return;
            }
        }
        c.timerDeadline = deadline;
        c.timerHandle = timers.schedule(deadline, c);
    }

    /**
     * Answers the complete requests in {@code in[0, len)} and keeps the rest in the connection.
     * When output blocks, the remaining requests are held back; if the socket then takes the rest
     * of the output at once, they are answered right away (no read event will come for them).
     */
    private void process(Connection c, int len) {
        while (true) {
            boolean continuing = c.requestStart >= 0;
            int pos = 0;
            boolean needMore = false;
            while (pos < len && !c.closeAfterWrite && c.inFlight < WorkerDispatch.MAX_IN_FLIGHT) {
                int r = parser.parse(in, pos, len, request);
                if (r == RequestParser.NEED_MORE) {
                    if (request.expectContinue && !request.methodAllowed && !request.options) {
                        if (workers != null && workers.full()) {
                            break; // its refusal goes through the pool too: held, as a request would be
                        }
                        // refused whatever its body: answered now, so the client need not send it
                        // (RFC 9110 10.1.1); the connection closes, lingering over a body sent anyway.
                        // OPTIONS is not refused: its body is awaited, as a GET's, and the connection kept
                        requests++;
                        c.continueSent = c.continueOwed = false;
                        if (!refuseWithoutBody(c)) {
                            return;
                        }
                        pos = len;
                        break;
                    }
                    needMore = true;
                    // stopping: the request will not be answered (below), so its body is not asked for
                    if (request.expectContinue && !draining && !output.sendContinue(c, workers != null, now)) {
                        return; // the write failed: closed
                    }
                    break;
                }
                if (workers != null && workers.full()) {
                    // a whole request (or a refusal of one) the pool has no room for: held with those
                    // behind it until a response comes back (parsed first, so a partial one keeps its
                    // header timeout)
                    break;
                }
                requests++;
                c.continueSent = c.continueOwed = false;
                if (r == RequestParser.ERROR) {
                    if (workers != null) {
                        // after the responses still being computed for this connection
                        workers.error(c, request.errorStatus, request.errorDetail, request.head);
                    } else if (!errorResponse(c, request.errorStatus, request.errorDetail, request.head)) {
                        return;
                    }
                    pos = len;
                    break;
                }
                if (workers != null) {
                    boolean close = !request.keepAlive || draining && onlyEmptyLines(pos + r, len);
                    if (c.inFlight == 0 && config.responseTimeoutMillis > 0) {
                        // the connection's timer may stand at the idle timeout, later than this
                        armTimer(c, now + config.responseTimeoutMillis);
                    }
                    workers.request(c, in, pos, r, close, request.head, request.minorVersion == 0);
                    pos += r;
                    continue;
                }
                pos += r;
                if (!respond(c, draining && onlyEmptyLines(pos, len))) {
                    return;
                }
                if (c.pendingOut != null) {
                    break; // socket full: hold the remaining requests until it drains
                }
            }
            while (needMore
                    && pos < len
                    && (in[pos] == '\n' || in[pos] == '\r' && pos + 1 < len && in[pos + 1] == '\n')) {
                // empty lines before a request line: ignored, and no request has started (RFC 9112
                // 2.2); a CR not yet followed by its LF stays, for the parser to judge
                pos += in[pos] == '\r' ? 2 : 1;
            }
            boolean holdCr = needMore && pos == len - 1 && in[pos] == '\r' && !c.closeAfterWrite;
            if (holdCr) {
                // a CR last, its LF (or not) in the next read: held aside (onReadable), so that
                // it starts no request and no header timeout, as an empty line in one read does
                pos = len;
            }
            if (draining && needMore && !c.closeAfterWrite) {
                // stopping: a request not complete when the stop began is not answered. The response
                // before it did not say close (these bytes followed its request): the client learns
                // of this close from the end of the stream
                pos = len;
                c.closeAfterResponse();
            }
            if (pos < len && !c.closeAfterWrite) {
                if (!input.take(c, in, pos, len)) {
                    shedInput(c);
                    return;
                }
                PendingInput pending = c.pendingIn;
                if (needMore) {
                    pending.parseAgainAt(request.parseAgainAt - pos, request.parseAgainOnLineFeed, request.chunks);
                    if (!(continuing && pos == 0)) {
                        c.requestStart = now;
                    }
                    armTimer(c, c.requestStart + config.headerTimeoutMillis);
                } else {
                    c.requestStart = -1;
                }
            } else {
                input.drop(c);
                c.requestStart = holdCr ? Connection.CR_HELD : -1;
            }
            if (!output.flush(c, now)) {
                return;
            }
            if (c.heldBack()) {
                if (workers == null || !workers.full()) {
                    len = input.restore(c, in); // held-back requests, and the output drained meanwhile
                    continue;
                }
                if (c.inFlight == 0) {
                    waitingForWorkers.add(c); // nothing of its own in flight will resume it
                    if (config.responseTimeoutMillis > 0) {
                        armTimer(c, c.lastActivity + config.responseTimeoutMillis);
                    }
                }
            }
            output.updateInterest(c); // held back: reads nothing more meanwhile
            return;
        }
    }

    /**
     * Closes {@code c}, whose request bytes would take the loop past its input budget: nothing it
     * sent since its last complete request is answered, and what was staged for it is dropped.
     */
    private void shedInput(Connection c) {
        output.close(c);
        server.inputShed(input.budget());
    }

    /** Request bytes this loop holds now; read on the loop thread, or once it has ended. */
    long heldInputBytes() {
        return input.held();
    }

    /** Worker mode: the most responses the pool has owed this loop at once (0 otherwise). Any thread. */
    int maxOwedResponses() {
        return workers == null ? 0 : workers.maxOwedSeen;
    }

    /** Worker mode: hands out the requests of connections waiting for the pool, in order, while it has room. */
    private void resumeWaiting() {
        Connection w;
        while (!workers.full() && (w = waitingForWorkers.poll()) != null) {
            if (!w.closed && w.heldBack()) {
                process(w, input.restore(w, in));
            }
        }
    }

    /**
     * Worker mode, on the loop: a response computed by a worker, in request order. After one that
     * closes the connection nothing is in flight any more: the responses still to come for the
     * requests behind it find {@code inFlight} at 0 and are dropped (no request is handed out
     * once a close is decided, so nothing else can be in flight then).
     */
    @Override
    public void deliver(Connection c, byte[] response, boolean closes) {
        if (!waitingForWorkers.isEmpty()) {
            resumeWaiting(); // first come first served: before c hands out its held-back requests
        }
        if (c.inFlight == 0) {
            return; // behind a response that closed the connection: never sent
        }
        c.inFlight--;
        if (c.closed) {
            workers.forget(c);
            return;
        }
        if (closes) {
            c.inFlight = 0;
            c.continueOwed = false; // a request behind it will not be answered
            input.drop(c);
            c.requestStart = -1;
            c.closeAfterResponse();
            workers.forget(c);
        }
        c.lastActivity = now;
        boolean behind = c.pendingOut != null; // then OP_WRITE is already on
        output.deliver(c, response, now);
        if (c.closed) { // its output did not fit the loop's budget, or the write failed
            workers.forget(c);
            return;
        }
        if (!behind) {
            writeAndResume(c);
        }
        if (!closes) {
            workers.delivered(c); // a last response the loop decided may have waited for this one
        }
        armAfterProgress(c);
    }

    /**
     * Worker mode, after progress on {@code c}: makes sure its timer fires no later than the
     * deadline that applies now, since a timer that fired while the workers owed a response was
     * armed for then (the response timeout's or, without one, the idle timeout's from then on),
     * and the timer that sent a 503 left none. Once no response is owed: the header timeout of a
     * partial request behind them (its deadline may have passed meanwhile: 408 at once), and with
     * a response timeout the idle timeout; while one is owed, the response timeout. An armed
     * timer only ever moves earlier, so this costs a comparison when it stands right.
     */
    private void armAfterProgress(Connection c) {
        if (c.closed || workers == null) {
            return; // on the loops a response is written as it is decided: no wait to re-arm after
        }
        boolean owed = c.inFlight > 0 && c.pendingOut == null;
        if (!owed && c.requestStart >= 0 && c.pendingOut == null) {
            armTimer(c, c.requestStart + config.headerTimeoutMillis);
        }
        if (config.responseTimeoutMillis > 0) {
            armTimer(c, c.lastActivity + (owed ? config.responseTimeoutMillis : config.idleTimeoutMillis));
        }
    }

    /**
     * Answers the parsed request on the loop; {@code false} if the connection closed.
     * {@code lastWhileDraining}: the loop is stopping and no byte but empty lines follows the
     * request in the input, so it is the last one answered.
     */
    private boolean respond(Connection c, boolean lastWhileDraining) {
        HttpResponse res = response;
        res.reset();
        ResponseEncoder.answer(config.handler, request, res, server);
        boolean close = !request.keepAlive || res.close || lastWhileDraining;
        return output.respond(c, res, request.head, close, request.minorVersion == 0 && !close, now);
    }

    /**
     * Answers the request in {@link #request}, whose method is refused (405 or 501) and whose body
     * has not arrived, and closes the connection after it; {@code false} if it closed already.
     */
    private boolean refuseWithoutBody(Connection c) {
        HttpResponse res = response;
        res.reset();
        ResponseEncoder.answer(config.handler, request, res, server); // the handler never sees the method
        if (workers != null) {
            workers.last(c, ResponseEncoder.encode(res, request.head, true, false));
            return true;
        }
        return output.respond(c, res, request.head, true, false, now);
    }

    /**
     * Stages an error response and marks the connection to close after it, lingering;
     * {@code headRequest}: a HEAD's, so without its body. {@code false} if it closed.
     */
    private boolean errorResponse(Connection c, int status, String detail, boolean headRequest) {
        HttpResponse res = response;
        res.reset();
        res.status(status);
        ResponseEncoder.errorBody(res, status, detail);
        return output.respond(c, res, headRequest, true, false, now);
    }
}

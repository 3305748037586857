package io.tickwork.server.http;

import io.tickwork.primitives.order.KeyedSerialExecutor;
import io.tickwork.primitives.timer.TimerQueue;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

/**
 * One selector thread serving many connections: accepts (every loop watches the shared listening
 * socket; the kernel wakes them and one wins each connection), reads into one loop-wide buffer,
 * parses and answers every complete request in that read, in order, writing all the responses of
 * one read with one {@code write} call (headers and body of each response contiguous), and runs
 * the connections' timeouts on its own {@link TimerQueue}.
 *
 * <p><b>Back-pressure:</b> when the socket does not take all output, the rest is kept in the
 * connection ({@code pendingOut}), the connection stops reading and stops answering its queued
 * requests until the output drains, so a client that pipelines without reading holds at most
 * one output buffer plus one read's worth of requests.
 *
 * <p><b>Timeouts</b>, one timer per connection, re-armed lazily (a request only records its time;
 * the timer, when it fires early, re-schedules itself to the real deadline): idle keep-alive
 * (close), partial request head older than the header timeout (408, close), output not drained
 * within the idle timeout (close).
 *
 * <p>Thread safety: everything here belongs to the loop thread, except {@link #execute} (any
 * thread) and the published counters (volatile, written by the loop once per iteration).
 */
final class SelectorLoop implements Runnable {
    private static final Object ACCEPT_RESUME = new Object();
    private static final byte[][] STATUS_LINES = new byte[600][];

    static {
        String[][] statuses = {
            {"200", "OK"},
            {"400", "Bad Request"},
            {"404", "Not Found"},
            {"405", "Method Not Allowed"},
            {"408", "Request Timeout"},
            {"413", "Content Too Large"},
            {"414", "URI Too Long"},
            {"431", "Request Header Fields Too Large"},
            {"500", "Internal Server Error"},
            {"501", "Not Implemented"},
            {"503", "Service Unavailable"},
            {"505", "HTTP Version Not Supported"},
            {"301", "Moved Permanently"},
            {"304", "Not Modified"},
            {"204", "No Content"}
        };
        for (String[] s : statuses) {
            STATUS_LINES[Integer.parseInt(s[0])] =
                    ("HTTP/1.1 " + s[0] + " " + s[1] + "\r\n").getBytes(StandardCharsets.US_ASCII);
        }
    }

    private static final byte[] SERVER = "Server: tickwork\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH = "Content-Length: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "Connection: close\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEP_ALIVE = "Connection: keep-alive\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CRLF = {'\r', '\n'};

    private final HttpServer server;
    private final HttpServer.Config config;
    private final RequestParser parser;
    final Selector selector;
    private final TimerQueue<Object> timers;
    private final byte[] in;
    private final ByteBuffer inBuffer;
    private final ByteBuffer out;
    private byte[] head = new byte[1024];
    private final HttpRequest request = new HttpRequest();
    private final HttpResponse response = new HttpResponse();
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    final CountDownLatch terminated = new CountDownLatch(1);
    private final ServerSocketChannel listener;
    /** Worker mode's ordered executor, or null when handlers run on the loop. */
    private final KeyedSerialExecutor<Connection> workers;
    /** Most requests of one connection handed to workers and not yet answered. */
    static final int MAX_IN_FLIGHT = 64;

    private SelectionKey acceptKey;
    private long acceptBackoff;

    private long now;
    private boolean draining;
    private long drainDeadline;

    private long requests, bytesIn, bytesOut, accepted;
    private int open;
    volatile long publishedRequests, publishedBytesIn, publishedBytesOut, publishedAccepted;
    volatile int publishedOpen;
    /** Largest output one connection has held back (tests check the back-pressure bound with it). */
    volatile long maxPendingOut;

    SelectorLoop(HttpServer server, HttpServer.Config config, RequestParser parser, ServerSocketChannel listener)
            throws IOException {
        this.server = server;
        this.config = config;
        this.parser = parser;
        this.listener = listener;
        this.workers = config.workers == null ? null : server.keyedExecutor();
        this.selector = Selector.open();
        this.timers = config.timers.get();
        // room for the largest partial request plus a full read behind it
        this.in = new byte[Math.max(64 * 1024, 2 * parser.maxPending())];
        this.inBuffer = ByteBuffer.wrap(in);
        this.out = ByteBuffer.allocateDirect(config.outputBufferSize);
        this.request.server = server;
        this.now = clock();
        this.acceptKey = listener.register(selector, SelectionKey.OP_ACCEPT, null);
    }

    private static long clock() {
        return System.nanoTime() / 1_000_000;
    }

    /** Runs {@code task} on this loop's thread, soon. Any thread. */
    void execute(Runnable task) {
        if (!selector.isOpen()) {
            return; // the loop has ended and closed its connections: nothing left to deliver to
        }
        tasks.add(task);
        selector.wakeup();
    }

    @Override
    public void run() {
        try {
            while (true) {
                for (Runnable t; (t = tasks.poll()) != null; ) {
                    t.run();
                }
                if (draining && (open == 0 || now >= drainDeadline)) {
                    break;
                }
                long next = timers.nextDeadline();
                if (draining) {
                    next = Math.min(next, drainDeadline);
                }
                if (next == TimerQueue.NO_DEADLINE) {
                    selector.select();
                } else {
                    // expire(now) ran at the end of the last iteration, so a deadline at or before
                    // now is a wheel answering the start of the current tick: wait, do not spin
                    selector.select(Math.max(1, next - now));
                }
                now = clock();
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey key = it.next();
                    it.remove();
                    onKey(key);
                }
                timers.expire(now, this::onTimer);
                publish();
            }
        } catch (IOException | RuntimeException | Error e) {
            server.log("selector loop failed, closing its connections: " + e);
        } finally {
            for (SelectionKey key : new ArrayList<>(selector.keys())) {
                if (key.attachment() instanceof Connection) {
                    close((Connection) key.attachment());
                }
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // nothing left to release
            }
            publish();
            terminated.countDown();
        }
    }

    private void publish() {
        publishedRequests = requests;
        publishedBytesIn = bytesIn;
        publishedBytesOut = bytesOut;
        publishedAccepted = accepted;
        publishedOpen = open;
    }

    /** Starts a graceful stop: no more accepts, idle connections closed, busy ones closed once their output drains. */
    void drain(long graceMillis) {
        execute(() -> {
            draining = true;
            drainDeadline = now + graceMillis;
            if (acceptKey != null) {
                acceptKey.cancel();
                acceptKey = null;
            }
            for (SelectionKey key : new ArrayList<>(selector.keys())) {
                if (key.attachment() instanceof Connection) {
                    Connection c = (Connection) key.attachment();
                    if (c.pendingOut == null && c.inFlight == 0) {
                        close(c);
                    } else {
                        c.closeAfterWrite = true;
                        updateInterest(c);
                    }
                }
            }
        });
    }

    // ------------------------------------------------------------------ events

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
                onWritable(c);
            }
            if (!c.closed && key.isValid() && key.isReadable()) {
                onReadable(c);
            }
        } catch (RuntimeException e) {
            server.log("closing a connection after an unexpected error: " + e);
            close(c);
        }
    }

    private void onAcceptable() {
        for (int i = 0; i < 64 && !draining; i++) {
            SocketChannel ch;
            try {
                ch = config.acceptor.accept(listener);
            } catch (IOException e) {
                if (!listener.isOpen()) {
                    return;
                }
                // EMFILE/ENFILE and friends: the pending connection stays queued, so with the
                // interest left on, select would return at once forever. Pause, back off, retry.
                acceptBackoff = acceptBackoff == 0 ? 10 : Math.min(acceptBackoff * 2, 1000);
                acceptKey.interestOps(0);
                timers.schedule(now + acceptBackoff, ACCEPT_RESUME);
                server.acceptFailed(e, acceptBackoff);
                return;
            }
            if (ch == null) {
                return;
            }
            if (acceptBackoff != 0) {
                acceptBackoff = 0;
                server.acceptRecovered();
            }
            try {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                Connection c = new Connection(ch);
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
                c.interest = SelectionKey.OP_READ;
                c.lastActivity = now;
                open++;
                accepted++;
                armTimer(c, now + config.idleTimeoutMillis);
            } catch (IOException e) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // already failing
                }
            }
        }
    }

    private void onReadable(Connection c) {
        int len = 0;
        if (c.pendingIn != null) {
            len = c.pendingInLength;
            System.arraycopy(c.pendingIn, 0, in, 0, len);
        }
        inBuffer.clear().position(len);
        int n;
        try {
            n = c.channel.read(inBuffer);
        } catch (IOException e) {
            close(c);
            return;
        }
        if (n < 0) {
            close(c); // peer closed its side; nothing is in flight while we read
            return;
        }
        if (n == 0) {
            return;
        }
        c.pendingIn = null;
        bytesIn += n;
        c.lastActivity = now;
        process(c, len + n);
    }

    private void onWritable(Connection c) {
        writePending(c);
        if (c.closed || c.pendingOut != null) {
            return;
        }
        if (c.closeAfterWrite) {
            updateInterest(c); // closes once no response is still being computed
            return;
        }
        if (c.pendingIn != null && c.requestStart < 0 && c.inFlight < MAX_IN_FLIGHT) {
            // requests held back while the output was blocked
            int len = c.pendingInLength;
            System.arraycopy(c.pendingIn, 0, in, 0, len);
            c.pendingIn = null;
            process(c, len);
        } else {
            updateInterest(c);
        }
    }

    private void onTimer(Object payload) {
        if (payload == ACCEPT_RESUME) {
            if (acceptKey != null && acceptKey.isValid() && !draining) {
                acceptKey.interestOps(SelectionKey.OP_ACCEPT);
            }
            return;
        }
        Connection c = (Connection) payload;
        c.timerHandle = 0;
        if (c.closed) {
            return;
        }
        boolean partial = c.pendingOut == null && c.requestStart >= 0;
        long due = partial ? c.requestStart + config.headerTimeoutMillis : c.lastActivity + config.idleTimeoutMillis;
        if (now < due) {
            armTimer(c, due);
            return;
        }
        if (partial) {
            c.pendingIn = null;
            c.requestStart = -1;
            requests++;
            errorResponse(c, 408, "request head not received within " + config.headerTimeoutMillis + " ms");
            c.closeAfterWrite = true;
            flush(c);
            if (!c.closed) {
                updateInterest(c);
                if (!c.closed) {
                    armTimer(c, now + config.idleTimeoutMillis);
                }
            }
        } else {
            close(c);
        }
    }

    private void armTimer(Connection c, long deadline) {
        if (c.timerHandle != 0) {
            if (c.timerDeadline <= deadline) {
                return; // fires earlier and re-arms itself then
            }
            timers.cancel(c.timerHandle);
        }
        c.timerDeadline = deadline;
        c.timerHandle = timers.schedule(deadline, c);
    }

    // ------------------------------------------------------------------ requests

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
            while (pos < len && !c.closeAfterWrite && c.inFlight < MAX_IN_FLIGHT) {
                int r = parser.parse(in, pos, len, request);
                if (r == RequestParser.NEED_MORE) {
                    needMore = true;
                    break;
                }
                requests++;
                if (r == RequestParser.ERROR) {
                    if (workers != null) {
                        // after the responses still being computed for this connection
                        byte[] error = errorBytes(request.errorStatus, request.errorDetail);
                        c.inFlight++;
                        workers.execute(c, () -> execute(() -> deliver(c, error)));
                    } else {
                        errorResponse(c, request.errorStatus, request.errorDetail);
                    }
                    c.closeAfterWrite = true;
                    pos = len;
                    break;
                }
                if (workers != null) {
                    dispatchToWorker(c, pos, r);
                    pos += r;
                    continue;
                }
                pos += r;
                dispatch(c);
                if (c.closed) {
                    return;
                }
                if (c.pendingOut != null) {
                    break; // socket full: hold the remaining requests until it drains
                }
            }
            if (pos < len && !c.closeAfterWrite) {
                c.pendingIn = Arrays.copyOfRange(in, pos, len);
                c.pendingInLength = len - pos;
                if (needMore) {
                    if (!(continuing && pos == 0)) {
                        c.requestStart = now;
                    }
                    armTimer(c, c.requestStart + config.headerTimeoutMillis);
                } else {
                    c.requestStart = -1;
                }
            } else {
                c.pendingIn = null;
                c.requestStart = -1;
            }
            if (c.pendingOut == null) {
                flush(c);
            } else {
                writePending(c);
            }
            if (c.closed) {
                return;
            }
            if (c.pendingOut == null
                    && c.pendingIn != null
                    && c.requestStart < 0
                    && !c.closeAfterWrite
                    && c.inFlight < MAX_IN_FLIGHT) {
                len = c.pendingInLength; // held-back requests, and the output drained meanwhile
                System.arraycopy(c.pendingIn, 0, in, 0, len);
                c.pendingIn = null;
                continue;
            }
            updateInterest(c);
            return;
        }
    }

    /**
     * Worker mode: the request's bytes are copied and parsed again on a pool thread, the handler
     * runs there, and the encoded response comes back to this loop through {@link #execute}. The
     * connection is the key of a {@code KeyedSerialExecutor}, so its requests run one at a time in
     * arrival order and their responses reach the loop's task queue in that order.
     */
    private void dispatchToWorker(Connection c, int from, int length) {
        byte[] copy = Arrays.copyOfRange(in, from, from + length);
        boolean close = !request.keepAlive || draining;
        if (close) {
            c.closeAfterWrite = true;
        }
        c.inFlight++;
        workers.execute(c, () -> {
            byte[] bytes;
            try {
                bytes = WorkerState.get().respond(copy, parser, server, config.handler, close);
            } catch (RuntimeException | Error e) {
                server.log("worker failed: " + e);
                bytes = errorBytes(500, "internal error");
            }
            byte[] response = bytes;
            execute(() -> deliver(c, response));
        });
    }

    /** Per pool thread: a request view and a response to fill, like a loop's. */
    static final class WorkerState {
        private static final ThreadLocal<WorkerState> STATE = ThreadLocal.withInitial(WorkerState::new);
        final HttpRequest request = new HttpRequest();
        final HttpResponse response = new HttpResponse();

        static WorkerState get() {
            return STATE.get();
        }

        byte[] respond(byte[] raw, RequestParser parser, HttpServer server, HttpHandler handler, boolean closeDecided) {
            int r = parser.parse(raw, 0, raw.length, request);
            if (r <= 0) {
                throw new IllegalStateException("request parsed on the loop but not on the worker");
            }
            request.server = server;
            HttpResponse res = response;
            res.reset();
            if (!request.methodAllowed) {
                res.status(405).header("Allow", "GET, HEAD");
                errorBody(
                        res,
                        405,
                        "method "
                                + new String(
                                        raw,
                                        request.methodStart,
                                        request.methodEnd - request.methodStart,
                                        StandardCharsets.ISO_8859_1)
                                + " is not allowed; use GET or HEAD");
            } else {
                try {
                    handler.handle(request, res);
                } catch (RuntimeException e) {
                    server.log("handler failed on " + request.path() + ": " + e);
                    res.reset();
                    res.status(500);
                    errorBody(res, 500, "internal error");
                }
            }
            // a handler's closeConnection() cannot stop requests the loop already handed out, so
            // in worker mode only the request (and draining) decide the close
            return encode(res, request.head, closeDecided, request.minorVersion == 0 && !closeDecided);
        }
    }

    private static byte[] errorBytes(int status, String detail) {
        HttpResponse res = new HttpResponse();
        res.reset();
        res.status(status);
        errorBody(res, status, detail);
        return encode(res, false, true, false);
    }

    /** Worker mode, on the loop: a response computed by a worker, in request order. */
    private void deliver(Connection c, byte[] response) {
        c.inFlight--;
        if (c.closed) {
            return;
        }
        c.lastActivity = now;
        if (c.pendingOut != null) {
            ByteBuffer grown = ByteBuffer.allocate(c.pendingOut.remaining() + response.length);
            grown.put(c.pendingOut).put(response).flip();
            c.pendingOut = grown;
            maxPendingOut = Math.max(maxPendingOut, grown.remaining());
            return; // OP_WRITE is already on
        }
        ByteBuffer b = ByteBuffer.wrap(response);
        c.pendingOut = b;
        writePending(c);
        if (c.closed) {
            return;
        }
        if (c.pendingOut != null) {
            maxPendingOut = Math.max(maxPendingOut, c.pendingOut.remaining());
        }
        if (c.pendingOut == null
                && c.pendingIn != null
                && c.requestStart < 0
                && !c.closeAfterWrite
                && c.inFlight < MAX_IN_FLIGHT) {
            int len = c.pendingInLength; // requests held back while the pipeline was full
            System.arraycopy(c.pendingIn, 0, in, 0, len);
            c.pendingIn = null;
            process(c, len);
            return;
        }
        updateInterest(c);
    }

    private void dispatch(Connection c) {
        HttpResponse res = response;
        res.reset();
        if (!request.methodAllowed) {
            res.status(405).header("Allow", "GET, HEAD");
            errorBody(
                    res,
                    405,
                    "method "
                            + new String(
                                    in,
                                    request.methodStart,
                                    request.methodEnd - request.methodStart,
                                    StandardCharsets.ISO_8859_1)
                            + " is not allowed; use GET or HEAD");
        } else {
            try {
                config.handler.handle(request, res);
            } catch (RuntimeException e) {
                server.log("handler failed on " + request.path() + ": " + e);
                res.reset();
                res.status(500);
                errorBody(res, 500, "internal error");
            }
        }
        boolean close = !request.keepAlive || res.close || draining;
        emit(
                c,
                res.status,
                res.contentType,
                res.extraHeaders,
                res.body,
                res.length,
                request.head,
                close,
                request.minorVersion == 0 && !close);
        if (close) {
            c.closeAfterWrite = true;
        }
    }

    private void errorResponse(Connection c, int status, String detail) {
        HttpResponse res = response;
        res.reset();
        res.status(status);
        errorBody(res, status, detail);
        emit(c, status, res.contentType, res.extraHeaders, res.body, res.length, false, true, false);
    }

    private static void errorBody(HttpResponse res, int status, String detail) {
        res.contentType(ContentType.JSON);
        res.appendAscii("{\"status\":").appendInt(status).appendAscii(",\"error\":");
        res.appendJsonString(detail == null ? "error" : detail).append((byte) '}');
    }

    // ------------------------------------------------------------------ output

    /** Upper bound of the head {@link #writeHead} writes. */
    static int headBound(ContentType type, CharSequence extra) {
        return 512 + type.headerLine.length + extra.length();
    }

    /** Writes status line and headers into {@code head} (at least {@link #headBound} long); returns the length. */
    static int writeHead(
            byte[] head,
            int status,
            ContentType type,
            CharSequence extra,
            int bodyLength,
            boolean close,
            boolean keepAlive10) {
        int h = 0;
        byte[] statusLine = STATUS_LINES[status];
        if (statusLine == null) {
            statusLine = ("HTTP/1.1 " + status + " Status\r\n").getBytes(StandardCharsets.US_ASCII);
        }
        h = put(head, h, statusLine);
        h = put(head, h, SERVER);
        h = put(head, h, date());
        h = put(head, h, type.headerLine);
        h = put(head, h, CONTENT_LENGTH);
        h = putInt(head, h, bodyLength);
        h = put(head, h, CRLF);
        for (int i = 0; i < extra.length(); i++) {
            head[h++] = (byte) extra.charAt(i);
        }
        if (close) {
            h = put(head, h, CLOSE);
        } else if (keepAlive10) {
            h = put(head, h, KEEP_ALIVE);
        }
        h = put(head, h, CRLF);
        return h;
    }

    /** A complete response as one array (worker mode: built off the loop, written by it). */
    static byte[] encode(HttpResponse res, boolean headRequest, boolean close, boolean keepAlive10) {
        byte[] head = new byte[headBound(res.contentType, res.extraHeaders)];
        int h = writeHead(head, res.status, res.contentType, res.extraHeaders, res.length, close, keepAlive10);
        int b = headRequest ? 0 : res.length;
        byte[] all = Arrays.copyOf(head, h + b);
        System.arraycopy(res.body, 0, all, h, b);
        return all;
    }

    private void emit(
            Connection c,
            int status,
            ContentType type,
            CharSequence extra,
            byte[] body,
            int bodyLength,
            boolean headRequest,
            boolean close,
            boolean keepAlive10) {
        int need = headBound(type, extra);
        if (head.length < need) {
            head = new byte[need * 2];
        }
        int h = writeHead(head, status, type, extra, bodyLength, close, keepAlive10);
        int b = headRequest ? 0 : bodyLength;
        int total = h + b;
        if (c.pendingOut == null && out.remaining() < total) {
            flush(c);
            if (c.closed) {
                return;
            }
        }
        if (c.pendingOut == null && out.remaining() >= total) {
            out.put(head, 0, h).put(body, 0, b);
            return;
        }
        // socket already backed up, or one response larger than the whole output buffer
        ByteBuffer p = c.pendingOut;
        int have = p == null ? 0 : p.remaining();
        ByteBuffer grown = ByteBuffer.allocate(have + total);
        if (p != null) {
            grown.put(p);
        }
        grown.put(head, 0, h).put(body, 0, b).flip();
        c.pendingOut = grown;
        maxPendingOut = Math.max(maxPendingOut, grown.remaining());
    }

    static int put(byte[] dst, int at, byte[] src) {
        System.arraycopy(src, 0, dst, at, src.length);
        return at + src.length;
    }

    static int putInt(byte[] dst, int at, int v) {
        if (v == 0) {
            dst[at] = '0';
            return at + 1;
        }
        int digits = 0;
        for (int x = v; x > 0; x /= 10) {
            digits++;
        }
        for (int i = at + digits - 1; i >= at; i--) {
            dst[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return at + digits;
    }

    /** The {@code Date} header line of this second; shared by all loops and workers (a benign race recomputes it). */
    private static byte[] date() {
        long second = System.currentTimeMillis() / 1000;
        DateLine d = dateLine;
        if (d == null || d.second != second) {
            d = new DateLine(
                    second,
                    ("Date: "
                                    + DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.ofInstant(
                                            java.time.Instant.ofEpochSecond(second), ZoneOffset.UTC))
                                    + "\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            dateLine = d;
        }
        return d.line;
    }

    private static final class DateLine {
        final long second;
        final byte[] line;

        DateLine(long second, byte[] line) {
            this.second = second;
            this.line = line;
        }
    }

    private static volatile DateLine dateLine;

    /** Writes the shared output buffer; what the socket does not take moves into the connection. */
    private void flush(Connection c) {
        out.flip();
        try {
            while (out.hasRemaining()) {
                int n = c.channel.write(out);
                if (n == 0) {
                    break;
                }
                bytesOut += n;
                c.lastActivity = now;
            }
        } catch (IOException e) {
            out.clear();
            close(c); // e.g. the client closed mid-response: EPIPE/ECONNRESET is an exception, never a signal
            return;
        }
        if (out.hasRemaining()) {
            ByteBuffer rest = ByteBuffer.allocate(out.remaining());
            rest.put(out).flip();
            c.pendingOut = rest;
            maxPendingOut = Math.max(maxPendingOut, rest.remaining());
        }
        out.clear();
    }

    private void writePending(Connection c) {
        ByteBuffer p = c.pendingOut;
        if (p == null) {
            return;
        }
        try {
            while (p.hasRemaining()) {
                int n = c.channel.write(p);
                if (n == 0) {
                    break;
                }
                bytesOut += n;
                c.lastActivity = now;
            }
        } catch (IOException e) {
            close(c);
            return;
        }
        if (!p.hasRemaining()) {
            c.pendingOut = null;
        }
    }

    private void updateInterest(Connection c) {
        if (c.pendingOut == null && c.closeAfterWrite && c.inFlight == 0) {
            close(c);
            return;
        }
        // not reading while output is blocked, while the worker pipeline is full, or after a close was decided
        int want = c.pendingOut != null
                ? SelectionKey.OP_WRITE
                : c.inFlight >= MAX_IN_FLIGHT || c.closeAfterWrite ? 0 : SelectionKey.OP_READ;
        if (want != c.interest) {
            c.interest = want;
            c.key.interestOps(want);
        }
    }

    private void close(Connection c) {
        if (c.closed) {
            return;
        }
        c.closed = true;
        open--;
        if (c.timerHandle != 0) {
            timers.cancel(c.timerHandle);
            c.timerHandle = 0;
        }
        c.pendingIn = null;
        c.pendingOut = null;
        c.key.cancel();
        try {
            c.channel.close();
        } catch (IOException ignored) {
            // the descriptor is released either way
        }
    }
}

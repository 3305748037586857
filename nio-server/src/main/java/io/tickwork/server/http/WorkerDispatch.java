package io.tickwork.server.http;

import io.tickwork.primitives.order.KeyedSerialExecutor;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;

/**
 * Worker mode for one selector loop ({@link HttpServer.Builder#workers}): each complete request
 * the loop parsed is copied and handed to a {@link KeyedSerialExecutor} keyed by its connection,
 * parsed again and answered on a pool thread, and the encoded response goes back to the loop
 * through {@link Loop#execute}, which writes it with {@link Loop#deliver}.
 *
 * <p>Order: the connection is the executor's key, so its requests run one at a time in arrival
 * order and their responses reach the loop's task queue, and the socket, in that order; error
 * responses the loop decides itself take the same path, so they go out after the responses
 * before them. Different connections run in parallel.
 *
 * <p>Cost per request: one copy of the request bytes, two small task objects, and the encoded
 * response (one array for the head, one for head and body). The loop counts the requests in
 * flight per connection ({@link Connection#inFlight}) and stops reading at {@link #MAX_IN_FLIGHT}.
 *
 * <p>Bound: the tasks handed to the pool whose response has not come back to the loop are counted
 * here too, over all the loop's connections ({@link #owed}), and the loop hands out no request
 * while {@link #full()}: responses are computed on the pool whether or not their clients read, and
 * wait in the loop's task queue until it writes or drops them, so without this bound clients that
 * pipeline and never read, each within its 64, would fill the heap with responses before the
 * loop's output budget ever sees them. A task counts from its submission until its response is
 * taken off the loop's queue, a response then dropped (its connection closed) included.
 *
 * <p>Thread safety: {@link #request} and {@link #error} are called on the loop thread; the tasks
 * they submit run on pool threads, each with its own {@link WorkerState}.
 */
final class WorkerDispatch {
    /** Most requests of one connection handed to workers and not yet answered. */
    static final int MAX_IN_FLIGHT = 64;

    /** What worker mode needs of its selector loop. */
    interface Loop {
        /** Runs {@code task} on the loop thread, soon. Any thread. */
        void execute(Runnable task);

        /**
         * On the loop thread: writes {@code response}, the next answer in {@code c}'s request
         * order; {@code closes}: it says {@code Connection: close}, so the connection closes after
         * it and the responses of the requests behind it are dropped.
         */
        void deliver(Connection c, byte[] response, boolean closes);
    }

    private final Loop loop;
    /** Most tasks {@link #owed} at once; at least {@link #MAX_IN_FLIGHT}. */
    private final int maxOwed;
    /** Loop thread only: tasks handed to the pool whose response has not come back to the loop. */
    private int owed;
    /** The most {@link #owed} has been (tests check the bound with it); written by the loop thread. */
    volatile int maxOwedSeen;

    private final KeyedSerialExecutor<Connection> workers;
    private final RequestParser parser;
    private final HttpServer server;
    private final HttpHandler handler;
    /**
     * Loop thread only: responses decided on the loop, saying close, that must wait for responses
     * still being computed before them (a pool shut down under running handlers refuses the
     * requests behind them), by connection. Almost always empty.
     */
    private final Map<Connection, byte[]> owedLast = new IdentityHashMap<>();

    WorkerDispatch(
            Loop loop,
            int maxOwed,
            KeyedSerialExecutor<Connection> workers,
            RequestParser parser,
            HttpServer server,
            HttpHandler handler) {
        if (maxOwed < MAX_IN_FLIGHT) {
            throw new IllegalArgumentException("maxOwed must be >= " + MAX_IN_FLIGHT + ": " + maxOwed);
        }
        this.loop = loop;
        this.maxOwed = maxOwed;
        this.workers = workers;
        this.parser = parser;
        this.server = server;
        this.handler = handler;
    }

    /**
     * On the loop: whether as many tasks are owed to it as it allows; it then hands out no request
     * until a response comes back.
     */
    boolean full() {
        return owed >= maxOwed;
    }

    /** One more task owed: counted before it is handed to the pool. */
    private void owe() {
        if (++owed > maxOwedSeen) {
            maxOwedSeen = owed;
        }
    }

    /**
     * The most tasks a loop lets its connections have on the pool at once, for a loop whose output
     * budget is {@code heldOutputBudget} bytes: one task per 16 KiB of it (so responses of up to 16
     * KiB waiting for the loop take at most about the budget again), and at least one connection's
     * {@link #MAX_IN_FLIGHT}.
     */
    static int maxOwed(long heldOutputBudget) {
        return (int) Math.max(MAX_IN_FLIGHT, Math.min(Integer.MAX_VALUE, heldOutputBudget / (16 * 1024)));
    }

    /**
     * On the loop: hands the request in {@code in[from, from + length)} (parsed once already) to
     * the workers. {@code close} (the connection closes after this response) is decided by the loop
     * from the request and its draining state; a handler's {@code closeConnection()} closes it
     * too, and as on the loops nothing goes out after that response: the requests the loop handed
     * out behind it still run (their handlers cannot be recalled), their responses are dropped.
     */
    void request(Connection c, byte[] in, int from, int length, boolean close, boolean head, boolean http10) {
        byte[] copy = Arrays.copyOfRange(in, from, from + length);
        if (close) {
            c.closeAfterResponse();
        }
        c.inFlight++;
        submit(c, head, () -> {
            byte[] bytes;
            boolean closes = close;
            try {
                WorkerState state = WorkerState.get();
                bytes = state.respond(copy, parser, server, handler, close);
                closes = state.closes;
            } catch (Throwable e) {
                // the server's own failure, not the handler's (answer() turns those into a 500):
                // a 500 in the request's place, the connection kept as the loop decided (it may
                // have handed out the requests behind this one already)
                server.log("worker failed: " + e);
                bytes = ResponseEncoder.errorBytes(500, "internal error", head, close, http10 && !close);
            }
            byte[] response = bytes;
            boolean last = closes;
            loop.execute(() -> back(c, response, last));
        });
    }

    /** On the loop: a task's response came back; one task less owed, then delivered (or dropped). */
    private void back(Connection c, byte[] response, boolean closes) {
        owed--;
        loop.deliver(c, response, closes);
    }

    /** On the loop: queues an error response (with a close) behind {@code c}'s responses in flight. */
    void error(Connection c, int status, String detail, boolean headRequest) {
        last(c, ResponseEncoder.errorBytes(status, detail, headRequest));
    }

    /**
     * On the loop: queues {@code response}, decided by the loop and saying {@code Connection:
     * close}, behind {@code c}'s responses in flight, as its last.
     */
    void last(Connection c, byte[] response) {
        c.closeAfterResponse();
        c.inFlight++;
        owe();
        try {
            workers.execute(c, () -> loop.execute(() -> back(c, response, true)));
        } catch (RejectedExecutionException refused) {
            owed--;
            answerLast(c, response); // the pool refused even this
        }
    }

    /**
     * Hands {@code task}, the one in flight for {@code c}'s latest request, to the workers. A pool
     * that refuses it (shut down, or saturated with a rejecting policy) gets a 503 in the
     * request's place, after the responses before it, and the connection closes after it.
     */
    private void submit(Connection c, boolean head, Runnable task) {
        owe();
        try {
            workers.execute(c, task);
        } catch (RejectedExecutionException refused) {
            owed--;
            server.workersRefused(refused);
            answerLast(c, ResponseEncoder.errorBytes(503, "the server's workers refused the request", head));
        }
    }

    /**
     * On the loop: {@code response}, counted in {@code c}'s in-flight requests, is its last and
     * closes it. Queued on the loop at once when nothing is in flight before it (the responses
     * before it are written or queued on the loop ahead of it); otherwise kept until
     * {@link #delivered} sees the responses before it out.
     */
    private void answerLast(Connection c, byte[] response) {
        c.closeAfterResponse();
        if (c.inFlight == 1) {
            loop.execute(() -> loop.deliver(c, response, true));
        } else {
            owedLast.put(c, response);
        }
    }

    /** On the loop, after {@code c} got a response that kept it open: sends its owed last response once only that is in flight. */
    void delivered(Connection c) {
        if (!owedLast.isEmpty() && c.inFlight == 1) {
            byte[] owed = owedLast.remove(c);
            if (owed != null) {
                loop.deliver(c, owed, true);
            }
        }
    }

    /** On the loop: {@code c} closed, or a response closed it: nothing owed is sent. */
    void forget(Connection c) {
        if (!owedLast.isEmpty()) {
            owedLast.remove(c);
        }
    }

    /** Per pool thread: a request view and a response to fill, like a loop's. */
    static final class WorkerState {
        private static final ThreadLocal<WorkerState> STATE = ThreadLocal.withInitial(WorkerState::new);
        final HttpRequest request = new HttpRequest();
        final HttpResponse response = new HttpResponse();
        /** Whether the last response {@link #respond} encoded closes the connection. */
        boolean closes;

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
            // close() from the handler must not wait for itself; on a loop thread close() knows the
            // thread, so the loops' own path pays nothing for this
            HttpServer outer = HttpServer.HANDLING.get();
            HttpServer.HANDLING.set(server);
            try {
                ResponseEncoder.answer(handler, request, res, server);
            } finally {
                HttpServer.HANDLING.set(outer);
            }
            boolean close = closeDecided || res.close;
            closes = close;
            return ResponseEncoder.encode(res, request.head, close, request.minorVersion == 0 && !close);
        }
    }
}

package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.TimerKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The server over real sockets on an ephemeral loopback port, with a small echo handler:
 * {@code /echo/...} answers the path ({@code /close/...} too, then closes the connection),
 * {@code /big/N} answers N bytes. The tests of the timeouts set them to a few hundred
 * milliseconds, so they are quick; every other test sets them to seconds, so that a test thread
 * scheduled late on a loaded machine does not meet one.
 *
 * <p>Every test of {@link Suite} runs in both modes: handlers on the selector loops
 * ({@link OnLoops}), and handlers on a pool of 4 worker threads ({@link OnWorkers}), where the
 * handler first burns a random amount of CPU so that, without the ordered executor, consecutive
 * requests of one connection would finish out of order on different pool threads.
 */
@Timeout(60)
class HttpServerTest {
    static final HttpHandler HANDLER = (req, res) -> {
        if (req.pathStartsWith("/big/")) {
            int n = Integer.parseInt(req.path().substring(5));
            byte[] body = new byte[n];
            for (int i = 0; i < n; i++) {
                body[i] = (byte) ('a' + i % 26);
            }
            res.contentType(ContentType.TEXT).append(body);
        } else if (req.pathStartsWith("/echo/")) {
            res.contentType(ContentType.TEXT).appendAscii(req.path().substring(6));
        } else if (req.pathStartsWith("/close/")) {
            res.contentType(ContentType.TEXT)
                    .appendAscii(req.path().substring(7))
                    .closeConnection();
        } else if (req.pathEquals("/boom")) {
            throw new IllegalStateException("handler bug");
        } else if (req.pathEquals("/close-then-boom")) {
            res.closeConnection();
            throw new IllegalStateException("handler bug after asking to close");
        } else if (req.pathEquals("/boom-error")) {
            throw new StackOverflowError("handler recursion");
        } else if (req.pathEquals("/no-content")) {
            res.status(204).appendAscii("dropped");
        } else if (req.pathEquals("/interim")) {
            res.status(103);
        } else if (req.pathEquals("/boom-checked")) {
            throw HttpServerTest.<RuntimeException>undeclared(new Exception("undeclared checked"));
        } else {
            res.status(404).appendAscii("{}");
        }
    };

    /** Throws {@code e} whatever its type, as code in another JVM language may. */
    @SuppressWarnings("unchecked")
    static <E extends Throwable> E undeclared(Throwable e) throws E {
        throw (E) e;
    }

    /** {@link #HANDLER} after up to 20,000 dependent steps of arithmetic. */
    static final HttpHandler JITTERY = (req, res) -> {
        long spins = ThreadLocalRandom.current().nextInt(20_000);
        long x = 0;
        for (long i = 0; i < spins; i++) {
            x += i ^ (x << 1);
        }
        if (x == 42) {
            res.header("X-Unlikely", "1"); // uses x, so the loop is not dropped as dead code
        }
        HANDLER.handle(req, res);
    };

    /** Handlers on the selector loops. */
    @Nested
    class OnLoops extends Suite {
        OnLoops() {
            super(0);
        }

        @Override
        long pendingOutputBound(int responseBytes) {
            return 256 * 1024 + responseBytes; // the loop's output buffer + one response
        }
    }

    /** Handlers on a pool of worker threads, each connection's responses in request order. */
    @Nested
    class OnWorkers extends Suite {
        OnWorkers() {
            super(4);
        }

        @Override
        long pendingOutputBound(int responseBytes) {
            // the loop stops reading a connection with this many responses outstanding
            return (long) WorkerDispatch.MAX_IN_FLIGHT * responseBytes + 256 * 1024;
        }
    }

    /** The tests; a subclass chooses the mode. */
    @Timeout(60)
    abstract static class Suite {
        private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        private final int workers;
        private ExecutorService pool;
        private HttpServer server;

        /** {@code workers}: 0 for handlers on the loops, else the size of the worker pool. */
        Suite(int workers) {
            this.workers = workers;
        }

        /** Most bytes one connection may hold back, given responses of at most {@code responseBytes}. */
        abstract long pendingOutputBound(int responseBytes);

        /** A builder for this mode: the handler, and the worker pool in worker mode. */
        private HttpServer.Builder builder() {
            if (workers == 0) {
                return HttpServer.builder(HANDLER);
            }
            pool = Executors.newFixedThreadPool(workers);
            return HttpServer.builder(JITTERY).workers(pool);
        }

        /**
         * A server whose timeouts (10 s) no test thread on a loaded machine outlives by accident:
         * for the tests whose point is not a timeout.
         */
        private HttpServer start(int threads) throws IOException {
            return start(builder().threads(threads), Duration.ofSeconds(10), Duration.ofSeconds(10));
        }

        /**
         * A server whose timeouts are the test's own, with a drain of 10 s: for tests that need
         * one timeout short and the other out of their way.
         */
        private HttpServer start(int threads, Duration idleTimeout, Duration headerTimeout) throws IOException {
            return start(builder().threads(threads), idleTimeout, headerTimeout);
        }

        /**
         * A server whose timeouts are a few hundred milliseconds (idle 400 ms, head 300 ms): for
         * the tests of the timeouts themselves, which wait for them to fire.
         */
        private HttpServer startTimingOut(HttpServer.Builder b) throws IOException {
            return start(b, Duration.ofMillis(400), Duration.ofMillis(300));
        }

        private HttpServer start(HttpServer.Builder b, Duration idleTimeout, Duration headerTimeout)
                throws IOException {
            server = b.port(0)
                    .idleTimeout(idleTimeout)
                    .headerTimeout(headerTimeout)
                    .drainTimeout(Duration.ofSeconds(10))
                    .log(log::add)
                    .start();
            return server;
        }

        @AfterEach
        void stop() {
            if (server != null) {
                server.close();
                // every held request byte was counted back when its connection let it go
                assertEquals(0, server.heldInputBytes(), "request bytes still counted as held");
            }
            if (pool != null) {
                pool.shutdownNow();
            }
        }

        private static String get(String path) {
            return "GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n";
        }

        /**
         * The idle timeout counts from a connection's last activity, not from its accept: a client
         * that sends a request every 100 ms keeps its connection past its idle timeout (1 s here).
         */
        @Test
        void anActiveConnectionOutlivesItsIdleTimeout() throws IOException {
            // 1 s: the client's pace (100 ms) leaves 900 ms for its thread to be late on a loaded machine
            start(1, Duration.ofSeconds(1), Duration.ofSeconds(10));
            try (RawClient c = new RawClient(server.port())) {
                long end = System.nanoTime() + 2_500_000_000L; // two and a half idle timeouts
                int i = 0;
                while (System.nanoTime() < end) {
                    c.send(get("/echo/" + i));
                    RawClient.Response r = c.read();
                    assertEquals(200, r.status(), "request " + i);
                    assertEquals("" + i, r.text());
                    i++;
                    LockSupport.parkNanos(100_000_000L); // the client's pace: well inside the timeout
                }
                assertTrue(i >= 6, "only " + i + " requests");
            }
        }

        @Test
        void keepAliveServesManyRequestsOnOneConnection() throws IOException {
            start(2);
            try (RawClient c = new RawClient(server.port())) {
                for (int i = 0; i < 50; i++) {
                    c.send(get("/echo/" + i));
                    RawClient.Response r = c.read();
                    assertEquals(200, r.status());
                    assertEquals(Integer.toString(i), r.text());
                    assertEquals(null, r.header("connection"));
                    assertTrue(r.header("date") != null);
                }
            }
        }

        @Test
        void connectionCloseAndHttp10() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /echo/x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
                RawClient.Response r = c.read();
                assertEquals("close", r.header("connection"));
                assertTrue(c.closedByServer());
            }
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /echo/y HTTP/1.0\r\n\r\n");
                assertEquals("y", c.read().text());
                assertTrue(c.closedByServer());
            }
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /echo/a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
                RawClient.Response r = c.read();
                assertEquals("keep-alive", r.header("connection"));
                c.send("GET /echo/b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
                assertEquals("b", c.read().text());
            }
        }

        @Test
        void headHasContentLengthButNoBody() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("HEAD /big/1234 HTTP/1.1\r\nHost: t\r\n\r\n" + get("/echo/after"));
                RawClient.Response h = c.read(true);
                assertEquals("1234", h.header("content-length"));
                assertEquals("after", c.read().text(), "the next response starts right after the HEAD headers");
            }
        }

        @Test
        void anErrorAnsweringAHeadHasNoBody() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("HEAD /echo/x HTTP/1.1\r\n\r\n"); // no Host: 400, then close
                RawClient.Response r = c.read(true);
                assertEquals(400, r.status());
                assertTrue(Integer.parseInt(r.header("content-length")) > 0, "the length a GET's body would have");
                assertTrue(c.closedByServer(), "no body bytes may follow the head, only the close");
            }
        }

        @Test
        void thousandPipelinedRequestsInOneWriteAreAnsweredInOrder() throws Exception {
            start(2);
            try (RawClient c = new RawClient(server.port())) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < 1000; i++) {
                    sb.append(get("/echo/" + i));
                }
                c.send(sb.toString());
                for (int i = 0; i < 1000; i++) {
                    RawClient.Response r = c.read();
                    assertEquals(200, r.status());
                    assertEquals(Integer.toString(i), r.text());
                }
            }
        }

        @Test
        void requestSplitAcrossManyWritesIsAssembled() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                byte[] req = (get("/echo/split") + get("/echo/two")).getBytes(StandardCharsets.US_ASCII);
                for (byte b : req) {
                    c.send(new byte[] {b});
                }
                assertEquals("split", c.read().text());
                assertEquals("two", c.read().text());
            }
        }

        /**
         * Bytes that cannot change the parser's answer are kept without parsing: a body full of
         * line feeds, sent in pieces, is answered once complete, and a head that passes its limit
         * with no line end is 431 as soon as it does (not at the header timeout, set far off here).
         */
        @Test
        void requestsInPiecesAreAnsweredOnceTheirBytesTell() throws IOException {
            start(1, Duration.ofSeconds(60), Duration.ofSeconds(60));
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /echo/body HTTP/1.1\r\nHost: t\r\nContent-Length: 3000\r\n\r\n");
                for (int i = 0; i < 30; i++) {
                    c.send("\n".repeat(99) + "x");
                }
                c.send(get("/echo/next"));
                assertEquals("body", c.read().text());
                assertEquals("next", c.read().text());
            }
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET / HTTP/1.1\r\nHost: t\r\nX: ");
                for (int i = 0; i < 17; i++) {
                    c.send("b".repeat(1000));
                }
                assertEquals(431, c.read().status());
                assertTrue(c.closedByServer());
            }
        }

        @Test
        void badInputAnswersAndClosesWithoutHurtingOthers() throws IOException {
            start(1);
            String[][] cases = {
                {"GARBAGE\r\n\r\n", "400"},
                {"GET / HTTP/1.1\r\n\r\n", "400"},
                {"GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: t\r\n\r\n", "414"},
                {"GET / HTTP/1.1\r\nHost: t\r\nX: " + "b".repeat(17000) + "\r\n\r\n", "431"},
                {"GET / HTTP/1.1\r\nHost: t\r\n" + "X: y\r\n".repeat(101) + "\r\n", "431"},
                {"GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "400"
                },
                {"GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 999999\r\n\r\n", "413"},
                {"GET / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", "501"},
                {"GET / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n", "400"},
                {"GET / HTTP/3.0\r\nHost: t\r\n\r\n", "505"},
            };
            try (RawClient good = new RawClient(server.port())) {
                for (String[] k : cases) {
                    try (RawClient c = new RawClient(server.port())) {
                        c.send(k[0]);
                        RawClient.Response r = c.read();
                        assertEquals(Integer.parseInt(k[1]), r.status(), r.text());
                        assertEquals("close", r.header("connection"));
                        assertTrue(r.text().contains("\"status\":" + k[1]), r.text());
                        assertTrue(c.closedByServer(), "closed after " + k[1]);
                    }
                    good.send(get("/echo/ok"));
                    assertEquals("ok", good.read().text());
                }
            }
        }

        /**
         * A handler's {@code closeConnection()}: its response says {@code Connection: close} and
         * is the last; the requests pipelined behind it get nothing (in worker mode they were
         * handed out already, and their responses are dropped), and the connection closes.
         */
        @Test
        void aHandlersCloseIsTheLastResponse() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/a") + get("/close/b") + get("/echo/never") + get("/echo/never-either"));
                assertEquals("a", c.read().text());
                RawClient.Response b = c.read();
                assertEquals("b", b.text());
                assertEquals("close", b.header("connection"));
                assertTrue(c.closedByServer(), "closed after b, with nothing after it");
            }
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /close/ten HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
                RawClient.Response r = c.read();
                assertEquals("ten", r.text());
                assertEquals("close", r.header("connection"), "not keep-alive once the handler closes");
                assertTrue(c.closedByServer());
            }
        }

        @Test
        void closeAndErrorsComeAfterTheResponsesBeforeThem() throws IOException {
            start(2);
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/a") + get("/echo/b") + "BROKEN\r\n\r\n" + get("/echo/never"));
                assertEquals("a", c.read().text());
                assertEquals("b", c.read().text());
                RawClient.Response bad = c.read();
                assertEquals(400, bad.status());
                assertTrue(c.closedByServer());
            }
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/x") + "GET /echo/y HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
                        + get("/echo/z"));
                assertEquals("x", c.read().text());
                RawClient.Response y = c.read();
                assertEquals("y", y.text());
                assertEquals("close", y.header("connection"));
                assertTrue(c.closedByServer());
            }
        }

        @Test
        void unknownMethodIs405WithAllowAndKeepsTheConnection() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("POST /echo/x HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc" + get("/echo/next"));
                RawClient.Response r = c.read();
                assertEquals(405, r.status());
                assertEquals("GET, HEAD, OPTIONS", r.header("allow"));
                assertEquals("next", c.read().text(), "the body was consumed, the next request parsed");
            }
        }

        /**
         * OPTIONS, to a path or to {@code *} (a load balancer's health check), is answered 200 with
         * {@code Allow} and no content, without reaching the handler; the connection goes on.
         */
        @Test
        void optionsIsAnsweredWithAllow() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("OPTIONS * HTTP/1.1\r\nHost: t\r\n\r\nOPTIONS /echo/x HTTP/1.1\r\nHost: t\r\n\r\n"
                        + get("/echo/next"));
                for (int i = 0; i < 2; i++) {
                    RawClient.Response r = c.read();
                    assertEquals(200, r.status());
                    assertEquals("GET, HEAD, OPTIONS", r.header("allow"));
                    assertEquals("0", r.header("content-length"));
                    assertEquals("", r.text());
                }
                assertEquals("next", c.read().text());
            }
        }

        @Test
        void smallBodyOnGetIsConsumed() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /echo/a HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nGET /" + get("/echo/b"));
                assertEquals("a", c.read().text());
                assertEquals("b", c.read().text());
            }
        }

        /**
         * A chunked body (RFC 9112 7.1) is read to its end however it arrives, a byte at a time
         * included, and dropped; the connection stays open for the request behind it.
         */
        @Test
        void aChunkedBodyIsConsumedHoweverItArrives() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("POST /echo/a HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhel");
                String rest = "lo\r\n1A\r\n" + "z".repeat(26) + "\r\n0\r\nTrailer: t\r\n\r\n";
                for (char ch : rest.toCharArray()) {
                    c.send(String.valueOf(ch));
                }
                RawClient.Response r = c.read();
                assertEquals(405, r.status(), "POST is read to its end, then refused: " + r.text());
                assertNull(r.header("connection"), "kept open");
                c.send("GET /echo/b HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" + "3\r\nabc\r\n0\r\n\r\n"
                        + get("/echo/c"));
                assertEquals("b", c.read().text());
                assertEquals("c", c.read().text());
            }
        }

        @Test
        void expectContinueGets100BeforeAChunkedBody() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /echo/e HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n");
                assertEquals(
                        "HTTP/1.1 100 Continue\r\n\r\n", new String(c.in.readNBytes(25), StandardCharsets.ISO_8859_1));
                c.send("2\r\nhi\r\n");
                c.send("0\r\n\r\n");
                assertEquals("e", c.read().text());
            }
        }

        @Test
        void expectContinueGets100BeforeTheBodyIsSent() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                for (int round = 0; round < 2; round++) { // once per request, on one connection
                    c.send("GET /echo/e" + round + " HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\n"
                            + "Content-Length: 5\r\n\r\n");
                    assertEquals(
                            "HTTP/1.1 100 Continue\r\n\r\n",
                            new String(c.in.readNBytes(25), StandardCharsets.ISO_8859_1),
                            "the interim response, sent while the body is awaited");
                    c.send("hello");
                    assertEquals("e" + round, c.read().text());
                }
            }
        }

        @Test
        void expectContinueBehindPipelinedRequestsComesAfterTheirResponses() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/first") + get("/echo/second")
                        + "GET /echo/third HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n");
                assertEquals("first", c.read().text());
                assertEquals("second", c.read().text());
                assertEquals(
                        "HTTP/1.1 100 Continue\r\n\r\n", new String(c.in.readNBytes(25), StandardCharsets.ISO_8859_1));
                c.send("abc");
                assertEquals("third", c.read().text());
            }
        }

        @Test
        void expectContinueWithTheBodyAlreadySentGetsOnlyTheFinalResponse() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /echo/x HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi"
                        + get("/echo/y"));
                assertEquals("x", c.read().text());
                assertEquals("y", c.read().text());
            }
        }

        /**
         * A refused method with {@code Expect: 100-continue} and no body yet: its 405 (or 501) at
         * once, no 100 before it, behind the responses before it; the connection closes, reading
         * and dropping a body the client sends anyway.
         */
        @Test
        void expectContinueOnARefusedMethodGetsTheRefusalAtOnce() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/first")
                        + "POST /echo/x HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
                assertEquals("first", c.read().text());
                RawClient.Response r = c.read();
                assertEquals(405, r.status(), r.text());
                assertEquals("GET, HEAD, OPTIONS", r.header("allow"));
                assertEquals("close", r.header("connection"));
                c.send("hello");
                assertTrue(c.closedByServer(), "closed after the refusal");
            }
            try (RawClient c = new RawClient(server.port())) {
                c.send("BREW /pot HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
                assertEquals(501, c.read().status());
                assertTrue(c.closedByServer());
            }
        }

        /**
         * OPTIONS is answered, not refused: with {@code Expect: 100-continue} its body is asked
         * for, as a GET's, and the connection stays open after the 200.
         */
        @Test
        void expectContinueOnOptionsAsksForTheBodyAndKeepsTheConnection() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("OPTIONS /echo/x HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
                assertEquals(
                        "HTTP/1.1 100 Continue\r\n\r\n", new String(c.in.readNBytes(25), StandardCharsets.ISO_8859_1));
                c.send("hello" + get("/echo/after"));
                RawClient.Response r = c.read();
                assertEquals(200, r.status(), r.text());
                assertEquals("GET, HEAD, OPTIONS", r.header("allow"));
                assertNull(r.header("connection"), "kept open");
                assertEquals("after", c.read().text());
            }
        }

        @Test
        void anUnknownExpectationIs417() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /echo/x HTTP/1.1\r\nHost: t\r\nExpect: tea\r\n\r\n");
                assertEquals(417, c.read().status());
            }
        }

        @Test
        void handlerExceptionIs500AndTheConnectionLives() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/boom") + get("/echo/alive"));
                assertEquals(500, c.read().status());
                assertEquals("alive", c.read().text());
            }
            assertTrue(log.stream().anyMatch(l -> l.contains("handler bug")), log.toString());
        }

        /** A handler that asked to close the connection and then threw: a 500, and the close it asked for. */
        @Test
        void aHandlerThatAskedToCloseAndThrewStillCloses() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/close-then-boom") + get("/echo/not-answered"));
                RawClient.Response r = c.read();
                assertEquals(500, r.status());
                assertEquals("close", r.header("connection"));
                assertTrue(c.closedByServerEventually(), "the connection stays open");
            }
        }

        /**
         * A handler that throws an {@code Error} fails its request like one that throws an
         * exception: a 500 (without a body for a HEAD), and the connection and the others on its
         * loop live on.
         */
        @Test
        void handlerErrorIs500AndTheLoopLives() throws IOException {
            start(1);
            try (RawClient other = new RawClient(server.port());
                    RawClient c = new RawClient(server.port())) {
                c.send(get("/boom-error") + "HEAD /boom-error HTTP/1.1\r\nHost: t\r\n\r\n" + get("/echo/alive"));
                assertEquals(500, c.read().status());
                assertEquals(500, c.read(true).status());
                assertEquals("alive", c.read().text());
                other.send(get("/echo/other"));
                assertEquals("other", other.read().text());
            }
            assertTrue(log.stream().anyMatch(l -> l.contains("handler recursion")), log.toString());
        }

        /**
         * A 204 goes out without a body or a Content-Length, whatever the handler appended, and the
         * response behind it is framed right; an interim status from a handler is its failure (500).
         */
        @Test
        void aNoContentResponseHasNoBodyAndAnInterimStatusIsRefused() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/no-content") + get("/interim") + get("/echo/after"));
                RawClient.Response none = c.read(); // RawClient refuses a 204 with a Content-Length
                assertEquals(204, none.status());
                assertEquals(500, c.read().status());
                assertEquals("after", c.read().text());
            }
            assertTrue(log.stream().anyMatch(l -> l.contains("status must be in 200..599: 103")), log.toString());
        }

        /** A checked exception a handler throws undeclared fails its request only, as any other. */
        @Test
        void handlerCheckedExceptionIs500AndTheConnectionLives() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/boom-checked") + get("/echo/alive"));
                assertEquals(500, c.read().status());
                assertEquals("alive", c.read().text());
            }
            assertTrue(log.stream().anyMatch(l -> l.contains("undeclared checked")), log.toString());
        }

        /**
         * A log that throws fails nothing: the failed request still gets its 500, its connection
         * and the loop live on, and the next connection gets its own response only.
         */
        @Test
        void aLogThatThrowsFailsNothing() throws IOException {
            server = builder()
                    .threads(1)
                    .port(0)
                    .idleTimeout(Duration.ofSeconds(10))
                    .log(m -> {
                        throw new IllegalStateException("log full");
                    })
                    .start();
            try (RawClient alice = new RawClient(server.port());
                    RawClient bob = new RawClient(server.port())) {
                alice.send(get("/echo/alice-token") + get("/boom"));
                assertEquals("alice-token", alice.read().text());
                assertEquals(500, alice.read().status());
                bob.send(get("/echo/bob"));
                assertEquals("bob", bob.read().text());
                alice.send(get("/echo/again"));
                assertEquals("again", alice.read().text());
            }
        }

        @ParameterizedTest
        @EnumSource(TimerKind.class)
        void slowlorisGets408AndIsClosed(TimerKind kind) throws IOException {
            // the head times out (300 ms); the idle timeout stays out of the good connection's way
            start(
                    builder().threads(1).timers(() -> kind.create(4, 16384)),
                    Duration.ofSeconds(10),
                    Duration.ofMillis(300));
            try (RawClient slow = new RawClient(server.port());
                    RawClient good = new RawClient(server.port())) {
                slow.send("GET /echo/x HTTP/1.1\r\nHost: t\r\n");
                good.send(get("/echo/meanwhile"));
                assertEquals("meanwhile", good.read().text());
                RawClient.Response r = slow.read();
                assertEquals(408, r.status());
                assertEquals("close", r.header("connection"));
                assertTrue(slow.closedByServer());
            }
        }

        /** A HEAD whose head times out gets a 408 without a body (RFC 9110 9.3.2), then the close. */
        @Test
        void aHeadThatTimesOutGets408WithoutABody() throws IOException {
            start(1, Duration.ofSeconds(10), Duration.ofMillis(300));
            try (RawClient slow = new RawClient(server.port())) {
                slow.send("HEAD /echo/x HTTP/1.1\r\nHost: t\r\n");
                RawClient.Response r = slow.read(true);
                assertEquals(408, r.status());
                assertTrue(slow.closedByServer(), "bytes followed the HEAD's 408");
            }
        }

        /**
         * Empty lines between pipelined requests are skipped, CRLF or bare LF; a bare CR there is
         * refused (400 and close), as anywhere in a head: a CR the client meant as a line end is a
         * framing the server and a proxy may read differently.
         */
        @Test
        void aBareCrBetweenRequestsIsRefused() throws IOException {
            start(1, Duration.ofSeconds(10), Duration.ofSeconds(10));
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/a") + "\r\n\n" + get("/echo/b") + "\r" + get("/echo/c"));
                assertEquals("a", c.read().text());
                assertEquals("b", c.read().text());
                RawClient.Response r = c.read();
                assertEquals(400, r.status());
                assertEquals("close", r.header("connection"));
                assertTrue(c.closedByServerEventually());
            }
            try (RawClient c = new RawClient(server.port())) { // the same, the CR ending a read
                c.send(get("/echo/a") + "\r");
                assertEquals("a", c.read().text());
                c.send("\n" + get("/echo/b") + "\r"); // its LF, then another CR left bare
                assertEquals("b", c.read().text());
                c.send(get("/echo/c"));
                assertEquals(400, c.read().status());
                assertTrue(c.closedByServerEventually());
            }
        }

        @Test
        void trickleFedHeadStillTimesOutFromItsFirstByte() throws Exception {
            start(1, Duration.ofSeconds(10), Duration.ofMillis(300));
            try (RawClient slow = new RawClient(server.port())) {
                // one byte at a time, each well inside the idle timeout: only a deadline counted from
                // the request's first byte (not from the last byte) stops this
                CompletableFuture<RawClient.Response> response = CompletableFuture.supplyAsync(() -> {
                    try {
                        return slow.read();
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });
                String head = "GET /echo/x HTTP/1.1\r\nHost: t\r\nX-Slow: " + "z".repeat(200);
                for (int i = 0; i < head.length() && !response.isDone(); i++) {
                    try {
                        slow.send(head.substring(i, i + 1));
                    } catch (IOException closed) {
                        break;
                    }
                    try {
                        // paces the client at one byte per 20 ms and returns as soon as the server answers
                        response.get(20, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException noAnswerYet) {
                        // send the next byte
                    }
                }
                assertEquals(408, response.get(10, TimeUnit.SECONDS).status());
            }
        }

        /**
         * Empty lines between requests are ignored (RFC 9112 2.2), and are no activity: a client
         * that sends nothing else is closed at the idle timeout (400 ms), however often it sends them.
         */
        @Test
        void emptyLinesAloneDoNotHoldAConnectionOpen() throws Exception {
            startTimingOut(builder().threads(1));
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/x"));
                assertEquals("x", c.read().text());
                CompletableFuture<Boolean> closed = CompletableFuture.supplyAsync(() -> {
                    try {
                        return c.closedByServer();
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!closed.isDone() && System.nanoTime() < until) {
                    try {
                        c.send("\r\n");
                    } catch (IOException reset) {
                        break;
                    }
                    try {
                        // paces the client at an empty line per 100 ms and returns as soon as the server closes
                        closed.get(100, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException stillOpen) {
                        // send the next one
                    }
                }
                // the loop ends when the connection closed, or after 5 s of empty lines it survived
                assertTrue(closed.isDone() && closed.get(), "closed at the idle timeout, not held by empty lines");
            }
        }

        @ParameterizedTest
        @EnumSource(TimerKind.class)
        void idleKeepAliveConnectionIsClosed(TimerKind kind) throws IOException {
            startTimingOut(builder().threads(1).timers(() -> kind.create(4, 16384)));
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/x"));
                assertEquals("x", c.read().text());
                assertTrue(c.closedByServer(), "closed after the idle timeout");
            }
            try (RawClient c = new RawClient(server.port())) {
                assertTrue(c.closedByServer(), "a connection that never sends is idle too");
            }
        }

        @Test
        void clientDisconnectingMidResponseDoesNotHurtTheServer() throws IOException {
            start(1);
            for (int i = 0; i < 5; i++) {
                try (RawClient c = new RawClient(server.port())) {
                    c.socket.setSoLinger(true, 0); // RST on close
                    c.send(get("/big/4000000"));
                    c.in.readNBytes(1000);
                }
            }
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/still-here"));
                assertEquals("still-here", c.read().text());
            }
        }

        @Test
        void pipeliningClientThatDoesNotReadIsThrottledAndOthersAreServed() throws Exception {
            // one loop: the stalled connection and the good one share it; an idle timeout long enough
            // that the stalled output is not closed as a write stall while the good client runs
            server = builder()
                    .threads(1)
                    .port(0)
                    .idleTimeout(Duration.ofSeconds(20))
                    .log(log::add)
                    .start();
            // several rounds: whether the socket drains between "output blocked" and "look again"
            // varies from run to run, and both paths must answer every held-back request
            for (int round = 0; round < 8; round++) {
                try (RawClient hog = new RawClient(server.port());
                        RawClient good = new RawClient(server.port())) {
                    hog.socket.setReceiveBufferSize(16 * 1024);
                    StringBuilder sb = new StringBuilder();
                    int n = 300;
                    int size = 100_000 + round;
                    for (int i = 0; i < n; i++) {
                        sb.append(get("/big/" + size));
                    }
                    // 30 MB of responses asked for; the hog reads nothing for now
                    CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                        try {
                            hog.send(sb.toString());
                        } catch (IOException e) {
                            throw new RuntimeException(e);
                        }
                    });
                    for (int i = 0; i < 20; i++) {
                        good.send(get("/echo/" + i));
                        assertEquals(Integer.toString(i), good.read().text());
                    }
                    for (int i = 0; i < n; i++) {
                        RawClient.Response r = hog.read();
                        assertEquals(size, r.body().length, "round " + round + " response " + i);
                    }
                    writer.join();
                }
            }
            long bound = pendingOutputBound(101_000); // a response: 100,007 bytes of body and its head
            assertTrue(
                    server.maxPendingOutputBytes() <= bound,
                    "held back " + server.maxPendingOutputBytes() + " bytes for one connection, bound " + bound);
            assertTrue(server.maxPendingOutputBytes() > 0, "the hog's output was held back at some point");
        }

        /**
         * Many clients that pipeline and never read: each would hold its bound of output, more in
         * all than the loop's budget. Those past it are closed, the output held stays within the
         * budget, and a client that reads is still served.
         */
        @Test
        void clientsThatNeverReadCannotHoldMoreOutputThanTheBudget() throws Exception {
            long budget = 2 << 20;
            server = builder()
                    .threads(1)
                    .port(0)
                    .idleTimeout(Duration.ofSeconds(20))
                    .maxHeldOutput(budget)
                    .log(log::add)
                    .start();
            List<RawClient> hogs = new ArrayList<>();
            try {
                StringBuilder asks = new StringBuilder();
                for (int i = 0; i < 50; i++) {
                    asks.append(get("/big/100000"));
                }
                // each asks for 5 MB and reads nothing: what its socket does not take is held, about
                // 400 KB on the loops, up to the 50 responses in flight (5 MB) with workers
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                for (int i = 0; i < 40 && server.shedConnections() == 0; i++) {
                    RawClient hog = new RawClient(server.port());
                    hogs.add(hog);
                    hog.socket.setReceiveBufferSize(16 * 1024);
                    hog.send(asks.toString());
                }
                while (server.shedConnections() == 0) {
                    assertTrue(
                            System.nanoTime() < giveUp,
                            "no connection was closed; held " + server.maxHeldOutputBytes());
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // polls the loop's count
                }
                assertTrue(
                        server.maxHeldOutputBytes() <= budget,
                        "held " + server.maxHeldOutputBytes() + " bytes, budget " + budget);
                try (RawClient good = new RawClient(server.port())) {
                    good.send(get("/echo/served"));
                    assertEquals("served", good.read().text());
                }
                assertTrue(
                        log.stream().anyMatch(l -> l.contains("closed a connection whose unread output would pass")),
                        log.toString());
            } finally {
                for (RawClient hog : hogs) {
                    hog.close();
                }
            }
        }

        @Test
        void garbageOnManyConnectionsWhileAGoodOneKeepsWorking() throws Exception {
            start(2);
            Random random = new Random(42);
            try (RawClient good = new RawClient(server.port())) {
                for (int round = 0; round < 40; round++) {
                    byte[] junk = new byte[1 + random.nextInt(3000)];
                    random.nextBytes(junk);
                    if (round % 4 == 0) {
                        // plausible prefix, garbage after it
                        byte[] p = "GET / HTTP/1.1\r\nHost: t\r\n".getBytes(StandardCharsets.US_ASCII);
                        System.arraycopy(p, 0, junk, 0, Math.min(p.length, junk.length));
                    }
                    try (RawClient bad = new RawClient(server.port())) {
                        try {
                            bad.send(junk);
                        } catch (IOException serverAlreadyClosed) {
                            // fine: it answered and closed before we finished writing
                        }
                        assertTrue(bad.closedByServerEventually(), "round " + round + " seed 42");
                    }
                    good.send(get("/echo/" + round));
                    assertEquals(Integer.toString(round), good.read().text());
                }
            }
        }

        /** Two loops sharing the listener through {@code acceptor}, timeouts out of the way, logging to {@code log}. */
        private HttpServer twoLoopsAccepting(HttpServer.Acceptor acceptor, java.util.function.Consumer<String> log)
                throws IOException {
            return builder()
                    .threads(2)
                    .port(0)
                    .idleTimeout(Duration.ofSeconds(30))
                    .headerTimeout(Duration.ofSeconds(30))
                    .log(log)
                    .acceptor(acceptor)
                    .start();
        }

        @Test
        void acceptFailingLikeEmfileBacksOffLogsOnceAndRecovers() throws Exception {
            AtomicInteger failuresLeft = new AtomicInteger(0);
            AtomicInteger calls = new AtomicInteger();
            // Both loops wake for a pending connection. Without the gate, a loop woken for the
            // first connection (taken by the other) could decide "no failure" before the
            // failures are armed and then accept the second connection: served, no failure seen.
            Object gate = new Object();
            HttpServer.Acceptor failing = l -> {
                synchronized (gate) {
                    calls.incrementAndGet();
                    if (failuresLeft.getAndUpdate(x -> Math.max(0, x - 1)) > 0) {
                        throw new IOException("Too many open files");
                    }
                    return l.accept();
                }
            };
            server = twoLoopsAccepting(failing, log::add);
            try (RawClient existing = new RawClient(server.port())) {
                existing.send(get("/echo/before"));
                assertEquals("before", existing.read().text());
                synchronized (gate) {
                    failuresLeft.set(6);
                }
                try (RawClient late = new RawClient(server.port())) {
                    // the existing connection is served while accept keeps failing
                    existing.send(get("/echo/during"));
                    assertEquals("during", existing.read().text());
                    late.send(get("/echo/late"));
                    assertEquals("late", late.read().text(), "accepted once accept works again");
                }
            }
            long failures =
                    log.stream().filter(l -> l.startsWith("accept failed")).count();
            assertEquals(1, failures, log.toString());
            assertTrue(log.stream().anyMatch(l -> l.contains("accept works again")), log.toString());
            assertTrue(calls.get() < 50, "backed off instead of spinning: " + calls.get() + " accept calls");
        }

        @Test
        void acceptRecoveryIsLoggedByWhicheverLoopAcceptsNext() throws Exception {
            // accept fails only on the first loop that tries it; the other loop, which never
            // failed, accepts the connection once the failure is logged, and must report the
            // recovery
            AtomicReference<Thread> failingLoop = new AtomicReference<>();
            AtomicInteger failuresLeft = new AtomicInteger(0);
            CountDownLatch failureLogged = new CountDownLatch(1);
            HttpServer.Acceptor failing = l -> {
                if (failuresLeft.get() > 0) {
                    failingLoop.compareAndSet(null, Thread.currentThread());
                    if (failingLoop.get() == Thread.currentThread()) {
                        failuresLeft.decrementAndGet();
                        throw new IOException("Too many open files");
                    }
                    try {
                        assertTrue(failureLogged.await(10, TimeUnit.SECONDS), "the failing loop logs its failure");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException(e);
                    }
                }
                return l.accept();
            };
            server = twoLoopsAccepting(failing, message -> {
                log.add(message);
                if (message.startsWith("accept failed")) {
                    failureLogged.countDown();
                }
            });
            failuresLeft.set(1_000);
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/served"));
                assertEquals("served", c.read().text());
            }
            assertNotNull(failingLoop.get(), "a loop saw accept fail");
            assertTrue(log.stream().anyMatch(l -> l.contains("accept works again")), log.toString());
        }

        @Test
        void closeFinishesResponsesInFlight() throws Exception {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.socket.setReceiveBufferSize(16 * 1024);
                c.send(get("/big/3000000"));
                // the response does not fit in the socket buffers: it is in flight until we read
                byte[] first = c.in.readNBytes(100);
                assertEquals(100, first.length);
                CountDownLatch closed = new CountDownLatch(1);
                Thread closer = new Thread(() -> {
                    server.close();
                    closed.countDown();
                });
                closer.start();
                try (RawClient refused = new RawClient(server.port(), 2000)) {
                    // Connects into the backlog and is reset when the listener closes, or, if a loop
                    // accepted it before the drain reached that loop, is answered and then closed.
                    // Either way it ends; it may still be open only while the close is unfinished.
                    refused.send(get("/echo/x"));
                    assertTrue(refused.closedByServerEventually() || !closed.await(0, TimeUnit.MILLISECONDS));
                } catch (IOException connectionRefused) {
                    // also fine
                }
                byte[] rest = c.in.readAllBytes();
                String all =
                        new String(first, StandardCharsets.ISO_8859_1) + new String(rest, StandardCharsets.ISO_8859_1);
                int bodyStart = all.indexOf("\r\n\r\n") + 4;
                assertEquals(3000000, all.length() - bodyStart, "the whole body arrived before the close");
                assertTrue(closed.await(20, TimeUnit.SECONDS));
                assertFalse(all.isEmpty());
            }
            server = null;
        }

        /** Once a graceful stop starts, new connections are refused at once, not left to wait out the drain. */
        @Test
        void aStopRefusesNewConnectionsWhileItDrains() throws Exception {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                // 30 MB of responses, more than the socket buffers hold: in flight until we read,
                // and the drain waits for them
                c.send(get("/big/3000000").repeat(10));
                assertEquals(100, c.in.readNBytes(100).length);
                int port = server.port();
                CountDownLatch closed = new CountDownLatch(1);
                Thread closer = new Thread(() -> {
                    server.close();
                    closed.countDown();
                });
                closer.start();
                boolean refused = false;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!refused && System.nanoTime() < deadline && closed.getCount() > 0) {
                    try (java.net.Socket s = new java.net.Socket()) {
                        s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
                    } catch (java.net.ConnectException e) {
                        refused = true;
                    } catch (IOException racedTheClose) {
                        // a reset or a timeout from a connect that met the socket while it closed: try again
                    }
                }
                boolean stillDraining = closed.getCount() > 0;
                c.in.readAllBytes(); // let the drain finish
                assertTrue(closed.await(20, TimeUnit.SECONDS));
                assertTrue(refused && stillDraining, "refused " + refused + ", while draining " + stillDraining);
            }
            server = null;
        }

        /**
         * A stop answers the pipelined requests the server has read, held back behind a response the
         * client is slow to read (or, with workers, behind a full pipeline): every one, then the
         * connection closes. The last says {@code Connection: close}, unless the bytes of a request
         * not complete follow it (then the close comes unannounced, and that request is not
         * answered, nor is a {@code 100 Continue} sent for its body).
         */
        @Test
        void aStopAnswersThePipelinedRequestsAlreadyReadTheLastSayingClose() throws Exception {
            String[] tails = {
                "",
                "GET /echo/cut HTTP/1.1\r\nHo", // cut off mid-head
                "GET /echo/x HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n" // no body yet
            };
            for (String tail : tails) {
                boolean cut = !tail.isEmpty();
                start(1);
                int size = 20_000_000; // more than the socket buffers hold: in flight until the client reads
                try (RawClient c = new RawClient(server.port(), 10_000, 64 * 1024)) {
                    StringBuilder sb = new StringBuilder(get("/big/" + size));
                    int echoes = 100; // more than a worker pipeline takes at once: some held back
                    for (int i = 0; i < echoes; i++) {
                        sb.append(get("/echo/" + i));
                    }
                    sb.append(tail); // never completed
                    c.send(sb.toString());
                    String head = readHead(c); // the big one is in flight, so what came with it was read
                    assertTrue(head.contains("Content-Length: " + size), head);
                    CountDownLatch closed = new CountDownLatch(1);
                    HttpServer stopping = server;
                    Thread closer = new Thread(() -> {
                        stopping.close();
                        closed.countDown();
                    });
                    closer.start();
                    awaitRefused(stopping.port()); // the loop has begun its drain: the requests are still held
                    assertEquals(size, c.in.readNBytes(size).length);
                    for (int i = 0; i < echoes; i++) {
                        RawClient.Response r = c.read();
                        assertEquals(Integer.toString(i), r.text());
                        String expected = i == echoes - 1 && !cut ? "close" : null;
                        assertEquals(expected, r.header("connection"), "response " + i + ", cut " + cut);
                    }
                    assertTrue(c.closedByServer(), "nothing more (no 100 Continue) after the last response: " + tail);
                    assertTrue(closed.await(20, TimeUnit.SECONDS));
                }
                server = null;
            }
        }

        /** Connects until one is refused: the stop has closed the listening socket (at most 5 s). */
        private static void awaitRefused(int port) throws IOException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (System.nanoTime() < deadline) {
                try (java.net.Socket s = new java.net.Socket()) {
                    s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
                } catch (java.net.ConnectException e) {
                    return;
                } catch (IOException racedTheClose) {
                    // a reset or a timeout from a connect that met the socket while it closed: try again
                }
            }
            throw new AssertionError("connections still accepted 5 s into the stop");
        }

        /** A response's head, byte by byte up to its empty line, leaving its body unread. */
        private static String readHead(RawClient c) throws IOException {
            StringBuilder head = new StringBuilder();
            while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
                int b = c.in.read();
                if (b < 0) {
                    throw new IOException("closed in a response head: " + head);
                }
                head.append((char) b);
            }
            return head.toString();
        }

        /** A client that half-closes after its requests still gets every response (RFC 9112 9.6). */
        @Test
        void aHalfClosedClientGetsItsResponses() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < 50; i++) {
                    sb.append(get("/echo/" + i));
                }
                c.send(sb.toString());
                c.socket.shutdownOutput();
                for (int i = 0; i < 50; i++) {
                    assertEquals(Integer.toString(i), c.read().text());
                }
                assertTrue(c.closedByServer());
            }
        }

        /**
         * After an error response the connection lingers (RFC 9112 9.6): our side is shut down, and
         * what the client still sends is read and dropped, so no reset can cut the response off.
         */
        @Test
        void anErrorResponseIsFollowedByALingeringClose() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /echo/x HTTP/1.1\r\nHost: t\r\nContent-Length: 999999\r\n\r\n");
                assertEquals(413, c.read().status());
                assertTrue(c.closedByServer(), "our side is shut down after the response");
                byte[] chunk = new byte[64 * 1024];
                for (int i = 0; i < 16; i++) {
                    c.send(chunk); // the refused body keeps coming: read and dropped, not reset
                }
            }
        }

        /**
         * A response that closes the connection ({@code Connection: close}) lingers too: a client
         * may pipeline on before it reads the close, and closing with its bytes unread would
         * reset the connection and throw away the part of the response still in the server's
         * socket buffer.
         */
        @Test
        void aConnectionCloseResponseLingersSoTheResponseArrivesWhole() throws Exception {
            start(1);
            // a small window: the response's tail is still in the server's socket buffer when it
            // has written the last of it and closes
            try (RawClient c = new RawClient(server.port(), 10_000, 8 * 1024)) {
                int size = 4_000_000;
                c.send("GET /big/" + size + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
                int matched = 0; // of the blank line that ends the head
                while (matched < 4) {
                    int b = c.in.read();
                    assertTrue(b >= 0, "closed within the head");
                    matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
                }
                // the client pipelines on, as it may before it reads the close: bytes the server
                // has not read when it closes
                c.send(get("/echo/more") + get("/echo/still more"));
                long body = 0;
                byte[] chunk = new byte[64 * 1024];
                try {
                    for (int n; body < size && (n = c.in.read(chunk)) >= 0; ) {
                        body += n;
                    }
                } catch (java.net.SocketException reset) {
                    // counted below
                }
                assertEquals(size, body, "the response was cut off by a reset");
                assertTrue(c.closedByServer());
            }
        }

        /** Reads what {@code c} still receives until the server closes it; the bytes read. */
        private static long readUntilClosed(RawClient c) throws IOException {
            byte[] b = new byte[64 * 1024];
            long total = 0;
            try {
                for (int n; (n = c.in.read(b)) >= 0; ) {
                    total += n;
                }
            } catch (java.net.SocketTimeoutException e) {
                throw e; // still open: the caller's assertion cannot hold
            } catch (IOException reset) {
                // closed with our bytes unread on its side: a reset ends the stream
            }
            return total;
        }

        /** Waits until no connection is open, polling the server's counters; false at the deadline. */
        private boolean noConnectionOpenWithin(long millis) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            while (server.stats().openConnections() > 0) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
            }
            return true;
        }

        /**
         * A client that stops reading a response makes no write progress: it is closed once the
         * idle timeout passes, and what it was owed is dropped.
         */
        @Test
        void aReaderThatStallsIsClosedAtTheIdleTimeout() throws Exception {
            startTimingOut(builder().threads(1));
            try (RawClient c = new RawClient(server.port())) {
                c.socket.setReceiveBufferSize(16 * 1024);
                int size = 20_000_000; // far more than the socket buffers hold
                c.send(get("/big/" + size));
                assertEquals(100, c.in.readNBytes(100).length); // the response started; now read nothing
                assertTrue(noConnectionOpenWithin(20_000), "the stalled connection is still open");
                long received = 100 + readUntilClosed(c);
                assertTrue(received < size, "the whole response arrived: " + received + " bytes");
            }
        }

        /**
         * A client that reads slowly but steadily, each pause shorter than the idle timeout, gets
         * the whole response: a write that makes progress counts as activity, so output held back
         * for it is not dropped.
         */
        @Test
        void aSlowButSteadyReaderGetsTheWholeResponse() throws Exception {
            // the reader's pace leaves gaps far below 2 s, however late its thread runs
            start(1, Duration.ofSeconds(2), Duration.ofSeconds(10));
            try (RawClient c = new RawClient(server.port())) {
                c.socket.setReceiveBufferSize(16 * 1024);
                int size = 10_000_000;
                c.send(get("/big/" + size));
                int matched = 0; // of the blank line that ends the head
                while (matched < 4) {
                    int b = c.in.read();
                    assertTrue(b >= 0, "closed within the head");
                    matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
                }
                byte[] chunk = new byte[256 * 1024];
                long body = 0;
                long start = System.nanoTime();
                while (body < size) { // paced at 5 MB/s (200 ns a byte): 10 MB take 2 s, no pause over 60 ms
                    int n = c.in.read(chunk, 0, (int) Math.min(chunk.length, size - body));
                    assertTrue(n >= 0, "cut off after " + body + " bytes of the body");
                    body += n;
                    long ahead = start + body * 200 - System.nanoTime();
                    if (ahead > 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(ahead);
                    }
                }
                // the tail the kernel held after our last write may take longer than the idle
                // timeout to read: the connection may close after it, not before
            }
        }

        /**
         * A client that keeps reading through a small window, too slowly for its socket to turn
         * writable within the idle timeout (the kernel waits until a good part of the send buffer
         * has drained), still takes bytes at every deadline: it keeps its connection.
         */
        @Test
        void aReaderTooSlowForTheSocketToTurnWritableKeepsItsConnection() throws Exception {
            // the pace leaves no gap near the idle timeout, however late the reader's thread runs
            start(1, Duration.ofMillis(1500), Duration.ofSeconds(10));
            try (RawClient c = new RawClient(server.port(), 10_000, 4096)) {
                c.send(get("/big/" + 16_000_000)); // more than the loopback send buffer grows to
                byte[] chunk = new byte[1024];
                long read = 0;
                long start = System.nanoTime();
                long end = start + TimeUnit.SECONDS.toNanos(4); // two deadlines and more
                while (System.nanoTime() < end) { // paced at 20 KB/s: a 1 KB read every 50 ms
                    int n = c.in.read(chunk);
                    assertTrue(n >= 0, "closed after " + read + " bytes");
                    read += n;
                    long ahead = start + read * 50_000 - System.nanoTime();
                    if (ahead > 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(ahead);
                    }
                }
                assertEquals(1, server.stats().openConnections(), "the server closed a client that reads");
            }
        }

        /**
         * A lingering close ends after its limit even if the client keeps sending: what it sends
         * is discarded and does not keep the connection open.
         */
        @Test
        void aLingeringConnectionClosesWhileTheClientKeepsSending() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /echo/x HTTP/1.1\r\nHost: t\r\nContent-Length: 999999\r\n\r\n");
                assertEquals(413, c.read().status());
                byte[] chunk = new byte[1024];
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); // the limit is 2 s
                boolean reset = false;
                while (!reset && System.nanoTime() < deadline) {
                    try {
                        c.send(chunk); // well inside the idle timeout each time
                        java.util.concurrent.locks.LockSupport.parkNanos(50_000_000);
                    } catch (IOException closed) {
                        reset = true;
                    }
                }
                assertTrue(reset, "still lingering while the client sends");
            }
        }

        /**
         * A graceful stop waits for responses in flight only up to the drain timeout: a client that
         * never reads is cut off then, not at its idle timeout.
         */
        @Test
        void aStopCutsAStalledResponseAtTheDrainTimeout() throws Exception {
            server = builder()
                    .threads(1)
                    .port(0)
                    .idleTimeout(Duration.ofSeconds(60))
                    .drainTimeout(Duration.ofMillis(500))
                    .log(log::add)
                    .start();
            try (RawClient c = new RawClient(server.port())) {
                c.socket.setReceiveBufferSize(16 * 1024);
                int size = 20_000_000;
                c.send(get("/big/" + size));
                assertEquals(100, c.in.readNBytes(100).length); // in flight; now read nothing
                CountDownLatch closed = new CountDownLatch(1);
                Thread closer = new Thread(() -> {
                    server.close();
                    closed.countDown();
                });
                closer.start();
                assertTrue(closed.await(30, TimeUnit.SECONDS), "the stop waited past its drain timeout");
                long received = 100 + readUntilClosed(c);
                assertTrue(received < size, "the whole response arrived: " + received + " bytes");
                assertTrue(
                        log.stream()
                                .anyMatch(l -> l.contains("1 connection(s) still open after")
                                        && l.contains("500 ms drain timeout")),
                        log::toString);
            }
            server = null;
        }

        /** An empty line after a request starts no request: no 408 when the header timeout passes. */
        @Test
        void aStrayLineEndAfterARequestIsIgnored() throws IOException {
            startTimingOut(builder().threads(1));
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/a") + "\r\n");
                assertEquals("a", c.read().text());
                assertTrue(
                        c.closedByServer(), "closed at the idle timeout without a response (a 408 would come first)");
            }
        }

        /**
         * A CR that ends a read, its LF in the next, is an empty line split in two: no request
         * starts (no 408 at the header timeout), and neither half is activity, so a client sending
         * only such halves is closed at the idle timeout (400 ms here; it sends for 2 s).
         */
        @Test
        void anEmptyLineSplitBetweenReadsIsNoActivity() throws IOException {
            startTimingOut(builder().threads(1));
            try (RawClient c = new RawClient(server.port())) {
                c.send(get("/echo/a") + "\r");
                assertEquals("a", c.read().text());
                long end = System.nanoTime() + 2_000_000_000L;
                try {
                    for (int i = 0; System.nanoTime() < end; i++) {
                        c.send(i % 2 == 0 ? "\n" : "\r");
                        LockSupport.parkNanos(50_000_000L); // the client's pace: a byte every 50 ms
                    }
                } catch (IOException closed) {
                    // the server closed it: what the test wants (a write after its close is reset)
                }
                assertTrue(c.closedByServer(), "kept open by line-end halves, or answered (a 408 would come first)");
            }
        }

        /** A method HTTP defines but we do not serve: 405; any other method: 501; the connection stays. */
        @Test
        void otherMethodsGet405OrNotImplemented() throws IOException {
            start(1);
            try (RawClient c = new RawClient(server.port())) {
                c.send("DELETE /echo/x HTTP/1.1\r\nHost: t\r\n\r\n");
                RawClient.Response r = c.read();
                assertEquals(405, r.status());
                assertEquals("GET, HEAD, OPTIONS", r.header("allow"));
                c.send("FOO /echo/x HTTP/1.1\r\nHost: t\r\n\r\n");
                assertEquals(501, c.read().status());
                c.send(get("/echo/still"));
                assertEquals("still", c.read().text());
            }
        }

        @Test
        void statsCountRequestsAndConnections() throws IOException {
            start(2);
            try (RawClient c = new RawClient(server.port())) {
                for (int i = 0; i < 10; i++) {
                    c.send(get("/echo/" + i));
                    c.read();
                }
                ServerStats s = server.stats();
                assertTrue(s.requests() >= 9, s.toString()); // published once per loop iteration
                assertEquals(2, s.loops());
                assertTrue(s.bytesIn() > 0 && s.bytesOut() > 0, s.toString());
            }
        }
    }

    static List<String> lines(String s) {
        return new ArrayList<>(Arrays.asList(s.split("\r\n")));
    }
}

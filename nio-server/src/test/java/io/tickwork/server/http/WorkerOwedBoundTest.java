package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Worker mode bounds the responses the pool owes a loop over all its connections, not only per
 * connection: a loop whose output budget is 1 MiB lets 64 tasks be on the pool at once. Requests
 * past that wait in their connections, which read nothing more meanwhile, and are handed out first
 * come first served as responses come back; none is lost, none answered out of order.
 */
@Timeout(60)
class WorkerOwedBoundTest {
    private static final int BOUND = WorkerDispatch.MAX_IN_FLIGHT; // of a 1 MiB budget

    /** Lets the handlers of {@code a} paths finish. */
    private final CountDownLatch release = new CountDownLatch(1);
    /** Counted down by the first handler of a {@code b} path. */
    private final CountDownLatch bStarted = new CountDownLatch(1);

    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    @AfterEach
    void stopPool() {
        release.countDown();
        pool.shutdownNow();
    }

    /** One loop on {@code pool}, a 1 MiB output budget. */
    private static HttpServer.Builder oneLoop(HttpHandler handler, ExecutorService pool) {
        return HttpServer.builder(handler)
                .workers(pool)
                .threads(1)
                .port(0)
                .maxHeldOutput(1 << 20)
                .idleTimeout(Duration.ofSeconds(30));
    }

    private static String gets(String prefix, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append("GET /").append(prefix).append(i).append(" HTTP/1.1\r\nHost: t\r\n\r\n");
        }
        return sb.toString();
    }

    /** Answers the path; paths starting with {@code a} wait for {@link #release} first, {@code b} ones count down {@link #bStarted}. */
    private HttpHandler handler() {
        return (req, res) -> {
            String path = req.path().substring(1);
            if (path.startsWith("a")) {
                try {
                    assertTrue(release.await(30, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            } else {
                bStarted.countDown();
            }
            res.contentType(ContentType.TEXT).appendAscii(path);
        };
    }

    private static void readAll(RawClient c, String prefix, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            RawClient.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals(prefix + i, r.text());
        }
    }

    /**
     * One connection holds the loop's whole bound on the pool (its tasks run one at a time and the
     * first waits); another's requests, which the pool's second thread would run at once, wait
     * until responses come back. Checked by the most the pool was owed, not by time: the pause
     * before the release only gives a request handed out past the bound time to start.
     */
    @Test
    void requestsPastTheLoopsBoundWaitTheirTurnAndAreAllAnswered() throws Exception {
        try (HttpServer server = oneLoop(handler(), pool).start();
                RawClient a = new RawClient(server.port());
                RawClient b = new RawClient(server.port())) {
            a.send(gets("a", BOUND));
            b.send(gets("b", 3));
            assertFalse(bStarted.await(500, TimeUnit.MILLISECONDS), "a request was handed out past the bound");
            release.countDown();
            readAll(a, "a", BOUND);
            readAll(b, "b", 3);
            assertEquals(BOUND, server.maxOwedResponses());
        }
    }

    /** Returns once {@code port} refuses connections (its listener closed), failing after 10 s. */
    private static void awaitRefused(int port) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                new java.net.Socket("127.0.0.1", port).close();
            } catch (java.net.ConnectException refused) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the listener never closed");
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /** A graceful stop answers the requests waiting for room on the pool, the last saying close. */
    @Test
    void aStopAnswersTheRequestsWaitingForThePool() throws Exception {
        try (HttpServer server = oneLoop(handler(), pool).start();
                RawClient a = new RawClient(server.port());
                RawClient b = new RawClient(server.port())) {
            a.send(gets("a", BOUND));
            b.send(gets("b", 2));
            assertFalse(bStarted.await(200, TimeUnit.MILLISECONDS), "a request was handed out past the bound");
            Thread closer = new Thread(server::close);
            closer.start();
            awaitRefused(server.port()); // the stop has begun on the loop: b's requests still wait
            release.countDown();
            readAll(a, "a", BOUND);
            readAll(b, "b", 1);
            RawClient.Response last = b.read();
            assertEquals("b1", last.text());
            assertEquals("close", last.header("Connection"));
            closer.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(closer.isAlive());
        }
    }

    /** With a response timeout, requests that waited that long for room on the pool get a 503 and the connection closes. */
    @Test
    void requestsWaitingForThePoolPastTheResponseTimeoutGetA503() throws Exception {
        try (HttpServer server = oneLoop(handler(), pool)
                        .responseTimeout(Duration.ofMillis(300))
                        .start();
                RawClient a = new RawClient(server.port());
                RawClient b = new RawClient(server.port())) {
            a.send(gets("a", BOUND));
            b.send(gets("b", 2));
            RawClient.Response r = b.read();
            assertEquals(503, r.status());
            assertEquals(-1, b.in.read(), "the connection stays open after its 503");
            assertEquals(1, bStarted.getCount(), "b's requests ran after their 503");
            release.countDown();
        }
    }

    /** A partial head read while the pool owes the loop all it allows still gets its header timeout's 408. */
    @Test
    void aPartialHeadReadWhileThePoolIsFullGetsItsHeaderTimeout() throws Exception {
        try (HttpServer server = oneLoop(handler(), pool)
                        .headerTimeout(Duration.ofMillis(300))
                        .start();
                RawClient a = new RawClient(server.port());
                RawClient b = new RawClient(server.port())) {
            a.send(gets("a", BOUND));
            b.send("GET /b HTTP/1.1\r\nHost: t\r\n"); // never completed
            assertEquals(408, b.read().status());
            release.countDown();
            readAll(a, "a", BOUND);
        }
    }

    /**
     * Refusals go through the pool too, so while it owes the loop all it allows a malformed request
     * and a refused {@code Expect} wait their turn like any request, answered once there is room.
     */
    @Test
    void refusalsWaitForRoomOnThePoolToo() throws Exception {
        try (HttpServer server = oneLoop(handler(), pool).start();
                RawClient a = new RawClient(server.port());
                RawClient malformed = new RawClient(server.port());
                RawClient refused = new RawClient(server.port())) {
            a.send(gets("a", BOUND));
            malformed.send("GET /m HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n");
            refused.send("PUT /r HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n");
            assertFalse(bStarted.await(300, TimeUnit.MILLISECONDS)); // time for a refusal handed out past the bound
            release.countDown();
            readAll(a, "a", BOUND);
            assertEquals(400, malformed.read().status());
            assertEquals(405, refused.read().status());
            assertEquals(BOUND, server.maxOwedResponses());
        }
    }
}

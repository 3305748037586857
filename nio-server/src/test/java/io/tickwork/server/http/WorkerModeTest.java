package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Worker mode: handlers on a pool, responses in request order per connection. The handler burns
 * a random amount of CPU so that, without the ordered executor, consecutive requests of one
 * connection would finish out of order on different pool threads.
 */
@Timeout(60)
class WorkerModeTest {
    private ExecutorService pool;
    private HttpServer server;

    static final HttpHandler JITTERY = (req, res) -> {
        long spins = ThreadLocalRandom.current().nextInt(20_000);
        long x = 0;
        for (long i = 0; i < spins; i++) {
            x += i ^ (x << 1);
        }
        if (req.pathStartsWith("/echo/")) {
            res.contentType(ContentType.TEXT).appendAscii(req.path().substring(6));
            if (x == 42) {
                res.header("X-Unlikely", "1");
            }
        } else {
            HttpServerTest.HANDLER.handle(req, res);
        }
    };

    @BeforeEach
    void start() throws IOException {
        pool = Executors.newFixedThreadPool(4);
        server = HttpServer.builder(JITTERY)
                .port(0)
                .threads(2)
                .workers(pool)
                .idleTimeout(Duration.ofSeconds(5))
                .headerTimeout(Duration.ofMillis(300))
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
        pool.shutdownNow();
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n";
    }

    @Test
    void thousandPipelinedRequestsComeBackInOrder() throws IOException {
        try (RawClient c = new RawClient(server.port())) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 1000; i++) {
                sb.append(get("/echo/" + i));
            }
            c.send(sb.toString());
            for (int i = 0; i < 1000; i++) {
                assertEquals(Integer.toString(i), c.read().text());
            }
        }
    }

    @Test
    void closeAndErrorsComeAfterTheResponsesBeforeThem() throws IOException {
        try (RawClient c = new RawClient(server.port())) {
            c.send(get("/echo/a") + get("/echo/b") + "BROKEN\r\n\r\n" + get("/echo/never"));
            assertEquals("a", c.read().text());
            assertEquals("b", c.read().text());
            RawClient.Response bad = c.read();
            assertEquals(400, bad.status());
            assertTrue(c.closedByServer());
        }
        try (RawClient c = new RawClient(server.port())) {
            c.send(get("/echo/x") + "GET /echo/y HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n" + get("/echo/z"));
            assertEquals("x", c.read().text());
            RawClient.Response y = c.read();
            assertEquals("y", y.text());
            assertEquals("close", y.header("connection"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void nonReadingClientIsThrottled() throws Exception {
        try (RawClient hog = new RawClient(server.port());
                RawClient good = new RawClient(server.port())) {
            hog.socket.setReceiveBufferSize(16 * 1024);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 200; i++) {
                sb.append(get("/big/100000"));
            }
            hog.send(sb.toString());
            for (int i = 0; i < 10; i++) {
                good.send(get("/echo/" + i));
                assertEquals(Integer.toString(i), good.read().text());
            }
            for (int i = 0; i < 200; i++) {
                assertEquals(100000, hog.read().body().length);
            }
        }
        long bound = (long) WorkerDispatch.MAX_IN_FLIGHT * 101_000 + 256 * 1024;
        assertTrue(server.maxPendingOutputBytes() <= bound, server.maxPendingOutputBytes() + " > " + bound);
    }
}

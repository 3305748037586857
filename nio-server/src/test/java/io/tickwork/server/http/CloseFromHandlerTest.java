package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code close()} from one of the server's own handlers: it starts the stop and returns at once
 * instead of waiting for loops that wait for the handler, so the handler's response still goes
 * out, and the server ends well within its drain timeout.
 */
@Timeout(60)
class CloseFromHandlerTest {

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {0, 2})
    void closeFromAHandlerAnswersThatRequestAndStopsTheServer(int workers) throws Exception {
        AtomicReference<HttpServer> self = new AtomicReference<>();
        CountDownLatch closeReturned = new CountDownLatch(1);
        HttpServer.Builder b = HttpServer.builder((req, res) -> {
                    self.get().close();
                    closeReturned.countDown();
                    res.appendAscii("bye");
                })
                .threads(1)
                .port(0)
                .drainTimeout(Duration.ofSeconds(30)); // a stop that waited for itself would take this long
        ExecutorService pool = workers > 0 ? Executors.newFixedThreadPool(workers) : null;
        if (pool != null) {
            b.workers(pool);
        }
        HttpServer server = b.start();
        self.set(server);
        long start = System.nanoTime();
        try (RawClient c = new RawClient(server.port())) {
            c.send("GET /stop HTTP/1.1\r\nHost: t\r\n\r\n");
            RawClient.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals("bye", r.text());
            assertTrue(closeReturned.await(10, TimeUnit.SECONDS));
            assertTrue(c.closedByServerEventually(), "the stop closes the connection");
        }
        server.close(); // from the test thread: waits for the loops, which end without the drain timeout
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(tookMs < 20_000, "the stop took " + tookMs + " ms");
        if (pool != null) {
            pool.shutdown();
        }
    }
}

package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A connection whose requests are still with the worker pool is waiting for the server, not for
 * the client: the idle timeout must not close it, however long the handler takes.
 */
@Timeout(60)
class SlowWorkerTest {

    @Test
    void aHandlerSlowerThanTheIdleTimeoutStillAnswersOnTheSameConnection() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        HttpHandler slow = (req, res) -> {
            try {
                // a handler that takes three idle timeouts (the latch is never counted down)
                assertFalse(never.await(600, TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            res.contentType(ContentType.TEXT).appendAscii(req.path().substring(1));
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (HttpServer server = HttpServer.builder(slow)
                        .workers(pool)
                        .threads(1)
                        .port(0)
                        .idleTimeout(Duration.ofMillis(200))
                        .headerTimeout(Duration.ofMillis(200))
                        .start();
                RawClient c = new RawClient(server.port())) {
            c.send("GET /one HTTP/1.1\r\nHost: t\r\n\r\nGET /two HTTP/1.1\r\nHost: t\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            RawClient.Response first = c.read();
            assertEquals(200, first.status());
            assertEquals("one", first.text());
            RawClient.Response second = c.read();
            assertEquals(200, second.status());
            assertEquals("two", second.text());
        } finally {
            pool.shutdownNow();
        }
    }
}

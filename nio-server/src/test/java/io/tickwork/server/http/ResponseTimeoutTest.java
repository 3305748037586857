package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Worker mode with a response timeout: a connection whose next response does not come within it,
 * nothing else moving, gets a bodiless 503 in that response's place and closes; a connection whose
 * handlers each answer within it keeps going however long all of them take together.
 */
@Timeout(60)
class ResponseTimeoutTest {
    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
    private final CountDownLatch release = new CountDownLatch(1);

    private HttpServer start(ExecutorService pool, Duration responseTimeout) throws java.io.IOException {
        return HttpServer.builder((req, res) -> {
                    if (req.path().equals("/hang")) {
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    } else if (req.path().equals("/work")) {
                        try {
                            Thread.sleep(400); // a handler's own work, shorter than the timeout
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    res.contentType(ContentType.TEXT).appendAscii(req.path());
                })
                .workers(pool)
                .responseTimeout(responseTimeout)
                .threads(1)
                .port(0)
                .log(log::add)
                .start();
    }

    @Test
    void aHandlerThatDoesNotAnswerGetsA503InItsPlaceAndTheConnectionCloses() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (HttpServer server = start(pool, Duration.ofMillis(300));
                RawClient c = new RawClient(server.port())) {
            c.send("GET /first HTTP/1.1\r\nHost: t\r\n\r\n");
            assertEquals("/first", c.read().text());
            long sent = System.nanoTime();
            // the answer to /hang never comes; /after, behind it, is never answered
            c.send("HEAD /hang HTTP/1.1\r\nHost: t\r\n\r\nGET /after HTTP/1.1\r\nHost: t\r\n\r\n");
            RawClient.Response r = c.read(true);
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            assertEquals(503, r.status());
            assertEquals("close", r.header("connection"));
            assertEquals("0", r.header("content-length"), "no body: it may answer a HEAD");
            assertTrue(waited >= 300, "never before the timeout: " + waited + " ms");
            assertTrue(c.closedByServerEventually(), "closed after the 503");
            List<String> lines = log.stream()
                    .filter(l -> l.contains("no response within 300 ms"))
                    .toList();
            assertEquals(1, lines.size(), log::toString);
            release.countDown(); // the handler ends; its late response goes nowhere
            try (RawClient d = new RawClient(server.port())) {
                d.send("GET /again HTTP/1.1\r\nHost: t\r\n\r\n");
                assertEquals("/again", d.read().text());
            }
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void theTimeoutCountsFromTheLastResponseNotFromTheFirstRequest() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (HttpServer server = start(pool, Duration.ofSeconds(1));
                RawClient c = new RawClient(server.port())) {
            // four handlers of 400 ms one after another: 1.6 s in all, each within the 1 s
            c.send("GET /work HTTP/1.1\r\nHost: t\r\n\r\n".repeat(4));
            for (int i = 0; i < 4; i++) {
                RawClient.Response r = c.read();
                assertEquals(200, r.status(), "response " + i);
                assertEquals("/work", r.text());
            }
            assertTrue(log.stream().noneMatch(l -> l.contains("no response within")), log::toString);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theTimeoutIsRefusedOutOfRange() {
        HttpServer.Builder b = HttpServer.builder((req, res) -> {});
        assertThrows(IllegalArgumentException.class, () -> b.responseTimeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> b.responseTimeout(Duration.ofDays(31)));
        assertThrows(NullPointerException.class, () -> b.responseTimeout(null));
    }
}

package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Worker mode with a pool that refuses a request: the client gets a 503 in its place, saying
 * {@code Connection: close}, and nothing after it; the refusal is logged once, not per request.
 */
@Timeout(60)
class WorkerPoolRefusalTest {
    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();

    private HttpServer start(ExecutorService pool) throws java.io.IOException {
        return HttpServer.builder(
                        (req, res) -> res.contentType(ContentType.TEXT).appendAscii("ok"))
                .workers(pool)
                .threads(1)
                .port(0)
                .log(log::add)
                .start();
    }

    @Test
    void aPoolShutDownUnderTheServerAnswers503AndCloses() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (HttpServer server = start(pool)) {
            try (RawClient c = new RawClient(server.port())) {
                c.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\n");
                assertEquals(200, c.read().status());
            }
            pool.shutdown();
            for (int i = 0; i < 3; i++) {
                try (RawClient c = new RawClient(server.port())) {
                    // pipelined: the first is refused and answered 503; the second is never answered
                    c.send("GET /b HTTP/1.1\r\nHost: t\r\n\r\nGET /c HTTP/1.1\r\nHost: t\r\n\r\n");
                    RawClient.Response r = c.read();
                    assertEquals(503, r.status());
                    assertEquals(
                            "close", r.headers().get("connection"), r.headers().toString());
                    assertTrue(c.closedByServerEventually(), "closed after the 503");
                }
            }
            List<String> refusals =
                    log.stream().filter(l -> l.contains("refused a request")).toList();
            assertEquals(1, refusals.size(), "logged once a minute at most: " + log);
            assertTrue(refusals.get(0).contains("503"), refusals.get(0));
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A pool shut down while a handler runs: the request pipelined behind it is refused, and its
     * 503 waits for the running one's response, so the client reads each answer in its place.
     */
    @Test
    void a503WaitsForTheResponsesBeforeIt() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        HttpServer.Builder b = HttpServer.builder((req, res) -> {
                    if (req.path().equals("/slow")) {
                        running.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    res.contentType(ContentType.TEXT).appendAscii(req.path());
                })
                .workers(pool)
                .threads(1)
                .port(0)
                .log(log::add);
        try (HttpServer server = b.start();
                RawClient c = new RawClient(server.port())) {
            c.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n");
            assertTrue(running.await(10, TimeUnit.SECONDS));
            pool.shutdown(); // the running handler goes on; nothing new is taken
            c.send("GET /next HTTP/1.1\r\nHost: t\r\n\r\n");
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (log.stream().noneMatch(l -> l.contains("refused a request")) && System.nanoTime() < until) {
                Thread.onSpinWait(); // until the loop has refused /next, while /slow still runs
            }
            assertTrue(log.stream().anyMatch(l -> l.contains("refused a request")), log::toString);
            release.countDown();
            RawClient.Response first = c.read();
            assertEquals(200, first.status());
            assertEquals("/slow", first.text());
            RawClient.Response second = c.read();
            assertEquals(503, second.status());
            assertEquals("close", second.header("connection"));
            assertTrue(c.closedByServerEventually(), "closed after the 503");
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void aSaturatedPoolWithARejectingPolicyAnswers503() throws Exception {
        // one thread, no queue, AbortPolicy: while its thread is taken, every hand-over is refused
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                1, 1, 0, TimeUnit.SECONDS, new SynchronousQueue<>(), new ThreadPoolExecutor.AbortPolicy());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch taken = new CountDownLatch(1);
        try (HttpServer server = start(pool)) {
            pool.execute(() -> {
                taken.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertTrue(taken.await(10, TimeUnit.SECONDS));
            try (RawClient c = new RawClient(server.port())) {
                c.send("HEAD /x HTTP/1.1\r\nHost: t\r\n\r\n");
                RawClient.Response r = c.read(true);
                assertEquals(503, r.status());
                assertEquals(0, r.body().length, "a HEAD's 503 has no body");
                assertTrue(c.closedByServerEventually(), "closed after the 503");
            }
            release.countDown();
            // the pool has its thread back (once the held task has returned): served again
            RawClient.Response r = null;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((r == null || r.status() != 200) && System.nanoTime() < until) {
                try (RawClient again = new RawClient(server.port())) {
                    again.send("GET /y HTTP/1.1\r\nHost: t\r\n\r\n");
                    r = again.read();
                }
            }
            assertEquals(200, r.status(), "served once the pool's thread was free");
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }
}

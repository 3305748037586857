package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

    /** One loop, handlers on {@code pool}, the two timeouts given. */
    private static HttpServer onWorkers(HttpHandler handler, ExecutorService pool, Duration idle, Duration header)
            throws IOException {
        return HttpServer.builder(handler)
                .workers(pool)
                .threads(1)
                .port(0)
                .idleTimeout(idle)
                .headerTimeout(header)
                .start();
    }

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
        try (HttpServer server = onWorkers(slow, pool, Duration.ofMillis(200), Duration.ofMillis(200));
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

    /**
     * A request head left partial behind a slow worker response: the header timeout runs again
     * once that response is out, so the 408 comes right after it, not an idle timeout later (5 s
     * here; the test's bound is 3 s).
     */
    @Test
    void aPartialHeadBehindASlowResponseGetsItsHeaderTimeoutOnceTheResponseIsOut() throws Exception {
        HttpHandler slow = (req, res) -> {
            try {
                Thread.sleep(600); // the handler's own work, past the header timeout
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            res.contentType(ContentType.TEXT).appendAscii("done");
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (HttpServer server = onWorkers(slow, pool, Duration.ofSeconds(5), Duration.ofMillis(300));
                RawClient c = new RawClient(server.port(), 30_000)) {
            c.send("GET /one HTTP/1.1\r\nHost: t\r\n\r\nGET /partial HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals("done", c.read().text());
            long answered = System.nanoTime();
            RawClient.Response timedOut = c.read();
            long after = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - answered);
            assertEquals(408, timedOut.status());
            assertTrue(after < 3_000, "the 408 came " + after + " ms after the response before it");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A graceful stop that finds a connection closed in the same loop turn (a reset, a failed
     * write, a timeout) while its request is still with a worker: the stop must pass over it and
     * finish the other connections' responses. Its key, cancelled, is still listed by the selector
     * until the next select; asking it for interest threw and ended the loop, closing every
     * connection on it.
     */
    @Test
    void aGracefulStopPassesOverAConnectionClosedWhileItsRequestIsWithAWorker() throws Exception {
        CountDownLatch bothStarted = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        HttpHandler gated = (req, res) -> {
            bothStarted.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            res.contentType(ContentType.TEXT).appendAscii(req.path().substring(1));
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (HttpServer server = HttpServer.builder(gated)
                        .workers(pool)
                        .threads(1)
                        .port(0)
                        .start();
                RawClient a = new RawClient(server.port());
                RawClient b = new RawClient(server.port())) {
            a.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            b.send("GET /b HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(bothStarted.await(20, TimeUnit.SECONDS));
            Field loopsField = HttpServer.class.getDeclaredField("loops");
            loopsField.setAccessible(true);
            SelectorLoop loop = ((List<?>) loopsField.get(server))
                    .stream().map(SelectorLoop.class::cast).findFirst().orElseThrow();
            int aPort = a.socket.getLocalPort();
            CountDownLatch queued = new CountDownLatch(1);
            loop.execute(() -> {
                for (SelectionKey k : new ArrayList<>(loop.selector.keys())) {
                    if (k.attachment() instanceof Connection c && remotePort(c) == aPort) {
                        loop.output.close(c); // as a reset or a failed write closes it
                    }
                }
                loop.drain(10_000, () -> {}); // runs in this turn's tasks, before the next select
                queued.countDown();
            });
            assertTrue(queued.await(20, TimeUnit.SECONDS));
            release.countDown();
            RawClient.Response answer = b.read();
            assertEquals(200, answer.status());
            assertEquals("b", answer.text());
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    private static int remotePort(Connection c) {
        try {
            return ((InetSocketAddress) c.channel().getRemoteAddress()).getPort();
        } catch (IOException e) {
            return -1;
        }
    }
}

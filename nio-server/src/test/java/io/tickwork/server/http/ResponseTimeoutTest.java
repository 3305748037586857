package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.ForwardingTimerQueue;
import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
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
        return start(pool, responseTimeout, Duration.ofSeconds(60));
    }

    private HttpServer start(ExecutorService pool, Duration responseTimeout, Duration idleTimeout)
            throws java.io.IOException {
        return HttpServer.builder((req, res) -> {
                    if (req.path().equals("/hang")) {
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    } else if (req.path().equals("/big")) {
                        res.contentType(ContentType.TEXT).appendAscii("x".repeat(4 << 20));
                        return;
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
                .idleTimeout(idleTimeout)
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
            assertTrue(
                    r.header("content-type").startsWith("text/plain"),
                    r.headers().toString());
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

    /**
     * A response that reaches the loop by the time its timeout falls due is sent, not replaced: the
     * loop runs the deliveries queued during its wait before it fires timers. Made deterministic
     * with a timer queue that, at the first {@code nextDeadline} after the handler started, lets
     * the handler finish, waits until the pool has queued its delivery, then until the clock has
     * passed the response's deadline, and only then lets the loop go on to its wait (which the
     * delivery's wake-up ends at once). A second connection makes the loop ask before the deadline.
     */
    @Test
    void aResponseQueuedWhenItsTimeoutFallsDueIsSentNotReplaced() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        CountDownLatch queued = new CountDownLatch(1);
        AtomicBoolean armed = new AtomicBoolean();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()) {
            @Override
            protected void afterExecute(Runnable r, Throwable t) {
                queued.countDown(); // the task that ran the handler has handed its response to the loop
            }
        };
        Supplier<TimerQueue<Object>> timers =
                () -> new ForwardingTimerQueue<>(HttpServer.loopTimers(TimerKind.WHEEL_LIST, 60_000)) {
                    @Override
                    public long nextDeadline() {
                        long next = super.nextDeadline();
                        if (next != TimerQueue.NO_DEADLINE && armed.compareAndSet(true, false)) {
                            finish.countDown();
                            awaitUninterruptibly(queued);
                            while (SelectorLoop.clockMillis() < next) {
                                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // the deadline passes
                            }
                        }
                        return next;
                    }
                };
        try (HttpServer server = HttpServer.builder((req, res) -> {
                            started.countDown();
                            awaitUninterruptibly(finish);
                            res.contentType(ContentType.TEXT).appendAscii(req.path());
                        })
                        .workers(pool)
                        .timers(timers)
                        .responseTimeout(Duration.ofSeconds(3)) // room for a slow test thread to arm the hook first
                        .idleTimeout(Duration.ofSeconds(60))
                        .threads(1)
                        .port(0)
                        .log(log::add)
                        .start();
                RawClient c = new RawClient(server.port())) {
            c.send("GET /late HTTP/1.1\r\nHost: t\r\n\r\n");
            started.await();
            armed.set(true);
            // a second connection wakes the loop, which then asks for its next deadline
            try (RawClient waker = new RawClient(server.port())) {
                RawClient.Response r = c.read();
                assertEquals(200, r.status(), log::toString);
                assertEquals("/late", r.text());
            }
            assertTrue(log.stream().noneMatch(l -> l.contains("no response within")), log::toString);
        } finally {
            finish.countDown();
            pool.shutdownNow();
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
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

    /**
     * A response the client is slow to read, then a handler that hangs: the wait for the second
     * response counts from when the first was written out, not from the idle timeout set while
     * the output was pending (20 s here; the test's bound is 10 s).
     */
    @Test
    void aHangBehindASlowlyReadResponseTimesOutOnceTheOutputDrained() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (HttpServer server = start(pool, Duration.ofMillis(500), Duration.ofSeconds(20));
                RawClient c = new RawClient(server.port(), 30_000, 8 * 1024)) {
            c.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\nGET /hang HTTP/1.1\r\nHost: t\r\n\r\n");
            // a client that reads nothing for 1.5 s: the 4 MB stay pending past the 500 ms, so the
            // connection's timer fires while output is pending and stands at the idle timeout
            Thread.sleep(1_500);
            assertEquals(4 << 20, c.read().body().length);
            long drained = System.nanoTime();
            RawClient.Response r = c.read();
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - drained);
            assertEquals(503, r.status());
            assertTrue(waited < 10_000, "the 503 came " + waited + " ms after the output drained");
            assertTrue(c.closedByServerEventually());
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    /**
     * A response timeout longer than the idle timeout does not hold a connection open once its
     * responses are all out: the idle timeout (300 ms) closes it, not the response timeout (20 s;
     * the test's bound is 10 s).
     */
    @Test
    void onceNothingIsOwedTheIdleTimeoutCloses() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (HttpServer server = start(pool, Duration.ofSeconds(20), Duration.ofMillis(300));
                RawClient c = new RawClient(server.port(), 30_000)) {
            c.send("GET /work HTTP/1.1\r\nHost: t\r\n\r\n"); // 400 ms: past the idle timeout
            assertEquals("/work", c.read().text());
            long answered = System.nanoTime();
            assertTrue(c.closedByServerEventually());
            long closedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - answered);
            assertTrue(closedAfter < 10_000, "closed " + closedAfter + " ms after the last response");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theTimeoutIsRefusedOutOfRangeAndWithoutWorkers() throws Exception {
        HttpServer.Builder noWorkers =
                HttpServer.builder((req, res) -> {}).port(0).responseTimeout(Duration.ofSeconds(1));
        IllegalStateException e = assertThrows(IllegalStateException.class, noWorkers::start);
        assertTrue(e.getMessage().contains("needs workers"), e.getMessage());
    }

    @Test
    void theTimeoutIsRefusedOutOfRange() {
        HttpServer.Builder b = HttpServer.builder((req, res) -> {});
        assertThrows(IllegalArgumentException.class, () -> b.responseTimeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> b.responseTimeout(Duration.ofDays(31)));
        assertThrows(NullPointerException.class, () -> b.responseTimeout(null));
    }
}

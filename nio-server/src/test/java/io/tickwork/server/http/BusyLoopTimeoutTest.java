package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.ForwardingTimerQueue;
import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A timeout that falls due while its loop is busy (a slow handler on the loop) fires as soon as the
 * loop is free again: the loop's wait for the next deadline is measured from when it is free, not
 * from when the busy turn began.
 */
@Timeout(60)
class BusyLoopTimeoutTest {

    @Test
    void anIdleTimeoutDueWhileTheLoopWasBusyFiresWhenTheLoopIsFree() throws Exception {
        long busyMillis = 4_000;
        AtomicLong busyEnded = new AtomicLong();
        HttpHandler handler = (req, res) -> {
            if (req.path().equals("/busy")) {
                long end = System.nanoTime() + busyMillis * 1_000_000;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait(); // the loop's own thread, held for two idle timeouts
                }
                busyEnded.set(System.nanoTime());
            }
            res.contentType(ContentType.TEXT).appendAscii("ok");
        };
        AtomicLong firstTimeout = new AtomicLong();
        try (HttpServer server = HttpServer.builder(handler)
                        .threads(1)
                        .port(0)
                        .idleTimeout(Duration.ofMillis(2_000))
                        .timers(() -> new FiringTimes(HttpServer.loopTimers(TimerKind.WHEEL_LIST, 2_000), firstTimeout))
                        .start();
                RawClient idle = new RawClient(server.port(), 20_000);
                RawClient busy = new RawClient(server.port(), 20_000)) {
            idle.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(200, idle.read().status());
            // its idle timeout is due about 2 s from here, while the loop is busy
            busy.send("GET /busy HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(idle.closedByServerEventually(), "the idle connection was never closed");
            // both instants are taken on the loop's thread, so a late wake-up of this test's
            // thread does not count
            long closedAfterTheBusyTurn = (firstTimeout.get() - busyEnded.get()) / 1_000_000;
            // measured from the busy turn's end, so a late start of the turn does not count: a
            // loop that waited out its last select's full timeout again (about 2 s) would close
            // the connection about 2 s after the turn, not at once; the bound leaves 1.2 s for a
            // loop thread the machine holds up
            assertTrue(busyEnded.get() != 0 && firstTimeout.get() != 0, "the busy turn ended before the close");
            assertTrue(
                    closedAfterTheBusyTurn < 1_200, "closed " + closedAfterTheBusyTurn + " ms after the loop was free");
            assertEquals(200, busy.read().status());
        }
    }

    /** A timer queue that notes when the loop is first handed a due timer (the idle timeout's). */
    private static final class FiringTimes extends ForwardingTimerQueue<Object> {
        private final AtomicLong first;

        FiringTimes(TimerQueue<Object> timers, AtomicLong first) {
            super(timers);
            this.first = first;
        }

        @Override
        public int expire(long now, Consumer<? super Object> consumer, int limit) {
            return inner.expire(
                    now,
                    payload -> {
                        first.compareAndSet(0, System.nanoTime());
                        consumer.accept(payload);
                    },
                    limit);
        }
    }
}

package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The loops' timer queues keep the longest configured timeout on the wheel, at the finest tick that allows. */
class LoopTimersTest {

    @Test
    void theTickIsFourMillisecondsUntilTheTimeoutOutgrowsTheWheel() {
        assertEquals(4, HttpServer.timerTickMillis(10_000));
        assertEquals(4, HttpServer.timerTickMillis(60_000));
        assertEquals(4, HttpServer.timerTickMillis(4 * 16_382)); // the longest a 4 ms wheel holds
        assertEquals(5, HttpServer.timerTickMillis(4 * 16_382 + 1));
        assertEquals(37, HttpServer.timerTickMillis(600_000));
        assertEquals(100, HttpServer.timerTickMillis(100 * 16_382)); // the longest the coarsest tick holds
        assertEquals(100, HttpServer.timerTickMillis(86_400_000)); // longer waits in the heap
        assertEquals(100, HttpServer.timerTickMillis(Long.MAX_VALUE));
    }

    @Test
    void theLongestTimeoutStaysOnTheWheel() {
        for (long longest : new long[] {1, 10_000, 60_000, 4 * 16_382, 4 * 16_382 + 1, 600_000, 100 * 16_382}) {
            TimerQueue<Object> timers = HttpServer.loopTimers(TimerKind.WHEEL_LIST, longest);
            long now = SelectorLoop.clockMillis();
            timers.expire(now, x -> {}); // the loop expires before it arms: the wheel starts at now
            timers.schedule(now + longest, "timeout");
            assertTrue(timers.toString().contains("far=0"), longest + " ms: " + timers);
        }
    }

    @Test
    void timeoutsOutsideOneMillisecondToThirtyDaysAreRefused() {
        HttpServer.Builder b = HttpServer.builder((request, response) -> {});
        b.idleTimeout(HttpServer.MAX_TIMEOUT);
        b.headerTimeout(Duration.ofMillis(1));
        IllegalArgumentException tooLong =
                assertThrows(IllegalArgumentException.class, () -> b.idleTimeout(Duration.ofDays(31)));
        assertTrue(tooLong.getMessage().contains("at most 30 days"), tooLong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.headerTimeout(Duration.ofSeconds(Long.MAX_VALUE)));
        assertThrows(IllegalArgumentException.class, () -> b.drainTimeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> b.idleTimeout(Duration.ofMillis(-5)));
    }

    @Test
    void aLoopCountOutsideOneTo1024IsRefused() {
        HttpServer.Builder b = HttpServer.builder((request, response) -> {});
        b.threads(HttpServer.Builder.MAX_THREADS);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.threads(1025));
        assertEquals("threads must be 1..1024: 1025", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.threads(0));
    }

    @Test
    void theServerSizesItsTimersForItsTimeouts() {
        HttpServer.Config config = new HttpServer.Config();
        config.idleTimeoutMillis = 600_000;
        TimerQueue<Object> timers = config.newTimers();
        long now = SelectorLoop.clockMillis();
        timers.expire(now, x -> {});
        timers.schedule(now + config.idleTimeoutMillis, "idle");
        assertTrue(timers.toString().contains("far=0"), timers.toString());
    }
}

package io.tickwork.server;

import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.util.function.Supplier;

/**
 * The {@code --timer} choices: a {@link TimerKind} name to a factory of timer queues for the
 * selector loops, sized for connection timeouts on a millisecond clock.
 */
final class Timers {
    static final String DEFAULT = "wheel-linked-array";

    private Timers() {}

    static String names() {
        return TimerKind.names().replace('_', '-');
    }

    /** The kind's canonical name; the exception names the value and lists the valid ones. */
    static String check(String name) {
        try {
            return TimerKind.parse(name)
                    .name()
                    .toLowerCase(java.util.Locale.ROOT)
                    .replace('_', '-');
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--timer must be one of " + names() + ": " + name);
        }
    }

    static Supplier<? extends TimerQueue<Object>> factory(String name) {
        TimerKind kind = TimerKind.parse(name);
        return () -> kind.create(
                io.tickwork.server.http.HttpServer.TIMER_TICK_MILLIS,
                io.tickwork.server.http.HttpServer.TIMER_TICKS_PER_WHEEL);
    }
}

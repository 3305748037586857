package io.tickwork.server;

import io.tickwork.primitives.timer.TimerQueue;
import java.util.Locale;
import java.util.function.Supplier;

/** The {@code --timer} choices: names to timer-queue factories for the selector loops. */
final class Timers {
    static final String DEFAULT = "heap";

    private Timers() {
    }

    static String names() {
        return "heap";
    }

    static String check(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (!n.equals("heap")) {
            throw new IllegalArgumentException("--timer must be one of " + names() + ": " + name);
        }
        return n;
    }

    static Supplier<? extends TimerQueue<Object>> factory(String name) {
        return null; // heap: the server's default
    }
}

package io.tickwork.server;

import io.tickwork.primitives.timer.TimerKind;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The {@code --timer} choices: the names of the {@link TimerKind}s the selector loops may run their
 * timeouts on.
 */
final class Timers {
    static final String DEFAULT = "wheel-list";

    private Timers() {}

    /** Every kind's name as the command line spells it ({@code wheel-ring}), in declaration order. */
    static List<String> names() {
        return Arrays.stream(TimerKind.values()).map(Timers::name).collect(Collectors.toList());
    }

    private static String name(TimerKind kind) {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The kind's canonical name; the exception names the value and lists the valid ones. */
    static String check(String name) {
        try {
            return name(TimerKind.parse(name));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("must be one of " + String.join(", ", names()) + ": " + name);
        }
    }
}

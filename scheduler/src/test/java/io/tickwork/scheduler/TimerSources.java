package io.tickwork.scheduler;

import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.util.Arrays;
import java.util.function.Supplier;
import java.util.stream.Stream;
import kilim.timerservice.Timer;
import org.junit.jupiter.params.provider.Arguments;

/** The timer variants every scheduler test runs with, by name. */
final class TimerSources {
    private TimerSources() {}

    static Stream<Arguments> all() {
        Stream<Arguments> kinds = Arrays.stream(TimerKind.values())
                .map(k -> Arguments.of(k.name(), (Supplier<TimerQueue<Timer>>) k::create));
        return Stream.concat(kinds, Stream.of(Arguments.of("reference-heap", (Supplier<TimerQueue<Timer>>)
                ReferenceTimerQueue::new)));
    }
}

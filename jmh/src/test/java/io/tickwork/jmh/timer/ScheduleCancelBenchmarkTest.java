package io.tickwork.jmh.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openjdk.jmh.infra.Blackhole;

/**
 * W3 runs on every subject through whichever loop its handles take (numbers or timer objects):
 * every cancel answers true, the clock never moves so nothing fires, and the live count stays
 * what the setup scheduled.
 */
class ScheduleCancelBenchmarkTest {
    private static final Blackhole BH = new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

    @ParameterizedTest
    @EnumSource(TimerSubject.class)
    void everyPatternKeepsTheLiveTimersOfEverySubject(TimerSubject subject) {
        for (ScheduleCancelBenchmark.Cancel cancel : ScheduleCancelBenchmark.Cancel.values()) {
            ScheduleCancelBenchmark b = new ScheduleCancelBenchmark();
            b.subject = subject;
            b.cancel = cancel;
            b.live = 256;
            b.horizon = 256;
            b.setup(BH);
            for (int i = 0; i < 50; i++) {
                assertTrue(b.scheduleAndCancel(), subject + " " + cancel);
            }
            assertEquals(256, b.sizeForTest(), subject + " " + cancel + ": live timers");
        }
    }
}

package io.tickwork.jmh.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openjdk.jmh.infra.Blackhole;

/**
 * W4's three ways of re-arming a connection's timeout model the same server: whichever a subject
 * uses, as many connections time out, and the same ones at the same turns (a lazy timer firing
 * before its connection's deadline is scheduled again, not counted), but for the subject whose
 * timers fire a tick late.
 */
class MixedLoopModesTest {
    // PRIORITY_QUEUE's cancel scans its queue: at 65,536 live it takes most of this test's time
    private static final Blackhole BH = new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

    private static MixedLoopBenchmark run(TimerSubject subject, MixedLoopBenchmark.Rearm rearm) {
        MixedLoopBenchmark b = new MixedLoopBenchmark();
        b.subject = subject;
        b.live = 65_536; // a connection re-armed about every 1,024 turns: most time out (512)
        b.rearm = rearm;
        b.setup(BH);
        for (int i = 0; i < 2_000; i++) {
            b.turnForTest();
        }
        return b;
    }

    @ParameterizedTest
    @EnumSource(TimerSubject.class)
    void everyRearmModeTimesOutTheSameConnectionsAtTheSameTurns(TimerSubject subject) {
        MixedLoopBenchmark eager = run(subject, MixedLoopBenchmark.Rearm.CANCEL_SCHEDULE);
        assertTrue(eager.timedOut > 100, subject + ": " + eager.timedOut + " timed out");
        for (MixedLoopBenchmark.Rearm rearm :
                new MixedLoopBenchmark.Rearm[] {MixedLoopBenchmark.Rearm.RESCHEDULE, MixedLoopBenchmark.Rearm.LAZY_FIELD
                }) {
            MixedLoopBenchmark b = run(subject, rearm);
            if (subject != TimerSubject.AGRONA_POLL_ONCE) {
                assertEquals(eager.timedOut, b.timedOut, subject + " " + rearm + ": connections timed out");
                assertEquals(eager.timedOutChecksum, b.timedOutChecksum, subject + " " + rearm + ": which, and when");
            } else {
                // its timers fire a tick late: checked against the deadline, a lazy one may time out
                // a turn sooner, so the counts may differ by the connections due in the last turn
                assertEquals(eager.timedOut, b.timedOut, 64, subject + " " + rearm + ": connections timed out");
            }
        }
    }
}

package io.tickwork.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.primitives.timer.TimerKind;
import java.util.List;
import java.util.concurrent.TimeUnit;
import kilim.timerservice.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A loop woken from a quiescent park during a shutdown tells its owner before it reads its inbox
 * ({@link LoopOwner#leaveQuiescence}): a termination scan that saw every loop quiescent may have
 * won meanwhile, and then the loop must run nothing and end, reporting the task that woke it as
 * rejected. Played on a real {@link RunLoop} with an owner whose scan always wins that race:
 * leaving quiescence turns its state to terminated. (A loop that read its inbox first would run
 * the task after the scheduler terminated, then park again for good.)
 */
class QuiescentWakeUpTest {

    /** An owner whose termination scan always wins the race with the wake-up. */
    static final class ScanWinsOwner extends RecordingOwner {
        ScanWinsOwner() {
            super(SHUTDOWN);
        }

        @Override
        public boolean leaveQuiescence() {
            state = TERMINATED;
            return false;
        }
    }

    @Test
    @Timeout(30)
    void aLoopWokenFromAQuiescentParkAfterTheScanWonRunsNothingAndEnds() throws Exception {
        ScanWinsOwner owner = new ScanWinsOwner();
        RunLoop loop = new RunLoop(owner, 0, false, TimerKind.WHEEL_LIST.<Timer>create(), 256, 64, "quiescent-0", true);
        loop.thread().start();
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); // the spin cannot outlive @Timeout
        while (loop.quiescentMark() < 0) { // shut down with nothing to do: quiescent, parked
            assertTrue(loop.thread().isAlive());
            assertTrue(System.nanoTime() < giveUp, "the loop never became quiescent");
            Thread.onSpinWait();
        }
        TaskEdgesTest.Runs task = new TaskEdgesTest.Runs();
        loop.submitRemote(task);
        loop.thread().join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(loop.thread().isAlive(), "the loop ran on after the scan had terminated the scheduler");
        assertEquals(1, task.done.getCount(), "the task ran after termination");
        assertEquals(List.of(task), owner.rejected);
        assertEquals(List.of(), owner.reports);
        assertEquals(List.of(), owner.dropped);
    }
}

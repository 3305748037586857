package io.tickwork.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.tickwork.primitives.timer.TimerKind;
import java.util.List;
import java.util.concurrent.TimeUnit;
import kilim.timerservice.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task a {@code start} hands over to a loop from outside the loops, met by {@code shutdownNow}
 * after its home loop took it (so the start returns): the loop's exit lists it as dropped, as any
 * task a stop leaves queued, and does not report it as a refused late wake-up. The moment is played
 * in order on one {@link RunLoop}: the loop has taken the task (its start settled), the stop comes,
 * and only then does the starting thread, preempted since its hand-over, read the state.
 */
class StartHandOverTest {

    @Test
    @Timeout(30)
    void aStartedTaskAStopLeavesQueuedIsListedAsDroppedNotRefused() throws Exception {
        RecordingOwner owner = new RecordingOwner(LoopOwner.RUNNING);
        RunLoop loop = new RunLoop(owner, 0, false, TimerKind.WHEEL_LIST.<Timer>create(), 256, 64, "handover-0", true);
        TaskEdgesTest.Runs task = new TaskEdgesTest.Runs();
        LoopTimer timer = new LoopTimer(task, owner, 0, false);
        task.timer = timer;
        timer.startInProgress();
        assertEquals(true, timer.takenToRun(), "the loop takes it to run: the start will return");
        owner.state = LoopOwner.STOPPED; // shutdownNow, before the starting thread reads the state
        loop.submit(task, false, true); // the start's hand-over: offer, then the state read
        loop.thread().start(); // sees the stop, leaves, and its exit reports the inbox
        loop.thread().join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(loop.thread().isAlive(), "the loop did not end");
        assertEquals(1, task.done.getCount(), "the task ran");
        assertEquals(List.of(task), owner.dropped, "a start that returned: its task is listed as dropped");
        assertEquals(List.of(), owner.rejected, "not refused: its start returned");
    }
}

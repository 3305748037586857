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
 * A loop whose own machinery dies still reports every task it held: here the report of a timer
 * subscriber's throw throws (an {@code OutOfMemoryError} while printing it), after the subscriber
 * had woken a task that the loop was about to run. The task is listed as dropped, not lost.
 */
class LoopDeathTest {

    @Test
    @Timeout(30)
    void aTaskWokenByASubscriberThatThrowsIsListedWhenItsReportKillsTheLoop() throws Exception {
        OutOfMemoryError fatal = new OutOfMemoryError("simulated");
        RecordingOwner owner = new RecordingOwner(LoopOwner.RUNNING) {
            @Override
            public void reportInternal(String what, Throwable t) {
                super.reportInternal(what, t);
                if (what.startsWith("timer subscriber")) {
                    throw fatal;
                }
            }
        };
        RunLoop loop = new RunLoop(owner, 0, false, TimerKind.WHEEL_LIST.<Timer>create(), 256, 64, "dies-0", true);
        TaskEdgesTest.Runs task = new TaskEdgesTest.Runs();
        Timer timer = new Timer((publisher, event) -> {
            loop.submit(task, true); // on the loop thread, while it fires: the task it runs next
            throw new IllegalStateException("the subscriber's own failure");
        });
        timer.setLiteral(1); // long due
        loop.thread().start();
        loop.submitTimer(timer);
        loop.thread().join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(loop.thread().isAlive(), "the loop lived on");
        assertEquals(1, task.done.getCount(), "the task ran");
        assertEquals(List.of(task), owner.dropped, "the woken task was not reported");
        assertEquals(List.of(), owner.rejected);
        assertEquals(2, owner.reports.size(), owner.reports::toString);
        assertEquals(fatal, owner.reports.get(1));
    }
}

package io.tickwork.scheduler;

import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import kilim.Task;
import kilim.timerservice.Timer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A run loop's end ({@link LoopExit} and {@link LoopInbox}, used as is) against a late wake-up
 * from another thread: the scheduler has terminated and the loop leaves, reporting what its
 * inbox holds, while a producer offers a task to that inbox and then, seeing the scheduler
 * terminated, reports what the loop can no longer see ({@code RunLoop.submitRemote}'s two
 * steps). The task is reported rejected exactly once, by the loop or by the producer: never lost
 * (a task woken after the end that nobody answers), never twice. r1 = times the task was reported
 * rejected; r2 = times anything was reported dropped (never: an orderly termination drops
 * nothing).
 *
 * <p>Power check (by hand): with {@code rejectLate} reading {@code exited} without the exit's
 * lock, and {@code exit} setting it after emptying the inbox, this test reports the task lost
 * (0, 0).
 */
@JCStressTest
@Description("a loop leaving after termination vs a producer's late offer and rejectLate")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "reported rejected once, by the loop or the producer")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "lost: a late task nobody reports")
@Outcome(expect = Expect.FORBIDDEN, desc = "reported twice, or dropped")
@State
public class LateWakeUpVersusLoopExit {
    private static final Task<Object> TASK = new Task<>() {};

    private final Owner owner = new Owner();
    private final LoopInbox inbox = new LoopInbox();
    // a reported task leaving its loop's resident count is not what this test is about
    private final LoopExit exit = new LoopExit(owner, inbox, "loop-0", task -> {});

    @Actor
    public void loop() {
        exit.exit(new ArrayList<>()); // the scheduler terminated (the owner says so from the start)
    }

    @Actor
    public void lateProducer() {
        inbox.offer(TASK);
        if (owner.state() >= LoopOwner.TERMINATED) {
            exit.rejectLate(null); // woken by another loop's task: not a foreign start
        }
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = owner.rejected.get();
        r.r2 = owner.dropped.get();
    }

    /** A terminated scheduler that counts the reports of its loop's exit. */
    private static final class Owner implements LoopOwner {
        final AtomicInteger rejected = new AtomicInteger();
        final AtomicInteger dropped = new AtomicInteger();
        private volatile int state = LoopOwner.TERMINATED;

        @Override
        public int state() {
            return state;
        }

        @Override
        public boolean tryTerminate() {
            return true;
        }

        @Override
        public boolean leaveQuiescence() {
            return false;
        }

        @Override
        public void loopEnded() {}

        @Override
        public void loopDied(String loopName, Throwable fatal) {}

        @Override
        public void taskFailed(Task<?> task, Throwable failure) {}

        @Override
        public void rejected(Task<?> task, Throwable why) {
            rejected.incrementAndGet();
        }

        @Override
        public void dropped(Task<?> task) {
            dropped.incrementAndGet();
        }

        @Override
        public void reportInternal(String what, Throwable t) {}

        @Override
        public void scheduleTimer(Timer timer) {}

        @Override
        public void forward(Object taskOrTimer, int loop) {}

        @Override
        public void move(Task<?> task, int from, int loop) {}

        @Override
        public int residents(int loop) {
            return 0;
        }

        @Override
        public void residentLeft(int loop) {}
    }
}

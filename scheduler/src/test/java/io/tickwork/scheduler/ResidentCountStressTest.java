package io.tickwork.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import kilim.Mailbox;
import kilim.Pausable;
import kilim.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The loops' resident counts, which steer where a woken task runs, under concurrent updates: four
 * threads start tasks while both loops end them (each start adds one at the task's home from the
 * starting thread, each end takes one off from a loop thread), and pairs of tasks on different
 * loops wake each other, which moves tasks between loops (one off here, one on there). Once the
 * scheduler has terminated every count must be back at exactly 0: an update lost to a race (a plain
 * read-add-write in place of the atomic add) leaves a count off for good.
 */
@Timeout(120)
class ResidentCountStressTest {
    private static final int STARTERS = 4;
    private static final int TASKS_PER_STARTER = 100_000;
    private static final int PAIRS_PER_STARTER = 2_000;
    private static final int ROUNDS = 20;

    static final class Ends extends Task<Object> {
        private final CountDownLatch done;

        Ends(CountDownLatch done) {
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            done.countDown();
        }
    }

    /** Sends {@code rounds} messages to its partner and takes as many back. */
    static final class Player extends Task<Object> {
        private final Mailbox<Integer> in;
        private final Mailbox<Integer> out;
        private final boolean serves;
        private final CountDownLatch done;

        Player(Mailbox<Integer> in, Mailbox<Integer> out, boolean serves, CountDownLatch done) {
            this.in = in;
            this.out = out;
            this.serves = serves;
            this.done = done;
        }

        @Override
        public void execute() throws Pausable {
            for (int i = 0; i < ROUNDS; i++) {
                if (serves) {
                    out.put(i);
                    in.get();
                } else {
                    out.put(in.get());
                }
            }
            done.countDown();
        }
    }

    @Test
    void residentCountsAreExactlyZeroOnceEveryTaskHasEnded() throws Exception {
        RunLoopScheduler s = RunLoopScheduler.builder()
                .threads(2)
                .spread(RunLoopScheduler.Spread.ROUND_ROBIN) // neighbours on different loops: pairs wake across
                .timers("wheel-list")
                .build();
        CountDownLatch done = new CountDownLatch(STARTERS * (TASKS_PER_STARTER + 2 * PAIRS_PER_STARTER));
        List<Thread> starters = new ArrayList<>();
        for (int t = 0; t < STARTERS; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < TASKS_PER_STARTER; i++) {
                    s.start(new Ends(done));
                    if (i % (TASKS_PER_STARTER / PAIRS_PER_STARTER) == 0) {
                        Mailbox<Integer> a = new Mailbox<>();
                        Mailbox<Integer> b = new Mailbox<>();
                        s.start(new Player(a, b, true, done));
                        s.start(new Player(b, a, false, done));
                    }
                }
            });
            th.start();
            starters.add(th);
        }
        for (Thread th : starters) {
            th.join();
        }
        assertTrue(done.await(60, TimeUnit.SECONDS), done.getCount() + " tasks not ended: " + s);
        s.shutdown();
        assertTrue(s.awaitTermination(30, TimeUnit.SECONDS), s.toString());
        assertTrue(s.toString().contains("unfinished tasks per loop [0, 0]"), "every task ended, yet: " + s);
        assertEquals(0, s.rejectedCount());
    }
}

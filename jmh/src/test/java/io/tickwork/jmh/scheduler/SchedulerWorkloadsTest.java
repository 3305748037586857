package io.tickwork.jmh.scheduler;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import kilim.Mailbox;
import kilim.Scheduler;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.annotations.Param;

/**
 * The mailbox ping-pong and the sleepers of the scheduler benchmarks on every scheduler the suite
 * runs (each timer kind of tickwork's), two threads, tasks placed by the scheduler and, where it can
 * pin them, placed by the benchmark, as {@link TurnPingPongTest} does for the turn: every pair passes every ball and ends (a lost message leaves a pair waiting, a duplicate
 * ends the pinger early and leaves the ponger waiting), and no sleeper ends before its sleeps add
 * up (a stray resumption would end a sleep early and let the whole run finish sooner).
 */
class SchedulerWorkloadsTest {
    /** The benchmarks' own list, so a scheduler added there is tested here. */
    private static final String[] SCHEDULERS = schedulers();

    private static String[] schedulers() {
        try {
            return KilimBenchmarkBase.class
                    .getField("scheduler")
                    .getAnnotation(Param.class)
                    .value();
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void everyMailboxPairPassesEveryBallAndEnds(boolean placed) throws Exception {
        int pairs = 8, rounds = 20_000;
        for (String scheduler : SCHEDULERS) {
            if (placed && scheduler.equals("kilim-forkjoin")) {
                continue; // cannot pin: the benchmarks refuse that combination
            }
            Scheduler s = SchedulerSubjects.create(scheduler, 2);
            CountDownLatch done = new CountDownLatch(2 * pairs);
            try {
                for (int p = 0; p < pairs; p++) {
                    // as the benchmark builds them: one slot each
                    Mailbox<Coroutines.Ball> ping = new Mailbox<>(1, 1);
                    Mailbox<Coroutines.Ball> pong = new Mailbox<>(1, 1);
                    // placed: partners together, pairs alternating over the two threads
                    SchedulerSubjects.start(s, new Coroutines.Ponger(ping, pong, rounds, done), p, placed);
                    SchedulerSubjects.start(s, new Coroutines.Pinger(pong, ping, rounds, done), p, placed);
                }
                assertTrue(done.await(60, TimeUnit.SECONDS), scheduler + ": " + done.getCount() + " tasks waiting");
            } finally {
                SchedulerSubjects.stop(s);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Task.sleep", "TaskSleep"})
    void sleepersEndAndNoneEndsEarly(String sleepCall) throws Exception {
        int tasks = 200, sleeps = 10;
        long millis = 5;
        for (String scheduler : SCHEDULERS) {
            Scheduler s = SchedulerSubjects.create(scheduler, 2);
            CountDownLatch done = new CountDownLatch(tasks);
            try {
                long start = System.nanoTime();
                for (int i = 0; i < tasks; i++) {
                    SchedulerSubjects.start(
                            s,
                            "TaskSleep".equals(sleepCall)
                                    ? new Coroutines.LeanSleeper(sleeps, millis, done)
                                    : new Coroutines.Sleeper(sleeps, millis, done),
                            0,
                            false);
                }
                assertTrue(done.await(60, TimeUnit.SECONDS), scheduler + ": " + done.getCount() + " sleepers left");
                long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                // each sleeper slept sleeps x millis at least, so the last one ended no sooner
                assertTrue(
                        tookMillis >= sleeps * millis - 1,
                        scheduler + ", " + sleepCall + ": " + tasks + " sleepers of " + sleeps + " x " + millis
                                + " ms done in " + tookMillis + " ms");
            } finally {
                SchedulerSubjects.stop(s);
            }
        }
    }
}

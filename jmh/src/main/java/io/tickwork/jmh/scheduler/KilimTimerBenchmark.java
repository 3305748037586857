package io.tickwork.jmh.scheduler;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Timer expirations per second: {@value #TASKS} Kilim tasks each sleep 1 ms {@value #SLEEPS} times,
 * with Kilim's {@code Task.sleep} ({@code sleepCall = Task.sleep}) or tickwork's mailbox-free
 * {@code TaskSleep.sleep} ({@code sleepCall = TaskSleep}, which runs on Kilim's schedulers too). One operation is one expired sleep: a timer scheduled, expired by the
 * scheduler's timer machinery, and the task resumed. With this many sleepers a round of expirations
 * takes far longer than the 1 ms sleep, so the score is the scheduler's expiry throughput, not the
 * sleep length.
 *
 * <p>Included in every operation, for every scheduler alike: Kilim's {@code Task.sleep} allocates a
 * {@code Mailbox} and reads {@code currentTimeMillis()} twice; {@code TaskSleep} reads it once. Not measured: building the tasks
 * ({@code @Setup(Level.Invocation)}). Placement as in {@link KilimSwitchBenchmark}: {@code placed}, contiguous
 * blocks per thread on tickwork and Kilim Affine (pinned); {@code free}, each scheduler's own;
 * {@code shuffled} is refused (it moves partners, and sleepers have none).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class KilimTimerBenchmark extends KilimBenchmarkBase {
    static final int SLEEPS = 20;

    @Param({"Task.sleep", "TaskSleep"})
    public String sleepCall;

    @Setup(Level.Invocation)
    public void buildTasks() {
        prepare();
        refuseShuffled(); // sleepers have no partners
        boolean lean = "TaskSleep".equals(sleepCall);
        for (int i = 0; i < TASKS; i++) {
            tasks[i] = lean ? new Coroutines.LeanSleeper(SLEEPS, 1, done) : new Coroutines.Sleeper(SLEEPS, 1, done);
            affinity[i] = SchedulerSubjects.block(i, TASKS, threads);
        }
        SchedulerSubjects.settle();
    }

    @Benchmark
    @OperationsPerInvocation(TASKS * SLEEPS)
    public void sleepExpirations() throws InterruptedException {
        runAll();
    }
}

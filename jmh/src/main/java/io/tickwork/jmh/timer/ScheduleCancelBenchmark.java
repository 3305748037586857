package io.tickwork.jmh.timer;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * W3, schedule+cancel beside 200,000 live timers: the idle-timeout pattern, where most timers are
 * cancelled (the connection was active) long before they are due. Each operation schedules a timer
 * at {@code now + random(1..1000)} and cancels it; the clock does not move, so nothing expires.
 * Score: schedule+cancel pairs per second, 256 pairs per invocation to keep the harness's
 * per-invocation cost out of a ~20 ns operation.
 *
 * <p>Not measured: filling the 200,000 live timers ({@code @Setup}), drawing random numbers
 * (a precomputed ring of offsets).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ScheduleCancelBenchmark {

    static final int LIVE = 200_000;
    static final int SPAN = 1000;
    static final int BATCH = 256;
    static final int OFFSETS = 1 << 16;

    @Param
    Subject subject;

    private TimerAdapter timers;
    private long[] offsets;
    private int next;
    private final long now = 1_000_000;

    @Setup
    public void setup(Blackhole bh) {
        timers = subject.create(bh);
        timers.expire(now); // establish the clock (wheels anchor their cursor on the first expire)
        SplittableRandom rnd = new SplittableRandom(42);
        offsets = new long[OFFSETS];
        for (int i = 0; i < OFFSETS; i++) {
            offsets[i] = 1 + rnd.nextInt(SPAN);
        }
        for (int i = 0; i < LIVE; i++) {
            timers.schedule(now + offsets[i & (OFFSETS - 1)]);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public boolean scheduleThenCancel() {
        TimerAdapter t = timers;
        long[] off = offsets;
        int n = next;
        boolean all = true;
        for (int i = 0; i < BATCH; i++) {
            long h = t.schedule(now + off[n++ & (OFFSETS - 1)]);
            all &= t.cancel(h);
        }
        next = n;
        return all;
    }
}

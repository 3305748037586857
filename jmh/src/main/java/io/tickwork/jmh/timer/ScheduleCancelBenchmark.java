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
 * W3, cancellation beside 200,000 live timers: the idle-timeout pattern, where most timers are
 * cancelled (the connection was active) long before they are due. The clock does not move, so
 * nothing expires. Score: schedule+cancel pairs per second, 256 pairs per invocation to keep the
 * harness's per-invocation cost out of a ~20 ns operation.
 *
 * <p>{@code cancel} picks which timer each pair cancels:
 * <ul>
 *   <li>{@code NEWEST}: schedule a timer at {@code now + random(1..1000)}, then cancel it. The
 *       newest timer is the cheapest to remove in most structures (a free-id stack, the last
 *       entry of a slot), so this is the best case.</li>
 *   <li>{@code RANDOM_LIVE}: cancel a uniformly random live timer, then schedule its replacement
 *       at {@code now + random(1..1000)}: a connection's idle timeout re-armed on activity. It
 *       removes timers from the middle of slots and trees, so tombstones, compaction and
 *       rebalancing are timed too.</li>
 * </ul>
 *
 * <p>Not measured: filling the 200,000 live timers ({@code @Setup}), drawing random numbers (a
 * precomputed ring of offsets and of live-timer indexes).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ScheduleCancelBenchmark {

    static final int LIVE = 200_000;
    static final int SPAN = 1000;
    static final int BATCH = 256;
    static final int RANDOMS = 1 << 16;

    /** Which live timer a schedule+cancel pair cancels. */
    public enum Cancel {
        NEWEST,
        RANDOM_LIVE
    }

    @Param
    Subject subject;

    @Param
    Cancel cancel;

    private TimerAdapter timers;
    private long[] offsets;
    private int[] victims;
    private long[] live;
    private int next;
    private final long now = 1_000_000;

    @Setup
    public void setup(Blackhole bh) {
        timers = subject.create(bh);
        timers.expire(now); // establish the clock (wheels anchor their cursor on the first expire)
        SplittableRandom rnd = new SplittableRandom(42);
        offsets = new long[RANDOMS];
        victims = new int[RANDOMS];
        for (int i = 0; i < RANDOMS; i++) {
            offsets[i] = 1 + rnd.nextInt(SPAN);
            victims[i] = rnd.nextInt(LIVE);
        }
        live = new long[LIVE];
        for (int i = 0; i < LIVE; i++) {
            live[i] = timers.schedule(now + offsets[i & (RANDOMS - 1)], Subject.PAYLOAD);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public boolean scheduleAndCancel() {
        TimerAdapter t = timers;
        long[] off = offsets;
        int n = next;
        boolean all = true;
        if (cancel == Cancel.NEWEST) {
            for (int i = 0; i < BATCH; i++) {
                long h = t.schedule(now + off[n++ & (RANDOMS - 1)], Subject.PAYLOAD);
                all &= t.cancel(h);
            }
        } else {
            long[] handles = live;
            int[] victim = victims;
            for (int i = 0; i < BATCH; i++) {
                int k = n++ & (RANDOMS - 1);
                int v = victim[k];
                all &= t.cancel(handles[v]);
                handles[v] = t.schedule(now + off[k], Subject.PAYLOAD);
            }
        }
        next = n;
        if (!all) {
            throw new IllegalStateException(subject + ": a live timer could not be cancelled");
        }
        return all;
    }
}

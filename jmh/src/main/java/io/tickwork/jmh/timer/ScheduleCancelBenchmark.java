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
 * W3, cancellation beside {@code live} live timers (256 to 1 M): the idle-timeout pattern, where
 * most timers are cancelled or re-armed (the connection was active) long before they are due. The
 * clock does not move, so nothing expires. Score: operations per second, 256 per invocation to keep
 * the harness's per-invocation cost out of a ~20 ns operation. Deadlines are
 * {@code now + random(1..horizon)} ticks, 256 by default (a quarter of the 1,024-tick wheels).
 *
 * <p>{@code cancel} picks the pattern:
 * <ul>
 *   <li>{@code NEWEST}: schedule a timer, then cancel it. The newest timer is the cheapest to remove
 *       in most structures (a free-id stack, the last entry of a slot), so this is the best case.</li>
 *   <li>{@code RANDOM_LIVE}: cancel a uniformly random live timer, then schedule its replacement:
 *       removes timers from the middle of slots and trees, so tombstones, compaction and
 *       rebalancing are timed too.</li>
 *   <li>{@code RESCHEDULE}: move a uniformly random live timer to a new deadline: tickwork's
 *       {@code reschedule}, the peers' cancel plus schedule ({@link ObjectHandleTimers#reschedule};
 *       Agrona's {@link LongHandleTimers#reschedule}).
 *       Caveat: the wheels' {@code reschedule} to a later deadline is lazy (it records the new
 *       tick; the entry is placed again when its old slot's tick comes), and with the clock fixed
 *       that tick never comes, so this row times only the eager part on the wheels and the whole
 *       cost on the peers: not a like-for-like comparison. The server-loop workload
 *       ({@code MixedLoopBenchmark}), where time passes, times all of it.</li>
 * </ul>
 *
 * <p>The live timers are kept as each subject's users keep them: an array of handles, or of the
 * timer objects. Victims are drawn per operation (a xorshift generator over {@code live}, a power of 2), so
 * every live timer is equally likely at every live count; offsets come from a precomputed ring.
 * Not measured: filling the live timers ({@code @Setup}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ScheduleCancelBenchmark {

    static final int BATCH = 256;
    static final int RANDOMS = 1 << 16;

    /** Which live timer an operation cancels or moves. */
    public enum Cancel {
        NEWEST,
        RANDOM_LIVE,
        RESCHEDULE
    }

    @Param
    TimerSubject subject;

    @Param
    Cancel cancel;

    @Param({"256", "4096", "65536", "1048576"})
    int live;

    @Param({"256"})
    int horizon;

    /** The subject, as one of these two: the other is null. */
    private LongHandleTimers numbered;

    private ObjectHandleTimers<Object> referenced;
    /** The live timers, as their users keep them: handles, or the timer objects. */
    private long[] handles;

    private Object[] objects;
    private long[] offsets;
    /** xorshift64 state for the victims: a ring of 2^16 would cover 6 % of 1 M live timers. */
    private long victimState = 0x9E3779B97F4A7C15L;

    private int next;
    private final long now = 1_000_000;

    @Setup
    public void setup(Blackhole bh) {
        TimerAdapter timers = subject.create(bh);
        timers.expire(now); // establish the clock (wheels anchor their cursor on the first expire)
        SplittableRandom rnd = new SplittableRandom(42);
        if (Integer.bitCount(live) != 1) {
            throw new IllegalArgumentException("live must be a power of 2: " + live);
        }
        offsets = new long[RANDOMS];
        for (int i = 0; i < RANDOMS; i++) {
            offsets[i] = 1 + rnd.nextInt(horizon);
        }
        if (timers instanceof LongHandleTimers) {
            numbered = (LongHandleTimers) timers;
            handles = new long[live];
            for (int i = 0; i < live; i++) {
                handles[i] = numbered.schedule(now + 1 + rnd.nextInt(horizon), TimerSubject.PAYLOAD);
            }
        } else {
            @SuppressWarnings("unchecked")
            ObjectHandleTimers<Object> objectTimers = (ObjectHandleTimers<Object>) timers;
            referenced = objectTimers;
            objects = new Object[live];
            for (int i = 0; i < live; i++) {
                objects[i] = referenced.schedule(now + 1 + rnd.nextInt(horizon), TimerSubject.PAYLOAD);
            }
        }
    }

    /** Marsaglia's xorshift64: the next victim's state. */
    private static long xorshift(long x) {
        x ^= x << 13;
        x ^= x >>> 7;
        return x ^ (x << 17);
    }

    /**
     * One workload written twice, once per kind of handle, each keeping its live timers in a
     * local array as its users keep them in a field. Both loops sit in this method because JMH
     * inlines it into its measurement loop; a method of their own HotSpot compiles apart ("already
     * compiled into a big method"), and the operation then pays a call and loses the loop's
     * optimisations: a cost of the harness, not of the subject (measured in docs/results/timer.md).
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public boolean scheduleAndCancel() {
        long[] off = offsets;
        int n = next;
        long x = victimState;
        int mask = live - 1;
        boolean all = true;
        if (numbered != null) {
            LongHandleTimers t = numbered;
            long[] hs = handles;
            if (cancel == Cancel.NEWEST) {
                for (int i = 0; i < BATCH; i++) {
                    all &= t.cancel(t.schedule(now + off[n++ & (RANDOMS - 1)], TimerSubject.PAYLOAD));
                }
            } else if (cancel == Cancel.RANDOM_LIVE) {
                for (int i = 0; i < BATCH; i++) {
                    int k = n++ & (RANDOMS - 1);
                    x = xorshift(x);
                    int v = (int) (x >>> 32) & mask;
                    all &= t.cancel(hs[v]);
                    hs[v] = t.schedule(now + off[k], TimerSubject.PAYLOAD);
                }
            } else {
                for (int i = 0; i < BATCH; i++) {
                    int k = n++ & (RANDOMS - 1);
                    x = xorshift(x);
                    int v = (int) (x >>> 32) & mask;
                    hs[v] = t.reschedule(hs[v], now + off[k], TimerSubject.PAYLOAD);
                }
            }
        } else {
            ObjectHandleTimers<Object> t = referenced;
            Object[] os = objects;
            if (cancel == Cancel.NEWEST) {
                for (int i = 0; i < BATCH; i++) {
                    all &= t.cancel(t.schedule(now + off[n++ & (RANDOMS - 1)], TimerSubject.PAYLOAD));
                }
            } else if (cancel == Cancel.RANDOM_LIVE) {
                for (int i = 0; i < BATCH; i++) {
                    int k = n++ & (RANDOMS - 1);
                    x = xorshift(x);
                    int v = (int) (x >>> 32) & mask;
                    all &= t.cancel(os[v]);
                    os[v] = t.schedule(now + off[k], TimerSubject.PAYLOAD);
                }
            } else {
                for (int i = 0; i < BATCH; i++) {
                    int k = n++ & (RANDOMS - 1);
                    x = xorshift(x);
                    int v = (int) (x >>> 32) & mask;
                    os[v] = t.reschedule(os[v], now + off[k], TimerSubject.PAYLOAD);
                }
            }
        }
        next = n;
        victimState = x;
        if (!all) {
            throw new IllegalStateException(subject + ": a live timer could not be cancelled");
        }
        return all;
    }

    /** Pending timers, for the tests. */
    int sizeForTest() {
        return numbered != null ? numbered.size() : referenced.size();
    }
}

package io.tickwork.jmh.timer;

import io.tickwork.primitives.timer.LongTimerQueue;
import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
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
 * Timers keyed by number (a connection id above 127), the case where an object payload boxes on
 * every schedule: a {@code TimerQueue<Integer>} fed {@code Integer.valueOf(id)}, as a caller
 * writes it, against a {@link LongTimerQueue} fed the id itself. Each operation cancels a random
 * live timer (4,096 live) and schedules a new one for the same id, then every 256 operations the
 * clock advances one tick and what is due expires to a {@code Blackhole}. Read
 * {@code gc.alloc.rate.norm} ({@code -prof gc}): B/op is what the payload form costs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class NumberedTimersBenchmark {

    static final int LIVE = 4096;
    static final int BATCH = 256;
    static final int RANDOMS = 1 << 16;

    @Param({"BOXED", "LONG"})
    String payload;

    private TimerQueue<Integer> boxed;
    private LongTimerQueue longs;
    private long[] handles;
    private int[] victims;
    private long[] offsets;
    private int next;
    private long now = 1_000;
    private Blackhole bh;

    @Setup
    public void setup(Blackhole bh) {
        this.bh = bh;
        boxed = TimerKind.WHEEL_LINKED_ARRAY.create(1, 1024, 256);
        longs = TimerKind.WHEEL_LINKED_ARRAY.createLong(1, 1024, 256);
        boxed.expire(now, bh::consume);
        longs.expire(now, bh::consume);
        SplittableRandom rnd = new SplittableRandom(42);
        victims = new int[RANDOMS];
        offsets = new long[RANDOMS];
        for (int i = 0; i < RANDOMS; i++) {
            victims[i] = rnd.nextInt(LIVE);
            offsets[i] = 1 + rnd.nextInt(256);
        }
        handles = new long[LIVE];
        for (int id = 0; id < LIVE; id++) {
            handles[id] = "LONG".equals(payload)
                    ? longs.schedule(now + offsets[id], 1_000 + id)
                    : boxed.schedule(now + offsets[id], 1_000 + id);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void cancelAndSchedule() {
        long[] hs = handles;
        int n = next;
        if ("LONG".equals(payload)) {
            LongTimerQueue q = longs;
            for (int i = 0; i < BATCH; i++) {
                int k = n++ & (RANDOMS - 1);
                int id = victims[k];
                bh.consume(q.cancel(hs[id])); // false if it fired meanwhile
                hs[id] = q.schedule(now + offsets[k], 1_000 + id);
            }
            q.expire(++now, bh::consume);
        } else {
            TimerQueue<Integer> q = boxed;
            for (int i = 0; i < BATCH; i++) {
                int k = n++ & (RANDOMS - 1);
                int id = victims[k];
                bh.consume(q.cancel(hs[id])); // false if it fired meanwhile
                hs[id] = q.schedule(now + offsets[k], 1_000 + id); // boxes: Integer.valueOf(1000 + id)
            }
            q.expire(++now, bh::consume);
        }
        next = n;
    }
}

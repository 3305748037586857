package io.tickwork.client.common;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * The one latency range every load tool records in: 1 ns to {@link #HIGHEST_NS} (10 minutes) at
 * 3 significant digits, so histograms of different tools and threads can be added. A histogram
 * of this range takes about 30 KiB; recording is a few array operations, no allocation.
 * Stateless.
 */
public final class LatencyRange {
    /** The largest latency recorded; longer ones are recorded as this. */
    public static final long HIGHEST_NS = TimeUnit.MINUTES.toNanos(10);

    private LatencyRange() {}

    /** An empty histogram of this range; not thread safe. */
    public static Histogram histogram() {
        return new Histogram(1, HIGHEST_NS, 3);
    }

    /** A recorder of this range: one writer thread, one reader of interval histograms. */
    public static SingleWriterRecorder recorder() {
        return new SingleWriterRecorder(1, HIGHEST_NS, 3);
    }

    /** {@code ns} clamped to [1, {@link #HIGHEST_NS}], the values a histogram of this range takes. */
    public static long clamp(long ns) {
        return Math.max(1, Math.min(ns, HIGHEST_NS));
    }
}

package io.tickwork.client.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.client.common.LatencyRange;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The open loop's sends that were due but never made are charged their delay in bulk: the same
 * histogram, within its resolution, as charging them one by one, and a backlog of hundreds of
 * billions of sends costs no more than a small one.
 */
class BacklogChargeTest {

    private static Histogram oneByOne(long startNs, double ratePerNs, long from, long to, long now) {
        Histogram h = LatencyRange.histogram();
        for (long k = from; k < to; k++) {
            h.recordValue(LatencyRange.clamp(now - (startNs + (long) (k / ratePerNs))));
        }
        return h;
    }

    private static Histogram inBulk(long startNs, double ratePerNs, long from, long to, long now) {
        SingleWriterRecorder r = LatencyRange.recorder();
        BenchWorker.chargeBacklog(r, startNs, ratePerNs, from, to, now);
        return r.getIntervalHistogram();
    }

    @Test
    void chargesTheSameHistogramAsOneByOne() {
        long start = 1_000_000_000L;
        for (double rate : new double[] {1e-3, 1.0 / 7_919, 0.37, 1e-9 * 250_000}) {
            long to = 300_000;
            long now = start + (long) (to / rate) + 12_345;
            Histogram expected = oneByOne(start, rate, 1_000, to, now);
            Histogram actual = inBulk(start, rate, 1_000, to, now);
            assertEquals(expected.getTotalCount(), actual.getTotalCount(), "rate " + rate);
            for (double p : new double[] {0, 10, 50, 90, 99, 99.9, 100}) {
                long e = expected.getValueAtPercentile(p);
                long a = actual.getValueAtPercentile(p);
                assertTrue(
                        Math.abs(a - e) <= Math.max(1, e / 1_000),
                        "rate " + rate + " p" + p + ": " + a + " against " + e);
            }
        }
    }

    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // fails, not hangs, if charged one by one
    void aHugeBacklogIsChargedInBoundedSteps() {
        long start = 0;
        double rate = 1.0; // a send per ns, for ten minutes and more: 7.2e11 sends never made
        long now = 720_000_000_000L;
        long to = (long) (now * rate);
        Histogram h = inBulk(start, rate, 0, to, now);
        assertEquals(to, h.getTotalCount());
        assertEquals(LatencyRange.HIGHEST_NS, h.getMaxValue(), 1 + LatencyRange.HIGHEST_NS / 1_000);
        long p10 = h.getValueAtPercentile(10); // delays fall evenly from 720 s to 0: a tenth under 72 s
        assertEquals(72_000_000_000L, p10, 72_000_000_000L / 500); // within a bucket (1/1024)
    }

    @Test
    void theFirstSendOfAPhaseIsFoundExactly() {
        long start = 5_000;
        for (double rate : new double[] {1e-3, 1.0 / 3, 0.999_999, 2.5}) {
            for (long t = start - 10; t < start + 5_000; t += 37) {
                long k = BenchWorker.firstSendAtOrAfter(start, rate, t);
                assertTrue(start + (long) (k / rate) >= t, "rate " + rate + " t " + t);
                assertTrue(k == 0 || start + (long) ((k - 1) / rate) < t, "rate " + rate + " t " + t);
            }
        }
    }

    /** Sends intended at or after the run's end are neither sent nor charged, however late the end is seen. */
    @Test
    void noSendIsDueFromTheEndOfTheRunOn() {
        long start = 1_000;
        double rate = 1e-6; // one send per ms
        long end = start + 10_000_000; // 10 ms: sends 0..9 are intended before it
        assertEquals(0, BenchWorker.dueBy(start - 1, start, rate, end));
        assertEquals(1, BenchWorker.dueBy(start, start, rate, end));
        assertEquals(5, BenchWorker.dueBy(start + 4_500_000, start, rate, end));
        assertEquals(10, BenchWorker.dueBy(end - 1, start, rate, end));
        assertEquals(10, BenchWorker.dueBy(end, start, rate, end));
        assertEquals(10, BenchWorker.dueBy(end + 50_000_000, start, rate, end));
    }

    /** The workers' schedules interleave: together they send at the total rate, evenly spaced. */
    @Test
    void theWorkersSendsInterleaveEvenly() {
        int threads = 4;
        BenchConfig cfg = BenchTest.config(
                "-t", "" + threads, "-c", "" + threads, "--rate", "1k", "-D", "1s", "http://127.0.0.1:8080/");
        long start = 1_000_000_000L;
        java.util.List<Long> intended = new java.util.ArrayList<>();
        for (int i = 0; i < threads; i++) {
            BenchWorker w = new BenchWorker(cfg, i, 1, null, Long.MAX_VALUE, 1_000.0 / threads, new RunStart(threads));
            w.begin(start, start, start + 1_000_000_000L);
            for (int k = 0; k < 25; k++) {
                intended.add(w.scheduleOrigin() + (long) (k / (1_000.0 / threads / 1e9)));
            }
        }
        java.util.Collections.sort(intended);
        for (int j = 0; j < intended.size(); j++) {
            assertEquals(start + j * 1_000_000L, intended.get(j), 1, "send " + j + " of the four workers together");
        }
    }
}

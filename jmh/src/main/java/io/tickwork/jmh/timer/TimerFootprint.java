package io.tickwork.jmh.timer;

import io.tickwork.primitives.timer.TimerKind;
import io.tickwork.primitives.timer.TimerQueue;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jol.info.GraphLayout;

/**
 * Bytes per pending timer of every {@link TimerKind}, measured: each queue is built as the server
 * builds its idle timeouts (a millisecond clock, 4 ms ticks, 16,384 of them), filled with timers
 * due 60–64 s ahead (one shared payload, not counted), and JOL walks its object graph
 * ({@code GraphLayout.parseInstance(queue).totalSize()}, every reachable object with headers and
 * padding). Two figures per kind: the growth from 2^16 to 2^17 timers (every pool array exactly
 * full at both, so this is the cost of one more timer in the pool), and the total above an empty
 * queue at 15,000 timers (slot storage and growth slack included, as a server with 15,000 idle
 * connections holds it).
 *
 * <p>Prints a Markdown table. Run from the repository root after {@code ./mvnw -B -q package -pl
 * jmh -am -DskipTests}:
 *
 * <pre>
 * java -Djdk.attach.allowAttachSelf=true -cp jmh/target/benchmarks.jar io.tickwork.jmh.timer.TimerFootprint
 * </pre>
 *
 * <p>Single-threaded command-line tool.
 */
public final class TimerFootprint {
    private static final long TICK_MILLIS = 4;
    private static final int TICKS = 16_384;

    private TimerFootprint() {}

    public static void main(String[] args) {
        if (args.length != 0) {
            throw new IllegalArgumentException("no arguments expected");
        }
        System.out.println("| kind | empty queue, B | per timer, 2^16 -> 2^17 | per timer at 15,000 |");
        System.out.println("|---|---:|---:|---:|");
        for (TimerKind kind : TimerKind.values()) {
            long empty = bytes(kind, 0);
            long small = bytes(kind, 1 << 16);
            long large = bytes(kind, 1 << 17);
            long server = bytes(kind, 15_000);
            System.out.printf(
                    java.util.Locale.ROOT,
                    "| %s | %d | %.1f | %.1f |%n",
                    kind,
                    empty,
                    (large - small) / (double) (1 << 16),
                    (server - empty) / 15_000.0);
        }
    }

    /** The queue's bytes with {@code timers} pending, the shared payload not counted. */
    static long bytes(TimerKind kind, int timers) {
        TimerQueue<Object> queue = TimerQueue.builder(TimeUnit.MILLISECONDS, 0)
                .kind(kind)
                .tick(Duration.ofMillis(TICK_MILLIS))
                .span(Duration.ofMillis(TICK_MILLIS * TICKS))
                .build();
        Object payload = new Object();
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < timers; i++) {
            queue.schedule(60_000 + random.nextInt(4_000), payload);
        }
        return GraphLayout.parseInstance(queue).totalSize()
                - GraphLayout.parseInstance(payload).totalSize();
    }
}

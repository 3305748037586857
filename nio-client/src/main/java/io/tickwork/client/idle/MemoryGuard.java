package io.tickwork.client.idle;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The memory guard of {@code idle}: says when {@code MemAvailable} has fallen below a floor, so
 * the ramp stops opening connections before the machine runs out of memory. {@code /proc/meminfo}
 * is read at most once per {@value #INTERVAL_MS} ms whatever the call rate; between reads the
 * last value stands. Off (never trips) with a floor of 0 or where MemAvailable cannot be read.
 * Also keeps the smallest MemAvailable seen by any read, guard or progress. Not thread safe:
 * confined to the holder's thread.
 */
final class MemoryGuard {
    static final long INTERVAL_MS = 100;
    /** How the reason this guard gives for a stop begins. */
    static final String WHY = "memory guard: ";

    private static final double GIB = 1024.0 * 1024 * 1024;

    private final long floor;
    private final LongSupplier memAvailable;
    private final boolean enabled;
    private long lastReadAt;
    private boolean read;
    private long last = -1;
    private long min = -1;

    MemoryGuard(long floor, LongSupplier memAvailable) {
        this.floor = floor;
        this.memAvailable = memAvailable;
        this.enabled = floor > 0 && memAvailable.getAsLong() >= 0;
    }

    /** Whether the guard can trip: a floor above 0 and a readable MemAvailable. */
    boolean enabled() {
        return enabled;
    }

    /** Null while MemAvailable is at or above the floor, else why the ramp stops. */
    String check(long now) {
        if (!enabled) {
            return null;
        }
        if (!read || now - lastReadAt >= TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS)) {
            read = true;
            lastReadAt = now;
            seen(memAvailable.getAsLong());
        }
        if (last < 0 || last >= floor) {
            return null;
        }
        return String.format(Locale.ROOT, WHY + "MemAvailable %.1f GiB < floor %.1f GiB", last / GIB, floor / GIB);
    }

    /** Records a MemAvailable reading taken elsewhere (the progress line's). */
    void seen(long bytes) {
        if (bytes >= 0) {
            last = bytes;
            min = min < 0 ? bytes : Math.min(min, bytes);
        }
    }

    /** The smallest MemAvailable seen, -1 if none was. */
    long min() {
        return min;
    }
}

package io.tickwork.client.common;

import java.time.Duration;
import java.util.Locale;

/** Human formatting of durations, sizes and rates for progress lines and reports. Stateless. */
public final class Fmt {
    private Fmt() {}

    public static String duration(Duration d) {
        return nanos(d.toNanos());
    }

    /** Nanoseconds as the shortest readable unit: 850ns, 12.3us, 4.56ms, 1.20s. */
    public static String nanos(long ns) {
        if (ns < 1_000) {
            return ns + "ns";
        }
        if (ns < 1_000_000) {
            return String.format(Locale.ROOT, "%.1fus", ns / 1e3);
        }
        if (ns < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.2fms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.2fs", ns / 1e9);
    }

    public static String bytes(long b) {
        if (b < 0) {
            return "n/a";
        }
        if (b < 10 * 1024) {
            return b + "B";
        }
        if (b < 10L * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1fKiB", b / 1024.0);
        }
        if (b < 10L * 1024 * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1fMiB", b / (1024.0 * 1024));
        }
        return String.format(Locale.ROOT, "%.2fGiB", b / (1024.0 * 1024 * 1024));
    }

    public static String f1(double x) {
        return String.format(Locale.ROOT, "%.1f", x);
    }

    public static String f2(double x) {
        return String.format(Locale.ROOT, "%.2f", x);
    }
}

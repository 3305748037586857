package io.tickwork.client.idle;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Process memory as the kernel and the JVM see it: resident set size from {@code
 * /proc/<pid>/status} (Linux only; -1 elsewhere) and heap in use from the memory MX bean.
 * Stateless; each call reads the file afresh (a few microseconds).
 */
final class ProcMemory {
    private ProcMemory() {}

    /** VmRSS of a process in bytes, or -1 when unknown (not Linux, no such pid). */
    static long rssBytes(String pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] f = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(f[0]) * 1024L;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** The summed VmRSS of processes in bytes; -1 when there are none or any is unknown (gone). */
    static long rssBytes(List<Long> pids) {
        long sum = 0;
        for (long pid : pids) {
            long rss = rssBytes(Long.toString(pid));
            if (rss < 0) {
                return -1;
            }
            sum += rss;
        }
        return pids.isEmpty() ? -1 : sum;
    }

    static long selfRssBytes() {
        return rssBytes("self");
    }

    static long heapUsedBytes() {
        MemoryUsage u = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return u.getUsed();
    }

    /** Heap in use after a full GC: the live set, what idle connections really hold. */
    @SuppressWarnings("java:S1215")
    static long liveHeapBytes() {
        System.gc();
        return heapUsedBytes();
    }
}

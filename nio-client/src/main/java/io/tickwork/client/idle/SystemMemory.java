package io.tickwork.client.idle;

import io.tickwork.client.common.Fmt;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The machine's memory at one moment, as the kernel reports it: {@code MemAvailable} from
 * {@code /proc/meminfo} (bytes), and TCP sockets in use with the kernel's TCP buffer memory from
 * the {@code TCP:} line of {@code /proc/net/sockstat} ({@code inuse N ... mem M}, where M counts
 * pages) plus the {@code TCP6:} line of {@code /proc/net/sockstat6} (Java's sockets are IPv6
 * sockets, dual-stack, even on IPv4 addresses: the kernel counts them there; {@code mem} is shared
 * by both families and appears only on the first; a page is taken to be {@value #PAGE_SIZE} bytes, the size on x86-64 and most arm64
 * kernels). -1 where a file or field is missing (not Linux). Immutable; {@link #read} parses two
 * small files, some tens of microseconds: callers take it about once a second.
 */
record SystemMemory(long memAvailable, long tcpInUse, long tcpMemBytes) {

    /** The page size {@code /proc/net/sockstat}'s {@code mem} is multiplied by. */
    static final long PAGE_SIZE = 4096;

    static final Path MEMINFO = Path.of("/proc/meminfo");
    static final Path SOCKSTAT = Path.of("/proc/net/sockstat");
    static final Path SOCKSTAT6 = Path.of("/proc/net/sockstat6");

    static SystemMemory read() {
        long tcpInUse = -1;
        long tcpMem = -1;
        for (String line : lines(SOCKSTAT)) {
            if (line.startsWith("TCP:")) {
                tcpInUse = field(line, "inuse");
                long pages = field(line, "mem");
                tcpMem = pages < 0 ? -1 : pages * PAGE_SIZE;
            }
        }
        for (String line : lines(SOCKSTAT6)) {
            if (line.startsWith("TCP6:")) {
                long v6 = field(line, "inuse");
                if (v6 >= 0) {
                    tcpInUse = Math.max(tcpInUse, 0) + v6;
                }
            }
        }
        return new SystemMemory(readMemAvailable(), tcpInUse, tcpMem);
    }

    /** {@code MemAvailable} in bytes, or -1 when {@code /proc/meminfo} lacks it. */
    static long readMemAvailable() {
        for (String line : lines(MEMINFO)) {
            if (line.startsWith("MemAvailable:")) {
                String[] f = line.substring(13).trim().split("\\s+");
                try {
                    return Long.parseLong(f[0]) * 1024L; // the kernel reports kB (KiB)
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /** The number after {@code name} on a sockstat line ({@code "TCP: inuse 5 orphan 0 ... mem 3"}). */
    static long field(String line, String name) {
        String[] f = line.trim().split("\\s+");
        for (int i = 1; i + 1 < f.length; i++) {
            if (f[i].equals(name)) {
                try {
                    return Long.parseLong(f[i + 1]);
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    private static List<String> lines(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** {@code MemAvailable 12.3GiB  tcp inuse 1200 mem 4.7MiB}; n/a where not known. */
    String describe() {
        return "MemAvailable " + Fmt.bytes(memAvailable) + "  tcp inuse " + (tcpInUse < 0 ? "n/a" : tcpInUse) + " mem "
                + Fmt.bytes(tcpMemBytes);
    }
}

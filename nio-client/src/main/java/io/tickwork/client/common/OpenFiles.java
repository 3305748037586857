package io.tickwork.client.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How many connections one process can hold: its open-file limit (the hard {@code RLIMIT_NOFILE},
 * which the JVM raises its soft limit to) less {@value #JVM_FILES} descriptors kept for the JVM
 * itself (jars, selectors, pipes, {@code /proc} reads), or half of it under a limit of 2,000.
 * The load tools refuse a connection count above it before they start, rather than run into
 * {@code EMFILE} partway and report a run that is not the one asked for. Stateless.
 */
public final class OpenFiles {
    /** Descriptors a process keeps for its JVM; the rest of its open-file limit is for connections. */
    public static final int JVM_FILES = 1000;

    private OpenFiles() {}

    /**
     * This process's hard limit on open files from {@code /proc/self/limits} ({@code Max open files
     * SOFT HARD files}); -1 where unknown (not Linux) or unlimited.
     */
    public static long limit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String[] f =
                            line.substring("Max open files".length()).trim().split("\\s+");
                    return f.length >= 2 && f[1].matches("[0-9]{1,18}") ? Long.parseLong(f[1]) : -1;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Connections one process can hold with {@code openFileLimit} descriptors (-1: no bound known). */
    public static long connections(long openFileLimit) {
        return openFileLimit < 0 ? Long.MAX_VALUE : Math.max(openFileLimit - JVM_FILES, openFileLimit / 2);
    }

    /**
     * Refuses {@code wanted} descriptors for connections in one process with {@code openFileLimit}
     * files (-1: unknown, no check): a {@link UsageException} naming {@code what}, the figures and
     * {@code remedy}.
     */
    public static void check(String what, long wanted, long openFileLimit, String remedy) {
        long most = connections(openFileLimit);
        if (wanted > most) {
            throw new UsageException(what + " needs " + wanted
                    + " descriptors in one process, more than it can hold: at most " + most
                    + " (open-file limit " + openFileLimit + " less " + (openFileLimit - most) + " for the JVM); "
                    + remedy);
        }
    }
}

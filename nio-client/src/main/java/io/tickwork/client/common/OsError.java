package io.tickwork.client.common;

import java.net.ConnectException;
import java.util.Locale;

/**
 * The operating-system limits a connect can hit, recognised from the JDK's exception messages
 * (which carry the C library's strerror text), each with the advice to raise it. Immutable.
 */
public enum OsError {
    EMFILE(
            "too many open files for this process",
            "raise the per-process limit: ulimit -n <n> (hard limit in /etc/security/limits.conf, or "
                    + "LimitNOFILE= for a systemd unit); each connection is one file descriptor",
            true),
    ENFILE(
            "too many open files system-wide",
            "raise the system limit: sysctl -w fs.file-max=<n> (and fs.nr_open for ulimit -n above it)",
            true),
    EADDRNOTAVAIL(
            "no free local port (ephemeral ports exhausted)",
            "widen the range: sysctl -w net.ipv4.ip_local_port_range=\"1024 65535\", or spread over "
                    + "more source addresses (idle: --sources); loopback has all of 127.0.0.0/8",
            true),
    EADDRINUSE(
            "no free local port on this source address",
            "add source addresses (idle: --sources) or widen net.ipv4.ip_local_port_range",
            true),
    ECONNREFUSED(
            "connection refused",
            "is the server listening on that port? a full accept backlog can also refuse: raise the "
                    + "server's backlog and net.core.somaxconn",
            true),
    ETIMEDOUT(
            "connect timed out",
            "the server is not accepting fast enough (accept backlog full, SYNs dropped): connect more "
                    + "slowly (idle: --step) or raise the backlog and net.core.somaxconn / tcp_max_syn_backlog",
            false),
    ECONNRESET("connection reset by peer", "the server closed the connection abortively", false),
    ENOMEM(
            "out of memory",
            "the JVM or the kernel ran out of memory: raise -Xmx, or tcp_mem / socket buffer sizes",
            true),
    OTHER("I/O error", "see the message", false);

    private final String what;
    private final String advice;
    private final boolean hardLimit;

    OsError(String what, String advice, boolean hardLimit) {
        this.what = what;
        this.advice = advice;
        this.hardLimit = hardLimit;
    }

    /** What the limit is, in a few words: {@code "too many open files for this process"}. */
    public String what() {
        return what;
    }

    /** How to raise the limit: the command or setting to change. */
    public String advice() {
        return advice;
    }

    /** True when retrying at once would hit the same wall: stop opening, hold what we have. */
    public boolean hardLimit() {
        return hardLimit;
    }

    /** The limit an exception (or OutOfMemoryError) reports, {@link #OTHER} if none is recognised. */
    public static OsError classify(Throwable e) {
        if (e instanceof OutOfMemoryError) {
            return ENOMEM;
        }
        String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        if (m.contains("too many open files in system")) {
            return ENFILE;
        }
        if (m.contains("too many open files")) {
            return EMFILE;
        }
        if (m.contains("cannot assign requested address")) {
            return EADDRNOTAVAIL;
        }
        if (m.contains("address already in use")) {
            return EADDRINUSE;
        }
        if (m.contains("connection refused")) {
            return ECONNREFUSED;
        }
        if (m.contains("timed out")) {
            return ETIMEDOUT;
        }
        if (m.contains("connection reset") || m.contains("broken pipe")) {
            return ECONNRESET;
        }
        if (m.contains("cannot allocate memory") || m.contains("no buffer space")) {
            return ENOMEM;
        }
        if (e instanceof ConnectException) {
            return ECONNREFUSED;
        }
        return OTHER;
    }

    /** One line: {@code EMFILE (too many open files ...): <message>; <advice>}. */
    public String describe(Throwable e) {
        String msg = e == null || e.getMessage() == null ? "" : ": " + e.getMessage();
        return name() + " (" + what + ")" + msg + "; " + advice;
    }
}

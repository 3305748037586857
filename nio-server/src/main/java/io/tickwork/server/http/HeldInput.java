package io.tickwork.server.http;

/**
 * A selector loop's budget for the request bytes its connections hold between reads
 * ({@link Connection#pendingIn}: a partial request, or whole requests held back behind blocked
 * output or a full worker pipeline), and the one place that sets, grows and drops them, so the
 * count is exact: every array is counted at its capacity from allocation until its connection
 * lets it go.
 *
 * <p>Why: a partial request may be held up to the header timeout and a connection's held bytes
 * reach twice the parser's limits (64 KiB by default), so a few thousand clients that send all but
 * the last byte of a large request would otherwise fill the heap and stop the process. Over the
 * budget, the connection whose bytes would not fit is closed instead (the caller does it) and its
 * bytes dropped. A request that arrives whole in one read is held only while its connection's
 * output is blocked or, in worker mode, the pool owes the loop all it allows: clients that send
 * small requests lose nothing to slow senders unless the server is also behind.
 *
 * <p>Thread safety: owned by one loop thread; {@link #maxHeldSeen} and {@link #shed} may be read
 * from any thread.
 */
final class HeldInput {
    private final long maxHeld;
    /** Bytes of the pending-input arrays (their capacity) of this loop's open connections. */
    private long held;
    /** The most {@link #held} has been (tests check the budget with it); written by the loop thread. */
    volatile long maxHeldSeen;
    /** Connections whose bytes did not fit; written by the loop thread. */
    volatile long shed;

    HeldInput(long maxHeld) {
        this.maxHeld = maxHeld;
    }

    /** The most bytes this loop holds. */
    long budget() {
        return maxHeld;
    }

    /** Bytes held now (tests: 0 once every connection closed). */
    long held() {
        return held;
    }

    /**
     * Makes a copy of {@code src[from, to)} {@code c}'s pending input in place of what it held;
     * false, nothing held, if it would take the loop past its budget (checked before allocating).
     */
    boolean take(Connection c, byte[] src, int from, int to) {
        drop(c); // normally empty already: the loop moves held bytes into its buffer before parsing them
        if (held + (to - from) > maxHeld) {
            shed++;
            return false;
        }
        PendingInput p = new PendingInput(src, from, to);
        add(p.bytes.length);
        c.pendingIn = p;
        return true;
    }

    /**
     * Appends {@code src[from, from + n)} to {@code c}'s pending input, growing its array to twice
     * what it needs if the budget has room for that, to what it needs if not; false, nothing
     * appended, if even that takes the loop past its budget (checked before allocating).
     */
    boolean append(Connection c, byte[] src, int from, int n) {
        PendingInput p = c.pendingIn;
        int before = p.bytes.length;
        int need = p.length + n;
        int capacity = before;
        if (need > before) {
            long doubled = Math.max(need, 2L * before);
            capacity = held + (doubled - before) <= maxHeld ? (int) doubled : need;
            if (held + (capacity - before) > maxHeld) {
                shed++;
                return false;
            }
        }
        p.append(src, from, n, capacity);
        add(p.bytes.length - before);
        return true;
    }

    /** Drops {@code c}'s pending input, if any. */
    void drop(Connection c) {
        PendingInput p = c.pendingIn;
        if (p != null) {
            held -= p.bytes.length;
            c.pendingIn = null;
        }
    }

    /** Moves {@code c}'s held-back requests to the start of {@code buffer}, dropping them here; returns their length. */
    int restore(Connection c, byte[] buffer) {
        int len = c.pendingIn.copyTo(buffer);
        drop(c);
        return len;
    }

    private void add(long bytes) {
        long h = held + bytes;
        held = h;
        if (h > maxHeldSeen) {
            maxHeldSeen = h;
        }
    }
}

package io.tickwork.client.bench;

import io.tickwork.client.common.OsError;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Event counters written by exactly one thread (a selector loop) and read by a reporter thread
 * once a second. Single writer, so an increment is a plain read plus an ordered store ({@code
 * lazySet}): no CAS, no contention; readers see each slot's latest published value.
 */
final class Counters {
    static final int COMPLETED = 0;
    static final int SENT = 1;
    static final int BYTES_READ = 2;
    static final int BYTES_WRITTEN = 3;
    static final int CONNECTS = 4;
    static final int RECONNECTS = 5;
    static final int ERR_CONNECT = 6;
    static final int ERR_TIMEOUT = 7;
    static final int ERR_PARSE = 8;
    static final int ERR_CLOSED = 9;
    static final int ERR_IO = 10;
    static final int OPEN = 11;
    static final int LOST = 12;
    /** Responses to requests sent during the warm-up: progress lines only, never the result. */
    static final int WARM_COMPLETED = 13;
    /** 1 once any connect succeeded; a flag, kept across the warm-up boundary. */
    static final int EVER_CONNECTED = 14;
    /** Open loop: measured requests still unanswered when the time was up (charged, not completed). */
    static final int UNANSWERED_AT_END = 15;
    /** Open loop: measured sends due by the end that no connection had room to make (charged). */
    static final int UNSENT_AT_END = 16;
    /** Connect failures by cause: CONNECT_CAUSE + OsError.ordinal(). */
    static final int CONNECT_CAUSE = 17;
    /** Responses by status: STATUS + code, codes 100..599. */
    static final int STATUS = CONNECT_CAUSE + OsError.values().length;

    static final int SIZE = STATUS + 600;

    private final AtomicLongArray slots = new AtomicLongArray(SIZE);

    void inc(int slot) {
        slots.lazySet(slot, slots.get(slot) + 1);
    }

    void add(int slot, long n) {
        slots.lazySet(slot, slots.get(slot) + n);
    }

    void lazyMark(int slot) {
        if (slots.get(slot) == 0) {
            slots.lazySet(slot, 1);
        }
    }

    long get(int slot) {
        return slots.get(slot);
    }

    /** The current values; exact when called by the writer thread. */
    long[] snapshot() {
        long[] v = new long[SIZE];
        for (int i = 0; i < SIZE; i++) {
            v[i] = slots.get(i);
        }
        return v;
    }

    /**
     * This counter minus {@code base} (null: a copy), except for the gauges {@link #OPEN} and
     * {@link #EVER_CONNECTED}, which keep their current value. Call after the writer has ended.
     */
    Counters since(long[] base) {
        Counters d = new Counters();
        for (int i = 0; i < SIZE; i++) {
            long v = slots.get(i);
            boolean gauge = i == OPEN || i == EVER_CONNECTED;
            d.slots.set(i, base == null || gauge ? v : v - base[i]);
        }
        return d;
    }

    static long sum(Iterable<Counters> all, int slot) {
        long s = 0;
        for (Counters c : all) {
            s += c.get(slot);
        }
        return s;
    }
}

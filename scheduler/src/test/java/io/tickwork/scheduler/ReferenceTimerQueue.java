package io.tickwork.scheduler;

import io.tickwork.primitives.timer.TimerQueue;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Test fixture: the simplest correct {@link TimerQueue} (a binary heap plus a handle map), used
 * as a stand-in before the production timers were available and as the reference variant beside
 * them. Not tuned; not a product.
 */
final class ReferenceTimerQueue<T> implements TimerQueue<T> {
    private static final class Entry<T> {
        final long deadline;
        final long handle;
        /** Order of (re)scheduling: entries (re)scheduled by a running expire wait for the next. */
        final long seq;

        final T payload;
        boolean cancelled;

        Entry(long deadline, long handle, long seq, T payload) {
            this.deadline = deadline;
            this.handle = handle;
            this.seq = seq;
            this.payload = payload;
        }
    }

    private final PriorityQueue<Entry<T>> heap = new PriorityQueue<>(
            (a, b) -> a.deadline != b.deadline ? Long.compare(a.deadline, b.deadline) : Long.compare(a.seq, b.seq));
    private final Map<Long, Entry<T>> live = new HashMap<>();
    private long nextHandle = 1;
    private long nextSeq = 1;
    private long maxNow = Long.MIN_VALUE;

    @Override
    public long schedule(long deadline, T payload) {
        if (payload == null) {
            throw new NullPointerException("payload");
        }
        Entry<T> e = new Entry<>(deadline, nextHandle++, nextSeq++, payload);
        heap.add(e);
        live.put(e.handle, e);
        return e.handle;
    }

    @Override
    public boolean reschedule(long handle, long deadline) {
        Entry<T> e = live.get(handle);
        if (e == null) {
            return false;
        }
        e.cancelled = true;
        Entry<T> moved = new Entry<>(deadline, handle, nextSeq++, e.payload);
        heap.add(moved);
        live.put(handle, moved);
        return true;
    }

    @Override
    public boolean cancel(long handle) {
        Entry<T> e = live.remove(handle);
        if (e == null) {
            return false;
        }
        e.cancelled = true;
        return true;
    }

    @Override
    public int expire(long now, Consumer<? super T> consumer) {
        return expire(now, consumer, Integer.MAX_VALUE);
    }

    @Override
    public int expire(long now, Consumer<? super T> consumer, int max) {
        maxNow = Math.max(maxNow, now);
        long limit = nextSeq; // timers (re)scheduled from the consumer wait for the next call
        int n = 0;
        java.util.ArrayList<Entry<T>> later = new java.util.ArrayList<>();
        while (n < max && !heap.isEmpty() && heap.peek().deadline <= maxNow) {
            Entry<T> e = heap.poll();
            if (e.cancelled) {
                continue;
            }
            if (e.seq >= limit) {
                later.add(e);
                continue;
            }
            live.remove(e.handle);
            n++;
            consumer.accept(e.payload);
        }
        heap.addAll(later);
        return n;
    }

    @Override
    public long nextDeadline() {
        while (!heap.isEmpty() && heap.peek().cancelled) {
            heap.poll();
        }
        return heap.isEmpty() ? NO_DEADLINE : heap.peek().deadline;
    }

    @Override
    public int size() {
        return live.size();
    }
}

package io.tickwork.scheduler;

import io.tickwork.primitives.timer.ForwardingTimerQueue;
import io.tickwork.primitives.timer.TimerQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Test fixture: wraps a {@link TimerQueue} and publishes its size and operation counts in atomics,
 * so a test thread can see what the loop thread did to its timers.
 */
final class CountingTimerQueue<T> extends ForwardingTimerQueue<T> {
    final AtomicInteger size = new AtomicInteger();
    final AtomicInteger scheduled = new AtomicInteger();
    final AtomicInteger cancelled = new AtomicInteger();
    /**
     * Cancels of a handle this queue did not hold, its own or another queue's (the run loop only
     * cancels timers it queued). Each queue marks the top byte of the handles it gives out, so a
     * handle of another queue is caught here instead of cancelling an unrelated timer whose handle
     * happens to be equal.
     */
    final AtomicInteger missedCancels = new AtomicInteger();

    private static final AtomicInteger TAGS = new AtomicInteger();
    private final long mark = (long) (TAGS.incrementAndGet() & 0x7F | 0x80) << 56;

    final AtomicInteger rescheduled = new AtomicInteger();
    final AtomicInteger fired = new AtomicInteger();

    CountingTimerQueue(TimerQueue<T> inner) {
        super(inner);
    }

    @Override
    public long schedule(long deadline, T payload) {
        long h = inner.schedule(deadline, payload);
        scheduled.incrementAndGet();
        size.set(inner.size());
        return h ^ mark; // the wheels' handles use at most the low 56 bits in these tests
    }

    private boolean ours(long handle) {
        return (handle & 0xFF00_0000_0000_0000L) == mark;
    }

    @Override
    public boolean cancel(long handle) {
        boolean c = ours(handle) && inner.cancel(handle ^ mark);
        if (c) {
            cancelled.incrementAndGet();
        } else {
            missedCancels.incrementAndGet();
        }
        size.set(inner.size());
        return c;
    }

    @Override
    public boolean reschedule(long handle, long deadline) {
        boolean moved = ours(handle) && inner.reschedule(handle ^ mark, deadline);
        if (moved) {
            rescheduled.incrementAndGet();
        }
        return moved;
    }

    @Override
    public int expire(long now, Consumer<? super T> consumer, int limit) {
        int n = inner.expire(now, consumer, limit);
        fired.addAndGet(n);
        size.set(inner.size());
        return n;
    }
}

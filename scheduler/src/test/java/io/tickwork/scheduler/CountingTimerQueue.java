package io.tickwork.scheduler;

import io.tickwork.primitives.timer.TimerQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Test fixture: wraps a {@link TimerQueue} and publishes its size and operation counts in atomics,
 * so a test thread can see what the loop thread did to its timers.
 */
final class CountingTimerQueue<T> implements TimerQueue<T> {
    final TimerQueue<T> inner;
    final AtomicInteger size = new AtomicInteger();
    final AtomicInteger scheduled = new AtomicInteger();
    final AtomicInteger cancelled = new AtomicInteger();
    /** Cancels of a handle this queue did not hold: the run loop only cancels timers it queued. */
    final AtomicInteger missedCancels = new AtomicInteger();

    final AtomicInteger rescheduled = new AtomicInteger();
    final AtomicInteger fired = new AtomicInteger();

    CountingTimerQueue(TimerQueue<T> inner) {
        this.inner = inner;
    }

    @Override
    public long schedule(long deadline, T payload) {
        long h = inner.schedule(deadline, payload);
        scheduled.incrementAndGet();
        size.set(inner.size());
        return h;
    }

    @Override
    public boolean cancel(long handle) {
        boolean c = inner.cancel(handle);
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
        boolean moved = inner.reschedule(handle, deadline);
        if (moved) {
            rescheduled.incrementAndGet();
        }
        return moved;
    }

    @Override
    public int expire(long now, Consumer<? super T> consumer) {
        return expire(now, consumer, Integer.MAX_VALUE);
    }

    @Override
    public int expire(long now, Consumer<? super T> consumer, int limit) {
        int n = inner.expire(now, consumer, limit);
        fired.addAndGet(n);
        size.set(inner.size());
        return n;
    }

    @Override
    public long nextDeadline() {
        return inner.nextDeadline();
    }

    @Override
    public int size() {
        return inner.size();
    }
}

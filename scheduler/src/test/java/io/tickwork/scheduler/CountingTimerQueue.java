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
     * Cancels that found no pending timer: a handle of a timer that fired or was cancelled, or a
     * handle of another queue (the run loop only cancels timers it queued). The {@code TimerKind}
     * queues refuse another queue's handles themselves (each starts its generations at its own
     * value), so over them such a cancel is counted here instead of cancelling an unrelated timer;
     * the reference heap numbers every queue's timers alike, so assert on this over a
     * {@code TimerKind} only.
     */
    final AtomicInteger missedCancels = new AtomicInteger();

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
    public int expire(long now, Consumer<? super T> consumer, int limit) {
        int n = inner.expire(now, consumer, limit);
        fired.addAndGet(n);
        size.set(inner.size());
        return n;
    }
}

package io.tickwork.primitives.timer;

import java.util.function.Consumer;

/**
 * A timer queue that forwards every call to another: tests in any module override the calls they
 * watch, count or break. The one-argument {@code expire} goes through the bounded one, so
 * overriding that one covers both. Shipped in this module's test jar.
 *
 * @param <T> the payload
 */
public abstract class ForwardingTimerQueue<T> implements TimerQueue<T> {
    protected final TimerQueue<T> inner;

    protected ForwardingTimerQueue(TimerQueue<T> inner) {
        this.inner = inner;
    }

    @Override
    public long schedule(long deadline, T payload) {
        return inner.schedule(deadline, payload);
    }

    @Override
    public boolean cancel(long handle) {
        return inner.cancel(handle);
    }

    @Override
    public boolean reschedule(long handle, long deadline) {
        return inner.reschedule(handle, deadline);
    }

    @Override
    public int expire(long now, Consumer<? super T> consumer) {
        return expire(now, consumer, Integer.MAX_VALUE);
    }

    @Override
    public int expire(long now, Consumer<? super T> consumer, int limit) {
        return inner.expire(now, consumer, limit);
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
